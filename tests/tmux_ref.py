"""tmux as the reference terminal: feed recorded output, read the pane back."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path


def tmux_available() -> bool:
    return shutil.which("tmux") is not None


def tmux_render(data: str, cols: int, rows: int, history: int = 10_000) -> tuple[list[str], list[str]]:
    """Return (visible rows, scrollback rows) tmux shows after `data`."""
    tmp = Path(tempfile.mkdtemp(prefix="capcap-tmux-"))
    try:
        feed = tmp / "feed.bin"
        feed.write_bytes(data.encode("utf-8"))
        done = tmp / "done"
        sock = str(tmp / "sock")
        conf = tmp / "tmux.conf"
        conf.write_text(f"set -g history-limit {history}\nset -g status off\n"
                        "set -g default-terminal xterm-256color\nset -g remain-on-exit on\n")
        name = "r" + uuid.uuid4().hex[:8]
        env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.pop("TMUX", None)
        cmd = f"stty raw -echo; cat {feed}; touch {done}; sleep 600"
        subprocess.run(["tmux", "-S", sock, "-f", str(conf), "new-session", "-d", "-s", name,
                        "-x", str(cols), "-y", str(rows), cmd], check=True, env=env)
        try:
            deadline = time.time() + 60
            while not done.exists() and time.time() < deadline:
                time.sleep(0.05)
            time.sleep(0.3)
            def cap(*extra: str) -> list[str]:
                out = subprocess.run(["tmux", "-S", sock, "capture-pane", "-p", "-t", name, *extra],
                                     capture_output=True, env=env, check=True).stdout
                return [l.rstrip() for l in out.decode("utf-8", "replace").split("\n")]
            visible = cap()[:rows]
            everything = cap("-S", "-")
            hist = everything[: max(0, len(everything) - 1 - rows)]
            return visible, hist
        finally:
            subprocess.run(["tmux", "-S", sock, "kill-server"], capture_output=True, env=env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
