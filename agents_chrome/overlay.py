"""Boxes a TUI draws over its own conversation.

A menu opened over the transcript (Amp's after a first Ctrl+C, a generic
TUI's confirmation dialog) hides the right part of the rows under it; the
rows are still there once it closes. A profile hands such rows to the
stitcher as covered (None), so the rows the box hid are kept, not replaced
by a mix of text and box.
"""
from __future__ import annotations

from wcwidth import wcswidth, wcwidth

from screen.frames import Frame


def popup_rows(frame: Frame) -> range:
    """Rows of a box drawn over the conversation at the right: its top corner
    stands well inside the row and its right edge near the screen's, and its
    left side runs down to a bottom corner in the same column. A table in an
    answer starts at the left margin, so it is never one. Columns are screen
    cells: a row holding wide characters (CJK) has fewer characters than
    cells, and the box's side is found in the cell it is drawn in."""
    lines = frame.lines
    for y, ln in enumerate(lines):
        i = ln.find("╭─")
        body = ln.rstrip()
        if i < 0:
            continue
        c = wcswidth(ln[:i])
        if c < 4 or not body.endswith("╮") and not body[:-1].rstrip().endswith("╮"):
            continue
        if wcswidth(body) < frame.columns - 4:
            continue
        for y2 in range(y + 1, len(lines)):
            side = _at_cell(lines[y2], c)
            if side == "╰":
                return range(y, y2 + 1)
            if side not in ("│", "┃"):
                break
    return range(0)


def _at_cell(ln: str, col: int) -> str:
    """The character drawn in screen cell `col` of a row ("" past its end or
    on the right half of a wide character)."""
    x = 0
    for ch in ln:
        if x == col:
            return ch
        x += max(wcwidth(ch), 1)
        if x > col:
            return ""
    return ""
