"""Turn a frame sequence into one ordered list of rendered lines.

Two drawing modes meet here. Inline TUIs write finished output into the
main screen, where it scrolls into history; the live area at the bottom is
redrawn in place and only its final state matters, so the transcript is
the history in order plus the last main screen. Full-screen TUIs redraw a
viewport on the alternate screen; those views are stitched (see
`stitch.py`). A recording may go back and forth (a pager opened from an
inline agent): each alternate-screen stretch becomes its own block, placed
where it happened.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

import regex

from screen.frames import Frame
from agents_chrome.stitch import Stitcher

# Rows [start, end) of a frame that hold conversation, or None to skip it.
Viewport = Callable[[Frame], "tuple[int, int] | None"]


@dataclass
class TLine:
    text: str
    time: float  # recording time when the line was first seen
    source: str  # "history" | "screen" | "alt"
    block: int  # which main/alt stretch it came from


def whole_screen(frame: Frame) -> tuple[int, int] | None:
    return (0, len(frame.lines))


def frame_text(frame: Frame) -> list[str]:
    return frame.lines


def without_scrollbar(frame: Frame, glyphs: set[str] | frozenset[str]) -> list[str]:
    """The frame's rows with a scrollbar glyph in the last column removed.

    Read from the cell grid: with wide characters on a row, the text's last
    character is not necessarily in the last column.
    """
    edge = frame.columns - 1
    out = []
    for y, ln in enumerate(frame.lines):
        cells = frame.cells[y] if frame.cells else None
        last = cells[edge].data if cells is not None and len(cells) > edge else ln[edge:edge + 1]
        if last in glyphs and ln.endswith(last):
            ln = ln[:-1]
        out.append(ln.rstrip())
    return out


def build_transcript(frames: Iterable[Frame], viewport: Viewport = whole_screen,
                     main_viewport: Viewport | None = None,
                     rows: Callable[[Frame], list[str]] = frame_text) -> list[TLine]:
    """Ordered transcript lines from frames.

    `viewport` selects the conversation rows of alternate-screen frames;
    `main_viewport` (default: the whole screen) those of the final main
    screen, so an input box or footer at the bottom can be left out.
    `rows` gives a frame's row texts (a profile may crop a sidebar or
    encode a style the text alone does not show).
    """
    out: list[TLine] = []
    block = 0
    stitcher: Stitcher | None = None
    last_main: Frame | None = None
    for f in frames:
        if not f.alternate and stitcher is not None:
            # the alternate-screen stretch ended before this frame's output
            out.extend(TLine(t, tm, "alt", block) for t, tm in zip(stitcher.doc, stitcher.times))
            stitcher = None
            block += 1
        for ln in f.scrolled:
            out.append(TLine(ln, f.time, "history", block))
        if f.alternate:
            if stitcher is None:
                block += 1
                stitcher = Stitcher()
            vp = viewport(f)
            if vp is not None:
                stitcher.add(rows(f)[vp[0]:vp[1]], f.time)
        else:
            last_main = f
    if stitcher is not None:
        out.extend(TLine(t, tm, "alt", block) for t, tm in zip(stitcher.doc, stitcher.times))
        block += 1
    if last_main is not None:
        vp = (main_viewport or whole_screen)(last_main)
        if vp is not None:
            final = rows(last_main)[vp[0]:vp[1]]
            while final and not final[-1].strip():
                final.pop()
            out.extend(TLine(t, last_main.time, "screen", block) for t in final)
    return out


def fold_reprints(lines: list[TLine], anchor: "regex.Pattern[str]", compare: int = 6) -> list[TLine]:
    """Drop a stretch the program printed again in full.

    Inline TUIs redraw everything after a clear or resize (Claude Code
    reprints its header and the whole conversation); our screen keeps the
    first copy in history, so the transcript holds both. A stretch that
    starts at an `anchor` line (the header) and whose first `compare`
    non-blank lines open the next stretch too is an older copy: dropped.
    """
    starts = [i for i, ln in enumerate(lines) if anchor.search(ln.text)]
    if len(starts) < 2:
        return lines
    bounds = starts + [len(lines)]
    keep: list[TLine] = list(lines[:starts[0]])
    for k in range(len(starts)):
        seg = lines[bounds[k]:bounds[k + 1]]
        if k + 1 < len(starts):
            nxt = lines[bounds[k + 1]:bounds[k + 2]]
            a = [ln.text for ln in seg if ln.text.strip()][:compare]
            b = [ln.text for ln in nxt if ln.text.strip()][:len(a)]
            if len(a) >= 2 and a == b:
                continue  # the next stretch reprints this one
        keep.extend(seg)
    return keep
