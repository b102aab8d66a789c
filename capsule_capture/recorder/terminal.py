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
    """Whether the PTY echoes input (off at password prompts)."""
    try:
        return bool(termios.tcgetattr(fd)[3] & termios.ECHO)
    except termios.error:
        return True
