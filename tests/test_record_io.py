"""`record`'s input side and privacy, through the real CLI: stdin that is not a
terminal, which keys are kept, file modes, signals while it finishes, agent names."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pexpect

from screen.cast import CastReader
from tests.conftest import cli

CLI = [sys.executable, "-m", "capsule_capture.cli"]


def events(path: Path) -> list:
    with CastReader(path) as r:
        return [(e.code, e.data) for e in r.events(warn=False)]


def typed(path: Path) -> str:
    return "".join(d for c, d in events(path) if c == "i")


def run_record(tmp_path: Path, *child: str, stdin=None, input: bytes | None = None, extra=()):  # type: ignore[no-untyped-def]
    out = tmp_path / "r.cast"
    env = dict(os.environ, CAPSULE_CAPTURE_HOME=str(tmp_path / "home"))
    t0 = time.monotonic()
    res = subprocess.run([*CLI, "record", "--no-archive", "-q", "-o", str(out), *extra, "--", *child],
                         stdin=stdin, input=input, capture_output=True, env=env, timeout=30)
    return res, out, time.monotonic() - t0


def test_stdin_from_dev_null_ends_input(tmp_path):
    res, out, took = run_record(tmp_path, "cat", stdin=subprocess.DEVNULL)
    assert res.returncode == 0 and took < 10


def test_piped_stdin_reaches_the_program_then_end_of_input(tmp_path):
    res, out, _ = run_record(tmp_path, "cat", input=b"hi from a pipe\nsecond line\n")
    assert res.returncode == 0
    assert res.stdout.count(b"second line") >= 1  # cat's own copy (the PTY echoes a first one)
    assert "second line" in "".join(d for c, d in events(out) if c == "o")


def test_piped_stdin_without_final_newline_and_more_than_a_pty_buffer(tmp_path):
    data = (b"x" * 99 + b"\n") * 2000 + b"last words"  # 200 kB: many times the PTY's buffer
    # The program reports to a file: under load the kernel's line discipline drops
    # echo (and with it bytes near it) when the terminal side is full; what is checked
    # here is that every byte reached the program and that input ended.
    report = tmp_path / "report.txt"
    res, out, _ = run_record(tmp_path, sys.executable, "-c",
                             "import sys; d = sys.stdin.buffer.read(); "
                             f"open({str(report)!r}, 'w').write(f'read {{len(d)}} {{d[-10:]!r}}')", input=data)
    assert res.returncode == 0
    assert report.read_text() == "read 200010 b'last words'"


def test_exit_code_with_stdin_closed_early(tmp_path):
    res, _, _ = run_record(tmp_path, "sh", "-c", "read x; exit 4", stdin=subprocess.DEVNULL)
    assert res.returncode == 4


def spawn(tmp_path: Path, body: str, extra=()):  # type: ignore[no-untyped-def]
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(body))
    out = tmp_path / "k.cast"
    p = pexpect.spawn(CLI[0], [*CLI[1:], "record", "--no-archive", "-o", str(out), *extra, "--", sys.executable,
                               str(script)], env=dict(os.environ, CAPSULE_CAPTURE_HOME=str(tmp_path / "home")),
                      dimensions=(24, 80), timeout=20, encoding="utf-8")
    return p, out


ASK = """
    import getpass
    secret = getpass.getpass("Password: ")
    print("length", len(secret))
    print("hi", input("name: "))
"""


def test_keys_are_not_recorded_by_default(tmp_path):
    p, out = spawn(tmp_path, ASK)
    p.expect("Password: ")
    p.sendline("pw-default-1")
    p.expect("name: ")
    p.sendline("plain-name")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
    assert typed(out) == ""
    assert "pw-default-1" not in out.read_text()


def test_input_flag_records_keys_but_never_a_password_prompt(tmp_path):
    p, out = spawn(tmp_path, ASK, extra=("--input",))
    p.expect("Password: ")
    p.sendline("pw-s3cr3t-77")
    p.expect("length 12")
    p.expect("name: ")
    p.sendline("seen-name")
    p.expect(pexpect.EOF)
    p.close()
    assert "pw-s3cr3t" not in out.read_text()
    assert "seen-name" in typed(out)


RAW = """
    import os, sys, termios, tty
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setraw(fd)  # a full-screen program, or ssh carrying a remote password: raw, echo off
    got = b""
    print("ready\\r", flush=True)
    while not got.endswith(b"\\r"):
        got += os.read(fd, 64)
    termios.tcsetattr(fd, termios.TCSADRAIN, old)
    print("raw got", len(got))
"""


def test_input_flag_records_raw_mode_keys_even_with_echo_off(tmp_path):
    """Documented: with --input, keys typed in raw mode are kept (a remote ssh password too)."""
    p, out = spawn(tmp_path, RAW, extra=("--input",))
    p.expect("ready")
    p.send("remote-pass\r")
    p.expect("raw got 12")
    p.expect(pexpect.EOF)
    p.close()
    assert "remote-pass" in typed(out)


def test_no_input_is_still_accepted(tmp_path):
    p, out = spawn(tmp_path, 'print("ok", input("> "))\n', extra=("--no-input",))
    p.expect("> ")
    p.sendline("typed")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0 and typed(out) == ""


def mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_data_home_folders_0700_files_0600_and_loose_ones_tightened(tmp_path):
    home = tmp_path / "home"
    old = home / "recordings" / "2020" / "01" / "01"
    old.mkdir(parents=True)
    for d in (home, home / "recordings", home / "recordings" / "2020", old.parent, old):
        d.chmod(0o755)
    loose = old / "old.cast"
    loose.write_text('{"version": 2, "width": 80, "height": 24, "capsule_capture_archive": false}\n')
    loose.chmod(0o644)
    os.umask(0o022)
    env = dict(os.environ, CAPSULE_CAPTURE_HOME=str(home))
    res = subprocess.run([*CLI, "record", "--", "sh", "-c", "echo private"], stdin=subprocess.DEVNULL,
                         capture_output=True, env=env, timeout=30)
    assert res.returncode == 0
    made = [p for p in (home / "recordings").rglob("*.cast") if p != loose]
    assert len(made) == 1
    assert mode(made[0]) == 0o600
    p = made[0].parent
    while p != home.parent:
        assert mode(p) == 0o700, p
        p = p.parent
    agents = tmp_path / "agents"
    agents.mkdir()
    assert cli("sync", "--home", str(agents), env={"CAPSULE_CAPTURE_HOME": str(home)}).returncode == 0
    assert mode(loose) == 0o600
    for d in (old, old.parent, home / "recordings" / "2020"):
        assert mode(d) == 0o700


def test_signals_while_record_finishes_keep_the_programs_exit_code(tmp_path):
    """The program signals the recorder (TERM, INT) as it exits; record still exits with its code."""
    body = """
        import os, signal, subprocess, sys
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        rec = os.getppid()
        subprocess.Popen([sys.executable, "-c",
            "import os, signal, sys, time; p = int(sys.argv[1])\\n"
            "for _ in range(40):\\n"
            "    time.sleep(0.005)\\n"
            "    try:\\n"
            "        os.kill(p, signal.SIGINT); os.kill(p, signal.SIGTERM)\\n"
            "    except ProcessLookupError:\\n"
            "        break", str(rec)], start_new_session=True)
        os.kill(rec, signal.SIGTERM)
        os.kill(rec, signal.SIGINT)
        print("bye", flush=True)
        sys.exit(3)
    """
    p, out = spawn(tmp_path, body)
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 3
    assert "bye" in "".join(d for c, d in events(out) if c == "o")


def test_unknown_agent_name_is_refused(tmp_path):
    res = cli("record", "--agent", "nosuchagent", "--", "true", env={"CAPSULE_CAPTURE_HOME": str(tmp_path)})
    assert res.returncode == 2
    assert "unknown agent 'nosuchagent'" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "recordings").exists()
