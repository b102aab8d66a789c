"""The virtual screen: a `pyte.Screen` with what agent TUIs need and pyte lacks.

pyte is the engine (cell grid, cursor, SGR, margins, modes); this subclass
adds bounded scrollback, the alternate screen, synchronized output, SU/SD,
REP, correct wide and zero-width characters, and an engine-side history of
every line that left the visible screen. That history is what replay builds
transcripts from, so a program that clears the terminal's scrollback
(`CSI 3 J`) or the screen cannot erase what we already saw.

Resizes follow tmux 3.3a, the reference terminal of the tests: rows keep
their autowrap flag (`Row.wrapped`) and extent, a width change reflows
scrollback and screen (`screen.reflow`), a taller screen takes rows that
scrolled into history back into view. What readers get:

- `history` (text) and `history_lines` (`HistoryLine`: `text`, `spans`,
  `width` the row was laid out at, `wrapped` = it continues on the next
  row), the same rows in the same order; `history_since(n)` and
  `history_lines_since(n)` give those added after `history_total` was n.
  A row a resize brings back from history is not recorded again when it
  leaves unchanged; rows a narrowing pushes off the top are recorded then.
- `scrollback`: the terminal's scrollback as tmux shows it (reflowed,
  cleared by `CSI 3 J`), `HistoryLine`s too.
- `row_layout()`: per visible row, `RowLayout(width, wrapped)`.
"""
from __future__ import annotations

import re
import unicodedata
from collections import defaultdict, deque
from itertools import compress, groupby, repeat
from operator import is_not, itemgetter
from typing import Any, Callable, NamedTuple

import pyte
from pyte import modes as mo
from pyte.screens import Char, Cursor, Margins, StaticDefaultDict
from wcwidth import wcwidth

from screen.parser import Parser
from screen.reflow import _WRAPPED, RLine, _has_stub, reflow

# DEC private modes, in pyte's shifted encoding.
ALT_1049 = 1049 << 5
ALT_1047 = 1047 << 5
ALT_47 = 47 << 5
SYNC_2026 = 2026 << 5
_ALT_MODES = (ALT_1049, ALT_1047, ALT_47)

Span = tuple[int, int, str, str, int]  # start, end, fg, bg, flags


class Line(NamedTuple):
    """A rendered row: its text (trailing blanks trimmed) and style spans."""

    text: str
    spans: tuple[Span, ...]


FLAG_BOLD, FLAG_ITALIC, FLAG_UNDERLINE, FLAG_REVERSE, FLAG_STRIKE = 1, 2, 4, 8, 16


_DATA = itemgetter(0)
_STYLE = itemgetter(1, 2, 3, 4, 5, 6, 7)  # fg, bg, bold, italics, underscore, strikethrough, reverse
_ROW_GETTERS: dict[int, Callable[[Any], tuple]] = {}


def row_cells(line: dict[int, Char], columns: int) -> tuple[Char, ...]:
    """The row's cells as an immutable tuple (a cheap snapshot; blanks filled in)."""
    getter = _ROW_GETTERS.get(columns)
    if getter is None:
        getter = _ROW_GETTERS[columns] = itemgetter(*range(columns)) if columns > 1 else (lambda d: (d[0],))
    if len(line) < columns:
        # A sparse row (an erase to the end of the line drops cells): its
        # cells laid over a whole row of its blank, then read in one call
        # (reading the blanks through `__missing__` runs Python per cell; a
        # `get` with a default per column costs twice this)
        default = line.default  # type: ignore[attr-defined]
        blank = _BLANK_ROWS.get((columns, id(default)))
        if blank is None or blank[0] is not default:
            if len(_BLANK_ROWS) >= 64:
                _BLANK_ROWS.clear()
            blank = _BLANK_ROWS[(columns, id(default))] = (default, dict.fromkeys(range(columns), default))
        return getter({**blank[1], **line})
    return getter(line)


#: (columns, id of a row's blank) -> (that blank, a row of it: column -> blank);
#: the blank is kept so its id is not reused while the entry lives
_BLANK_ROWS: dict[tuple[int, int], tuple[Char, dict[int, Char]]] = {}


def cells_text(cells: tuple[Char, ...]) -> str:
    return "".join(map(_DATA, cells)).rstrip()


def cells_spans(cells: tuple[Char, ...]) -> tuple[Span, ...]:
    """Runs of equal style, leaving out the default style."""
    spans: list[Span] = []
    x = 0
    for style, group in groupby(map(_STYLE, cells)):
        n = len(list(group))
        fg, bg, bold, italics, underscore, strike, reverse = style
        flags = ((FLAG_BOLD if bold else 0) | (FLAG_ITALIC if italics else 0)
                 | (FLAG_UNDERLINE if underscore else 0) | (FLAG_REVERSE if reverse else 0)
                 | (FLAG_STRIKE if strike else 0))
        if fg != "default" or bg != "default" or flags:
            spans.append((x, x + n, fg, bg, flags))
        x += n
    return tuple(spans)


def render_text(line: dict[int, Char], columns: int) -> str:
    """Row text; the stub cell behind a wide character contributes nothing."""
    if not line:
        return ""
    if not isinstance(line, StaticDefaultDict):
        line = _as_static(line)
    return cells_text(row_cells(line, columns))


def render_spans(line: dict[int, Char], columns: int) -> tuple[Span, ...]:
    if not line:
        return ()
    if not isinstance(line, StaticDefaultDict):
        line = _as_static(line)
    return cells_spans(row_cells(line, columns))


_BLANK = Char(" ")
_DEFAULT_REVERSE = Char(" ", reverse=True)


def _as_static(line: dict[int, Char]) -> "StaticDefaultDict[int, Char]":
    d: StaticDefaultDict[int, Char] = StaticDefaultDict(_BLANK)
    d.update(line)
    return d


_LAT1 = pyte.charsets.LAT1_MAP
_IRM = mo.IRM


class Row(StaticDefaultDict):  # type: ignore[type-arg]
    """A screen row; `wide` is set once a wide character is drawn on it.

    Drawing over half of a wide character must blank its other half; rows
    that never held one (most of them) skip that check on every draw.

    `wrapped`: autowrap carried the text on to the next row (tmux's
    GRID_LINE_WRAPPED): a resize joins such rows back into one line and
    splits it again at the new width. `used`: how far the row was ever
    written since it was last emptied (tmux's `cellused`): erasing to the end
    of the line drops our cells but not tmux's extent, and the reflow
    measures a line by its extent. `width`: the screen width the row was laid
    out at (0 = the current width; only the alternate screen, which is never
    reflowed, keeps rows of an older width). `echo`: the text the row had
    when a resize brought it back from history, so it is not recorded twice.
    These are class attributes: only the rows that differ get their own.
    """

    wide = False
    wrapped = False
    used = 0
    width = 0
    echo: str | None = None
    again = False  # a blank row a reflow brought back from history (HistoryLine.again)
    fill: Char | None = None  # the blank an erase in a background colour left (not "used")

    def put(self, x: int, cells: list[Char]) -> None:
        """`cells` written at columns x, x+1, ... (all on the row)."""
        dict.update(self, zip(range(x, x + len(cells)), cells))


def _alloc(n: int, cols: int) -> int:
    """How many cells tmux holds for a row written up to `n` (grid_expand_line)."""
    if n <= 0:
        return 0
    q, h = cols // 4, cols // 2
    return q if n < q else h if n < h else cols if n < cols else n


class _NoWrapRow(Row):
    """A row while autowrap is off, when tmux writes character by character
    (screen_write_cell) and does not store a default blank past the cells
    the row holds (`size`, grown as `_alloc` says), so such a blank does not
    extend the row (`seen`: tmux's `cellused`, which a reflow measures).
    With autowrap on, text is stored as a run and all its blanks count.
    Cells are still all kept here (they look the same); `_settle` drops the
    blanks past `seen` before the row is measured."""

    size = 0
    seen = 0
    loose = False  # a cell was written past `seen` (one `_settle` may drop) since tracked
    owner: Any = None  # the screen: its width is what the row grows by

    def __setitem__(self, x: int, c: Char) -> None:
        dict.__setitem__(self, x, c)
        if x >= self.seen:
            if x < self.size or c != _BLANK:
                self.seen = x + 1
                if x >= self.size:
                    self.size = _alloc(x + 1, self.owner.columns)
            else:
                self.loose = True

    def put(self, x: int, cells: list[Char]) -> None:
        """`Row.put`, tracked as `update` tracks columns written in order."""
        m = x + len(cells) - 1
        if m < self.size:  # all inside what the row holds: every cell counts
            dict.update(self, zip(range(x, m + 1), cells))
            if m >= self.seen:
                self.seen = m + 1
            return
        self.update(dict(zip(range(x, m + 1), cells)))

    def update(self, other: Any = (), **kw: Any) -> None:
        if not isinstance(other, dict):
            other = dict(other)
        if not other:
            return
        m = max(other)
        dict.update(self, other)
        seen, size = self.seen, self.size
        if m < size:  # all inside what the row holds: every cell counts
            if m >= seen:
                self.seen = m + 1
            return
        # `self[x] = c` for each in order (what it tracks reads no cell).
        cols = self.owner.columns
        lo = min(other)
        if m < cols and len(other) == m - lo + 1 and list(other) == list(range(lo, m + 1)):
            # Columns lo..m in order (every caller's case): cells inside what
            # the row holds all count; past it, the first one not a default
            # blank counts and grows the row, a step at a time.
            top = m if m < size else size - 1
            if top >= lo and top >= seen:
                seen = top + 1
            x = max(lo, size, seen)
            while x <= m:
                while x <= m and other[x] == _BLANK:
                    x += 1
                if x > m:
                    break
                size = _alloc(x + 1, cols)
                top = m if m < size else size - 1
                seen = top + 1
                x = top + 1
        else:
            for x, c in other.items():
                if x >= seen and (x < size or c != _BLANK):
                    seen = x + 1
                    if x >= size:
                        size = _alloc(x + 1, cols)
        self.seen, self.size = seen, size
        if m >= seen:
            self.loose = True


class _UntrackedRow(Row):
    """A row that was on the screen when autowrap last went off and has not
    been changed since. TUIs that switch autowrap off around every redraw
    (Kimi: `?7l ... ?7h` per render) change a few rows each time; tracking
    every row at each switch, and making each plain again after, was most of
    their replay time. Such a row is tracked (`VirtualScreen._track`, from
    its extent: the same as when autowrap went off, nothing changed it) only
    when something first changes it while autowrap is off, and made a plain
    `Row` when something first changes it with autowrap back on. A row left
    unchanged needs neither: its extent covers all its cells, so settling it
    drops nothing. Every mutator does this first (as of before the change);
    `VirtualScreen._settle` does too, before an erase changes `used` or
    `fill`; a resize tracks them all (`_track` sizes a row by the width).
    Each screen has its own subclass whose `owner` is the screen, so
    switching a row to it is one class assignment."""

    owner: Any = None  # the screen

    def __setitem__(self, x: int, c: Char) -> None:
        self.owner._touch(self)
        self[x] = c

    def update(self, other: Any = (), **kw: Any) -> None:
        self.owner._touch(self)
        self.update(other, **kw)

    def put(self, x: int, cells: list[Char]) -> None:
        self.owner._touch(self)
        self.put(x, cells)

    def __delitem__(self, x: int) -> None:
        self.owner._touch(self)
        dict.__delitem__(self, x)

    def pop(self, *args: Any) -> Any:
        self.owner._touch(self)
        return dict.pop(self, *args)

    def popitem(self) -> Any:
        self.owner._touch(self)
        return dict.popitem(self)

    def clear(self) -> None:
        self.owner._touch(self)
        dict.clear(self)

    def setdefault(self, *args: Any) -> Any:
        self.owner._touch(self)
        return self.setdefault(*args)

    def __ior__(self, other: Any) -> Any:
        self.owner._touch(self)
        self.update(other)
        return self


def _extent(line: Row) -> int:
    """How far the row counts as written (tmux's `cellused`): blanks an
    erase in a background colour left do not count, erased cells do."""
    if not line:
        return line.used
    fill = line.fill
    if fill is None:
        m = max(line) + 1
    else:
        # The last column whose cell is not the fill blank (walked in C).
        m = max(compress(line, map(is_not, line.values(), repeat(fill))), default=-1) + 1
    return m if m > line.used else line.used


class HistoryLine:
    """A row that left the visible main screen, as it was laid out.

    `text` (trailing blanks trimmed) and `spans` (style runs, worked out on
    first use) are what the transcript reads; `width` is the screen width the
    row was laid out at and `wrapped` says the row continues on the next one
    (a soft wrap, not a newline), so a reader can join soft-wrapped rows into
    the logical line and tell a reprint at another width from new text.
    `cells` (up to `used`) is what a reflow needs to lay the row out again.
    `again`: a blank row that a taller screen brought back from history and
    a width change laid out again, scrolling off once more: the history holds
    it already, at the place it first left (a reader that knows its program
    leaves such rows alone can drop it; one that reprints may count on it).
    `own`: only the scrollback holds this row (`relaid` made it), so a
    later reflow may lay it out again in place.
    """

    __slots__ = ("cells", "text", "width", "wrapped", "used", "again", "_spans", "stub", "own")

    def __init__(self, cells: tuple[Char, ...], text: str, width: int, wrapped: bool, used: int,
                 again: bool = False, stub: bool | None = None) -> None:
        self.cells = cells
        self.text = text
        self.width = width
        self.wrapped = wrapped
        self.used = used
        self.again = again
        self._spans: tuple[Span, ...] | None = None
        # whether a wide character's right half is among the cells up to
        # `used` (None: not known yet): what a reflow measures the row by
        self.stub = stub
        self.own = False

    @property
    def spans(self) -> tuple[Span, ...]:
        if self._spans is None:
            self._spans = cells_spans(self.cells) if self.cells else ()
        return self._spans

    def __repr__(self) -> str:
        return f"HistoryLine({self.text!r}, width={self.width}, wrapped={self.wrapped})"

    def relaid(self, width: int) -> "HistoryLine":
        """This scrollback row as a reflow to `width` that leaves it as it is
        lays it out: its cells up to its extent, not wrapped, at `width`
        (what `VirtualScreen._reflow` makes of an `RLine` it moved).

        A new row the first time (the history may hold this one: it keeps the
        width the row left at), the same row after: a long scrollback laid out
        again made ten thousand rows per resize, and the garbage collector's
        passes over them cost more than the reflow itself."""
        if self.own:  # made here: cells up to `used`, not wrapped, not `again`
            self.width = width
            return self
        cells, used = self.cells, self.used
        if len(cells) != used:  # (what `_history_cells` gives, as a tuple)
            cells = cells[:used] if len(cells) > used else cells + (_BLANK,) * (used - len(cells))
        entry = HistoryLine(cells, self.text, width, False, self.used, stub=self.stub)
        if cells is self.cells:
            entry._spans = self._spans
        entry.own = True
        return entry


def _history_cells(entry: HistoryLine) -> list[Char]:
    """A history row's cells up to its extent (blank ones kept: they count)."""
    cells = list(entry.cells[:entry.used])
    if len(cells) < entry.used:
        cells.extend([_BLANK] * (entry.used - len(cells)))
    return cells


def _kept_rline(entry: HistoryLine) -> RLine:
    """The `RLine` of a scrollback row: one the reflow may change, or one it
    kept as it was that lands on the screen (a wider screen joined rows
    below it)."""
    return RLine(_history_cells(entry), entry.wrapped, True, entry.stub, entry)


class RowLayout(NamedTuple):
    """How a visible row is laid out: the width it was drawn at, and whether
    autowrap carried its text on to the next row."""

    width: int
    wrapped: bool




class _Cells(dict):  # type: ignore[type-arg]
    """Interned cells of one set of attributes, made on first use: cells are
    immutable, so a character drawn with the same attributes is one object.
    Nothing is made ahead: truecolour gradients (Amp) make nearly every set
    of attributes new, and most are used for a character or two."""

    __slots__ = ("tail",)

    def __init__(self, attrs: Char) -> None:
        super().__init__()
        self.tail = tuple(attrs)[1:]

    def __missing__(self, ch: str) -> Char:
        cell = self[ch] = _new_char(Char, (ch, *self.tail))
        return cell


_new_char = tuple.__new__


class Pen:
    """One set of attributes and what drawing with it needs, made on first use.

    `cells`: the interned cells of these attributes; `runs`: runs of cells
    drawn before with them, by (column, text); `sgr`: the pen an SGR run
    text leads to from this one. A screen keeps one pen per distinct set of
    attributes and the cursor's attributes are always some pen's `attrs`
    object after an SGR, so "same attributes as last time" is an identity
    test, not a hash of a nine-field tuple (truecolour gradients change the
    attributes every cell or two)."""

    __slots__ = ("attrs", "cells", "runs", "sgr", "erases_plain")

    def __init__(self, attrs: Char) -> None:
        self.attrs = attrs
        # an erase with these attributes leaves default blanks (no background, not reverse)
        self.erases_plain = attrs.bg == "default" and not attrs.reverse
        self.cells = _Cells(attrs)
        self.runs: dict[tuple[int, str], dict[int, Char]] = {}
        self.sgr: dict[str, Pen] = {}


_PENS_MAX = 4096  # distinct attribute sets kept (then all are forgotten)
_ROWS_SEEN_MAX = 4096  # distinct row snapshots kept to share (then all are forgotten)


# Runs of at least this many cells are merged from a cache (a plain loop is
# faster for shorter ones); runs up to _RUN_MAX long are kept, _RUN_BUDGET
# cells in all.
_RUN_MIN = 4
_RUN_MAX = 512
_RUN_BUDGET = 1 << 18

#: bytes of UTF-8 one cell holds (tmux's UTF8_SIZE): more marks are dropped
_CELL_BYTES = 21

_ASCII_OR_NOT = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")

_WIDTH_ONE: dict[str, bool] = {}
_WIDTHS: dict[str, int] = {}


def _all_narrow(data: str) -> bool:
    """Every character takes exactly one cell (box drawing, bullets, accents)."""
    known = _NARROW_TEXT.get(data)
    if known is not None:
        return known
    ok = _all_narrow_chars(data)
    if len(data) <= 16:
        if len(_NARROW_TEXT) > 4096:
            _NARROW_TEXT.clear()
        _NARROW_TEXT[data] = ok
    return ok


_NARROW_TEXT: dict[str, bool] = {}  # short texts seen before (bullets, gradients' dots)
_NO_LAYOUT = (0, "")


def _wide_layout(data: str) -> tuple[int, str]:
    """(width, cell characters) of text whose characters take one or two
    cells, nothing else (no zero-width or joining character, no flag
    letter): what `_draw_unicode` writes for it where it fits, a wide
    character's right half being "" (`(0, "")`: text of another kind).
    Worked out once per text (CJK answers redraw the same words)."""
    got = _WIDE_TEXT.get(data)
    if got is not None:
        return got
    widths = _WIDTHS
    width, out = 0, []
    for ch in data:
        w = widths.get(ch)
        if w is None:
            w = widths[ch] = wcwidth(ch)
        if w == 1:
            out.append(ch)
        elif w == 2 and not "\U0001f1e6" <= ch <= "\U0001f1ff":
            out += (ch, "")
        else:  # zero-width, a joiner, a flag letter, not printable: character by character
            width, out = 0, []
            break
        width += w
    got = (width, out) if width else _NO_LAYOUT
    if len(_WIDE_TEXT) > 4096:
        _WIDE_TEXT.clear()
    _WIDE_TEXT[data] = got  # type: ignore[assignment]
    return got  # type: ignore[return-value]


_WIDE_TEXT: dict[str, tuple[int, str]] = {}


def _all_narrow_chars(data: str) -> bool:
    cache = _WIDTH_ONE
    for ch in set(data):
        ok = cache.get(ch)
        if ok is None:
            ok = cache[ch] = wcwidth(ch) == 1 and unicodedata.category(ch)[0] != "M"
        if not ok:
            return False
    return True


def _unsplit_wide(line: Row, x: int, end: int, cols: int) -> None:
    """Cells x..end-1 are about to be overwritten: a wide character cut in
    half by that loses its other half, as tmux does (`screen_write_overwrite`):
    the stub at x takes the character before it, and a stub at `end` (the
    right half of a wide character whose left half is overwritten, also when
    the new character is itself wide) becomes a default blank. tmux looks
    no further than the screen's width: a stub past it (a row of the
    alternate screen drawn before it narrowed) stays, and shows as nothing."""
    left = line.get(x)
    if left is not None and left.data == "" and x > 0:
        line[x - 1] = _BLANK
    if end < cols:
        right = line.get(end)
        if right is not None and right.data == "":
            line[end] = _BLANK


def _not_recorded(kept: "list[HistoryLine]", recorded: list[str]) -> "list[HistoryLine]":
    """The rows a shrink kept at the top (`VirtualScreen.kept_at_top`) that a
    width change made in the same resize did not send to the history: the
    reflow pushes rows off the top first, so the kept rows it recorded are a
    prefix of them (read by their text, laid out anew at the new width); the
    rest stay where a program's wipe may still find them."""
    flat = "".join("".join(t.split()) for t in recorded)
    gone = 0
    for k, entry in enumerate(kept):
        text = "".join(entry.text.split())
        if text and text in flat:
            gone = k + 1
        elif text:
            break
    return kept[gone:]


class VirtualScreen(pyte.Screen):
    """pyte screen plus scrollback, alternate buffer and boundary hooks.

    `on_boundary(reason)` is called just before anything that would wipe
    the visible content (alternate-screen switch, full clear, resize), so
    the frame builder can take a frame of what was there.
    """

    def __init__(self, columns: int, lines: int, scrollback: int = 10_000) -> None:
        self.scrollback_limit = max(0, scrollback)
        # The terminal's scrollback, as tmux keeps it: cleared by `CSI 3 J`,
        # laid out again when the width changes, and handing its last rows
        # back to the screen when the screen grows. `hscrolled`: how many of
        # its rows came from scrolling (tmux pulls back only those).
        self.scrollback: deque[HistoryLine] = deque(maxlen=self.scrollback_limit or None)
        self.hscrolled = 0
        # Engine record of lines that left the visible main screen; never
        # cleared by the program, never laid out again. `history` holds their
        # text, `history_lines` the same rows with their layout;
        # `history_total` counts all ever added.
        self.history: deque[str] = deque(maxlen=max(self.scrollback_limit, 1))
        self.history_lines: deque[HistoryLine] = deque(maxlen=max(self.scrollback_limit, 1))
        self.history_total = 0
        # rows a resize brought back from history that left the top again unchanged
        # (not recorded twice): a reader counting rows by the history counts these too
        self.history_returned = 0
        # After the last resize shrank the main screen: the rows at its top that
        # a terminal keeping the bottom rows (xterm) would have scrolled off,
        # where tmux dropped blank rows below the cursor instead. A program
        # redrawing "the last screenful" after the shrink believes them gone
        # into the scrollback and wipes them (see `screen.frames`).
        self.kept_at_top: list[HistoryLine] = []
        self.alternate = False
        self.synchronized = False
        self.sync_updates = 0  # completed synchronized updates
        self.on_boundary: Callable[[str], None] | None = None
        self._main_saved: tuple[Any, Cursor, list, int, int] | None = None
        self._snap: list[tuple[Char, ...] | None] = []
        self._snap_text: list[str] = []
        self._snap_wrapped: list[bool] = []  # per row, `Row.wrapped` as of the last snapshot
        self._snap_cols = 0
        #: per row, its cells as of the last snapshot that read it (a plain dict
        #: copy) and its blank: a row marked dirty but holding the same cells is
        #: told by one dict comparison, with no tuple of its cells made
        self._snap_src: list[dict | None] = []
        self._snap_blank: list[Char | None] = []
        # row snapshots by their text: equal rows are one tuple (see `snapshot_with_text`)
        self._rows_seen: dict[str, tuple[Char, ...]] = {}
        # One pen per set of attributes drawn with (see `Pen`), and the pen
        # drawn with last.
        self._pens: dict[Char, Pen] = {}
        self._pen = self.pen_for(_BLANK)
        self._run_cells = 0  # cells held by all run caches
        self._last_char: str = ""
        # A zero-width joiner was drawn and waits for the character it joins
        # (tmux 3.3a's SCREEN_WRITE_ZWJ).
        self._zwj = False
        self._blanks: dict[Char, Char] = {}
        self._untracked_row = type("_UntrackedRow", (_UntrackedRow,), {"owner": self})
        self._nowrap: list[Row] = []  # rows made `_NoWrapRow`s since autowrap went off
        self._flip_pending = False  # autowrap went off and the rows are not `_UntrackedRow`s yet (`_flip`)
        # OSC 8 hyperlinks: (target, the text drawn under it), one per stretch
        # of a row drawn between the link's opening and its closing, in the
        # order they were closed (a reader takes them; see `Frame.links`).
        # Markdown renderers (Rich) draw a link's text and hand its target
        # to the terminal only, so it is on no row.
        self.links: list[tuple[str, str]] = []
        self._link_at: tuple[str, int, int] | None = None  # (target, y, x) of an open link
        super().__init__(columns, lines)
        self.buffer = self._new_buffer()
        self.parser = Parser(self)
        self.feed = self.parser.feed  # type: ignore[method-assign]  # one call less per output event

    # What the parser's inline drawing shares with `draw` (see `Parser.feed`).
    plain_row = Row  # rows of this class take cells as a plain dict does
    narrow_known = _NARROW_TEXT
    all_narrow = staticmethod(_all_narrow)
    wide_layout = staticmethod(_wide_layout)
    unsplit_wide = staticmethod(_unsplit_wide)

    @property
    def default_char(self) -> Char:
        """pyte builds this on every read; rows and resets read it often."""
        return _DEFAULT_REVERSE if mo.DECSCNM in self.mode else _BLANK

    # -- input ------------------------------------------------------------
    def feed(self, data: str) -> None:
        self.parser.feed(data)

    # -- history ----------------------------------------------------------
    def _push_history(self, line: Row | None, scrolled: bool = True, record: bool = True) -> None:
        """A row leaves the top of the main screen for the scrollback and the
        history (not the history when `record` is off)."""
        if self.alternate:
            return
        entry = self._history_entry(line)
        if self.scrollback_limit:
            self.scrollback.append(entry)
            if scrolled:
                self.hscrolled += 1
        if not record or (line is not None and line.echo is not None and line.echo == entry.text):
            if record:
                self.history_returned += 1
            return  # a row a resize brought back from history, unchanged: recorded already
        if line is not None and line.again and not entry.text:
            entry.again = True
        self._record(entry)

    def record_rows(self, entries: "list[HistoryLine]") -> None:
        """Rows into the history record only (not the terminal's scrollback)."""
        for entry in entries:
            self._record(entry)

    def _history_entry(self, line: Row | None) -> HistoryLine:
        """A main-screen row as the history keeps it."""
        cols = self.columns
        if line:
            self._settle(line)
            cells = row_cells(line, cols)
            text = cells_text(cells)
            used = _extent(line)
            return HistoryLine(cells, text, cols, line.wrapped, used if used < cols else cols)
        if line is None:
            return HistoryLine((), "", cols, False, 0)
        return HistoryLine((), "", cols, line.wrapped, min(line.used, cols))

    def _record(self, entry: HistoryLine) -> None:
        self.history.append(entry.text)
        self.history_lines.append(entry)
        self.history_total += 1

    def history_since(self, total_before: int) -> list[str]:
        """History lines added since `history_total` was `total_before`."""
        n = min(self.history_total - total_before, len(self.history))
        if n <= 0:
            return []
        h = self.history
        return [h[i] for i in range(len(h) - n, len(h))]

    def history_lines_since(self, total_before: int) -> list[HistoryLine]:
        """Like `history_since`, the rows with their layout (`width`, `wrapped`)."""
        n = min(self.history_total - total_before, len(self.history_lines))
        if n <= 0:
            return []
        h = self.history_lines
        return [h[i] for i in range(len(h) - n, len(h))]

    def _boundary(self, reason: str) -> None:
        if self.on_boundary is not None:
            self.on_boundary(reason)

    def hyperlink(self, target: str) -> None:
        """OSC 8: a link opens (a target) or closes (none) at the cursor. The
        text drawn since the opening on the cursor's row is the link's."""
        open_at, self._link_at = self._link_at, None
        if open_at is not None:
            url, y, x0 = open_at
            x1 = self.cursor.x
            if y == self.cursor.y and x1 > x0:
                row = self.buffer[y]
                text = "".join(row[x].data for x in range(x0, min(x1, self.columns))).strip()
                if text:
                    self.links.append((url, text))
        if target:
            self._link_at = (target, self.cursor.y, self.cursor.x)

    # -- drawing ----------------------------------------------------------
    def draw(self, data: str) -> None:
        if self.charset:
            data = data.translate(self.g1_charset)
        elif self.g0_charset is not _LAT1:
            data = data.translate(self.g0_charset)
        if self._zwj:
            data = self._draw_after_zwj(data)
        if not data:
            return
        cursor = self.cursor
        x = cursor.x
        end = x + len(data)
        pen = self._pen
        if pen.attrs is not cursor.attrs:
            pen = self._pen = self.pen_for(cursor.attrs)
            cursor.attrs = pen.attrs  # equal; the pen's object, for the next identity test
        if end <= self.columns and _IRM not in self.mode:
            # The common case: one-cell characters that fit on the row. A
            # run drawn before at this column (TUIs redraw the same words in
            # the same places) is merged as a whole.
            run = pen.runs.get((x, data)) if end - x >= _RUN_MIN else None
            if run is not None or data.isascii() or _all_narrow(data):
                y = cursor.y
                line = self.buffer[y]
                if line.wide:
                    _unsplit_wide(line, x, end, self.columns)
                if run is not None:
                    line.update(run)
                elif end - x >= _RUN_MIN:
                    line.update(self.new_run(pen, x, data))
                else:
                    cells = pen.cells
                    for ch in data:
                        line[x] = cells[ch]
                        x += 1
                cursor.x = end
                self.dirty.add(y)
                self._last_char = data[-1]
                return
            self._draw_mixed(data)
        elif _IRM in self.mode:
            self._draw_unicode(data)
        elif data.isascii() or _all_narrow(data):
            self._draw_wrapping(data)
        else:
            self._draw_mixed(data)
        self._last_char = data[-1]

    def _draw_mixed(self, data: str) -> None:
        """Text with wide or zero-width characters: its ASCII stretches are
        written a row at a time, only the rest character by character."""
        for part in _ASCII_OR_NOT.findall(data):
            if part.isascii():
                if self._zwj:
                    part = self._draw_after_zwj(part)
                if part:
                    self._draw_wrapping(part)
            else:
                self._draw_unicode(part)

    def new_run(self, pen: Pen, x: int, data: str) -> dict[int, Char]:
        """The cells of `data` drawn with `pen` from column `x`, kept for the next time."""
        run = dict(zip(range(x, x + len(data)), map(pen.cells.__getitem__, data)))
        if len(data) <= _RUN_MAX:
            if self._run_cells > _RUN_BUDGET:
                for p in self._pens.values():
                    p.runs.clear()
                pen.runs.clear()
                self._run_cells = 0
            pen.runs[(x, data)] = run
            self._run_cells += len(data)
        return run

    def pen_for(self, attrs: Char) -> Pen:
        """The pen of `attrs` (equal attributes, one pen)."""
        pen = self._pens.get(attrs)
        if pen is None:
            if len(self._pens) >= _PENS_MAX:
                self._forget_pens()
            pen = self._pens[attrs] = Pen(attrs)
        return pen

    def pens(self) -> list[Pen]:
        """The pens kept now."""
        return list(self._pens.values())

    def _forget_pens(self) -> None:
        """Drop every pen (and so every cached run and SGR step): the pens
        table is full, or DECSCNM changed what a reset SGR leads to."""
        for p in (*self._pens.values(), self._pen):
            p.sgr.clear()
            p.runs.clear()
        self._pens.clear()
        self._run_cells = 0

    def _cells_for(self, attrs: Char) -> dict[str, Char]:
        """The cell table of `attrs`."""
        pen = self._pen
        if pen.attrs is not attrs:
            pen = self._pen = self.pen_for(attrs)
        return pen.cells

    def _draw_wrapping(self, data: str) -> None:
        cursor = self.cursor
        attrs = cursor.attrs
        cells = self._cells_for(attrs)
        cols = self.columns
        if mo.DECAWM not in self.mode:
            # No autowrap: everything past the margin lands in the last cell.
            if cursor.x >= cols:
                cursor.x = cols - 1
            room = cols - cursor.x
            if len(data) > room:
                data = data[:room - 1] + data[-1]
        i, n = 0, len(data)
        get = cells.__getitem__
        while i < n:
            if cursor.x >= cols:
                self.buffer[cursor.y].wrapped = True
                self.dirty.add(cursor.y)  # its wrap flag changed (`snapshot_with_text` reads it)
                self.carriage_return()
                self.linefeed()
            x = cursor.x
            chunk = data[i:i + cols - x]
            k = len(chunk)
            line = self.buffer[cursor.y]
            if line.wide:
                _unsplit_wide(line, x, x + k, cols)
            line.update(zip(range(x, x + k), map(get, chunk)))
            self.dirty.add(cursor.y)
            i += k
            cursor.x = x + k
        if mo.DECAWM not in self.mode and cursor.x >= cols:
            cursor.x = cols - 1
        self.dirty.add(cursor.y)

    def _draw_unicode(self, data: str) -> None:
        """Character by character: wide, zero-width and flag characters, and insert mode."""
        cursor = self.cursor
        cols = self.columns
        autowrap = mo.DECAWM in self.mode
        insert = _IRM in self.mode
        cells = self._cells_for(cursor.attrs)
        widths = _WIDTHS
        line = self.buffer[cursor.y]
        self.dirty.add(cursor.y)
        for ch in data:
            w = widths.get(ch)
            if w is None:
                w = widths[ch] = wcwidth(ch)
            if ch == "\u200d":
                self._zwj = True  # kept back until the next character
                continue
            if self._zwj and not (autowrap and not insert and " " <= ch <= "~"):
                # The character after a zero-width joiner joins the cell
                # before the cursor (with the joiner), wherever that is.
                self._zwj = False
                self._combine("\u200d")
                self._combine(ch)
                continue
            if w <= 0:
                self._combine(ch)
                continue
            if "\U0001f1e6" <= ch <= "\U0001f1ff" and self._pair_flag(ch):
                continue
            if w > cols:
                w = cols  # a one-column terminal still shows the character
            x = cursor.x
            if x + w > cols:
                if autowrap:
                    # a wide char that does not fit goes to the next row and
                    # leaves the cell it could not use as it was (tmux)
                    line.wrapped = True
                    self.dirty.add(cursor.y)  # its wrap flag changed
                    self.carriage_return()
                    self.linefeed()
                    line = self.buffer[cursor.y]  # the linefeed may have scrolled
                    self.dirty.add(cursor.y)
                else:
                    continue  # tmux drops a character that does not fit
                x = cursor.x
            if insert:
                self.insert_characters(w)
            if line.wide:  # `_unsplit_wide(line, x, x + w)`, inline: this runs per character
                left = line.get(x)
                if left is not None and left.data == "" and x > 0:
                    line[x - 1] = _BLANK
                right = line.get(x + w) if x + w < cols else None
                if right is not None and right.data == "":
                    line[x + w] = _BLANK
            line[x] = cells[ch]
            if w == 2:
                line.wide = True
                if x + 1 < cols:
                    line[x + 1] = cells[""]
            cursor.x = x + w
            if not autowrap and cursor.x >= cols:
                cursor.x = cols - 1  # no autowrap: the cursor stays on the last column

    def insert_characters(self, count: int | None = None) -> None:
        """ICH, and each character drawn in insert mode (`_draw_unicode`), as
        tmux's grid_view_insert_cells: the cells from the cursor move right by
        `count` and the ones pushed past the last column are gone (pyte kept
        one past it, which a reflow brought back). When cells move, tmux's
        grid_move_cells counts the row written to the last column (`cellused`
        is the width): the blanks moved in count, so a row tracked with
        autowrap off (`_NoWrapRow`, which counts a default blank only inside
        what it holds) is grown to the width here, or an erase after it, then
        a resize, would measure it shorter than tmux does."""
        cursor = self.cursor
        y = cursor.y
        self.dirty.add(y)
        count = count or 1
        cols = self.columns
        x0 = cursor.x
        line = self.buffer[y]
        for x in range(cols, x0 - 1, -1):
            if x + count < cols:
                line[x + count] = line[x]
            line.pop(x, None)
        if x0 + count < cols and type(line) is _NoWrapRow:
            if line.seen < cols:
                line.seen = cols
            if line.size < cols:
                line.size = cols

    def _pair_flag(self, ch: str) -> bool:
        """A second regional indicator joins the first into one flag cell."""
        x = self.cursor.x - 2
        if x < 0:
            return False
        line = self.buffer[self.cursor.y]
        prev = line.get(x)
        if prev is None or len(prev.data) != 1 or not ("\U0001f1e6" <= prev.data <= "\U0001f1ff"):
            return False
        line[x] = prev._replace(data=prev.data + ch)
        self.dirty.add(self.cursor.y)
        return True

    def _draw_after_zwj(self, data: str) -> str:
        """A zero-width joiner is pending: draw `data` up to the character that
        takes it and return the rest. As tmux 3.3a: plain ASCII written as a
        run (autowrap on, no insert mode) does not take it; the next other
        character is joined, with the joiner, to the cell left of the cursor,
        wherever the cursor went since, and gets no cell of its own."""
        k, n = 0, len(data)
        if mo.DECAWM in self.mode and _IRM not in self.mode:
            while k < n and " " <= data[k] <= "~":
                k += 1
        if k:
            self._zwj = False
            self.draw(data[:k])
            self._zwj = True
        if k == n:
            return ""
        if data[k] == "\u200d":
            return data[k:]  # another joiner: still pending (`_draw_unicode` keeps it)
        self._zwj = False
        self._combine("\u200d")
        self._combine(data[k])
        return data[k + 1:]

    def _combine(self, ch: str) -> None:
        """Attach a zero-width character (accent, VS16, joiner) or a joined
        character to the cell left of the cursor, as received (tmux keeps
        marks uncomposed). As tmux: nothing at the first column; an unwritten
        cell is a blank that takes it; a cell holds at most 21 UTF-8 bytes."""
        if unicodedata.category(ch) == "Cc":
            return
        cursor = self.cursor
        x, y = cursor.x, cursor.y
        if x > self.columns:
            x = self.columns
        line = self.buffer[y]
        x -= 1
        while x > 0 and (cell := line.get(x)) is not None and cell.data == "":
            x -= 1  # the stub of a wide character: its left half takes it
        if x < 0:
            return
        last = line[x]
        data = last.data + ch
        if len(data.encode("utf-8", "surrogatepass")) > _CELL_BYTES:
            return
        self.dirty.add(y)
        line[x] = last._replace(data=data)

    def repeat_last(self, count: int | None = None) -> None:
        """REP (`CSI n b`): repeat the last printed character."""
        if self._last_char:
            self.draw(self._last_char * min(max(count or 1, 1), 4 * self.columns * self.lines))

    # -- scrolling ----------------------------------------------------------
    def index(self) -> None:
        cursor = self.cursor
        margins = self.margins
        if margins is None:
            if cursor.y < self.lines - 1:
                cursor.y += 1
                return
            # The whole screen scrolls (what every line of streamed output
            # does): its top row goes to history, the rest move up in one go.
            buf = self.buffer
            self._push_history(buf.get(0))
            moved = {y - 1: row for y, row in buf.items() if y}
            buf.clear()
            buf.update(moved)
            self.dirty.update(range(self.lines))
            return
        top, bottom = margins
        if cursor.y == bottom:
            self._scroll_up_region(top, bottom, 1)
        elif cursor.y < self.lines - 1:
            cursor.y += 1

    def _scroll_up_region(self, top: int, bottom: int, count: int) -> None:
        buf = self.buffer
        count = min(count, bottom - top + 1)
        for _ in range(count):
            if top == 0:
                self._push_history(buf.get(0))
            else:
                # tmux moves the region's top row into its scrollback
                # (grid_scroll_history_region) wherever the region starts;
                # the engine history records only rows leaving the top of the
                # screen, as before.
                self._push_history(buf.get(top), record=False)
            for y in range(top, bottom):
                nxt = buf.get(y + 1)
                if nxt is None:
                    buf.pop(y, None)
                else:
                    buf[y] = nxt
            buf.pop(bottom, None)
        self.dirty.update(range(top, bottom + 1))

    def _scroll_down_region(self, top: int, bottom: int, count: int) -> None:
        buf = self.buffer
        count = min(count, bottom - top + 1)
        for _ in range(count):
            # tmux (grid_move_lines): the row moving off the top of the region
            # and the row above the region no longer wrap.
            self._unwrap(top)
            self._unwrap(top - 1)
            for y in range(bottom, top, -1):
                prv = buf.get(y - 1)
                if prv is None:
                    buf.pop(y, None)
                else:
                    buf[y] = prv
            buf.pop(top, None)
        self.dirty.update(range(top, bottom + 1))

    def _unwrap(self, y: int) -> None:
        """Row `y` no longer wraps into the next; row -1 is the last scrollback
        row (tmux keeps history and screen in one grid, so clearing the top
        row unwraps the history row above it)."""
        if y >= 0:
            row = self.buffer.get(y)
            if row is not None and row.wrapped:
                row.wrapped = False
                self.dirty.add(y)  # its wrap flag changed
        elif y == -1 and self.scrollback and self.scrollback[-1].wrapped:
            last = self.scrollback[-1]
            # A copy: the engine history keeps the row as it was drawn.
            self.scrollback[-1] = HistoryLine(last.cells, last.text, last.width, False, last.used)

    def _line_span(self, count: int | None) -> tuple[int, int, int] | None:
        """(cursor row, last row that moves, rows inserted or deleted) for IL/DL: the
        scroll region when the cursor is inside it, else down to the screen's bottom."""
        top, bottom = self.margins or Margins(0, self.lines - 1)
        y0 = self.cursor.y
        if not top <= y0 <= bottom:
            bottom = self.lines - 1
        count = min(count or 1, bottom + 1 - y0)
        return (y0, bottom, count) if count > 0 else None

    def insert_lines(self, count: int | None = None) -> None:
        """IL: rows at and below the cursor move down (within the margins when
        the cursor is inside them, else to the bottom of the screen), as tmux."""
        span = self._line_span(count)
        if span is None:
            return
        y0, bottom, count = span
        buf = self.buffer
        self._unwrap(y0 + count - 1)
        for y in range(bottom, y0 - 1, -1):
            row = buf.pop(y, None)
            if row is not None and y + count <= bottom:
                buf[y + count] = row
        self._unwrap(y0 - 1)
        self.dirty.update(range(y0, bottom + 1))

    def delete_lines(self, count: int | None = None) -> None:
        """DL: rows below the cursor move up over the deleted ones, as tmux."""
        span = self._line_span(count)
        if span is None:
            return
        y0, bottom, count = span
        buf = self.buffer
        self._unwrap(y0 - 1)
        for y in range(y0, bottom + 1):
            row = buf.pop(y + count, None) if y + count <= bottom else None
            buf.pop(y, None)
            if row is not None:
                buf[y] = row
        if count >= bottom + 1 - y0 - count:
            self._unwrap(bottom - count)  # the last row moved, when rows are emptied below it
        self.dirty.update(range(y0, bottom + 1))

    def backspace(self) -> None:
        """BS as tmux: one cell left, and from the first column back to the
        last cell of the row above when that row wrapped into this one."""
        cursor = self.cursor
        if cursor.x == 0:
            if cursor.y > 0:
                above = self.buffer.get(cursor.y - 1)
                if above is not None and above.wrapped:
                    cursor.y -= 1
                    cursor.x = self.columns - 1
        else:
            cursor.x = min(cursor.x, self.columns) - 1

    def set_margins(self, top: int | None = None, bottom: int | None = None) -> None:
        """DECSTBM: like tmux, resetting the margins also homes the cursor."""
        super().set_margins(top, bottom)
        if self.margins is None:
            self.cursor.x = self.cursor.y = 0

    def reverse_index(self) -> None:
        top, bottom = self.margins or Margins(0, self.lines - 1)
        if self.cursor.y == top:
            self._scroll_down_region(top, bottom, 1)
        elif self.cursor.y > 0:
            self.cursor.y -= 1

    def scroll_up(self, count: int | None = None) -> None:
        """SU (`CSI n S`): scroll the region up; the top lines go to history."""
        top, bottom = self.margins or Margins(0, self.lines - 1)
        self._scroll_up_region(top, bottom, count or 1)

    def scroll_down(self, count: int | None = None) -> None:
        """SD (`CSI n T`)."""
        top, bottom = self.margins or Margins(0, self.lines - 1)
        self._scroll_down_region(top, bottom, count or 1)

    def next_line(self) -> None:
        """NEL (`ESC E`)."""
        self.carriage_return()
        self.index()

    def forward_tab(self, count: int | None = None) -> None:
        for _ in range(count or 1):
            self.tab()

    def back_tab(self, count: int | None = None) -> None:
        for _ in range(count or 1):
            stops = [s for s in self.tabstops if s < self.cursor.x]
            self.cursor.x = max(stops) if stops else 0

    def tab(self) -> None:
        """HT as tmux: to the next stop, else the last column; from the last
        column (or past it, a wrap pending) nowhere, so the wrap still comes."""
        x = self.cursor.x
        if x >= self.columns - 1:
            return
        stops = [s for s in self.tabstops if s > x]
        self.cursor.x = min(stops) if stops else self.columns - 1

    # -- erasing ----------------------------------------------------------------
    def erase_in_display(self, how: int = 0, *args: Any, **kwargs: Any) -> None:
        if how not in (0, 1, 2, 3):
            return  # unknown: ignored, as xterm does (pyte would raise)
        if how == 3:
            # The terminal's scrollback goes; our history stays.
            self.scrollback.clear()
            self.hscrolled = 0
            return
        if how == 2 or (how == 0 and self.cursor.x == 0 and self.cursor.y == 0):
            # ED 0 from the home position clears the whole screen too (tmux
            # treats it as a clear, history included).
            self._boundary("clear")
            if not self.alternate:
                # Like tmux: a full clear of the main screen pushes the
                # visible lines (down to the last non-blank one) to history.
                for y, line in self.buffer.items():
                    if self._settle(line):
                        self.dirty.add(y)
                used = [y for y, line in self.buffer.items()
                        if y < self.lines and _extent(line)]
                for y in range(max(used) + 1 if used else 0):
                    self._push_history(self.buffer.get(y), scrolled=False)
                if used:  # tmux's grid_view_clear_history: a blank screen keeps hscrolled
                    self.hscrolled = 0  # tmux pulls back only rows that scrolled
            self.buffer.clear()
            if self.cursor.attrs.bg != "default" or self.cursor.attrs.reverse:
                blank = self._blank(self.cursor.attrs)
                for y in range(self.lines):
                    line = self.buffer[y]
                    line.fill = blank
                    for x in range(self.columns):
                        line[x] = blank
            self.dirty.update(range(self.lines))
            return
        # Below (0) or above (1) the cursor, whole rows are emptied (tmux
        # empties them: no extent, no wrap, and the row above a cleared one
        # no longer wraps into it); the cursor's row is erased like EL.
        y = self.cursor.y
        rows = range(y + 1, self.lines) if how == 0 else range(y)
        attrs = self.cursor.attrs
        buf = self.buffer
        if attrs.bg == "default" and not attrs.reverse:
            for r in rows:
                buf.pop(r, None)
        else:
            blank = self._blank(attrs)
            for r in rows:
                line = buf[r] = Row(self.default_char)
                line.fill = blank
                line.update(dict.fromkeys(range(self.columns), blank))
        self.dirty.update(rows)
        x = self.cursor.x
        if how == 0:
            if x == 0:
                self._clear_row(y)
            else:
                self.erase_in_line(0)
            self._unwrap(y)
        elif x >= self.columns - 1:
            self._clear_row(y)
        else:
            self.erase_in_line(1)

    def _clear_row(self, y: int) -> None:
        """Empty row `y` (tmux's grid_clear_lines): no extent, no wrap, blanks
        in the background colour, and the row above no longer wraps into it."""
        attrs = self.cursor.attrs
        line = self.buffer[y] = self._new_row()
        if attrs.bg != "default" or attrs.reverse:
            blank = line.fill = self._blank(attrs)
            line.update(dict.fromkeys(range(self.columns), blank))
        self._unwrap(y - 1)
        self.dirty.add(y)

    def erase_in_line(self, how: int = 0, private: bool = False) -> None:
        cursor = self.cursor
        y = cursor.y
        line = self.buffer[y]
        self.dirty.add(y)
        self._settle(line)
        if line.again:
            line.again = False  # erased: drawn anew from here
        attrs = cursor.attrs
        cols = self.columns
        x0 = cursor.x if cursor.x < cols else cols - 1
        if how == 0:
            if cursor.x >= cols:
                return  # past the margin (a wrap is pending): tmux erases nothing
            lo, hi = x0, cols
        else:
            lo, hi = (0, x0 + 1) if how == 1 else (0, cols)
        if lo == 0 and hi == cols:
            # The whole row: tmux empties it (no extent, no wrap) and the row
            # above no longer wraps into it; a row never written is left be.
            if not line and not line.used and attrs.bg == "default" and not attrs.reverse:
                return
            self._clear_row(y)
            return
        if attrs.bg == "default" and not attrs.reverse:
            # Nothing drawn at or past `lo` (a redrawn row ending in EL): no
            # cell to drop and no extent to keep.
            top = max(line) if line else -1
            if top < lo:
                return
            if line.used < cols:
                # tmux keeps the extent of the erased cells (a reflow measures it).
                m = top + 1
                if m > line.used:
                    line.used = m if line.fill is None else _extent(line)
        elif line and line.used < cols:
            m = max(line) + 1
            if m > lo and m > line.used:
                line.used = m if line.fill is None else _extent(line)
        if attrs.bg == "default" and not attrs.reverse:
            # Erased cells are default blanks: drop the ones that exist.
            if top < hi and 2 * lo < hi:
                # Most of the row goes (EL near its start, on a row a
                # background erase filled): keep the few cells before `lo`.
                get = line.get
                kept = [(x, c) for x in range(lo) if (c := get(x)) is not None]
                line.clear()
                line.update(kept)
            elif hi - lo <= len(line):
                pop = line.pop
                for x in range(lo, hi):
                    pop(x, None)
            else:
                for x in [x for x in line if lo <= x < hi]:
                    del line[x]
        else:
            blank = line.fill = self._blank(attrs)
            line.update(dict.fromkeys(range(lo, hi), blank))

    def _blank(self, attrs: Char) -> Char:
        """The blank an erase leaves in `attrs`: one object per attributes, so
        a row can tell the blanks it was erased to from cells drawn on it."""
        blank = self._blanks.get(attrs)
        if blank is None:
            if len(self._blanks) > 1024:
                self._blanks.clear()
            blank = self._blanks[attrs] = attrs._replace(data=" ")
        return blank

    # -- autowrap off: default blanks past a row's cells are not kept (`_NoWrapRow`)
    def _new_row(self) -> Row:
        if mo.DECAWM in self.mode:
            return Row(self.default_char)
        row = _NoWrapRow(self.default_char)
        row.owner = self
        self._nowrap.append(row)
        return row

    def _track(self, row: Row, seen: int | None = None) -> None:
        """A row kept while autowrap goes off: tracked from its extent now
        (`seen`: `_extent(row)`, when the caller measured it already)."""
        if seen is None:
            seen = _extent(row)
        row.__class__ = _NoWrapRow
        row.owner = self
        row.seen = seen
        row.size = _alloc(seen, self.columns)
        row.loose = False
        self._nowrap.append(row)

    def _track_for(self, line: Row, end: int) -> None:
        """A plain row (`_flip` pending) is about to take cells below `end`
        from the parser's loop: tracked, as `_flip` and the write would do,
        unless they all land inside its extent, where tracking it would
        change nothing (every cell counts, `seen` stays the extent, which
        this write does not move: a later change tracks it the same)."""
        seen = _extent(line)
        if end <= seen and line.fill is None and not line.wide:
            return
        self._track(line, seen)

    def _settle(self, line: Row) -> bool:
        """Drop the default blanks past what tmux holds of the row (`_NoWrapRow`);
        whether any went (the row must then be read again for snapshots)."""
        if type(line) is not _NoWrapRow:
            if type(line) is Row or not isinstance(line, _UntrackedRow):
                return False
            self._touch(line)  # before the erase that follows changes it
            if type(line) is not _NoWrapRow:
                return False
        if not line or line.fill is not None:
            return False
        keep = max(line.seen, line.used)
        if max(line) >= keep:
            for x in [x for x in line if x >= keep]:
                dict.__delitem__(line, x)
            return True
        return False

    def _rows(self) -> list[Row]:
        rows = list(self.buffer.values())
        if self._main_saved is not None:
            rows += self._main_saved[0].values()
        return rows

    def _autowrap_off(self) -> None:
        """Rows are tracked when first changed (`_UntrackedRow`), not now;
        and made `_UntrackedRow`s only when something other than the
        parser's own loop is about to change rows (`_flip`): kimi-cli switches
        autowrap off around every render and most renders write a word or
        two, which the loop tracks row by row (`Parser.feed`)."""
        self._nowrap = []
        self._flip_pending = True

    def _flip(self) -> None:
        """What `_autowrap_off` left for later: the rows of the screen that
        are plain `Row`s now were plain when autowrap went off (a row made
        since then with autowrap off is a `_NoWrapRow`, `_new_row`, and
        nothing else makes rows between two `_flip` calls), unchanged since
        but for the parser loop's writes, which tracked their rows first."""
        self._flip_pending = False
        cls = self._untracked_row
        for row in self._rows():
            if row.__class__ is Row:
                row.__class__ = cls

    def _touch(self, row: Row) -> None:
        """An `_UntrackedRow` is about to change: tracked if autowrap is off, else plain again."""
        if mo.DECAWM in self.mode:
            row.__class__ = Row
        else:
            self._track(row)

    def _track_all(self) -> None:
        """Track every row not tracked yet (before a resize changes the width `_track` reads)."""
        if self._flip_pending:
            self._flip()
        if mo.DECAWM not in self.mode:
            for row in self._rows():
                if isinstance(row, _UntrackedRow):
                    self._track(row)

    def _autowrap_on(self) -> None:
        """Autowrap comes back: the rows drawn without it are settled, and
        plain again (the others are made plain when next changed)."""
        self._flip_pending = False
        if self._nowrap:
            # A row that left the screen since (scrolled into history,
            # erased away) is not settled; which rows are still on it is
            # looked up only when a row has blanks to drop (most have none).
            live: set[int] | None = None
            for row in self._nowrap:
                if type(row) is _NoWrapRow:
                    if row.loose and row and row.fill is None and max(row) >= max(row.seen, row.used):
                        if live is None:
                            live = set(map(id, self._rows()))
                        if id(row) not in live:
                            continue
                        if self._settle(row):
                            self.dirty.update(range(self.lines))
                    row.__class__ = Row  # its `owner`, `seen` and `size` are read only while tracked
            self._nowrap = []

    # -- modes ------------------------------------------------------------------
    def set_mode(self, *modes: int, **kwargs: Any) -> None:
        if kwargs.get("private"):
            shifted = [m << 5 for m in modes]
            if mo.DECAWM in shifted and mo.DECAWM not in self.mode:
                self._autowrap_on()
            for m in shifted:
                if m in _ALT_MODES:
                    self._enter_alternate(m)
                elif m == SYNC_2026:
                    self.begin_synchronized_update()
            rest = [m for m in modes if (m << 5) not in _ALT_MODES and (m << 5) != SYNC_2026]
            if rest:
                super().set_mode(*rest, private=True)
                if mo.DECSCNM in shifted:
                    self._forget_pens()  # a reset SGR now leads to other attributes
            return
        super().set_mode(*modes)

    def reset_mode(self, *modes: int, **kwargs: Any) -> None:
        if kwargs.get("private"):
            shifted = [m << 5 for m in modes]
            for m in shifted:
                if m in _ALT_MODES:
                    self._leave_alternate(m)
                elif m == SYNC_2026:
                    self.end_synchronized_update()
            rest = [m for m in modes if (m << 5) not in _ALT_MODES and (m << 5) != SYNC_2026]
            if rest:
                if mo.DECAWM in shifted and mo.DECAWM in self.mode:
                    self._autowrap_off()
                super().reset_mode(*rest, private=True)
                if mo.DECSCNM in shifted:
                    self._forget_pens()  # a reset SGR now leads to other attributes
            return
        super().reset_mode(*modes)

    def begin_synchronized_update(self) -> None:
        """DECSET 2026: no frame is taken until the update ends."""
        self.synchronized = True

    def end_synchronized_update(self) -> None:
        if self.synchronized:
            self.synchronized = False
            self.sync_updates += 1
            self._boundary("sync")

    def _enter_alternate(self, mode: int) -> None:
        if self.alternate:
            if mode != ALT_47:
                self.buffer.clear()
                self.dirty.update(range(self.lines))
            return
        self._boundary("alt-enter")
        saved_cursor = self.cursor
        self._main_saved = (self.buffer, Cursor(saved_cursor.x, saved_cursor.y, saved_cursor.attrs),
                            list(self.savepoints), self.lines, self.columns)
        if mode == ALT_1049:
            self.save_cursor()
        self.buffer = self._new_buffer()
        self.alternate = True
        self._unwrap(-1)  # tmux clears the view, which unwraps the history row above it
        self.dirty.update(range(self.lines))

    def _leave_alternate(self, mode: int) -> None:
        if not self.alternate:
            return
        self._track_all()
        self._boundary("alt-leave")
        self.alternate = False
        assert self._main_saved is not None
        buffer, cursor, savepoints, lines, columns = self._main_saved
        self._main_saved = None
        now = (self.lines, self.columns)
        resized = now != (lines, columns)
        if resized:
            # Resized while away. tmux first lays the alternate grid out at
            # the saved size, without history but reflowing it: alternate
            # rows past the saved height land in the scrollback (shown, not
            # recorded: they never were on the main screen) ...
            self.alternate = True
            self._alternate_height(lines)
            if columns != self.columns:
                self._reflow(columns, record=False)
            self.alternate = False
        self.buffer = buffer
        if mode == ALT_1049:
            self.savepoints = savepoints
            self.cursor = cursor
        if resized:
            # ... then puts the main screen back and resizes it, with history.
            self.lines, self.columns = lines, columns
            if self.cursor.y >= lines:
                self.cursor.y = lines - 1
            self._resize_main(*now)
            self._after_resize()
        if mode == ALT_1049:
            self.ensure_hbounds()
            self.ensure_vbounds()
        self.dirty.update(range(self.lines))

    def _new_buffer(self) -> Any:
        return defaultdict(self._new_row)

    def soft_reset(self) -> None:
        """DECSTR (`CSI ! p`): modes and margins back to defaults, text kept."""
        self.margins = None
        self.mode.discard(mo.IRM)
        self.mode.discard(mo.DECOM)
        if mo.DECAWM not in self.mode:
            self._autowrap_on()
        self.mode.add(mo.DECAWM)
        self.mode.add(mo.DECTCEM)
        self.select_graphic_rendition(0)
        self.charset = 0
        self.g0_charset = pyte.charsets.LAT1_MAP

    def reset(self) -> None:
        self._zwj = False
        if hasattr(self, "alternate") and not self.alternate and self.buffer:
            # RIS (`ESC c`, what `reset` sends) clears the main screen the way tmux's
            # full clear does: the visible lines go to history first
            self.erase_in_display(2)
        if getattr(self, "alternate", False):
            self.alternate = False
            self._main_saved = None
            self.buffer = self._new_buffer()
        super().reset()
        self.dirty.update(range(self.lines))

    # -- queries are answered by the real terminal, not by a replay ---------------
    def report_device_attributes(self, *args: Any, **kwargs: Any) -> None:
        pass

    def report_device_status(self, *args: Any, **kwargs: Any) -> None:
        pass

    def write_process_input(self, data: str) -> None:
        pass

    # -- resize -----------------------------------------------------------------
    def resize(self, lines: int | None = None, columns: int | None = None) -> None:
        """Change the size the way tmux 3.3a does.

        Main screen: rows below the cursor go first and rows off the top go
        to history when it shrinks; when it grows, rows that scrolled into
        history come back into view; a width change lays history and screen
        out again (`screen.reflow`). The alternate screen is never reflowed
        (its rows keep the width they were drawn at, see `row_layout`); the
        main screen saved behind it is reflowed when it comes back.
        """
        lines = lines or self.lines
        columns = columns or self.columns
        if lines == self.lines and columns == self.columns:
            return
        self._track_all()
        self._boundary("resize")
        taller_or_shorter = lines != self.lines
        if self.alternate:
            self._resize_alternate(lines, columns)
        else:
            self._resize_main(lines, columns)
        self._after_resize(taller_or_shorter)

    def _after_resize(self, height_changed: bool = True) -> None:
        self.parser.forget_positions()
        # tmux resets the scroll region when the height changes only: after a
        # width-only resize a program that set a region keeps scrolling it
        # (Codex inline, resized in the middle of a reprint)
        if height_changed:
            self.margins = None
        self.tabstops = set(range(8, self.columns, 8))
        if self.cursor.x > self.columns:
            self.cursor.x = self.columns
        self.ensure_vbounds()
        self.dirty.update(range(self.lines))

    def _shift_rows(self, k: int) -> None:
        """Rows move up by `k` (down when negative); rows pushed past the top are dropped."""
        buf = self.buffer
        moved = {y - k: row for y, row in buf.items() if y - k >= 0}
        buf.clear()
        buf.update(moved)

    def _resize_alternate(self, lines: int, columns: int) -> None:
        old_cols = self.columns
        self._alternate_height(lines)
        if columns != old_cols:
            for row in self.buffer.values():
                if not row.width:
                    row.width = old_cols
        self.columns = columns
        self.ensure_hbounds()

    def _alternate_height(self, lines: int) -> None:
        """A height change without history (tmux's screen_resize_y, history off)."""
        old_lines = self.lines
        cursor, buf = self.cursor, self.buffer
        if lines < old_lines:
            # No history here: rows below the cursor go, then rows at the top.
            needed = old_lines - lines
            avail = min(old_lines - 1 - cursor.y, needed)
            for y in range(old_lines - avail, old_lines):
                buf.pop(y, None)
            needed -= max(avail, 0)
            k = min(cursor.y, needed)
            if k > 0:
                self._shift_rows(k)
                cursor.y -= k
        self.lines = lines

    def _resize_main(self, lines: int, columns: int) -> None:
        old_lines = self.lines
        cursor, buf = self.cursor, self.buffer
        self.kept_at_top = []
        if lines < old_lines:
            needed = old_lines - lines
            avail = min(old_lines - 1 - cursor.y, needed)
            if avail > 0:
                for y in range(old_lines - avail, old_lines):
                    buf.pop(y, None)
                needed -= avail
                # the rows a terminal that keeps the bottom rows (xterm) would
                # have scrolled off instead, as they are now: see `kept_at_top`
                self.kept_at_top = [self._history_entry(buf.get(y)) for y in range(needed, needed + avail)]
            if needed > 0:
                for y in range(needed):
                    self._push_history(buf.get(y))
                self._shift_rows(needed)
                cursor.y -= needed
        elif lines > old_lines:
            sb = self.scrollback
            back = min(lines - old_lines, self.hscrolled, len(sb))
            if back > 0:
                self._shift_rows(-back)
                for y in range(back - 1, -1, -1):
                    entry = sb.pop()
                    row = buf[y] = self._row_from(_history_cells(entry), entry.wrapped)
                    row.echo = entry.text
                self.hscrolled -= back
                cursor.y += back
        self.lines = lines
        if columns != self.columns:
            before = self.history_total
            self._reflow(columns)
            if self.kept_at_top and self.history_total > before:
                self.kept_at_top = _not_recorded(self.kept_at_top, self.history_since(before))

    def _row_from(self, cells: list[Char], wrapped: bool, stub: bool | None = None) -> Row:
        row = Row(self.default_char)
        if cells:
            row.update(zip(range(len(cells)), cells))
            if _has_stub(cells) if stub is None else stub:
                row.wide = True
        if wrapped:
            row.wrapped = True
        if mo.DECAWM not in self.mode:
            self._track(row)
        return row

    def _reflow(self, columns: int, record: bool = True) -> None:
        """Lay scrollback and screen out again at `columns` (tmux's `grid_reflow`).

        Rows of the screen that end up in the scrollback are recorded in the
        history (they left the visible screen) unless `record` is off."""
        old_cols, cursor, buf, sb = self.columns, self.cursor, self.buffer, self.scrollback
        # A scrollback row that does not wrap, follows one that does not and
        # fits the new width is one the reflow cannot change (nothing joins on
        # to it, nothing splits it): it goes in as it is kept, not copied into
        # an `RLine` and measured (most rows of a long scrollback; a resize
        # walked them all, 20-35% of the screen time of a recording that resizes)
        wraps = list(map(_WRAPPED, sb))
        src: list[Any] = [e if not (w or before or e.used > columns) else _kept_rline(e)
                          for e, w, before in zip(sb, wraps, [False, *wraps])]
        hsize_before = len(src)
        for y in range(self.lines):
            row = buf.get(y)
            if row is None:
                src.append(RLine())
                continue
            self._settle(row)
            used = _extent(row)  # beyond the width only on the alternate screen
            cells = list(row_cells(row, old_cols)[:used]) if used <= old_cols else [row[x] for x in range(used)]
            seen = (row.echo is not None and row.echo == cells_text(tuple(cells))) or (row.again and not cells)
            src.append(RLine(cells, row.wrapped, seen))
        out, hsize, hscrolled, (nx, ny) = reflow(
            src, columns, self.lines, min(self.hscrolled, hsize_before), (cursor.x, hsize_before + cursor.y),
            _kept_rline)
        self.columns = columns
        new_sb: deque[HistoryLine] = deque(maxlen=sb.maxlen)
        for ln in out[:hsize]:
            if ln.__class__ is HistoryLine:  # a row the reflow kept as it was (seen: not recorded)
                if self.scrollback_limit:
                    new_sb.append(ln.relaid(columns))
                continue
            cells = tuple(ln.cells)
            # a scrollback row the reflow left as it was reads as it did
            old = ln.entry
            entry = HistoryLine(cells, old.text if old is not None else cells_text(cells), columns, ln.wrapped,
                                len(cells), stub=ln.stub)
            if self.scrollback_limit:
                new_sb.append(entry)
            if record and not ln.seen:
                self._record(entry)  # left the visible screen in the reflow
        self.scrollback = new_sb
        self.hscrolled = min(hscrolled, len(new_sb))
        buf.clear()
        for y, ln in enumerate(out[hsize:]):
            if ln.cells or ln.wrapped:
                row = buf[y] = self._row_from(ln.cells, ln.wrapped, ln.stub)
                if ln.seen:
                    row.echo = cells_text(tuple(ln.cells))
            elif ln.seen:
                # a blank row the history holds: recorded again when it scrolls
                # off (as before), flagged (`HistoryLine.again`)
                buf[y] = self._row_from([], False)
                buf[y].again = True
        if ny >= hsize:
            cursor.x, cursor.y = nx, ny - hsize
        else:
            cursor.x = cursor.y = 0

    def row_layout(self) -> list[RowLayout]:
        """Per visible row: the width it was laid out at and whether it wraps
        on to the next row (autowrap). On the main screen every row is at the
        current width (a resize reflows them); on the alternate screen a row
        drawn before a resize keeps its older width until it is cleared."""
        buf, cols = self.buffer, self.columns
        out = []
        for y in range(self.lines):
            row = buf.get(y)
            out.append(RowLayout(row.width or cols, row.wrapped) if row is not None else RowLayout(cols, False))
        return out

    # -- reading ------------------------------------------------------------------
    def snapshot(self) -> list[tuple[Char, ...] | None]:
        """The visible rows as immutable cell tuples (None for a blank row).

        Rows are re-read only where pyte's `dirty` set says something
        changed: a frame is taken at every quiet point and most frames
        differ from the last in a row or two.
        """
        return self.snapshot_with_text()[0]

    def snapshot_with_text(self) -> tuple[list[tuple[Char, ...] | None], list[str]]:
        """`snapshot()` and the rows' text, both kept up to date incrementally."""
        buf, cols, rows = self.buffer, self.columns, self.lines
        snap, texts, wraps = self._snap, self._snap_text, self._snap_wrapped
        src, blanks = self._snap_src, self._snap_blank
        rows_seen = self._rows_seen
        if len(snap) != rows or self._snap_cols != cols or len(wraps) != rows:
            snap = self._snap = [None] * rows
            texts = self._snap_text = [""] * rows
            wraps = self._snap_wrapped = [False] * rows
            src = self._snap_src = [None] * rows
            blanks = self._snap_blank = [None] * rows
            self._snap_cols = cols
            dirty: Any = range(rows)
        else:
            dirty = self.dirty
        for y in dirty:
            if y < rows:
                line = buf.get(y)
                # every change of a row's wrap flag marks the row dirty
                wraps[y] = False if line is None else bool(line.wrapped)
                if line:
                    # Most rows marked dirty hold what they held (a TUI repaints
                    # its whole region every render): the same cells as the
                    # copy kept when this row was last read give the same
                    # tuple, told without making one (the cells are interned:
                    # mostly identity tests, in C)
                    was = src[y]
                    if was is not None and blanks[y] is line.default and was == line:
                        continue
                    cells = row_cells(line, cols)
                    src[y], blanks[y] = line.copy(), line.default
                    old = snap[y]
                    # A row redrawn as it was (full-screen TUIs repaint every
                    # row of every frame), or as another row was (a view
                    # scrolled by a row), is the tuple it was before: readers
                    # key their per-row work by the tuple's identity
                    # (`SpanCache`, the chrome rules' row memos). The cells
                    # are interned, so comparing is mostly identity tests.
                    if old is not None and old == cells:
                        continue
                    # looked up by text (hashed once; a tuple of cells hashes
                    # every attribute of every cell): the row last drawn with
                    # that text, when its cells are the same too
                    text = cells_text(cells)
                    got = rows_seen.get(text)
                    if got is not None and got == cells:
                        cells = got
                    else:
                        if len(rows_seen) >= _ROWS_SEEN_MAX:
                            rows_seen.clear()
                        rows_seen[text] = cells
                    snap[y], texts[y] = cells, text
                else:
                    snap[y], texts[y] = None, ""
                    src[y] = None
        self.dirty.clear()
        return list(snap), list(texts)

    def snapshot_wrapped(self) -> list[bool]:
        """Per visible row, `Row.wrapped`, as of the last `snapshot_with_text`
        (kept with it, row by row, where the screen marked rows dirty)."""
        return list(self._snap_wrapped)

    def fresh_snapshot(self) -> list[tuple[Char, ...] | None]:
        """Like `snapshot`, re-reading every cell the plain way (the reference for tests)."""
        buf, cols = self.buffer, self.columns
        return [tuple(buf[y][x] for x in range(cols)) if buf.get(y) else None for y in range(self.lines)]

    def text_lines(self) -> list[str]:
        """The visible rows as text, trailing blanks trimmed."""
        return self.snapshot_with_text()[1]

    def lines_with_style(self) -> list[Line]:
        return [Line(cells_text(c), cells_spans(c)) if c is not None else Line("", ())
                for c in self.snapshot()]
