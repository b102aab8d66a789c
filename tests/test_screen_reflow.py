"""Resizes and wide characters, as tmux 3.3a does them.

Each case states what must happen (and why); where tmux is installed the
same bytes and resizes also go to a real tmux pane and every visible and
scrollback row must be the same.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from wcwidth import wcwidth

from screen.vscreen import HistoryLine, RowLayout, VirtualScreen
from tests.test_screen_fuzz import ESCAPES
from tests.tmux_ref import TmuxTerm, tmux_available

needs_tmux = pytest.mark.skipif(not tmux_available(), reason="tmux not installed (.ci/run installs it)")


def run(cols: int, rows: int, steps: list, history: int = 100) -> VirtualScreen:
    """Feed strings, resize on (cols, rows) tuples."""
    s = VirtualScreen(cols, rows, scrollback=history)
    for st_ in steps:
        if isinstance(st_, tuple):
            s.resize(columns=st_[0], lines=st_[1])
        else:
            s.feed(st_)
    return s


def visible_scrollback(s: VirtualScreen) -> list[str]:
    """Our scrollback as `capture-pane` shows it: on the alternate screen
    tmux does not reflow history, and prints each row cut at the width."""
    rows = [ln.text for ln in s.scrollback]
    if s.alternate:
        rows = [cut(t, s.columns) for t in rows]
    return rows


def cut(text: str, cols: int) -> str:
    out, used = [], 0
    for ch in text:
        w = max(wcwidth(ch), 0)
        if used + w > cols:
            break
        out.append(ch)
        used += w
    return "".join(out).rstrip()


def same_as_tmux(cols: int, rows: int, steps: list) -> None:
    s = VirtualScreen(cols, rows, scrollback=100)
    with TmuxTerm(cols, rows, history=100) as t:
        for st_ in steps:
            if isinstance(st_, tuple):
                s.resize(columns=st_[0], lines=st_[1])
                t.resize(*st_)
            else:
                s.feed(st_)
                t.feed(st_)
            visible, history = t.capture()
            assert s.text_lines() == visible, st_
            assert visible_scrollback(s) == history, st_
            assert (min(s.cursor.x, s.columns - 1), s.cursor.y) == (min(t.cursor()[0], s.columns - 1), t.cursor()[1])


LONG = "the quick brown fox jumps over the lazy dog"  # 43 cells


def test_wrapped_rows_rejoin_and_split_at_the_new_width():
    s = run(10, 6, [LONG + "\r\nnext"])
    assert s.text_lines()[:6] == ["the quick", "brown fox", "jumps over", " the lazy", "dog", "next"]
    assert [r.wrapped for r in s.row_layout()][:6] == [True, True, True, True, False, False]
    s.resize(columns=25, lines=6)
    assert s.text_lines()[:3] == ["the quick brown fox jumps", " over the lazy dog", "next"]
    assert s.row_layout()[0] == RowLayout(25, True) and s.row_layout()[1] == RowLayout(25, False)
    s.resize(columns=50, lines=6)
    assert s.text_lines()[:2] == [LONG, "next"]
    assert (s.cursor.x, s.cursor.y) == (4, 1)  # the cursor stays after "next"


def test_a_newline_is_not_a_wrap_so_short_rows_stay_apart():
    s = run(10, 4, ["one\r\ntwo\r\n"])
    s.resize(columns=30, lines=4)
    assert s.text_lines()[:2] == ["one", "two"]


def test_a_row_longer_than_the_new_width_is_split_even_if_it_never_wrapped():
    s = run(20, 4, ["0123456789abcdef"])
    s.resize(columns=8, lines=4)
    assert [ln.text for ln in s.scrollback] == ["01234567"] and s.scrollback[-1].wrapped
    assert s.text_lines()[0] == "89abcdef" and not s.row_layout()[0].wrapped
    s.resize(columns=20, lines=4)  # widening joins them again
    assert s.text_lines()[0] == "0123456789abcdef" and not s.scrollback


def test_the_screen_shows_the_last_rows_of_the_reflowed_text():
    # Splitting adds rows; the screen is always the last `lines` of them,
    # the first ones go to the scrollback (as tmux does).
    s = run(20, 3, ["0123456789abcdef\r\n"])
    s.resize(columns=8, lines=3)
    assert [ln.text for ln in s.scrollback] == ["01234567"]
    assert s.text_lines() == ["89abcdef", "", ""]


def test_narrowing_pushes_rows_to_history_and_records_them_once():
    s = run(20, 3, ["a" * 20, "b" * 10 + "\r\n", "c"])
    assert s.history_total == 0
    s.resize(columns=10, lines=3)
    assert [ln.text for ln in s.scrollback] == ["a" * 10]
    assert list(s.history) == ["a" * 10] and s.history_total == 1
    assert s.text_lines() == ["a" * 10, "b" * 10, "c"]
    s.resize(columns=20, lines=3)  # the row comes back; it is not history twice
    s.feed("\r\nd\r\ne\r\nf")
    # The joined row was half on screen, so it is new to the history.
    assert list(s.history) == ["a" * 10, "a" * 20, "b" * 10, "c"]


def test_growing_pulls_scrolled_history_back_into_view():
    s = run(10, 3, [f"line{i}\r\n" for i in range(6)] + ["end"])
    assert [ln.text for ln in s.scrollback] == ["line0", "line1", "line2", "line3"]
    total = s.history_total
    s.resize(columns=10, lines=5)
    assert s.text_lines() == ["line2", "line3", "line4", "line5", "end"]
    assert [ln.text for ln in s.scrollback] == ["line0", "line1"]
    # Scrolling them out again does not record them a second time.
    s.feed("\r\nmore\r\nand more")
    assert [ln.text for ln in s.scrollback] == ["line0", "line1", "line2", "line3"]
    assert s.history_total == total
    assert list(s.history)[-4:] == ["line0", "line1", "line2", "line3"]


def test_rows_cleared_into_history_are_not_pulled_back():
    # tmux pulls back only rows that scrolled; a full clear is not scrolling.
    s = run(10, 3, ["a\r\nb\r\nc", "\x1b[2J\x1b[Hnew"])
    assert [ln.text for ln in s.scrollback] == ["a", "b", "c"]
    s.resize(columns=10, lines=6)
    assert s.text_lines()[0] == "new"


def test_history_rows_carry_their_width_and_wrap():
    s = run(10, 2, ["0123456789abc\r\nx\r\ny\r\nz"])
    rows = s.history_lines_since(0)
    assert all(isinstance(r, HistoryLine) for r in rows)
    assert [(r.text, r.width, r.wrapped) for r in rows] == [("0123456789", 10, True), ("abc", 10, False),
                                                           ("x", 10, False)]
    s.resize(columns=6, lines=2)
    s.feed("\r\n1234567\r\n\r\n")
    assert [(r.text, r.width, r.wrapped) for r in s.history_lines_since(3)][-2:] == [("123456", 6, True),
                                                                                   ("7", 6, False)]


def test_alternate_screen_keeps_its_rows_and_the_main_screen_comes_back_reflowed():
    s = run(10, 4, [LONG[:25], "\x1b[?1049h", "\x1b[Halt text", (6, 4)])
    assert s.text_lines()[0] == "alt te"
    assert s.row_layout()[0].width == 10  # drawn before the resize, never reflowed
    assert s.row_layout()[1].width == 6
    s.feed("\x1b[?1049l")
    assert [ln.text for ln in s.scrollback][-2:] == ["the qu", "ick br"]
    assert s.text_lines() == ["own fo", "x jump", "s", ""]
    assert [r.width for r in s.row_layout()] == [6] * 4


def test_a_wide_character_over_the_left_half_of_another_blanks_its_right_half():
    # 你 at 0-1, 好 at 2-3; 世 drawn at 1 covers 你's right half and 好's left half.
    s = run(10, 2, ["你好", "\x1b[1;2H世"])
    assert s.text_lines()[0] == " 世"
    row = s.buffer[0]
    assert row[0].data == " " and row[1].data == "世" and row[2].data == "" and row[3].data == " "
    # A later write next to it keeps it whole.
    s.feed("\x1b[1;5Hx")
    assert s.text_lines()[0] == " 世 x"


def test_narrow_write_over_a_wide_right_half_blanks_its_left_half():
    s = run(10, 2, ["日本", "\x1b[1;2Hx"])
    assert s.text_lines()[0] == " x本"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=30), ESCAPES,
                          st.tuples(st.integers(1, 40), st.integers(1, 12))), max_size=30),
       st.integers(1, 40), st.integers(1, 12))
def test_any_input_and_resizes_keep_the_screen_consistent(steps, cols, rows):
    s = run(cols, rows, steps, history=30)
    assert len(s.text_lines()) == s.lines
    assert all(0 <= k < s.lines for k in s.buffer)
    assert 0 <= s.cursor.y < s.lines and 0 <= s.cursor.x <= s.columns
    assert len(s.scrollback) <= 30 and len(s.history) == len(s.history_lines) <= 30
    assert s.snapshot() == s.fresh_snapshot()
    assert len(s.row_layout()) == s.lines


CASES = {
    "wrap-then-widen-narrow": (10, 5, [LONG + "\r\nsecond line here", (17, 5), (7, 5), (30, 8), (10, 3)]),
    "grow-pulls-history": (12, 4, ["".join(f"row {i}\r\n" for i in range(9)) + "tail", (12, 7), (12, 2), (20, 9)]),
    "erase-and-wrap-flags": (10, 4, ["x" * 25 + "\x1b[2;1H\x1b[2K\x1b[4;1Hend", (14, 4), "\x1b[H\x1b[J" + "y" * 18, (6, 5)]),
    "wide-overlap": (10, 3, ["你好世界", "\x1b[1;2H中", "\x1b[2;1H日本語日本", (7, 3), "\x1b[1;4H文", (11, 4)]),
    "wide-wraps-at-the-edge": (9, 4, ["abcdefgh日本語", (8, 4), (13, 4)]),
    "region-scroll-and-insert": (12, 6, ["".join(f"{i}" * 15 + "\r\n" for i in range(5)),
                                         "\x1b[2;4r\x1b[2;1H\x1bM\x1b[3;1H\x1b[L\x1b[r", (20, 6), "\x1b[3;1H\x1b[2M", (9, 7)]),
    "alternate-resized-while-away": (10, 4, [LONG, "\x1b[?1049h", "alt " * 8, (7, 3), (14, 6), "\x1b[?1049l", (10, 4)]),
    "bg-erase-is-not-text": (10, 4, ["\x1b[44mab\x1b[K\r\n\x1b[2Kcd\x1b[0m\r\n" + "z" * 12, (6, 4), (16, 5)]),
}


@needs_tmux
@pytest.mark.parametrize("name", sorted(CASES))
def test_resizes_and_wide_characters_match_tmux(name):
    cols, rows, steps = CASES[name]
    same_as_tmux(cols, rows, steps)


# -- the reflow's shortcut for rows of one-cell characters ------------------------

_NARROW_CELLS = st.lists(st.sampled_from("ab "), max_size=30)
_REFLOW_LINES = st.lists(st.tuples(st.one_of(_NARROW_CELLS, st.lists(st.sampled_from(["a", "日"]), max_size=12)),
                                   st.booleans(), st.booleans()), min_size=1, max_size=10)


@settings(max_examples=500, deadline=None)
@given(_REFLOW_LINES, st.integers(1, 25), st.integers(0, 10), st.integers(0, 30), st.data())
def test_rows_of_one_cell_characters_reflow_as_cell_by_cell(lines, sx, hscrolled, cx, data):
    # A row without wide characters is joined and split a run of cells at a
    # time (`_has_stub` false), a row with them a cell at a time; both ways
    # lay out the same rows.
    from pyte.screens import Char

    import screen.reflow as rf

    def make() -> list:
        out = []
        for chars, wrapped, seen in lines:
            cells = []
            for ch in chars:
                cells += [Char(ch), Char("")] if ch == "日" else [Char(ch)]
            out.append(rf.RLine(cells, wrapped, seen))
        return out

    sy = data.draw(st.integers(1, len(lines)))
    cy = data.draw(st.integers(0, len(lines) - 1))

    def laid_out(result: tuple) -> tuple:
        out, hsize, hsc, cursor = result
        return [(ln.cells, ln.wrapped, ln.seen) for ln in out], hsize, hsc, cursor

    fast = laid_out(rf.reflow(make(), sx, sy, hscrolled, (cx, cy)))
    real = rf._has_stub
    try:
        rf._has_stub = lambda cells: True  # every row the cell-by-cell way
        slow = laid_out(rf.reflow(make(), sx, sy, hscrolled, (cx, cy)))
    finally:
        rf._has_stub = real
    assert fast == slow


@settings(max_examples=300, deadline=None)
@given(_REFLOW_LINES, st.integers(1, 25), st.integers(0, 10), st.integers(0, 30), st.data())
def test_scrollback_rows_the_reflow_cannot_change_are_kept_as_they_are(lines, sx, hscrolled, cx, data):
    # A scrollback row that does not wrap, follows one that does not and fits
    # the new width is passed as it is kept (not an `RLine`, see `reflow`) and
    # handed back untouched (made an `RLine` by `expand` if it lands on the
    # screen): the rows, the scrollback's size, `hscrolled` and the cursor
    # come out as when every row is an `RLine`.
    from pyte.screens import Char

    import screen.reflow as rf

    class Kept:
        """A kept row as the screen passes one (vscreen's HistoryLine): its wrap
        flag, and its cells, read only where the cursor lands on it."""

        def __init__(self, line: rf.RLine) -> None:
            self.line, self.wrapped, self.cells = line, line.wrapped, line.cells

    sy = data.draw(st.integers(1, len(lines)))
    cy = data.draw(st.integers(len(lines) - sy, len(lines) - 1))  # the cursor is on the screen
    hsize = len(lines) - sy

    def make(keep: bool) -> list:
        out: list = []
        for y, (chars, wrapped, seen) in enumerate(lines):
            cells = []
            for ch in chars:
                cells += [Char(ch), Char("")] if ch == "日" else [Char(ch)]
            ln = rf.RLine(cells, wrapped, seen or y < hsize)
            kept = keep and y < hsize and not wrapped and not (y and lines[y - 1][1]) and len(cells) <= sx
            out.append(Kept(ln) if kept else ln)
        return out

    def laid_out(result: tuple) -> tuple:
        out, hsize, hsc, cursor = result
        rows = [ln.line if isinstance(ln, Kept) else ln for ln in out]
        return [(ln.cells, ln.wrapped, ln.seen) for ln in rows], hsize, hsc, cursor

    def expand(k: Kept) -> rf.RLine:
        return rf.RLine(k.line.cells, k.line.wrapped, True)

    assert laid_out(rf.reflow(make(True), sx, sy, hscrolled, (cx, cy), expand)) == \
        laid_out(rf.reflow(make(False), sx, sy, hscrolled, (cx, cy)))


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["a", "日", ""]), max_size=14), st.integers(1, 16))
def test_a_rows_measure_is_the_walk_over_its_cells(chars, sx):
    # `_measure` (width, first cell past `sx`) worked out in C-backed steps,
    # against the walk of tmux's grid_reflow a cell at a time, stray stubs
    # (a right half without its left) included.
    from pyte.screens import Char

    from screen.reflow import _measure, _width

    cells = [Char(c) for c in chars]
    width = at = 0
    for i in range(len(cells)):
        w = _width(cells, i)
        if at == 0 and width + w > sx:
            at = i
        width += w
    got_width, got_at = _measure(cells, sx)
    assert got_width == width
    if width > sx:  # `at` is read only for a row to split
        assert got_at == at
