"""`capsule-capture watch`, the real CLI as a process: OS notifications, a store that
appears later, a session that grows, a recording dropped in, SIGINT/SIGTERM."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from archive.store import Store
from tests.conftest import RECORDINGS

CLI = [sys.executable, "-m", "capsule_capture.cli"]
from tests.conftest import CORPUS  # noqa: E402


def native_claude() -> Path:
    for base in (RECORDINGS / "claude-code", CORPUS / "claude-code"):
        for d in sorted(base.glob("*/native/.claude/projects/*")):
            if list(d.glob("*.jsonl")):
                return d
    pytest.skip("no Claude Code native session to copy")


def start(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen, Path, Path]:
    agents, data = tmp_path / "agents", tmp_path / "data"
    agents.mkdir()
    w = subprocess.Popen([*CLI, "watch", "--home", str(agents), *extra],
                         env=dict(os.environ, CAPSULE_CAPTURE_HOME=str(data)), stderr=subprocess.PIPE, text=True)
    # watching once the folders it makes exist and the first status line is out
    assert w.stderr is not None
    first = w.stderr.readline()
    assert first.startswith("watching"), first
    return w, agents, data


def count(data: Path) -> int:
    if not (data / "archive").exists():
        return 0
    with Store(data / "archive") as s:
        return s.count()


def turns(data: Path) -> int:
    with Store(data / "archive") as s:
        return sum(r["turns"] for r in s.iter_rows())


def until(pred, timeout: float) -> float | None:  # type: ignore[no-untyped-def]
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if pred():
            return time.monotonic() - t0
        time.sleep(0.05)
    return None


def stop(w: subprocess.Popen, sig: int = signal.SIGINT) -> tuple[int, str]:
    w.send_signal(sig)
    _, err = w.communicate(timeout=15)
    return w.returncode, err


def test_store_that_appears_later_is_archived_within_2s_and_sigint_ends_cleanly(tmp_path):
    w, agents, data = start(tmp_path)
    try:
        src = native_claude()
        dst = agents / ".claude" / "projects" / src.name
        t0 = time.monotonic()
        shutil.copytree(src, dst)  # Claude Code installed after watch started
        took = until(lambda: count(data) >= 1, 10)
        assert took is not None and time.monotonic() - t0 < 2.0, f"archived after {took}"
        # the session grows (the agent writes a turn): the new turn is archived too
        before = turns(data)
        jsonl = sorted(dst.glob("*.jsonl"))[0]
        lines = jsonl.read_text().splitlines()
        user = next(json.loads(x) for x in lines if json.loads(x).get("type") == "user"
                    and isinstance(json.loads(x).get("message", {}).get("content"), str))
        user["uuid"] = "0000-watch-test"
        user["message"]["content"] = "one more question typed while watch runs"
        t1 = time.monotonic()
        with jsonl.open("a") as fh:
            fh.write(json.dumps(user) + "\n")
        assert until(lambda: turns(data) > before, 10) is not None and time.monotonic() - t1 < 2.0
    finally:
        rc, err = stop(w)
    assert rc == 0, err
    assert "watch: " in err and "archived" in err and "Traceback" not in err


def test_recording_dropped_in_is_imported_and_sigterm_ends_cleanly(tmp_path):
    w, agents, data = start(tmp_path)
    try:
        day = data / "recordings" / "2026" / "01" / "02"
        day.mkdir(parents=True)
        tmp = day / "incoming.part"
        shutil.copyfile(RECORDINGS / "codex" / "x2-short-answers-140x36" / "session.cast", tmp)
        tmp.rename(day / "copied.cast")
        took = until(lambda: count(data) == 1, 10)
    finally:
        rc, err = stop(w, signal.SIGTERM)
    assert took is not None and took < 2.0, (took, err)
    assert rc == 0, err
    assert "1 recordings archived" in err


def test_unknown_agent_and_missing_home_are_refused(tmp_path):
    res = subprocess.run([*CLI, "watch", "--agent", "bogus"], capture_output=True, text=True, timeout=30,
                         env=dict(os.environ, CAPSULE_CAPTURE_HOME=str(tmp_path)))
    assert res.returncode == 2 and "unknown agent" in res.stderr
    res = subprocess.run([*CLI, "watch", "--agent", "generic", "--home", str(tmp_path)], capture_output=True,
                         text=True, timeout=30, env=dict(os.environ, CAPSULE_CAPTURE_HOME=str(tmp_path)))
    assert res.returncode != 0 and "keeps no session files" in res.stderr and "Traceback" not in res.stderr
    res = subprocess.run([*CLI, "watch", "--home", str(tmp_path / "nope")], capture_output=True, text=True,
                         timeout=30, env=dict(os.environ, CAPSULE_CAPTURE_HOME=str(tmp_path)))
    assert res.returncode != 0 and "no such directory" in res.stderr and "Traceback" not in res.stderr


def test_on_a_terminal_the_status_is_one_line_rewritten_in_place(tmp_path):
    import pexpect
    agents, data = tmp_path / "agents", tmp_path / "data"
    agents.mkdir()
    p = pexpect.spawn(CLI[0], [*CLI[1:], "watch", "--home", str(agents)], dimensions=(24, 100), timeout=20,
                      env=dict(os.environ, CAPSULE_CAPTURE_HOME=str(data)), encoding="utf-8")
    p.expect("watching")
    src = native_claude()
    shutil.copytree(src, agents / ".claude" / "projects" / src.name)
    p.expect("1 sessions")
    before_summary = p.before + p.after
    p.kill(signal.SIGINT)
    p.expect("watch: 1 sessions")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0
    assert "\r\x1b[K" in before_summary and "\n" not in before_summary.strip("\r\n")
