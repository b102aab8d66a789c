"""Raw terminal logs as recordings: real script(1) typescripts (with and without
their timing files, classic and advanced) and real tmux pipe-pane logs, read
through the CLI; and the shapes of bad input each reader must refuse in one line."""
from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from screen.cast import CastError, CastReader
from screen.rawlog import RawLogReader, open_recording, parse_size_arg, sniff
from tests.conftest import RECORDINGS, cli

SCRIPT = shutil.which("script")
TMUX = shutil.which("tmux")
needs_script = pytest.mark.skipif(SCRIPT is None, reason="util-linux script(1) is not installed")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

# what the recorded programs print: a wide character, a split-prone multibyte
# sequence, colour, and a table drawn with cursor moves
PROGRAM = ("printf 'alpha \\033[1;32mgreen\\033[0m é 日本\\n'; printf 'row\\033[5Gfive\\n'; "
           "sleep 0.3; printf 'second burst\\n'")


def _script(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([SCRIPT, "-q", *args, "-c", PROGRAM], cwd=tmp, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=30)


def _screen_text(path: Path, *extra: str) -> list[str]:
    res = cli("screen", str(path), "--format", "json", *extra)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)["lines"]


WANT = ["alpha green é 日本", "row five", "second burst"]


@needs_script
def test_typescript_without_timing_replays_to_the_screen_printed(tmp_path):
    _script(tmp_path, "ts")
    ts = tmp_path / "ts"
    assert ts.read_bytes().startswith(b"Script started on ")
    assert sniff(ts) == "typescript"
    lines = _screen_text(ts, "--size", "40x6")
    assert [ln for ln in lines if ln] == WANT  # header and footer lines are not output
    assert len(lines) == 6 and all(len(ln) <= 40 for ln in lines)


@needs_script
def test_typescript_with_classic_timing_keeps_the_pause(tmp_path):
    subprocess.run([SCRIPT, "-q", "-t", "ts", "-c", PROGRAM], cwd=tmp_path, stdin=subprocess.DEVNULL,
                   stderr=(tmp_path / "timing").open("w"), stdout=subprocess.DEVNULL, timeout=30)
    ts, timing = tmp_path / "ts", tmp_path / "timing"
    assert timing.read_text().split()[1].isdigit()  # `DELAY BYTES`: the classic format
    with open_recording(ts, size=(40, 6), timing=timing) as r:
        events = list(r.events())
    assert all(e.code == "o" for e in events)
    assert events[-1].time - events[0].time >= 0.25  # the sleep between the bursts
    # at a moment inside the pause only the first burst is on screen
    mid = (events[0].time + events[-1].time) / 2
    early = _screen_text(ts, "--size", "40x6", "--timing", str(timing), "--at", str(mid))
    assert [ln for ln in early if ln] == WANT[:2]
    assert [ln for ln in _screen_text(ts, "--size", "40x6", "--timing", str(timing)) if ln] == WANT


@needs_script
def test_typescript_with_advanced_timing_and_input_in_one_file(tmp_path):
    _script(tmp_path, "--log-timing", "timing", "-B", "ts")
    ts, timing = tmp_path / "ts", tmp_path / "timing"
    kinds = {ln.split()[0] for ln in timing.read_text().splitlines()}
    assert {"H", "O"} <= kinds
    with open_recording(ts, size=(40, 6), timing=timing) as r:
        assert r.header.command and "second burst" in r.header.command  # from the H lines / header
        assert r.header.timestamp is not None
        text = "".join(e.data for e in r.events() if e.code == "o")
    assert "second burst" in text and "Script done" not in text


@needs_tmux
@needs_script
def test_script_in_a_terminal_carries_its_size_and_resizes(tmp_path):
    """script(1) run inside a real terminal (tmux) writes COLUMNS/LINES and SIGWINCH lines."""
    sock = f"h4raw{time.monotonic_ns()}"
    ts, timing = tmp_path / "ts", tmp_path / "timing"
    cmd = f"{SCRIPT} -q -m advanced --log-timing {timing} -O {ts} -c 'sleep 1.2; tput cols; tput lines'"
    subprocess.run([TMUX, "-L", sock, "new-session", "-d", "-x", "100", "-y", "30", cmd], check=True, timeout=10)
    try:
        time.sleep(0.5)
        subprocess.run([TMUX, "-L", sock, "resize-window", "-x", "90", "-y", "20"], timeout=10)
        deadline = time.time() + 10
        while time.time() < deadline and b"Script done" not in (ts.read_bytes() if ts.exists() else b""):
            time.sleep(0.1)
    finally:
        subprocess.run([TMUX, "-L", sock, "kill-server"], timeout=10, capture_output=True)
    with open_recording(ts, timing=timing) as r:
        assert (r.header.width, r.header.height) == (100, 30)
        events = list(r.events())
    assert any(e.code == "r" and e.data == "90x20" for e in events)
    res = cli("screen", str(ts), "--timing", str(timing), "--format", "json")
    shown = json.loads(res.stdout)
    assert (shown["columns"], shown["rows"]) == (90, 20)
    assert "90" in shown["lines"] and "20" in shown["lines"]


@needs_tmux
def test_tmux_pipe_pane_log_replays_a_real_agent_recording(tmp_path):
    """A real Codex session's output drawn in a real tmux pane, logged with pipe-pane,
    reads back to the conversation the asciicast recording gives."""
    src = RECORDINGS / "codex" / "x2-short-answers-140x36" / "session.cast"
    with CastReader(src) as r:
        w, h = r.header.width, r.header.height
        out = "".join(e.data for e in r.events() if e.code == "o")
    raw = tmp_path / "out.raw"
    raw.write_text(out, encoding="utf-8")
    log = tmp_path / "pane.log"
    sock = f"h4pipe{time.monotonic_ns()}"
    subprocess.run([TMUX, "-L", sock, "new-session", "-d", "-x", str(w), "-y", str(h), "sh"], check=True, timeout=10)
    try:
        subprocess.run([TMUX, "-L", sock, "pipe-pane", "-o", f"cat >> {log}"], check=True, timeout=10)
        time.sleep(0.3)
        subprocess.run([TMUX, "-L", sock, "send-keys", f"clear; cat {raw}; sleep 30", "Enter"], check=True, timeout=10)
        deadline = time.time() + 20
        while time.time() < deadline and (not log.exists() or log.stat().st_size < len(out.encode()) // 2):
            time.sleep(0.2)
        time.sleep(1.0)
    finally:
        subprocess.run([TMUX, "-L", sock, "kill-server"], timeout=10, capture_output=True)
    assert sniff(log) == "raw"
    res = cli("replay", str(log), "--size", f"{w}x{h}", "--agent", "codex", "--format", "json")
    assert res.returncode == 0, res.stderr
    got = [(t["role"], " ".join(t["text"].split())) for t in json.loads(res.stdout)["turns"]
           if t["role"] in ("user", "assistant")]
    want = [(t["role"], " ".join(t["text"].split())) for t in json.loads(
        (src.parent / "expected.json").read_text())["turns"] if t["role"] in ("user", "assistant")]
    users = [t for r_, t in got if r_ == "user"]
    assert users == [t for r_, t in want if r_ == "user"]


def test_raw_log_without_size_warns_and_assumes_80x24(tmp_path):
    p = tmp_path / "plain.log"
    p.write_bytes(b"hello\r\nworld\r\n")
    res = cli("screen", str(p), "--format", "json")
    assert res.returncode == 0
    assert "--size" in res.stderr and res.stderr.count("\n") == 1
    shown = json.loads(res.stdout)
    assert (shown["columns"], shown["rows"]) == (80, 24) and shown["lines"][:2] == ["hello", "world"]


def test_untimed_chunks_end_at_synchronized_updates_and_keep_multibyte_whole(tmp_path):
    frame = "\x1b[?2026h\x1b[H\x1b[2Jframe é日\x1b[?2026l"
    p = tmp_path / "tui.log"
    p.write_bytes((frame * 3 + "tail " + "é" * 3000).encode())
    with RawLogReader(p, size=(20, 5)) as r:
        events = list(r.events())
    assert [e.data for e in events[:3]] == [frame] * 3
    assert "".join(e.data for e in events[3:]) == "tail " + "é" * 3000  # no U+FFFD from a split
    times = [e.time for e in events]
    assert times == sorted(times) and len(set(times)) == len(times)


@pytest.mark.parametrize("text,want", [("120x40", (120, 40)), (" 80X24 ", (80, 24))])
def test_size_argument(text, want):
    assert parse_size_arg(text) == want


@pytest.mark.parametrize("text", ["", "80", "x24", "0x24", "80x0", "-1x5", "axb", "99999x10", "80x24x2"])
def test_bad_size_argument_is_one_line_error(text, tmp_path):
    with pytest.raises(CastError):
        parse_size_arg(text)
    p = tmp_path / "x.log"
    p.write_bytes(b"hi\n")
    res = cli("replay", str(p), "--size", text)
    assert res.returncode == 2 and "Traceback" not in res.stderr


@pytest.mark.parametrize("timing,fragment", [
    ("0.1 abc\n", "byte count"),
    ("nan 4\n", "delay"),
    ("-1 4\n", "delay"),
    ("1e400 4\n", "delay"),
    ("0.1\n", "timing line"),
    ("O 0.1 -4\n", "negative"),
])
def test_bad_first_timing_line_is_one_line_error(tmp_path, timing, fragment):
    ts, t = tmp_path / "ts", tmp_path / "t"
    ts.write_bytes(b"Script started on 2026-01-01 00:00:00+00:00 [COMMAND=\"x\"]\nabcd\n")
    t.write_text(timing)
    res = cli("replay", str(ts), "--timing", str(t))
    assert res.returncode == 2 and fragment in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_bad_timing_line_later_keeps_what_was_timed_and_the_rest(tmp_path):
    ts, t = tmp_path / "ts", tmp_path / "t"
    ts.write_bytes(b"Script started on 2026-01-01 00:00:00+00:00\none\r\ntwo\r\nthree\r\n"
                   b"\nScript done on 2026-01-01 00:00:01+00:00 [COMMAND_EXIT_CODE=\"0\"]\n")
    t.write_text("0.1 5\n0.2 zz\n")
    with RawLogReader(ts, size=(20, 5), timing=t) as r:
        text = "".join(e.data for e in r.events(warn=False))
        assert r.skipped == 1 and "without timing" in r.warnings[0]
    assert text == "one\r\ntwo\r\nthree\r\n"


@pytest.mark.parametrize("args", [["--timing", "/nonexistent/t"], []])
def test_missing_files_are_one_line_errors(tmp_path, args):
    target = tmp_path / "ts" if args else tmp_path / "missing.cast"
    if args:
        target.write_bytes(b"Script started on 2026-01-01\nx\n")
    for cmd in ("replay", "screen", "explain", "import"):
        res = cli(cmd, str(target), *args, env={"CAPSULE_CAPTURE_HOME": str(tmp_path / "home")})
        assert res.returncode != 0 and "Traceback" not in res.stderr, (cmd, res.stderr)
        assert len(res.stderr.strip().splitlines()) == 1, (cmd, res.stderr)


def test_timing_with_an_asciicast_is_refused(tmp_path):
    src = RECORDINGS / "codex" / "x2-short-answers-140x36" / "session.cast"
    t = tmp_path / "t"
    t.write_text("0.1 4\n")
    res = cli("replay", str(src), "--timing", str(t))
    assert res.returncode == 2 and "asciicast" in res.stderr


def test_size_overrides_an_asciicast_header():
    src = RECORDINGS / "codex" / "x2-short-answers-140x36" / "session.cast"
    with open_recording(src, size=(100, 30)) as r:
        assert (r.header.width, r.header.height) == (100, 30)


def test_import_of_a_typescript_archives_its_conversation(tmp_path):
    """A real Claude Code recording's output as a typescript (no timing) lands in the archive."""
    src = RECORDINGS / "claude-code" / "cc-bash-tools-100x30" / "session.cast"
    with CastReader(src) as r:
        w, h = r.header.width, r.header.height
        body = "".join(e.data for e in r.events() if e.code == "o").encode()
    ts = tmp_path / "ts"
    ts.write_bytes(b"Script started on 2026-11-20 10:00:00+00:00 [COMMAND=\"claude\" TERM=\"xterm-256color\" "
                   + f'COLUMNS="{w}" LINES="{h}"]\n'.encode() + body
                   + b"\nScript done on 2026-11-20 10:05:00+00:00 [COMMAND_EXIT_CODE=\"0\"]\n")
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "home")}
    res = cli("import", str(ts), env=env)
    assert res.returncode == 0, res.stderr
    cid = res.stdout.strip()
    shown = cli("show", cid, "--format", "json", env=env)
    assert shown.returncode == 0, shown.stderr
    conv = json.loads(shown.stdout)
    assert conv["agent"] == "claude-code"  # from the typescript's COMMAND
    assert conv["started_at"].startswith("2026-11-20T10:00:00")
    users = [t["text"] for t in conv["turns"] if t["role"] == "user"]
    assert users == ["what files are in this project?", "say hi from the shell, then count the rows in data.csv",
                     "ok thanks"]


SHELL_CASES = sorted(RECORDINGS.glob("*/sh-*/session.cast"))


@pytest.mark.parametrize("cast", SHELL_CASES, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_raw_log_of_a_shell_session_reads_like_its_recording(cast, tmp_path):
    """The output bytes alone (what tmux pipe-pane keeps: no header, no times, no
    keys) give the same conversation as the recording: the shell prompts, the
    agent's stretch and its turns are found from the drawing alone."""
    with CastReader(cast) as r:
        w, h = r.header.width, r.header.height
        assert not any(e.code == "r" for e in r.events(warn=False))  # a raw log has no resizes to lose
    with CastReader(cast) as r:
        out = "".join(e.data for e in r.events(warn=False) if e.code == "o")
    log = tmp_path / "pane.log"
    log.write_bytes(out.encode())
    res = cli("replay", str(log), "--size", f"{w}x{h}", "--format", "json")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    want = json.loads((cast.parent / "expected.json").read_text())
    assert got["agent"] == want["agent"]
    assert [(t["role"], t["text"]) for t in got["turns"]] == [(t["role"], t["text"]) for t in want["turns"]]


TYPESCRIPTS = sorted(RECORDINGS.glob("*/sh-*/session.typescript"))


@pytest.mark.parametrize("ts", TYPESCRIPTS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_real_typescript_of_an_agent_session_reads_like_its_recording(ts):
    """bash ran inside script(1) while the recording was made: its own typescript and
    timing file (classic or advanced with input) give the recording's conversation."""
    timing = ts.parent / "session.timing"
    meta = json.loads((ts.parent / "meta.json").read_text())
    assert meta["script_log"]["mode"] in ("classic", "advanced")
    res = cli("replay", str(ts), "--timing", str(timing), "--format", "json")
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    want = json.loads((ts.parent / "expected.json").read_text())
    assert got["agent"] == want["agent"]
    assert [(t["role"], t["text"]) for t in got["turns"]] == [(t["role"], t["text"]) for t in want["turns"]]
    if meta["script_log"]["mode"] == "classic":  # output only: the typescript alone reads the same
        alone = json.loads(cli("replay", str(ts), "--format", "json").stdout)
        assert [(t["role"], t["text"]) for t in alone["turns"]] == [(t["role"], t["text"]) for t in want["turns"]]
    else:  # input and output in one file: the timing file tells them apart
        with open_recording(ts, timing=timing) as r:
            assert any(e.code == "i" for e in r.events(warn=False))


def test_timing_that_cuts_a_character_in_two_keeps_it_whole(tmp_path):
    ts, t = tmp_path / "ts", tmp_path / "t"
    body = "é日本🙂".encode()
    ts.write_bytes(b"Script started on 2026-01-01 00:00:00+00:00\n" + body)
    t.write_text("".join("0.1 1\n" for _ in body))  # one byte per entry
    with RawLogReader(ts, size=(20, 3), timing=t) as r:
        events = list(r.events(warn=False))
    assert "".join(e.data for e in events) == "é日本🙂"
    assert "\ufffd" not in "".join(e.data for e in events)


def test_a_log_cut_inside_a_character_ends_with_a_replacement_only(tmp_path):
    p = tmp_path / "cut.log"
    p.write_bytes("ok 日本".encode()[:-1])
    with RawLogReader(p, size=(20, 3)) as r:
        text = "".join(e.data for e in r.events(warn=False))
    assert text == "ok 日\ufffd"
