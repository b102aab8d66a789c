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
_SIGNAL_BYTES = {signal.SIGWINCH: b"w", signal.SIGTERM: b"t", signal.SIGHUP: b"h", signal.SIGINT: b"i"}
_BYTE_SIGNALS = {v[0]: k for k, v in _SIGNAL_BYTES.items()}


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


def spawn(session: Session) -> PtyProcess:
    return PtyProcess.spawn(session.argv, dimensions=(session.rows, session.cols), env=session.env,
                            cwd=session.cwd)


def run(proc: PtyProcess, writer: AsciicastWriter, record_input: bool = True, stdin_fd: int = 0,
        stdout_fd: int = 1, size_fd: int | None = None,
        on_resize: Callable[[int, int], None] | None = None) -> int:
    """Copy bytes until the child closes its terminal; return its exit code
    (128+N for a death by signal N)."""
    master = proc.fd
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    handled = [signal.SIGWINCH, signal.SIGTERM, signal.SIGHUP]
    if not os.isatty(stdin_fd):
        handled.append(signal.SIGINT)  # no terminal to turn ^C into a byte: pass it on

    def handler(signum: int, _frame: object) -> None:
        try:
            os.write(wake_w, _SIGNAL_BYTES[signum])
        except OSError:
            pass

    saved = {s: signal.signal(s, handler) for s in handled}
    readers = [master, wake_r]
    try:
        os.fstat(stdin_fd)
        readers.append(stdin_fd)
    except OSError:
        pass
    try:
        while True:
            try:
                ready, _, _ = select.select(readers, [], [], writer.next_deadline())
            except InterruptedError:
                continue
            writer.flush_due()
            if master in ready:
                try:
                    data = os.read(master, READ_SIZE)
                except OSError as e:
                    if e.errno in (errno.EIO, errno.EBADF):
                        break
                    raise
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
                    readers.remove(stdin_fd)
                else:
                    # Secrets: what is typed while the child has echo off is never kept.
                    if record_input and terminal.echo_on(master):
                        writer.write("i", data)
                    _write_all(master, data)
            if wake_r in ready:
                for b in os.read(wake_r, 64):
                    sig = _BYTE_SIGNALS.get(b)
                    if sig == signal.SIGWINCH:
                        size = terminal.size(size_fd if size_fd is not None else stdout_fd)
                        if size:
                            proc.setwinsize(size[1], size[0])
                            writer.write("r", f"{size[0]}x{size[1]}")
                            if on_resize:
                                on_resize(*size)
                    elif sig is not None:
                        try:
                            proc.kill(sig)
                        except OSError:
                            pass
    finally:
        for s, old in saved.items():
            signal.signal(s, old)
        os.close(wake_r)
        os.close(wake_w)
    proc.wait()
    if proc.signalstatus:
        return 128 + proc.signalstatus
    return proc.exitstatus if proc.exitstatus is not None else 1
