"""Boxes a TUI draws over its own conversation.

A menu opened over the transcript (Amp's after a first Ctrl+C, a generic
TUI's confirmation dialog) hides the right part of the rows under it; the
rows are still there once it closes. A profile hands such rows to the
stitcher as covered (None), so the rows the box hid are kept, not replaced
by a mix of text and box.
"""
from __future__ import annotations

from screen.frames import Frame


def popup_rows(frame: Frame) -> range:
    """Rows of a box drawn over the conversation at the right: its top corner
    stands well inside the row and its right edge near the screen's, and its
    left side runs down to a bottom corner in the same column. A table in an
    answer starts at the left margin, so it is never one."""
    lines = frame.lines
    for y, ln in enumerate(lines):
        c = ln.find("╭─")
        body = ln.rstrip()
        if c < 4 or not body.endswith("╮") and not body[:-1].rstrip().endswith("╮"):
            continue
        if len(body) < frame.columns - 4:
            continue
        for y2 in range(y + 1, len(lines)):
            if lines[y2][c:c + 1] == "╰":
                return range(y, y2 + 1)
            if lines[y2][c:c + 1] not in ("│", "┃"):
                break
    return range(0)
