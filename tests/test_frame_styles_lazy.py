"""A frame's style spans are worked out per row, only for the rows read.

Chrome rules read the styles of a few rows per frame (a composer's
background, a margin bar); computing every row of every frame was the
largest single cost of replaying a long Codex session.
"""
from __future__ import annotations

from screen.frames import FrameBuilder, RowStyles
from screen.vscreen import cells_spans


def _frame():
    fb = FrameBuilder(20, 4)
    fb.feed_event(0.0, "o", "\x1b[1;31mred\x1b[0m\r\nplain\r\n\x1b[44mblue bg\x1b[0m")
    return fb.finish()[-1]


def test_only_the_rows_read_are_computed():
    f = _frame()
    calls: list[tuple] = []

    def spans(cells):
        calls.append(cells)
        return cells_spans(cells)

    styles = RowStyles(f.cells, spans)
    assert styles[2] == cells_spans(f.cells[2])
    assert len(calls) == 1
    assert styles[2] == cells_spans(f.cells[2])  # read again: remembered
    assert len(calls) == 1
    assert styles[3] == ()  # a blank row has no spans and costs nothing
    assert len(calls) == 1


def test_styles_read_like_the_list_of_every_row():
    f = _frame()
    full = [cells_spans(c) if c is not None else () for c in f.cells]
    assert f.styles == full
    assert list(f.styles) == full
    assert len(f.styles) == 4
    assert f.styles[-1] == full[-1] and f.styles[1:3] == full[1:3]
    assert f.styles[0][0][2] == "red" and f.styles[1] == () and f.styles[2][0][3] == "blue"
    assert f.styles != [()] * 4
