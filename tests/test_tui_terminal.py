"""`capsule-capture browse` in a real terminal: tmux runs the installed CLI in a pane,
the test types keys (send-keys) and reads the screen back (capture-pane)."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

import pytest

from tests.conftest import RECORDINGS, cli

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Pane:
    def __init__(self, env: dict[str, str], cols: int = 120, rows: int = 36) -> None:
        self.sock = f"capcap-browse-{uuid.uuid4().hex[:8]}"
        # The shell around browse writes its exit status to a file: tmux can
        # report a pane dead before (or without) its exit status under load.
        self.status_file = os.path.join(tempfile.mkdtemp(prefix="capcap-browse-"), "status")
        cmd = " ".join([sys.executable, "-m", "capsule_capture.cli", "browse", ";",
                        "echo", "$?", ">", shlex.quote(self.status_file)])
        # COLUMNS/LINES (pytest-xdist workers set 80x24) would override the pane's size
        full = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        full.update(env, TERM="xterm-256color")
        self.tmux("new-session", "-d", "-s", "t", "-x", str(cols), "-y", str(rows), cmd, env=full)
        self.tmux("set-option", "-t", "t", "remain-on-exit", "on")

    def tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        return subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True, text=True, env=env,
                              timeout=20).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def wait_for(self, text: str, timeout: float = 20) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            s = self.screen()
            if text in s:
                return s
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen()}")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def exit_status(self, timeout: float = 10) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                with open(self.status_file, encoding="utf-8") as f:
                    got = f.read()
            except FileNotFoundError:
                got = ""
            if got.endswith("\n"):  # written whole
                return got.strip()
            time.sleep(0.1)
        raise AssertionError("browse did not exit")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True, timeout=20)


def test_browse_in_tmux(tmp_path):
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "home"), "TZ": "Asia/Tokyo"}
    r = cli("sync", "--home", str(RECORDINGS / "codex/s3-tool-chain-120x40/native"), env=env)
    assert r.returncode == 0, r.stderr
    pane = Pane(env)
    try:
        s = pane.wait_for("All workspaces")
        assert "(1 conversation)" in s and "s3-tool-chain-120x40/proj" in s and "JST" in s
        pane.keys("Enter")
        pane.wait_for("any agent")
        s = pane.wait_for("check the python version")  # the list fills in after its header
        assert "check the python version" in s and "codex" in s and "2026-11-22 16:24 JST" in s
        pane.keys("Enter")
        s = pane.wait_for("sources")
        assert "You" in s and "Tool call" in s and "▶" in s  # prose shown, tools folded
        pane.keys("Escape")
        pane.wait_for("any agent")
        pane.keys("/")
        pane.wait_for("search every conversation")
        pane.keys("-l", "pytho")  # half a word
        s = pane.wait_for("turn 1 user")
        assert "codex" in s and "1 result" in s
        pane.keys("Enter")
        s = pane.wait_for("sources")
        assert "native 12 turns" in s
        pane.keys("q")
        assert pane.exit_status() == "0"
    finally:
        pane.close()
