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
    answer starts at the left margin, so it is never one; a box centred on a
    narrow screen (Amp's command palette, 80 cells wide) can stand two or
    three cells in, with the conversation showing beside it. Columns are screen
    cells: a row holding wide characters (CJK) has fewer characters than
    cells, and the box's side is found in the cell it is drawn in."""
    lines = frame.lines
    for y, ln in enumerate(lines):
        i = ln.find("╭─")
        body = ln.rstrip()
        if i < 0:
            continue
        c = wcswidth(ln[:i])
        if c < 2:
            continue
        if c >= 4 and wcswidth(body) >= frame.columns - 4 and (body.endswith("╮") or body[:-1].rstrip().endswith("╮")):
            for y2 in range(y + 1, len(lines)):
                side = _at_cell(lines[y2], c)
                if side == "╰":
                    return range(y, y2 + 1)
                if side not in ("│", "┃"):
                    break
            continue
        got = _centred_box(lines, y, c)
        if got is not None:
            return got
    return range(0)


def _centred_box(lines: list[str], y: int, c: int) -> range | None:
    """A box drawn over the conversation away from both edges (Amp's command
    palette, centred): its top corner at cell `c` on row `y`, the matching
    `╮`, both sides running down to `╰` and `╯` in the same cells, and
    something of the conversation showing beside it on one of its rows (a
    box the model drew in an answer has only its indent beside it)."""
    top = lines[y]
    x = top.find("╭─")
    end = top.find("╮", x)
    if end < 0:
        return None
    r = c + wcswidth(top[x:end])
    beside = bool(top[:x].strip() or top[end + 1:].strip())
    for y2 in range(y + 1, len(lines)):
        left, right = _at_cell(lines[y2], c), _at_cell(lines[y2], r)
        if left == "╰" and right == "╯":
            return range(y, y2 + 1) if beside or _beside(lines[y2], c, r) else None
        if left not in ("│", "┃") or right not in ("│", "┃"):
            return None
        beside = beside or _beside(lines[y2], c, r)
    return None


def _beside(ln: str, c: int, r: int) -> bool:
    """Whether the row shows anything left of cell `c` or right of cell `r`."""
    x, out = 0, False
    for ch in ln:
        if (x < c or x > r) and ch.strip():
            out = True
            break
        x += max(wcwidth(ch), 1)
    return out


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
