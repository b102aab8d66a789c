"""`capsule-capture record`, run for real in a real PTY (pexpect) around small programs."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pexpect
import pytest

from screen.cast import CastReader
from tests.conftest import cli

CLI = [sys.executable, "-m", "capsule_capture.cli"]


def spawn_record(tmp_path: Path, *child: str, extra: tuple[str, ...] = (), dims=(24, 80)) -> tuple[pexpect.spawn, Path]:
    out = tmp_path / "rec.cast"
    env = dict(os.environ, CAPSULE_CAPTURE_HOME=str(tmp_path / "home"))
    p = pexpect.spawn(CLI[0], [*CLI[1:], "record", "--no-archive", "-o", str(out), *extra, "--", *child],
                      env=env, dimensions=dims, timeout=20, encoding="utf-8")
    return p, out


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


def events(path: Path) -> list:
    with CastReader(path) as r:
        return [(e.code, e.data) for e in r.events(warn=False)]


def test_keystrokes_reach_child_and_output_reaches_terminal(tmp_path):
    child = script(tmp_path, "echo.py", """
        line = input("say: ")
        print("GOT " + line.upper())
    """)
    p, out = spawn_record(tmp_path, sys.executable, child, extra=("--input",))
    p.expect("say: ")
    p.sendline("hello there")
    p.expect("GOT HELLO THERE")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
    evs = events(out)
    typed = "".join(d for c, d in evs if c == "i")
    shown = "".join(d for c, d in evs if c == "o")
    assert "hello there" in typed
    assert "GOT HELLO THERE" in shown
    header = json.loads(out.read_text().splitlines()[0])
    assert header["version"] == 2 and (header["width"], header["height"]) == (80, 24)
    assert header["env"].get("TERM") and header["cwd"] and header["capsule_capture_version"]


def test_every_resize_reaches_an_idle_child_and_is_recorded(tmp_path):
    """Each of many resizes reaches the program while it is idle, none only at its next
    output: a signal that lands just before the loop blocks in select() is handled at once."""
    child = script(tmp_path, "size.py", """
        import os, select, signal, sys
        def show(*_):
            c, r = os.get_terminal_size(0)
            print(f"SIZE {c}x{r};", flush=True)
        signal.signal(signal.SIGWINCH, show)
        show()
        # short waits: Python runs a handler between bytecodes, so a signal that
        # lands just before a blocking read began would wait for the next key
        while not select.select([sys.stdin], [], [], 0.05)[0]:
            pass
        sys.stdin.readline()
    """)
    p, out = spawn_record(tmp_path, sys.executable, child)
    p.expect_exact("SIZE 80x24;")
    for i in range(300):
        cols = 81 + i % 40
        p.setwinsize(24, cols)
        p.expect_exact(f"SIZE {cols}x24;", timeout=10)
    p.sendline("")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
    assert ("r", "120x24") in events(out)


def test_exit_code_propagates(tmp_path):
    p, _ = spawn_record(tmp_path, "sh", "-c", "exit 7")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 7


def test_signal_death_is_128_plus_n(tmp_path):
    p, _ = spawn_record(tmp_path, "sh", "-c", "kill -TERM $$")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 128 + signal.SIGTERM


def test_sigterm_to_recorder_reaches_child(tmp_path):
    child = script(tmp_path, "trap.py", """
        import signal, sys, time
        def bye(*_):
            print("child got TERM", flush=True); sys.exit(5)
        signal.signal(signal.SIGTERM, bye)
        print("ready", flush=True)
        for _ in range(300):  # short sleeps: a TERM landing just before one long sleep began would wait it out
            time.sleep(0.1)
    """)
    p, out = spawn_record(tmp_path, sys.executable, child)
    p.expect("ready")
    os.kill(p.pid, signal.SIGTERM)
    p.expect("child got TERM")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 5


def test_password_typed_with_echo_off_is_never_recorded(tmp_path):
    child = script(tmp_path, "pw.py", """
        import getpass
        secret = getpass.getpass("Password: ")
        print("length", len(secret))
        name = input("name: ")
        print("hi", name)
    """)
    p, out = spawn_record(tmp_path, sys.executable, child, extra=("--input",))
    p.expect("Password: ")
    p.sendline("s3cr3t-hunter2")
    p.expect("length 14")
    p.expect("name: ")
    p.sendline("visible-name")
    p.expect(pexpect.EOF)
    p.close()
    raw = out.read_text()
    assert "s3cr3t" not in raw and "hunter2" not in raw
    assert "visible-name" in "".join(d for c, d in events(out) if c == "i")


def test_no_input_records_no_keystrokes(tmp_path):
    child = script(tmp_path, "echo.py", 'print("ok", input("> "))\n')
    p, out = spawn_record(tmp_path, sys.executable, child, extra=("--no-input",))
    p.expect("> ")
    p.sendline("typed")
    p.expect(pexpect.EOF)
    p.close()
    assert not [e for e in events(out) if e[0] == "i"]


def test_sigkill_of_recorder_leaves_a_file_that_replays(tmp_path):
    child = script(tmp_path, "spam.py", """
        import time
        for i in range(100000):
            print(f"line {i} " + "x" * 50, flush=True)
            time.sleep(0.001)
    """)
    p, out = spawn_record(tmp_path, sys.executable, child)
    p.expect("line 300 ")
    time.sleep(0.3)  # more than the 50 ms flush interval
    os.kill(p.pid, signal.SIGKILL)
    p.close(force=True)
    with out.open("a") as f:
        f.write('[9.9, "o", "cut off in the mid')  # as if the kill landed mid-write
    evs = events(out)
    shown = "".join(d for c, d in evs if c == "o")
    assert "line 300 " in shown
    res = cli("screen", str(out), "--format", "text")
    assert res.returncode == 0 and "truncated" in res.stderr
    assert res.stdout.strip()


def test_missing_command_exits_127_with_one_line_and_no_file(tmp_path):
    out = tmp_path / "nothing.cast"
    res = cli("record", "--no-archive", "-o", str(out), "--", "no-such-command-xyz")
    assert res.returncode == 127
    assert len(res.stderr.strip().splitlines()) == 1 and "no-such-command-xyz" in res.stderr
    assert "Traceback" not in res.stderr
    assert not out.exists()


def test_records_without_a_tty(tmp_path):
    out = tmp_path / "pipe.cast"
    res = subprocess.run([*CLI, "record", "--no-archive", "-o", str(out), "--", sys.executable, "-c",
                          "print('from a pipe')"], input="", capture_output=True, text=True, timeout=30)
    assert res.returncode == 0
    assert "from a pipe" in res.stdout
    assert "from a pipe" in "".join(d for c, d in events(out) if c == "o")


def test_default_location_and_agent_guess(tmp_path):
    home = tmp_path / "home"
    fake = tmp_path / "bin" / "codex"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho fake codex\n")
    fake.chmod(0o755)
    env = dict(os.environ, CAPSULE_CAPTURE_HOME=str(home), PATH=f"{fake.parent}:{os.environ['PATH']}")
    res = subprocess.run([*CLI, "record", "--no-archive", "--", "codex"], input="", capture_output=True,
                         text=True, env=env, timeout=30)
    assert res.returncode == 0
    files = list((home / "recordings").rglob("*.cast"))
    assert len(files) == 1 and str(files[0]) in res.stderr
    assert json.loads(files[0].read_text().splitlines()[0])["agent"] == "codex"


AGENTS = [a for a in ("claude", "codex", "opencode", "gemini", "kimi", "vibe", "amp") if shutil.which(a)]


@pytest.mark.skipif(not AGENTS, reason="no agent CLI (claude, codex, opencode, gemini, kimi, vibe, amp) on PATH; "
                                       "install one from ../shared/harness to run this test")
def test_records_a_real_agent_cli(tmp_path):
    p, out = spawn_record(tmp_path, AGENTS[0], "--version")
    p.expect(pexpect.EOF, timeout=60)
    p.close()
    assert out.exists() and any(c == "o" for c, _ in events(out))


def test_recording_is_archived_when_the_session_ends(tmp_path):
    """No --no-archive: the recording lands in the archive as a screen capture (in the background)."""
    home = tmp_path / "home"
    child = script(tmp_path, "chat.py", """
        line = input("> ")
        print("answer to " + line)
    """)
    env = dict(os.environ, CAPSULE_CAPTURE_HOME=str(home))
    out = tmp_path / "rec.cast"
    p = pexpect.spawn(CLI[0], [*CLI[1:], "record", "-o", str(out), "--", sys.executable, child],
                      env=env, dimensions=(24, 80), timeout=30, encoding="utf-8")
    p.expect("> ")
    p.sendline("hello archive")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
    deadline = time.time() + 20  # the companion finishes in the background
    while True:
        rows = json.loads(cli("list", "--format", "json", env={"CAPSULE_CAPTURE_HOME": str(home)}).stdout or "[]")
        if rows or time.time() > deadline:
            break
        time.sleep(0.3)
    assert len(rows) == 1 and rows[0]["turns"] >= 1
    conv = json.loads(cli("show", rows[0]["id"], "--format", "json",
                          env={"CAPSULE_CAPTURE_HOME": str(home)}).stdout)
    assert conv["sources"][0]["vector"] == "screen"
    assert "answer to hello archive" in " ".join(t["text"] for t in conv["turns"])
