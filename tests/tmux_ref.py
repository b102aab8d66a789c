"""tmux as the reference terminal: feed recorded output, resize, read the pane back.

A detached tmux session runs a small driver in its pane. The test hands the
driver one stretch of output at a time through a FIFO; the driver writes it
to the pane, then asks tmux where the cursor is (`CSI 6 n`) and waits for
the answer. tmux answers in order, after everything before the question is
parsed, so when the driver acknowledges, the pane holds exactly that output:
no sleeping, no guessing. Cursor-position questions inside the recording
are answered too, so the driver counts the answers it must see.

Between stretches the test can resize the window (`resize-window`, which
tmux applies to the pane at once) and capture the pane and its history.
"""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

_DRIVER = r'''
import os, select, struct, sys, termios, tty
inp, ack = sys.argv[1], sys.argv[2]
tty.setraw(0)
attrs = termios.tcgetattr(1)
attrs[1] &= ~termios.OPOST  # bytes reach tmux as recorded
termios.tcsetattr(1, termios.TCSANOW, attrs)
fi = open(inp, "rb", buffering=0)
fa = open(ack, "wb", buffering=0)
def readn(n):
    b = b""
    while len(b) < n:
        c = fi.read(n - len(b))
        if not c:
            sys.exit(0)
        b += c
    return b
while True:
    size, answers = struct.unpack("<QI", readn(12))
    data = readn(size) + b"\x1b[6n"
    while data:
        data = data[os.write(1, data):]
    seen = 0
    ok = b"k"
    while seen < answers:
        r, _, _ = select.select([0], [], [], 30)
        if not r:
            ok = b"t"
            break
        seen += os.read(0, 4096).count(b"R")
    fa.write(ok)
'''


def tmux_available() -> bool:
    return shutil.which("tmux") is not None


class TmuxTerm:
    """One tmux pane of a given size, fed and read back on demand."""

    def __init__(self, cols: int, rows: int, history: int = 10_000) -> None:
        self.cols, self.rows = cols, rows
        self.tmp = Path(tempfile.mkdtemp(prefix="capcap-tmux-"))
        self.sock = str(self.tmp / "sock")
        self.name = "r" + uuid.uuid4().hex[:8]
        self.env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.env.pop("TMUX", None)
        self._queries = 0  # cursor-position questions in the output so far
        self._tail = b""
        conf = self.tmp / "tmux.conf"
        conf.write_text(f"set -g history-limit {history}\nset -g status off\n"
                        "set -g default-terminal xterm-256color\nset -g remain-on-exit on\n")
        driver = self.tmp / "driver.py"
        driver.write_text(_DRIVER)
        inp, ack = self.tmp / "in", self.tmp / "ack"
        os.mkfifo(inp)
        os.mkfifo(ack)
        cmd = f"{sys.executable} {driver} {inp} {ack}; sleep 600"
        self._tmux("-f", str(conf), "new-session", "-d", "-s", self.name, "-x", str(cols), "-y", str(rows), cmd)
        self._in = open(inp, "wb", buffering=0)
        self._ack = open(ack, "rb", buffering=0)

    def _tmux(self, *args: str) -> bytes:
        return subprocess.run(["tmux", "-S", self.sock, *args], capture_output=True, env=self.env,
                              check=True).stdout

    def feed(self, data: str) -> None:
        """Write `data` to the pane and return once tmux has parsed all of it."""
        raw = data.encode("utf-8")
        scan = self._tail + raw
        # Questions split between two feeds are counted once, on the feed that ends them.
        answers = scan.count(b"\x1b[6n") - self._tail.count(b"\x1b[6n") + 1
        self._tail = scan[-3:]
        self._in.write(struct.pack("<QI", len(raw), answers) + raw)
        got = self._ack.read(1)
        if got != b"k":
            raise RuntimeError(f"tmux driver did not confirm the output ({got!r})")

    def resize(self, cols: int, rows: int) -> None:
        self._tmux("resize-window", "-t", self.name, "-x", str(cols), "-y", str(rows))
        self.cols, self.rows = cols, rows

    def capture(self) -> tuple[list[str], list[str]]:
        """(visible rows, scrollback rows), trailing blanks trimmed."""
        out = self._tmux("capture-pane", "-p", "-S", "-", "-E", "-", "-t", self.name)
        rows = [ln.rstrip() for ln in out.decode("utf-8", "replace").split("\n")]
        if rows and rows[-1] == "":
            rows.pop()  # the newline after the last row
        return rows[len(rows) - self.rows:], rows[:len(rows) - self.rows]

    def cursor(self) -> tuple[int, int]:
        x, y = self._tmux("display-message", "-p", "-t", self.name, "#{cursor_x},#{cursor_y}").split(b",")
        return int(x), int(y)

    def close(self) -> None:
        try:
            self._in.close()
            self._ack.close()
        except OSError:
            pass
        subprocess.run(["tmux", "-S", self.sock, "kill-server"], capture_output=True, env=self.env)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self) -> "TmuxTerm":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def tmux_render(data: str, cols: int, rows: int, history: int = 10_000) -> tuple[list[str], list[str]]:
    """Return (visible rows, scrollback rows) tmux shows after `data`."""
    with TmuxTerm(cols, rows, history) as t:
        t.feed(data)
        return t.capture()
