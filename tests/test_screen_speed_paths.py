"""The screen's shortcuts give exactly what its general paths give.

The parser writes text that fits on the row straight into the row (the
common case of `VirtualScreen.draw`, without the call), attributes go from
pen to pen by remembered SGR steps, and a lone truecolour SGR is read
without the parameter loop. Each is checked here against the general path
it stands in for, on generated input: the same cells, cursor, history and
REP character.
"""
from __future__ import annotations

import pyte
from hypothesis import example, given, settings, strategies as st

from screen.parser import compile_sgr, compile_sgr_params
from pyte.screens import Char

from screen.vscreen import _BLANK, Row, VirtualScreen, _NoWrapRow, row_cells

COMPONENT = st.one_of(st.integers(0, 999), st.sampled_from([0, 2, 5, 58, 255, 256]))


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["38", "48"]), COMPONENT, COMPONENT, COMPONENT, st.sampled_from(["", "\x1b["]),
       st.booleans())
def test_lone_truecolour_sgr_reads_as_the_parameter_loop(which, r, g, b, prefix, pad):
    # `pad`: zero-padded numbers ("058" is 58 to the parameter loop too).
    fmt = "{:03d}" if pad else "{}"
    run = f"{prefix}{which};2;{fmt.format(r)};{fmt.format(g)};{fmt.format(b)}m"
    assert compile_sgr(run) == compile_sgr_params(run)


# Pieces of output: an escape part (moves, colours, erases, modes that
# change how text is drawn) and the text written after it.
ESCAPE = st.sampled_from([
    "", "\r", "\r\n", "\n", "\x1b[H", "\x1b[2;3H", "\x1b[9;99H", "\x1b[5G", "\x1b[2C", "\x1b[3D", "\x1b[A",
    "\x1b[2B", "\x1b[31m", "\x1b[0m", "\x1b[1;38;2;10;20;30m", "\x1b[38;2;1;58;3m", "\x1b[48;5;200m",
    "\x1b[7m\x1b[22m", "\x1b[K", "\x1b[1K", "\x1b[2K", "\x1b[4h", "\x1b[4l", "\x1b(0", "\x1b(B", "\x0e", "\x0f",
    "\x1b[?7l", "\x1b[?7h", "\x1b[2;4r", "\x1b[r", "\x1b[?6h", "\x1b[?6l", "\x1b7", "\x1b8", "\x1b[?1049h",
    "\x1b[?1049l", "\x1b[2J", "\x1b[S", "\x1b[2b", "\x1b[?5h", "\x1b[?5l", "\x1b[3@", "\x1b[2P",
])
TEXT = st.one_of(st.text(alphabet="abcdefghij xyz", min_size=1, max_size=14),
                 st.sampled_from(["·", "•●", "──", "日本", "e\u0301", "a日b", "🇫🇷", "x\ufe0f", "lqk", "█▀▄",
                                  # CJK the parser writes at once where it fits (`_wide_layout`)
                                  "中文字", "한글 ab", "日本語のテキスト", "ｘ全角", "表·格", "日\u200d本"]))


def _state(s: VirtualScreen) -> tuple:
    rows = [(y, sorted(r.items()), r.wrapped, r.used) for y, r in sorted(s.buffer.items()) if y < s.lines]
    hist = [(h.text, h.spans, h.wrapped, h.used) for h in s.history_lines]
    return (s.fresh_snapshot(), rows, s.cursor.x, s.cursor.y, s.cursor.attrs, hist, s._last_char)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(ESCAPE, TEXT), min_size=1, max_size=30), st.integers(3, 16), st.integers(2, 6))
# Autowrap off, then insert mode: the parser had tracked the row already
# (holding 3 cells), `draw` only at the insert (holding 6), and the blanks the
# insert moved in counted for one and not the other (tmux: up to the width).
@example([("", "•●"), ("\x1b[?7l", "a"), ("\x1b[4h", "a"), ("\x1b[K", "a")], 6, 2)
def test_text_written_by_the_parser_is_what_draw_writes(pieces, cols, rows):
    # Texts with nothing between them are one text to the parser: draw them as one.
    merged: list[tuple[str, str]] = []
    for esc, text in pieces:
        if merged and not esc:
            merged[-1] = (merged[-1][0], merged[-1][1] + text)
        else:
            merged.append((esc, text))
    fast = VirtualScreen(cols, rows, scrollback=20)
    general = VirtualScreen(cols, rows, scrollback=20)
    fast.feed("".join(esc + text for esc, text in merged))
    for esc, text in merged:
        general.feed(esc)
        general.draw(text)  # the general path, for every text
    assert _state(fast) == _state(general)
    # REP repeats the last character either way.
    fast.feed("\x1b[3b")
    general.feed("\x1b[3b")
    assert _state(fast) == _state(general)


def test_a_gradient_keeps_one_pen_per_colour():
    # 190 cells, each in its own truecolour: one pen per colour, and drawing
    # the same gradient again makes no new pen or cell.
    s = VirtualScreen(200, 3)
    reds = range(60, 250)
    gradient = "".join(f"\x1b[38;2;{r};100;7m·" for r in reds)
    s.feed(gradient)
    pens = len(s._pens)
    cells = [s.buffer[0][x] for x in range(len(reds))]
    s.feed("\r" + gradient)
    assert len(s._pens) == pens <= len(reds) + 2
    assert all(a is b for a, b in zip(cells, (s.buffer[0][x] for x in range(len(reds)))))
    assert [c.fg for c in cells] == ["{:02x}6407".format(r) for r in reds]


def test_a_remembered_reset_follows_reverse_video():
    # SGR 0 leads to pyte's default attributes, which DECSCNM (reverse video)
    # changes: a step remembered before the switch must not be reused after.
    seq = "\x1b[7;31mA\x1b[0mB\x1b[?5h\x1b[31mC\x1b[0mD"
    s = VirtualScreen(10, 2)
    ref = pyte.Screen(10, 2)
    s.feed(seq)
    pyte.Stream(ref).feed(seq)
    assert [s.buffer[0][x] for x in range(4)] == [ref.buffer[0][x] for x in range(4)]


# -- autowrap switched off and on around redraws (Kimi) ---------------------------

class _EagerTracking(VirtualScreen):
    """The reference: every row tracked the moment autowrap goes off (what
    the screen did before rows were tracked on first change)."""

    def _autowrap_off(self) -> None:
        super()._autowrap_off()
        for row in self._rows():
            if type(row) is not _NoWrapRow:
                self._track(row)


NOWRAP_ESCAPE = st.sampled_from([
    "", "\r", "\r\n", "\r\r\n", "\n\n", "\x1b[H", "\x1b[2;3H", "\x1b[5G", "\x1b[2C", "\x1b[A", "\x1b[2B",
    "\x1b[K", "\x1b[1K", "\x1b[2K", "\x1b[J", "\x1b[2J", "\x1b[44m", "\x1b[0m", "\x1b[3P", "\x1b[2@", "\x1b[4X",
    "\x1b[?7l", "\x1b[?7h", "\x1b[?7l", "\x1b[?1049h", "\x1b[?1049l", "\x1b[2;4r", "\x1b[r", "\x1bM", "\x1b[S",
])
NOWRAP_TEXT = st.one_of(st.text(alphabet="abc ", min_size=0, max_size=30), st.sampled_from(["日本", "  ", "─" * 12]))


def _rows_state(s: VirtualScreen) -> tuple:
    rows = [(y, sorted(r.items()), r.wrapped, r.used) for y, r in sorted(s.buffer.items()) if y < s.lines]
    sb = [(h.text, h.cells, h.wrapped, h.used) for h in s.scrollback]
    return _state(s), rows, sb, s.row_layout()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(NOWRAP_ESCAPE, NOWRAP_TEXT), min_size=1, max_size=40), st.integers(4, 20),
       st.integers(2, 6), st.lists(st.tuples(st.integers(0, 39), st.integers(3, 24), st.integers(2, 8)), max_size=2))
def test_rows_tracked_on_first_change_read_as_rows_tracked_at_once(pieces, cols, rows, resizes):
    # Rows are measured the same way (reflow on a resize, history, erases)
    # whether tracked when autowrap went off or when first changed after.
    lazy = VirtualScreen(cols, rows, scrollback=30)
    eager = _EagerTracking(cols, rows, scrollback=30)
    at = {i: (c, r) for i, c, r in resizes}
    for i, (esc, text) in enumerate(pieces):
        for s in (lazy, eager):
            s.feed(esc + text)
            if i in at:
                s.resize(columns=at[i][0], lines=at[i][1])
        assert _rows_state(lazy) == _rows_state(eager)
    for s in (lazy, eager):
        s.resize(columns=cols + 3, lines=rows + 1)
    assert _rows_state(lazy) == _rows_state(eager)


def _update_cell_by_cell(row: _NoWrapRow, other: dict) -> None:
    for x, c in other.items():
        row[x] = c


@settings(max_examples=1000, deadline=None)
@given(st.integers(1, 40), st.integers(0, 44), st.integers(0, 44),
       st.lists(st.tuples(st.integers(0, 44), st.lists(st.sampled_from(["a", " ", "bg"]), max_size=44)),
                min_size=1, max_size=4))
def test_a_row_without_autowrap_takes_a_run_as_cell_by_cell(cols, seen, size, writes):
    # `_NoWrapRow.update` works out in steps what writing the run a cell at a
    # time tracks (tmux's allocation and extent).
    owner = VirtualScreen(cols, 2)
    a, b = _NoWrapRow(_BLANK), _NoWrapRow(_BLANK)
    for r in (a, b):
        r.owner, r.seen, r.size = owner, seen, size
    kinds = {"a": Char("a"), " ": _BLANK, "bg": Char(" ", bg="red")}
    for lo, cells in writes:
        run = {lo + i: kinds[k] for i, k in enumerate(cells)}
        a.update(run)
        _update_cell_by_cell(b, run)
        assert (a.seen, a.size, dict(a)) == (b.seen, b.size, dict(b))


@settings(max_examples=1000, deadline=None)
@given(st.integers(1, 40), st.lists(st.tuples(st.integers(0, 39), st.lists(st.sampled_from(["a", " ", "bg"]),
                                                                        min_size=1, max_size=40)),
                                     min_size=1, max_size=5))
def test_a_row_without_autowrap_takes_cells_put_in_order_as_cell_by_cell(cols, writes):
    # `_NoWrapRow.put` (the parser loop's write) tracks what writing the
    # cells one at a time tracks; a row not `loose` holds no cell that
    # settling it would drop (autowrap coming back checks only loose rows).
    owner = VirtualScreen(cols, 2)
    a, b = _NoWrapRow(_BLANK), _NoWrapRow(_BLANK)
    for r in (a, b):
        r.owner = owner
    kinds = {"a": Char("a"), " ": _BLANK, "bg": Char(" ", bg="red")}
    for lo, cells in writes:
        cells = [kinds[k] for k in cells][:max(cols - lo, 0)]
        if not cells:
            continue
        a.put(lo, cells)
        _update_cell_by_cell(b, dict(zip(range(lo, lo + len(cells)), cells)))
        assert (a.seen, a.size, dict(a)) == (b.seen, b.size, dict(b))
        if not a.loose:
            assert all(x < max(a.seen, a.used) for x in a)


def test_autowrap_off_and_on_leaves_rows_it_did_not_write_alone():
    # kimi-cli's render: autowrap off, a word typed at the end of the input
    # line, autowrap on. Only the written row is tracked, and rows stay
    # plain `Row`s until something other than the parser's loop changes them.
    s = VirtualScreen(20, 4)
    s.feed("z\x1b[2;1Hab cd\x1b[4;1H  ")
    s.feed("\x1b[?7l\x1b[2;6Hx")
    assert s._flip_pending and type(s.buffer[1]) is _NoWrapRow
    assert type(s.buffer[0]) is type(s.buffer[3]) is Row
    s.feed("\x1b[?7h")
    assert not s._flip_pending and all(type(r) is Row for r in s.buffer.values())
    s.feed("\x1b[?7l\x1b[4;1H\x1b[2P")  # a handler (DCH) changes rows: they are flipped first
    assert not s._flip_pending and type(s.buffer[3]) is _NoWrapRow and type(s.buffer[0]) is not Row


# Mode switches and line breaks the parser handles in its loop, against the
# screen's own methods.
PRIVATE = st.sampled_from(["?25l", "?25h", "?2026h", "?2026l", "?7l", "?7h", "?12l", "?12h", "?2004h",
                           "?1000;1006h", "?1049h", "?1049l", "?5h", "?5l", "?6h", "?6l", "?0025l", "?h"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.one_of(PRIVATE, st.sampled_from(["\r", "\n", "\r\r\n", "\n\r\n\r", "\r\r",
                                                              "\r\r\n" * 4, "\n" * 7, "\x1b[2;3r", "\x1b[r"])),
                          st.text(alphabet="xy ", max_size=12)), min_size=1, max_size=30),
       st.integers(3, 12), st.integers(2, 5), st.booleans())
def test_modes_and_line_breaks_in_the_loop_do_what_the_methods_do(pieces, cols, rows, lnm):
    fast = VirtualScreen(cols, rows, scrollback=20)
    general = VirtualScreen(cols, rows, scrollback=20)
    syncs: list[list[str]] = [[], []]
    fast.on_boundary, general.on_boundary = syncs[0].append, syncs[1].append
    if lnm:
        fast.feed("\x1b[20h")
        general.set_mode(pyte.modes.LNM)
    for piece, text in pieces:
        if piece[0] == "?":
            fast.feed(f"\x1b[{piece}")
            params, final = piece[1:-1], piece[-1]
            args = [int(p) for p in params.split(";")] if params else []
            (general.set_mode if final == "h" else general.reset_mode)(*args, private=True)
        elif piece[0] == "\x1b":  # scroll margins set or reset: line feeds then scroll only them
            fast.feed(piece)
            general.feed(piece)
        else:
            fast.feed(piece)
            for ch in piece:
                general.carriage_return() if ch == "\r" else general.linefeed()
        fast.feed(text)
        general.feed(text)
        assert _rows_state(fast) == _rows_state(general)
        assert (fast.mode, fast.cursor.hidden, fast.synchronized, fast.sync_updates) == \
            (general.mode, general.cursor.hidden, general.synchronized, general.sync_updates)
    assert syncs[0] == syncs[1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.lists(PRIVATE, min_size=1, max_size=5), st.text(alphabet="xy ", max_size=6)),
                min_size=1, max_size=12), st.integers(3, 12), st.integers(2, 5))
def test_a_run_of_private_modes_is_each_mode_in_turn(pieces, cols, rows):
    # `ESC[?25l ESC[?7l ...` written together is one token to the parser
    # (a run), taken a mode at a time: the same as each fed alone.
    run = VirtualScreen(cols, rows, scrollback=20)
    one = VirtualScreen(cols, rows, scrollback=20)
    syncs: list[list[str]] = [[], []]
    run.on_boundary, one.on_boundary = syncs[0].append, syncs[1].append
    for modes, text in pieces:
        run.feed("".join(f"\x1b[{p}" for p in modes) + text)
        for p in modes:
            one.feed(f"\x1b[{p}")
        one.feed(text)
        assert _rows_state(run) == _rows_state(one)
        assert (run.mode, run.cursor.hidden, run.synchronized, run.sync_updates, run.alternate) == \
            (one.mode, one.cursor.hidden, one.synchronized, one.sync_updates, one.alternate)
    assert syncs[0] == syncs[1]


def test_a_run_of_private_modes_is_one_token():
    from screen.parser import _G, _SCAN
    tokens = [(m.lastindex, m.group()) for m in _SCAN.finditer("\x1b[?25l\x1b[?7lab\x1b[?7h\x1b[?12l\x1b[?25h\x1b[?2")]
    assert tokens[0] == (_G["priv"], "\x1b[?25l\x1b[?7l")
    assert tokens[2] == (_G["priv"], "\x1b[?7h\x1b[?12l\x1b[?25h")
    assert tokens[-1] == (_G["tail"], "\x1b[?2")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(ESCAPE, TEXT, st.booleans()), min_size=1, max_size=30), st.integers(3, 16),
       st.integers(2, 6), st.lists(st.tuples(st.integers(0, 29), st.integers(3, 16), st.integers(2, 6)), max_size=2))
def test_snapshot_wrap_flags_are_the_rows_wrap_flags(pieces, cols, rows, resizes):
    # `snapshot_wrapped` keeps each row's `Row.wrapped` as of the last snapshot,
    # re-read only on rows marked dirty: every change of a flag (a write past the
    # edge, a wide character pushed to the next row, an erase or scroll that
    # unwraps) must mark its row. Snapshots are taken between some writes only.
    s = VirtualScreen(cols, rows, scrollback=20)
    at = {i: (c, r) for i, c, r in resizes}
    for i, (esc, text, snap) in enumerate(pieces):
        s.feed(esc + text)
        if i in at:
            s.resize(columns=at[i][0], lines=at[i][1])
        if snap or i == len(pieces) - 1:
            s.snapshot_with_text()
            want = [False if (r := s.buffer.get(y)) is None else bool(r.wrapped) for y in range(s.lines)]
            assert s.snapshot_wrapped() == want


@settings(max_examples=500, deadline=None)
@given(st.integers(1, 130), st.lists(st.tuples(st.integers(0, 135), st.sampled_from("ab ")), max_size=140),
       st.sampled_from(["default", "red"]))
def test_a_sparse_row_reads_as_every_column_read(cols, cells, bg):
    # `row_cells` lays a row with missing cells over a row of its blank: the
    # same cells, the very same objects, as reading each column with the blank
    # for a missing one (the blank differs per row: an erase in a colour).
    row = Row(Char(" ", bg=bg))
    for x, ch in cells:
        row[x] = Char(ch)
    got = row_cells(row, cols)
    want = tuple(row.get(x, row.default) for x in range(cols))
    assert got == want and all(a is b for a, b in zip(got, want))
