"""The PTY loop: the child in a pseudo-terminal, bytes copied both ways.

Nothing on this path parses, emulates or archives: bytes from the child go
straight to the real terminal and to the writer's queue; keystrokes go
straight to the child. Resizes and termination signals arrive through a
self-pipe so the loop handles them between reads.
"""
from __future__ import annotations

import errno
import os
import select
import signal
from dataclasses import dataclass
from typing import Callable

from ptyprocess import PtyProcess

from capsule_capture.recorder import terminal
from capsule_capture.recorder.writer import AsciicastWriter

READ_SIZE = 1 << 16
_HANDLED = (signal.SIGWINCH, signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


@dataclass
class Session:
    argv: list[str]
    cols: int
    rows: int
    env: dict[str, str] | None = None
    cwd: str | None = None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            select.select([], [fd], [])
            continue
        except InterruptedError:
            continue
        view = view[n:]


def _note(_signum: int, _frame: object) -> None:
    """Keeps the signal from its default action; the wakeup pipe carries it to the loop."""


def spawn(session: Session) -> PtyProcess:
    proc = PtyProcess.spawn(session.argv, dimensions=(session.rows, session.cols), env=session.env,
                            cwd=session.cwd)
    # ptyprocess sleeps this long when it closes (at exit too): the prompt must come back at once
    proc.delayafterclose = 0.0
    return proc


def run(proc: PtyProcess, writer: AsciicastWriter, record_input: bool = False, stdin_fd: int = 0,
        stdout_fd: int = 1, size_fd: int | None = None,
        on_resize: Callable[[int, int], None] | None = None) -> int:
    """Copy bytes until the child closes its terminal; return its exit code
    (128+N for a death by signal N).

    Input is queued and written as the child takes it, so piped input larger
    than the PTY's buffer never blocks the output side. When input ends (a
    pipe or /dev/null on stdin) the child gets end-of-file the way a
    terminal gives it: VEOF (^D), twice if a line is still open.
    """
    master = proc.fd
    os.set_blocking(master, False)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    # A ^C typed on the terminal is a byte (raw mode) and reaches the child as
    # one; a SIGINT sent to the recorder (kill -INT, ^C with no terminal) is
    # passed on too, so the recorder always outlives the child and keeps its code.
    # The interpreter's own C handler writes each signal's number to the pipe
    # the moment it arrives (set_wakeup_fd). A byte written by a Python handler
    # would come too late for a signal that lands just before select() blocks:
    # Python handlers run between bytecodes, so that one would wait for the
    # next output, which never comes from an idle program (a lost SIGTERM).
    saved = {s: signal.signal(s, _note) for s in _HANDLED}
    saved_wakeup = signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
    stdin_open = True
    try:
        os.fstat(stdin_fd)
    except OSError:
        stdin_open = False
    to_child = bytearray()
    last_in = b"\n"
    eof_sent = False
    try:
        while True:
            readers = [master, wake_r]
            if stdin_open and len(to_child) < READ_SIZE:
                readers.append(stdin_fd)
            writers = [master] if to_child else []
            try:
                ready, wready, _ = select.select(readers, writers, [], writer.next_deadline())
            except InterruptedError:
                continue
            writer.flush_due()
            if master in ready:
                try:
                    data = os.read(master, READ_SIZE)
                except BlockingIOError:
                    data = None
                except OSError as e:
                    if e.errno in (errno.EIO, errno.EBADF):
                        break
                    raise
                if data is not None:
                    if not data:
                        break
                    _write_all(stdout_fd, data)
                    writer.write("o", data)
            if stdin_fd in ready:
                try:
                    data = os.read(stdin_fd, READ_SIZE)
                except OSError:
                    data = b""
                if not data:
                    stdin_open = False
                else:
                    # Keys are kept only when asked (--input), and never a line
                    # typed with echo off (a password prompt).
                    if record_input and not terminal.secret_input(master):
                        writer.write("i", data)
                    to_child += data
                    last_in = data[-1:]
            if not stdin_open and not eof_sent and not to_child:
                # end of input: what a terminal sends for ^D; a first VEOF
                # only ends an open line
                eof = terminal.eof_char(master)
                to_child += eof if last_in in (b"\n", b"\r") else eof + eof
                eof_sent = True
            if to_child and (master in wready or len(to_child) < 4096):
                try:
                    n = os.write(master, to_child)
                    del to_child[:n]
                except BlockingIOError:
                    pass
                except OSError as e:
                    if e.errno in (errno.EIO, errno.EBADF):
                        to_child.clear()
                    else:
                        raise
            if wake_r in ready:
                try:
                    arrived = os.read(wake_r, 64)
                except BlockingIOError:
                    arrived = b""
                for sig in arrived:
                    if sig not in _HANDLED:
                        continue
                    if sig == signal.SIGWINCH:
                        size = terminal.size(size_fd if size_fd is not None else stdout_fd)
                        if size:
                            proc.setwinsize(size[1], size[0])
                            writer.write("r", f"{size[0]}x{size[1]}")
                            if on_resize:
                                on_resize(*size)
                    else:
                        try:
                            proc.kill(sig)
                        except OSError:
                            pass
    finally:
        signal.set_wakeup_fd(saved_wakeup)
        for s, old in saved.items():
            signal.signal(s, old)
        os.close(wake_r)
        os.close(wake_w)
    proc.wait()
    if proc.signalstatus:
        return 128 + proc.signalstatus
    return proc.exitstatus if proc.exitstatus is not None else 1
