"""The virtual screen: a `pyte.Screen` with what agent TUIs need and pyte lacks.

pyte is the engine (cell grid, cursor, SGR, margins, modes); this subclass
adds bounded scrollback, the alternate screen, synchronized output, SU/SD,
REP, correct wide and zero-width characters, and an engine-side history of
every line that left the visible screen. That history is what replay builds
transcripts from, so a program that clears the terminal's scrollback
(`CSI 3 J`) or the screen cannot erase what we already saw.
"""
from __future__ import annotations

import re
import unicodedata
from collections import defaultdict, deque
from itertools import groupby, repeat
from operator import itemgetter
from typing import Any, Callable, NamedTuple

import pyte
from pyte import modes as mo
from pyte.screens import Char, Cursor, Margins, StaticDefaultDict
from wcwidth import wcwidth

from screen.parser import Parser

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
    if len(line) < columns:
        # A sparse row: reading the blanks through `__missing__` (Python) costs
        # more than asking for every column with a default.
        return tuple(map(line.get, range(columns), repeat(line.default, columns)))  # type: ignore[attr-defined]
    getter = _ROW_GETTERS.get(columns)
    if getter is None:
        getter = _ROW_GETTERS[columns] = itemgetter(*range(columns)) if columns > 1 else (lambda d: (d[0],))
    return getter(line)


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
    """

    wide = False


_PRINTABLE_ASCII = [chr(c) for c in range(0x20, 0x7f)]


def _cell_table(attrs: Char) -> dict[str, Char]:
    """Interned cells of one set of attributes: cells are immutable, so a
    character drawn with the same attributes is one object. A plain dict
    (CPython specializes lookups on exact dicts only), filled with printable
    ASCII and the wide-character stub; other characters are added by
    `_intern` before they are looked up."""
    cells = {ch: attrs._replace(data=ch) for ch in _PRINTABLE_ASCII}
    cells[""] = attrs._replace(data="")
    return cells


def _intern(cells: dict[str, Char], attrs: Char, data: str) -> None:
    for ch in set(data).difference(cells):
        cells[ch] = attrs._replace(data=ch)


# Runs of at least this many cells are merged from a cache (a plain loop is
# faster for shorter ones); runs up to _RUN_MAX long are kept, _RUN_BUDGET
# cells in all.
_RUN_MIN = 4
_RUN_MAX = 512
_RUN_BUDGET = 1 << 18

_ASCII_OR_NOT = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")

_WIDTH_ONE: dict[str, bool] = {}
_WIDTHS: dict[str, int] = {}


def _all_narrow(data: str) -> bool:
    """Every character takes exactly one cell (box drawing, bullets, accents)."""
    cache = _WIDTH_ONE
    for ch in set(data):
        ok = cache.get(ch)
        if ok is None:
            ok = cache[ch] = wcwidth(ch) == 1 and unicodedata.category(ch)[0] != "M"
        if not ok:
            return False
    return True


def _unsplit_wide(line: Row, x: int, end: int) -> None:
    """Cells x..end-1 are about to be overwritten: a wide character cut in
    half by that loses its other half, as in a real terminal."""
    left = line.get(x)
    if left is not None and left.data == "" and x > 0:
        line[x - 1] = line[x - 1]._replace(data=" ")
    right = line.get(end)
    if right is not None and right.data == "":
        line[end] = right._replace(data=" ")


class VirtualScreen(pyte.Screen):
    """pyte screen plus scrollback, alternate buffer and boundary hooks.

    `on_boundary(reason)` is called just before anything that would wipe
    the visible content (alternate-screen switch, full clear, resize), so
    the frame builder can take a frame of what was there.
    """

    def __init__(self, columns: int, lines: int, scrollback: int = 10_000) -> None:
        self.scrollback_limit = max(0, scrollback)
        self.scrollback: deque[Line] = deque(maxlen=self.scrollback_limit or None)
        # Engine record of lines that left the visible main screen; never
        # cleared by the program. `history_total` counts all ever added.
        self.history: deque[str] = deque(maxlen=max(self.scrollback_limit, 1))
        self.history_total = 0
        self.alternate = False
        self.synchronized = False
        self.sync_updates = 0  # completed synchronized updates
        self.on_boundary: Callable[[str], None] | None = None
        self._main_saved: tuple[Any, Cursor, list] | None = None
        self._snap: list[tuple[Char, ...] | None] = []
        self._snap_text: list[str] = []
        self._snap_cols = 0
        # Per set of attributes: its interned cells, and the runs of cells
        # drawn with it, by (column, text).
        self._cell_cache: dict[Char, tuple[dict[str, Char], dict[tuple[int, str], dict[int, Char]]]] = {}
        # The tables of the attributes drawn with last, and those attributes.
        self._cells_attrs: Char | None = None
        self._cells: dict[str, Char] = {}
        self._runs: dict[tuple[int, str], dict[int, Char]] = {}
        self._run_cells = 0  # cells held by all run caches
        self._last_char: str = ""
        super().__init__(columns, lines)
        self.buffer = self._new_buffer()
        self.parser = Parser(self)

    # -- input ------------------------------------------------------------
    def feed(self, data: str) -> None:
        self.parser.feed(data)

    # -- history ----------------------------------------------------------
    def _push_history(self, line: dict[int, Char] | None) -> None:
        if self.alternate:
            return
        if line:
            cells = row_cells(line, self.columns)
            text, spans = cells_text(cells), cells_spans(cells)
        else:
            text, spans = "", ()
        if self.scrollback_limit:
            self.scrollback.append(Line(text, spans))
        self.history.append(text)
        self.history_total += 1

    def history_since(self, total_before: int) -> list[str]:
        """History lines added since `history_total` was `total_before`."""
        n = min(self.history_total - total_before, len(self.history))
        if n <= 0:
            return []
        h = self.history
        return [h[i] for i in range(len(h) - n, len(h))]

    def _boundary(self, reason: str) -> None:
        if self.on_boundary is not None:
            self.on_boundary(reason)

    # -- drawing ----------------------------------------------------------
    def draw(self, data: str) -> None:
        if self.charset:
            data = data.translate(self.g1_charset)
        elif self.g0_charset is not _LAT1:
            data = data.translate(self.g0_charset)
        if not data:
            return
        cursor = self.cursor
        x = cursor.x
        end = x + len(data)
        attrs = cursor.attrs
        if self._cells_attrs is not attrs:
            self._cells, self._runs = self._cell_cache.get(attrs) or self._tables_for(attrs)
            self._cells_attrs = attrs
        if end <= self.columns and _IRM not in self.mode:
            # The common case: one-cell characters that fit on the row. A
            # run drawn before at this column (TUIs redraw the same words in
            # the same places) is merged as a whole.
            run = self._runs.get((x, data)) if end - x >= _RUN_MIN else None
            if run is not None or data.isascii() or _all_narrow(data):
                y = cursor.y
                line = self.buffer[y]
                if line.wide:
                    _unsplit_wide(line, x, end)
                if run is not None:
                    line.update(run)
                elif end - x >= _RUN_MIN:
                    line.update(self._new_run(x, data))
                else:
                    cells = self._cells
                    try:
                        for ch in data:
                            line[x] = cells[ch]
                            x += 1
                    except KeyError:  # a character new to these attributes: go on from it
                        _intern(cells, attrs, data)
                        for ch in data[x - cursor.x:]:
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
                self._draw_wrapping(part)
            else:
                self._draw_unicode(part)

    def _new_run(self, x: int, data: str) -> dict[int, Char]:
        """The cells of `data` drawn from column `x`, kept for the next time."""
        cells = self._cells
        if not data.isascii():
            _intern(cells, self._cells_attrs, data)  # type: ignore[arg-type]
        run = dict(zip(range(x, x + len(data)), map(cells.__getitem__, data)))
        if len(data) <= _RUN_MAX:
            if self._run_cells > _RUN_BUDGET:
                for _, runs in self._cell_cache.values():
                    runs.clear()
                self._runs.clear()
                self._run_cells = 0
            self._runs[(x, data)] = run
            self._run_cells += len(data)
        return run

    def _tables_for(self, attrs: Char) -> tuple[dict[str, Char], dict[tuple[int, str], dict[int, Char]]]:
        """The cell table and run cache of `attrs`."""
        tables = self._cell_cache.get(attrs)  # type: ignore[call-overload]
        if tables is None:
            if len(self._cell_cache) > 4096:
                self._cell_cache.clear()
            tables = self._cell_cache[attrs] = (_cell_table(attrs), {})  # type: ignore[index]
        return tables

    def _cells_for(self, attrs: Char, data: str = "") -> dict[str, Char]:
        """The cell table of `attrs`, holding every character of `data`."""
        cells = self._cells if attrs is self._cells_attrs else self._tables_for(attrs)[0]
        if data and not data.isascii():
            _intern(cells, attrs, data)
        return cells

    def _draw_wrapping(self, data: str) -> None:
        cursor = self.cursor
        attrs = cursor.attrs
        cells = self._cells_for(attrs, data)
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
                self.carriage_return()
                self.linefeed()
            x = cursor.x
            chunk = data[i:i + cols - x]
            k = len(chunk)
            line = self.buffer[cursor.y]
            if line.wide:
                _unsplit_wide(line, x, x + k)
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
        cells = self._cells_for(cursor.attrs, data)
        widths = _WIDTHS
        line = self.buffer[cursor.y]
        self.dirty.add(cursor.y)
        for ch in data:
            w = widths.get(ch)
            if w is None:
                w = widths[ch] = wcwidth(ch)
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
                    if x < cols and w == 2:
                        # a wide char that does not fit leaves the last cell blank
                        line.pop(x, None)
                    self.carriage_return()
                    self.linefeed()
                    line = self.buffer[cursor.y]  # the linefeed may have scrolled
                    self.dirty.add(cursor.y)
                else:
                    cursor.x = cols - w
                x = cursor.x
            if insert:
                self.insert_characters(w)
            if line.wide:
                # Overwriting half of a wide character blanks its other half.
                prev = line.get(x)
                if prev is not None and prev.data == "" and x > 0:
                    line[x - 1] = line[x - 1]._replace(data=" ")
                if w == 1:
                    nxt = line.get(x + 1)
                    if nxt is not None and nxt.data == "":
                        line[x + 1] = nxt._replace(data=" ")
            line[x] = cells[ch]
            if w == 2:
                line.wide = True
                if x + 1 < cols:
                    line[x + 1] = cells[""]
            cursor.x = x + w

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

    def _combine(self, ch: str) -> None:
        """Attach a zero-width character (accent, VS16, ZWJ) to the cell before."""
        if unicodedata.category(ch) in ("Cc", "Cf") and ch not in ("\u200d", "\ufe0f", "\ufe0e"):
            return
        cursor = self.cursor
        x, y = cursor.x, cursor.y
        line = self.buffer[y]
        x -= 1
        if x >= 0 and line.get(x) is not None and line[x].data == "" and x > 0:
            x -= 1
        if x < 0:
            if y == 0:
                return
            y -= 1
            line = self.buffer[y]
            x = self.columns - 1
        last = line.get(x)
        if last is None:
            return
        self.dirty.add(y)
        line[x] = last._replace(data=unicodedata.normalize("NFC", last.data + ch))

    def repeat_last(self, count: int | None = None) -> None:
        """REP (`CSI n b`): repeat the last printed character."""
        if self._last_char:
            self.draw(self._last_char * min(max(count or 1, 1), 4 * self.columns * self.lines))

    # -- scrolling ----------------------------------------------------------
    def index(self) -> None:
        top, bottom = self.margins or Margins(0, self.lines - 1)
        if self.cursor.y == bottom:
            self._scroll_up_region(top, bottom, 1)
        elif self.cursor.y < self.lines - 1:
            self.cursor.y += 1

    def _scroll_up_region(self, top: int, bottom: int, count: int) -> None:
        buf = self.buffer
        count = min(count, bottom - top + 1)
        for _ in range(count):
            if top == 0:
                self._push_history(buf.get(0))
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
            for y in range(bottom, top, -1):
                prv = buf.get(y - 1)
                if prv is None:
                    buf.pop(y, None)
                else:
                    buf[y] = prv
            buf.pop(top, None)
        self.dirty.update(range(top, bottom + 1))

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
        x = self.cursor.x
        stops = [s for s in self.tabstops if s > x]
        self.cursor.x = min(stops) if stops else self.columns - 1

    # -- erasing ----------------------------------------------------------------
    def erase_in_display(self, how: int = 0, *args: Any, **kwargs: Any) -> None:
        if how not in (0, 1, 2, 3):
            return  # unknown: ignored, as xterm does (pyte would raise)
        if how == 3:
            # The terminal's scrollback goes; our history stays.
            self.scrollback.clear()
            return
        if how == 2 or (how == 0 and self.cursor.x == 0 and self.cursor.y == 0):
            # ED 0 from the home position clears the whole screen too (tmux
            # treats it as a clear, history included).
            self._boundary("clear")
            if not self.alternate:
                # Like tmux: a full clear of the main screen pushes the
                # visible lines (down to the last non-blank one) to history.
                used = [y for y, line in self.buffer.items()
                        if y < self.lines and render_text(line, self.columns)]
                for y in range(max(used) + 1 if used else 0):
                    self._push_history(self.buffer.get(y))
            self.buffer.clear()
            if self.cursor.attrs.bg != "default" or self.cursor.attrs.reverse:
                blank = self.cursor.attrs._replace(data=" ")
                for y in range(self.lines):
                    line = self.buffer[y]
                    for x in range(self.columns):
                        line[x] = blank
            self.dirty.update(range(self.lines))
            return
        super().erase_in_display(how)

    def erase_in_line(self, how: int = 0, private: bool = False) -> None:
        cursor = self.cursor
        y = cursor.y
        line = self.buffer[y]
        self.dirty.add(y)
        attrs = cursor.attrs
        cols = self.columns
        x0 = cursor.x if cursor.x < cols else cols - 1
        if how == 0:
            lo, hi = x0, cols
        else:
            lo, hi = (0, x0 + 1) if how == 1 else (0, cols)
        if attrs.bg == "default" and not attrs.reverse:
            # Erased cells are default blanks: drop the ones that exist.
            if lo == 0 and hi == cols:
                line.clear()
            elif hi - lo <= len(line):
                pop = line.pop
                for x in range(lo, hi):
                    pop(x, None)
            else:
                for x in [x for x in line if lo <= x < hi]:
                    del line[x]
        else:
            blank = attrs._replace(data=" ")
            line.update(dict.fromkeys(range(lo, hi), blank))

    # -- modes ------------------------------------------------------------------
    def set_mode(self, *modes: int, **kwargs: Any) -> None:
        if kwargs.get("private"):
            shifted = [m << 5 for m in modes]
            for m in shifted:
                if m in _ALT_MODES:
                    self._enter_alternate(m)
                elif m == SYNC_2026:
                    self.begin_synchronized_update()
            rest = [m for m in modes if (m << 5) not in _ALT_MODES and (m << 5) != SYNC_2026]
            if rest:
                super().set_mode(*rest, private=True)
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
                super().reset_mode(*rest, private=True)
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
                            list(self.savepoints))
        if mode == ALT_1049:
            self.save_cursor()
        self.buffer = self._new_buffer()
        self.alternate = True
        self.dirty.update(range(self.lines))

    def _leave_alternate(self, mode: int) -> None:
        if not self.alternate:
            return
        self._boundary("alt-leave")
        self.alternate = False
        assert self._main_saved is not None
        buffer, cursor, savepoints = self._main_saved
        self._main_saved = None
        self.buffer = buffer
        if mode == ALT_1049:
            self.savepoints = savepoints
            self.cursor = cursor
            self.ensure_hbounds()
            self.ensure_vbounds()
        self.dirty.update(range(self.lines))

    def _new_buffer(self) -> Any:
        return defaultdict(lambda: Row(self.default_char))

    def soft_reset(self) -> None:
        """DECSTR (`CSI ! p`): modes and margins back to defaults, text kept."""
        self.margins = None
        self.mode.discard(mo.IRM)
        self.mode.discard(mo.DECOM)
        self.mode.add(mo.DECAWM)
        self.mode.add(mo.DECTCEM)
        self.select_graphic_rendition(0)
        self.charset = 0
        self.g0_charset = pyte.charsets.LAT1_MAP

    def reset(self) -> None:
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
        lines = lines or self.lines
        columns = columns or self.columns
        if lines == self.lines and columns == self.columns:
            return
        self._boundary("resize")
        if lines < self.lines:
            # Like tmux: first drop blank rows below the cursor, then push
            # rows off the top into history.
            drop = self.lines - lines
            for y in range(self.lines - 1, self.cursor.y, -1):
                if drop == 0:
                    break
                if render_text(self.buffer.get(y) or {}, self.columns):
                    break
                self.buffer.pop(y, None)
                drop -= 1
            if drop:
                self._scroll_up_region(0, self.lines - 1, drop)
                self.cursor.y = max(0, self.cursor.y - drop)
        if columns < self.columns:
            for line in self.buffer.values():
                for x in [k for k in line if k >= columns]:
                    del line[x]
        self.lines, self.columns = lines, columns
        self.parser.forget_positions()
        self.margins = None
        self.tabstops = set(range(8, columns, 8))
        self.ensure_hbounds()
        self.ensure_vbounds()
        self.dirty.update(range(lines))

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
        snap, texts = self._snap, self._snap_text
        if len(snap) != rows or self._snap_cols != cols:
            snap = self._snap = [None] * rows
            texts = self._snap_text = [""] * rows
            self._snap_cols = cols
            dirty: Any = range(rows)
        else:
            dirty = self.dirty
        for y in dirty:
            if y < rows:
                line = buf.get(y)
                if line:
                    cells = snap[y] = row_cells(line, cols)
                    texts[y] = cells_text(cells)
                else:
                    snap[y], texts[y] = None, ""
        self.dirty.clear()
        return list(snap), list(texts)

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
