"""A frame at the start of each in-place render of an inline renderer.

Claude Code's inline renderer draws each state as one render: it takes the
cursor up from where it parked it (`ESC[2D ESC[3B CR ESC[nA`), rewrites the rows
that changed and parks the cursor again. A row one render drew and the next
one erased (a running tool group naming its call, `⎿  $ head -n 65 …`) was in a
frame only when a pause followed that render, so the same bytes written faster
lost the call (h15-sh-cc-fish-resume). The render's start is where the state
before it ended: a frame is taken there, whatever the pauses.
"""
from __future__ import annotations

from screen.frames import FrameBuilder

PARK = "\x1b[2C\x1b[3A"
RENDER = "\x1b[2D\x1b[3B\r\x1b[4A"


def frames_of(events: list[tuple[float, str]]) -> list[list[str]]:
    fb = FrameBuilder(40, 12)
    out = []
    for t, data in events:
        out += fb.feed_event(t, "o", data)
    out += fb.finish()
    return [f.lines for f in out]


def stream() -> list[str]:
    first = "\r\n" * 6 + "● Reading 1 file…\r\n  ⎿  $ head -n 65 log\r\n\r\n> \r\n\r\n" + PARK
    second = RENDER + "● Read 1 file\x1b[K\r\n\x1b[K\r\n" + PARK
    return [first, second]


def test_a_row_the_next_render_erases_is_in_a_frame_without_pauses():
    pieces = stream()
    together = frames_of([(0.0, "".join(pieces))])
    assert any("  ⎿  $ head -n 65 log" in lines for lines in together)
    assert "● Read 1 file" in together[-1] and "  ⎿  $ head -n 65 log" not in together[-1]


def test_the_same_frames_with_pauses_between_renders():
    pieces = stream()
    paused = frames_of([(0.0, pieces[0]), (1.0, pieces[1])])
    together = frames_of([(0.0, "".join(pieces))])
    assert [f for f in paused if any(f)] == [f for f in together if any(f)]


def test_a_cursor_up_inside_one_render_takes_no_frame():
    # a render that moves up twice to place its rows is one state: no frame
    # between its moves (only at its start, once the previous render ended)
    body = "\r\n" * 6 + "a\r\nb\r\n" + "\x1b[2A" + "A" + "\x1b[1B\r" + "B" + PARK
    fr = frames_of([(0.0, body)])
    assert not any(("a" in lines and "B" in lines) for lines in fr)
    assert any(("A" in lines and "B" in lines) for lines in fr)
