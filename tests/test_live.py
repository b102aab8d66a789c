"""Live capture: the real CLI in a PTY around a program that plays a real recording at its own pace.

What is checked: turns reach the archive while the program runs (within 5 s
of being drawn), `record` returns at once when the program exits (< 0.2 s),
a detached companion finishes the archive, a killed recorder's file is
archived by `sync`, the incremental follower reads exactly what an offline
replay reads.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pexpect
import pytest

from agents_chrome.replay import replay, replay_cast
from capsule_capture.pipeline import Follower, screen_conversation
from tests.conftest import RECORDINGS, cli

CLI = [sys.executable, "-m", "capsule_capture.cli"]
PLAYER = str(Path(__file__).with_name("live_player.py"))
CASE = RECORDINGS / "codex" / "x2-short-answers-140x36"


def prompts(case: Path) -> list[str]:
    return [t["text"] for t in json.loads((case / "expected.json").read_text())["turns"] if t["role"] == "user"]


def header_of(cast: Path, timeout: float = 10) -> dict:
    end = time.time() + timeout
    while time.time() < end:
        try:
            line = cast.read_text(encoding="utf-8").split("\n", 1)[0]
            return json.loads(line)
        except (OSError, ValueError):
            time.sleep(0.05)
    raise AssertionError(f"no header in {cast}")


def shown(home: Path, cid: str) -> dict | None:
    res = cli("show", cid, "--format", "json", env={"CAPSULE_CAPTURE_HOME": str(home)})
    return json.loads(res.stdout) if res.returncode == 0 else None


def user_texts(conv: dict | None) -> list[str]:
    return [t["text"] for t in (conv or {}).get("turns", []) if t["role"] == "user"]


def companions(cast: Path) -> list[int]:
    """Pids of live companions following `cast` (read from /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            cmd = (d / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"capsule_capture.recorder.companion" in cmd and str(cast.resolve()).encode() in cmd:
            out.append(int(d.name))
    return out


class Drain:
    """Reads the recorder's terminal in the background (as a terminal would) and notes EOF's time."""

    def __init__(self, p: pexpect.spawn) -> None:
        self.p = p
        self.text = ""
        self.eof_at: float | None = None
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self) -> None:
        while True:
            try:
                self.text += self.p.read_nonblocking(1 << 16, timeout=0.2)
            except pexpect.TIMEOUT:
                continue
            except (pexpect.EOF, OSError):
                self.eof_at = time.time()
                return


def play(tmp_path: Path, home: Path, speed: float = 1.0, case: Path = CASE, agent: str = "codex"):
    cast = tmp_path / "live.cast"
    side = str(tmp_path / "side")
    h = json.loads((case / "session.cast").read_text().split("\n", 1)[0])
    p = pexpect.spawn(CLI[0], [*CLI[1:], "record", "--agent", agent, "-o", str(cast), "--", sys.executable,
                               PLAYER, str(case / "session.cast"), side, str(speed)],
                      env=dict(os.environ, CAPSULE_CAPTURE_HOME=str(home)), dimensions=(h["height"], h["width"]),
                      timeout=60, encoding="utf-8", codec_errors="replace")
    return p, cast, Path(side)


def wait_for(pred, timeout: float, step: float = 0.2):  # type: ignore[no-untyped-def]
    end = time.time() + timeout
    while True:
        got = pred()
        if got or time.time() > end:
            return got
        time.sleep(step)


def test_turns_reach_archive_while_running_and_record_returns_at_once(tmp_path):
    home = tmp_path / "home"
    want = prompts(CASE)
    assert len(want) >= 3
    p, cast, side = play(tmp_path, home, speed=1.0)
    drain = Drain(p)
    rid = header_of(cast)["capsule_capture_id"]
    # when the first prompt was drawn: its turn time in the original, on the player's clock
    _, turns, _ = replay(CASE / "session.cast")
    rel = next(t.time for t in turns if t.role == "user")  # seconds into the recording it was seen
    start = float(wait_for(lambda: side.with_suffix(".start").exists() and side.with_suffix(".start").read_text(), 10))
    found = wait_for(lambda: want[0] in user_texts(shown(home, rid)), 30, 0.25)
    t_found = time.time()
    assert found, "first prompt never reached the archive while recording"
    assert not side.with_suffix(".played").exists(), "archived only after the program had drawn everything"
    assert t_found - (start + rel) < 5.0, f"first prompt archived {t_found - (start + rel):.1f} s after it was drawn"
    assert drain.eof_at is None  # the program is still running
    wait_for(lambda: side.with_suffix(".played").exists(), 60)
    p.send("\n")
    drain.t.join(30)
    exited = float(side.with_suffix(".exit").read_text())
    assert drain.eof_at is not None and drain.eof_at - exited < 0.2, f"prompt back {drain.eof_at - exited:.3f} s after exit"
    p.close()
    assert p.exitstatus == 0
    assert str(cast) in drain.text and f"capsule-capture show {rid}" in drain.text
    # the companion finishes in the background: every prompt ends up archived
    assert wait_for(lambda: user_texts(shown(home, rid)) == want, 30, 0.5), user_texts(shown(home, rid))
    assert wait_for(lambda: not companions(cast), 20)


CHAT = """
import sys
for i in range(3):
    line = input("> ")
    print("answer to " + line, flush=True)
"""


def chat(tmp_path: Path, home: Path):
    script = tmp_path / "chat.py"
    script.write_text(CHAT)
    cast = tmp_path / "home" / "recordings" / "2026" / "chat.cast"
    cast.parent.mkdir(parents=True, exist_ok=True)
    p = pexpect.spawn(CLI[0], [*CLI[1:], "record", "-o", str(cast), "--", sys.executable, str(script)],
                      env=dict(os.environ, CAPSULE_CAPTURE_HOME=str(home)), dimensions=(24, 80), timeout=30,
                      encoding="utf-8")
    return p, cast


def test_recorder_killed_companion_still_archives(tmp_path):
    home = tmp_path / "home"
    p, cast = chat(tmp_path, home)
    p.expect("> ")
    p.sendline("first question")
    p.expect("answer to first question")
    p.expect("> ")
    time.sleep(0.2)  # past the writer's 50 ms flush
    os.kill(p.pid, signal.SIGKILL)
    p.close(force=True)
    rid = header_of(cast)["capsule_capture_id"]
    conv = wait_for(lambda: shown(home, rid), 20, 0.3)
    assert conv and "first question" in user_texts(conv)[0]
    assert wait_for(lambda: not companions(cast), 20)


def test_terminal_closing_leaves_the_companion_to_finish(tmp_path):
    """The terminal goes away (SIGHUP to the recorder, then its PTY is gone): the companion,
    detached in its own session, still archives what was recorded."""
    home = tmp_path / "home"
    p, cast = chat(tmp_path, home)
    p.expect("> ")
    p.sendline("asked before the window closed")
    p.expect("answer to asked before the window closed")
    p.expect("> ")
    time.sleep(0.2)
    p.close(force=True)  # closes the terminal: SIGHUP, then SIGINT/SIGKILL if still there
    rid = header_of(cast)["capsule_capture_id"]
    conv = wait_for(lambda: shown(home, rid), 20, 0.3)
    assert conv and any("asked before the window closed" in t for t in user_texts(conv))
    assert wait_for(lambda: not companions(cast), 20)


def test_recorder_and_companion_killed_then_sync_archives_idempotently(tmp_path):
    home = tmp_path / "home"
    p, cast = chat(tmp_path, home)
    p.expect("> ")
    pids = wait_for(lambda: companions(cast), 10, 0.05)
    assert pids, "no live companion started"
    for pid in pids:  # a crash or reboot takes the companion too
        os.kill(pid, signal.SIGKILL)
    p.sendline("question one")
    p.expect("> ")
    p.sendline("question two")
    p.expect("answer to question two")
    time.sleep(0.2)
    os.kill(p.pid, signal.SIGKILL)
    p.close(force=True)
    rid = header_of(cast)["capsule_capture_id"]
    empty = tmp_path / "agents-home"
    empty.mkdir()
    env = {"CAPSULE_CAPTURE_HOME": str(home)}
    res = cli("sync", "--home", str(empty), "--format", "json", env=env)
    assert res.returncode == 0, res.stderr
    recs = json.loads(res.stdout)["recordings"]
    assert recs["imported"] == 1 and recs["found"] == 1
    got = user_texts(shown(home, rid))
    assert any("question one" in t for t in got) and any("question two" in t for t in got)
    again = json.loads(cli("sync", "--home", str(empty), "--format", "json", env=env).stdout)["recordings"]
    assert again["imported"] == 0 and again["current"] == 1
    rows = json.loads(cli("list", "--format", "json", env=env).stdout)
    assert [r["id"] for r in rows] == [rid]


def test_no_archive_recordings_are_left_alone_by_sync(tmp_path):
    home = tmp_path / "home"
    env = dict(os.environ, CAPSULE_CAPTURE_HOME=str(home))
    script = tmp_path / "c.py"
    script.write_text(CHAT)
    p = pexpect.spawn(CLI[0], [*CLI[1:], "record", "--no-archive", "--", sys.executable, str(script)], env=env,
                      dimensions=(24, 80), timeout=30, encoding="utf-8")
    for q in ("a", "b", "c"):
        p.expect("> ")
        p.sendline(f"question {q}")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
    empty = tmp_path / "agents-home"
    empty.mkdir()
    recs = json.loads(cli("sync", "--home", str(empty), "--format", "json", env={"CAPSULE_CAPTURE_HOME": str(home)}
                          ).stdout)["recordings"]
    assert recs["found"] == 1 and recs["opted_out"] == 1 and recs["imported"] == 0


@pytest.mark.parametrize("case", [RECORDINGS / "codex" / "x2-short-answers-140x36",
                                  RECORDINGS / "claude-code" / "cc-bash-tools-100x30",
                                  RECORDINGS / "gemini" / "gem-x1-tools-table-90x28",
                                  RECORDINGS / "vibe" / "vibe-x2-slash-narrow-70x22",
                                  RECORDINGS / "kimi" / "kimi-x1-tools-100x30",
                                  RECORDINGS / "opencode" / "x1-tools-table-90x28"],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_follower_fed_in_pieces_reads_what_a_replay_reads(tmp_path, case):
    """Bytes arrive cut anywhere (half lines), the quiet probe fires at pauses: same turns as offline."""
    src = (case / "session.cast").read_bytes()
    lines = src.splitlines(keepends=True)
    times = []
    for ln in lines[1:]:
        try:
            times.append(float(json.loads(ln)[0]))
        except (ValueError, IndexError, TypeError):
            times.append(None)
    out = tmp_path / "grow.cast"
    out.write_bytes(b"")
    f = Follower(str(out))
    with out.open("ab") as fh:
        fh.write(lines[0][:5])
        fh.flush()
        f.poll()
        fh.write(lines[0][5:])
        fh.flush()
        f.poll()
        for i, ln in enumerate(lines[1:]):
            half = len(ln) // 2
            fh.write(ln[:half])
            fh.flush()
            f.poll()
            fh.write(ln[half:])
            fh.flush()
            f.poll()
            nxt = times[i + 1] if i + 1 < len(times) else None
            if nxt is not None and times[i] is not None and nxt - times[i] >= 0.3:
                f.probe_quiet(quiet=0)  # the file stood still: the pause's frame, taken early
            if i % 200 == 0:
                f.conversation()  # rebuilding midway changes nothing after
    f.finish()
    live = [(t.role, t.text) for t in f.conversation().turns]
    offline = [(t["role"], t["text"]) for t in replay_cast(str(case / "session.cast"))["turns"]]
    assert live == offline and live
    assert [(t.role, t.text) for t in screen_conversation(case / "session.cast").turns] == offline
