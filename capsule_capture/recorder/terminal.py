"""The real terminal: raw mode, size, and putting things back."""
from __future__ import annotations

import fcntl
import os
import struct
import termios
import tty
from contextlib import contextmanager
from typing import Iterator


def size(fd: int) -> tuple[int, int] | None:
    """(cols, rows) of the terminal on `fd`, or None if it is not a terminal."""
    try:
        rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    except OSError:
        return None
    return (cols, rows) if cols and rows else None


def fallback_size() -> tuple[int, int]:
    """Size when no terminal is attached (CI, pipes): $COLUMNS/$LINES or 80x24."""
    try:
        return int(os.environ.get("COLUMNS", 80)), int(os.environ.get("LINES", 24))
    except ValueError:
        return 80, 24


@contextmanager
def raw_mode(fd: int) -> Iterator[None]:
    """Put the terminal in raw mode; restore it on every way out."""
    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        yield
        return
    try:
        tty.setraw(fd, termios.TCSAFLUSH)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSAFLUSH, saved)


def echo_on(fd: int) -> bool:
    """Whether the PTY echoes input."""
    try:
        return bool(termios.tcgetattr(fd)[3] & termios.ECHO)
    except termios.error:
        return True


def secret_input(fd: int) -> bool:
    """Whether what is typed now is a secret: the child reads a line (canonical
    mode) without echoing it, as `getpass`, `sudo` and `passwd` do.

    Read through the master: on Linux tcgetattr on the master returns the
    slave side's settings. A full-screen program in raw mode with echo off
    is not a password prompt (every TUI runs like that), so its keys are
    not secret by this test, and neither is a remote password typed
    through ssh (the local PTY is raw then).
    """
    try:
        lflag = termios.tcgetattr(fd)[3]
    except termios.error:
        return True  # cannot tell: keep nothing
    return bool(lflag & termios.ICANON) and not lflag & termios.ECHO


def eof_char(fd: int) -> bytes:
    """The byte that ends input on the PTY (VEOF, ^D unless changed)."""
    try:
        c = termios.tcgetattr(fd)[6][termios.VEOF]
    except (termios.error, IndexError):
        return b"\x04"
    if isinstance(c, int):
        c = bytes([c])
    return c if c and c != b"\x00" else b"\x04"
