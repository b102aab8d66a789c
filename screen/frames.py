"""Replay a recording through the virtual screen and yield frames.

A frame is the screen as a person would have seen it when a state ended:
at the end of a synchronized update, just before anything that wipes the
view (alternate-screen switch, full clear, resize), just before the cursor
goes home to start a redraw, and after a pause in output. Never in the
middle of a synchronized update, so half-drawn screens never reach the
chrome rules. Pauses are the last resort, not the rule: the same bytes
written faster (a fast machine, a recorder that batches writes) must give
the same frames where the drawing itself marks the end of a state.

A frame also says where, in the lines that scrolled into history since
the previous frame, the program cleared the screen or the terminal changed
size (`marks`): what follows such a point may be the program reprinting
what it had drawn, which the transcript folds. Each scrolled line carries
the width it was laid out at (`widths`).
"""
from __future__ import annotations

import re
from operator import index as _index
from dataclasses import dataclass, field, fields
from pathlib import Path
from collections.abc import Sequence
from typing import Callable, Iterator

from screen.cast import CastHeader, CastReader, parse_size
from pyte.screens import Char

from screen.memo import IdentityMemo
from screen.vscreen import Line, Span, VirtualScreen, cells_spans

DEFAULT_GAP = 0.08  # seconds of recording time without output that make a quiet point

# Sequences that end a drawn state: the cursor going home to start a redraw
# (a frame is taken before it), the cursor shown again where input goes
# after a render (a frame is taken after it), a full or scrollback clear
# and a terminal reset (a mark is set after it: a reprint may follow).
# All open with ESC, written once in front so the regex engine skips to the
# next ESC instead of trying each alternative at every character.
_HOME = r"\[(?:1?;?1?)?H"
_SHOW = r"\[\?25h"
_CLEAR = r"\[[23]J|c"
# A line editor (bash/zsh readline) leaving bracketed-paste mode: the typed
# line was accepted and is on screen, the cursor just below it (a frame is
# taken before it: a shell prompt and its command, whatever the pauses).
_ACCEPT = r"\[\?2004l"
# A line editor (bash, zsh) turning bracketed paste on as it starts reading a
# line, before it draws the prompt: when plain text (no control sequence) was
# written just before, a frame is taken with where that text began
# (`Frame.teletype_from`): what a shell printed after an agent ended (bash's
# `Killed` at the agent's cursor, the rest of a command list), told by the
# bytes' order alone, whatever the pauses.
_RESUME = r"\[\?2004h"
# What plain output may carry that draws nothing and moves no cursor: colours
# (`ls --color`) and OSC strings (a window title bash's PROMPT_COMMAND sets
# between a command's output and the prompt, an OSC 8 link around a file name).
_QUIET = re.compile(r"\x1b\[[0-9;:]*m|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
# The control sequence at an ESC (CSI, OSC/DCS strings, two-byte escapes).
_ESC_AT = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[ -/]*[0-~])")
# A cursor move or line erase: what follows it is drawn by the same program.
_DRAWS_ON = re.compile(r"\x1b\[[0-9;]*[A-DGK]")
# An escape or CSI sequence left unfinished at the end of a write.
_PARTIAL = re.compile(r"\x1b(?:\[[0-9;?]*)?\Z")
# The cursor going home and erasing row after row down the screen (EL 2,
# cursor down, ...): a clear written by hand (Claude Code before it reprints
# its conversation, e.g. after /compact); a mark when it covers the screen.
_WIPE = r"\[(?:1?;?1?)?H(?:\x1b\[2K\x1b\[1?B){8,}"
# A run of cursor moves (and line erases) with a cursor-up in it, written
# without text between: an inline renderer (Claude Code's) going back up to
# redraw its region in place. When it takes the cursor up to the screen's top
# row it is a home written relatively: a frame is taken before the run (the
# state drawn last, whole), as before `ESC [H`. Such a render replaces what
# the screen showed (Ctrl+O's detailed transcript over the conversation), and
# rows it scrolls off must not share a frame with rows the view before it
# scrolled, whatever the pauses. Short of the top it is the renderer starting
# its next render in place: the state it drew last ended there (a frame, taken
# with the text before the run fed, so the cursor it starts from is right).
_MOVE = r"\[[0-9]*[BCDGK]\r?\x1b"
_UP = rf"(?:{_MOVE})*\[[0-9]*A(?:\r?\x1b\[[0-9]*[ABCDGK])*"
_MOVES = re.compile(r"\x1b\[([0-9]*)([ABCDGK])")
_STATE_END = re.compile(f"\x1b(?:(?P<wipe>{_WIPE})|(?P<home>{_HOME})|(?P<show>{_SHOW})|(?P<clear>{_CLEAR})"
                        f"|(?P<accept>{_ACCEPT})|(?P<resume>{_RESUME})|(?P<up>{_UP}))")


class SpanCache:
    """Style spans of row snapshots, shared by the frames of one replay.

    A row that did not change between frames is the very same cell tuple
    in both, so its spans are worked out once, not once per frame.
    """

    def __init__(self, limit: int = 4096) -> None:
        self._memo = IdentityMemo(limit)

    def spans(self, cells: tuple[Char, ...]) -> tuple[Span, ...]:
        return self._memo.get(cells, None, cells_spans, cells)


class RowStyles(Sequence):
    """A frame's style spans per row, each row worked out when first read.

    Chrome rules ask for the styles of a few rows (a background behind the
    composer, a bar in the margin), not of the whole screen, and most
    frames are never asked at all.
    """

    __slots__ = ("_cells", "_spans", "_done")

    def __init__(self, cells: list[tuple[Char, ...] | None],
                 spans: Callable[[tuple[Char, ...]], tuple[Span, ...]]) -> None:
        self._cells = cells
        self._spans = spans
        self._done: list[tuple[Span, ...] | None] = [None] * len(cells)

    def __len__(self) -> int:
        return len(self._cells)

    def __getitem__(self, i):  # type: ignore[override]
        if i.__class__ is not int:
            if isinstance(i, slice):
                return [self[j] for j in range(*i.indices(len(self._cells)))]
            i = _index(i)
        got = self._done[i]
        if got is None:
            c = self._cells[i]
            got = self._done[i] = self._spans(c) if c is not None else ()
        return got

    def __iter__(self) -> Iterator[tuple[Span, ...]]:
        # rules walk every row's styles of every frame: no per-row __getitem__
        done, cells, spans = self._done, self._cells, self._spans
        for i in range(len(cells)):
            got = done[i]
            if got is None:
                c = cells[i]
                got = done[i] = spans(c) if c is not None else ()
            yield got

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (RowStyles, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return repr(list(self))


@dataclass
class Frame:
    index: int
    time: float
    reason: str  # quiet | sync | clear | home | up | cursor | alt-enter | alt-leave | resize | accept | resume | end
    columns: int
    rows: int
    lines: list[str]  # visible rows, trailing blanks trimmed
    cursor: tuple[int, int]  # (x, y)
    cursor_hidden: bool
    alternate: bool  # the alternate screen is active
    scrolled: list[str]  # lines that left the main screen since the previous frame
    inputs: list[str] = field(default_factory=list)  # input events since the previous frame
    #: (offset into `scrolled`, "clear" | "resize"): the program cleared the
    #: screen, or the terminal changed size, after that many scrolled lines
    marks: list[tuple[int, str]] = field(default_factory=list)
    #: the width each `scrolled` line was laid out at
    widths: list[int] = field(default_factory=list)
    #: per `scrolled` line: autowrap carried its text on to the next line
    wrapped: list[bool] = field(default_factory=list)
    #: per visible row: autowrap carried its text on to the next row
    row_wrapped: list[bool] = field(default_factory=list)
    #: (x, y) where the plain text (no control sequence but colours) written since
    #: the last control sequence began (y < 0: in a line since scrolled off), when
    #: there is any: bytes' order alone places it (reason "resume": taken as a line
    #: editor turned bracketed paste on, just after such text)
    teletype_from: tuple[int, int] | None = None
    #: the `scrolled` lines as the screen's history keeps them (`HistoryLine`:
    #: text, style spans, layout), when styles are kept: a row that scrolled off
    #: between two frames is read with its colours as surely as one on a frame,
    #: whatever the pauses that placed the frames
    scrolled_lines: list = field(default_factory=list, repr=False)
    #: rows a resize had brought back from history (a taller screen) that left
    #: the top again since the previous frame, unchanged: not in `scrolled` (the
    #: history holds them already), yet the screen's rows moved up by as many
    returned: int = 0
    #: (x, y) of the cursor wherever a line editor accepted a line (bracketed
    #: paste off) since the previous frame, on this frame's rows (y < 0: since
    #: scrolled off): an "accept" frame is taken there, unless a frame already
    #: showed the same screen (no input events, a pause before Enter), and
    #: then the accept is still known from here
    accepted: list[tuple[int, int]] = field(default_factory=list, compare=False)
    #: a line editor is reading a line: bracketed paste was turned on (`ESC[?2004h`)
    #: after the last line accepted (`accepted`: turned off) before this frame's end.
    #: Bash and zsh turn it on as they start reading a line, before their prompt
    reading: bool = field(default=False, compare=False)
    cells: list[tuple[Char, ...] | None] = field(default_factory=list, repr=False)
    #: OSC 8 hyperlinks closed since the previous frame: (target, the text
    #: drawn under it on one row), in drawing order (`VirtualScreen.links`)
    links: list[tuple[str, str]] = field(default_factory=list, repr=False, compare=False)
    span_cache: SpanCache | None = field(default=None, repr=False, compare=False)
    _styles: RowStyles | None = field(default=None, repr=False)
    #: what chrome rules worked out about this frame (`agents_chrome.profile.per_frame`):
    #: a frame's rows are read by several steps, each once. Not an init field,
    #: so a copy made with `dataclasses.replace` (other rows) starts empty.
    memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def styles(self) -> RowStyles:
        """Style spans per row (start, end, fg, bg, flags), each row's computed on first use."""
        if self._styles is None:
            spans = self.span_cache.spans if self.span_cache is not None else cells_spans
            self._styles = RowStyles(self.cells, spans)
        return self._styles

    def text(self) -> str:
        return "\n".join(self.lines)


_new_object = object.__new__
#: the fields `FrameBuilder.take` sets on a frame it makes, in `Frame`'s order
_FRAME_FIELDS = ("index", "time", "reason", "columns", "rows", "lines", "cursor", "cursor_hidden", "alternate",
                 "scrolled", "inputs", "marks", "widths", "wrapped", "row_wrapped", "teletype_from",
                 "scrolled_lines", "returned", "accepted", "reading", "cells", "links", "span_cache", "_styles", "memo")
if tuple(f.name for f in fields(Frame)) != _FRAME_FIELDS or hasattr(Frame, "__post_init__"):
    raise ImportError("screen.frames: FrameBuilder.take makes frames field by field; "
                      "a field of Frame was added or moved (update _FRAME_FIELDS and take)")


class FrameBuilder:
    """Feeds events to a `VirtualScreen` and collects frames."""

    def __init__(self, columns: int, rows: int, scrollback: int = 10_000, gap: float = DEFAULT_GAP,
                 styles: bool = True) -> None:
        self.screen = VirtualScreen(columns, rows, scrollback=scrollback)
        self.screen.on_boundary = self._on_boundary
        self.gap = gap
        self.want_styles = styles
        self.now = 0.0
        self._ready: list[Frame] = []
        self._spans = SpanCache()
        self._count = 0
        self._hist_mark = 0
        self._kept_at_top: list = []  # `VirtualScreen.kept_at_top` until the next drawing
        self._kept_below: list = []  # the rows of the screen under them, as the shrink left them
        self._resized_rows: list = []  # the screen's rows as a resize left them, until the next drawing
        self._in_string = False  # while it waits: the output so far ends inside an OSC or DCS string
        # while it waits, the output since the resize that drew nothing: its
        # line erases, display erases, and whether its moves reached the top row
        self._undrawn = (False, False, False)
        self._returned_mark = 0
        self._inputs: list[str] = []
        self._dirty = False  # output since the last frame
        self._last_out = 0.0
        self._last_lines: list[str] | None = None
        self._last_alt = False
        self._marks: list[tuple[int, str]] = []  # (history_total, reason)
        self._reading = False  # `Frame.reading`
        self._accepts: list[tuple[int, int]] = []  # (x, history_total + y) of accepts not on a frame yet
        self._carry = ""  # an unfinished control sequence that ended the last output event
        #: (x, absolute row) of the cursor after the last control sequence, and whether
        #: visible text was written since (see `_feed_tracked`)
        #: a terminal starts blank with the cursor home: what is written before any
        #: control sequence (a shell with no line editor, such as dash) is plain text from there
        self._plain_from: tuple[int, int] | None = (0, 0)
        self._plain_text = False

    def _on_boundary(self, reason: str) -> None:
        if self.screen.synchronized and reason != "alt-enter":
            return
        # entering the alternate screen ends the main screen's state even inside a
        # synchronized update: what it shows then stays until the alternate screen
        # is left (a shell's echo of the command line that starts a full-screen
        # program in the same burst is on no frame otherwise)
        self.take(reason)

    def _scrolled_layout(self, n: int) -> tuple[list[int], list[bool]]:
        """Layout width and soft-wrap flag of the last `n` history lines.

        Read from the screen's laid-out history when it keeps one; else the
        current width and no soft wraps.
        """
        if not n:
            return [], []
        s = self.screen
        lines = getattr(s, "history_lines", None)
        if lines is not None and len(lines) >= n:
            tail = [lines[i] for i in range(len(lines) - n, len(lines))]
            return [h.width or s.columns for h in tail], [bool(h.wrapped) for h in tail]
        return [s.columns] * n, [False] * n

    def _row_wrapped(self) -> list[bool]:
        s = self.screen
        if s.alternate or getattr(s, "row_layout", None) is None:
            return []
        # `row_layout()`'s wrap flags (each row's `Row.wrapped`), as the snapshot
        # this frame was just taken with read them (only rows that changed):
        # this runs for every main-screen frame
        return s.snapshot_wrapped()

    def _take_links(self) -> list[tuple[str, str]]:
        """The screen's links closed since the last frame, handed over (a frame
        keeps its own list; the screen starts a new one)."""
        links = self.screen.links
        if not links:
            return []
        self.screen.links = []
        return links

    def take(self, reason: str, force: bool = False) -> None:
        s = self.screen
        cells, lines = s.snapshot_with_text()
        base = self._hist_mark
        scrolled = s.history_since(base)
        self._hist_mark = s.history_total
        marks = [(total - base, why) for total, why in self._marks
                 if 0 <= total - base <= len(scrolled) and not s.alternate] if self._marks else []
        if (not force and not scrolled and not self._inputs and lines == self._last_lines
                and s.alternate == self._last_alt):
            self._dirty = False
            return
        self._marks = []
        returned = s.history_returned - self._returned_mark
        self._returned_mark = s.history_returned
        widths, wrapped = self._scrolled_layout(len(scrolled))
        cursor = s.cursor
        # `Frame(...)` with every field given, made without the dataclass's
        # __init__ (a frame per keystroke echo and spinner tick adds up);
        # `_FRAME_FIELDS` checks at import that this names every field
        f = _new_object(Frame)
        f.__dict__ = {
            "index": self._count, "time": self.now, "reason": reason, "columns": s.columns, "rows": s.lines,
            "lines": lines, "cursor": (cursor.x, cursor.y), "cursor_hidden": cursor.hidden,
            "alternate": s.alternate, "scrolled": scrolled, "inputs": self._inputs, "marks": marks,
            "widths": widths, "wrapped": wrapped, "row_wrapped": self._row_wrapped(),
            "teletype_from": self._teletype_from(),
            "scrolled_lines": s.history_lines_since(base) if self.want_styles and scrolled else [],
            "returned": returned, "accepted": [(x, a - s.history_total) for x, a in self._accepts] if self._accepts else [],
            "reading": self._reading,
            "cells": cells if self.want_styles else [], "links": self._take_links(), "span_cache": self._spans,
            "_styles": None, "memo": {}}
        self._ready.append(f)
        self._accepts = []
        self._count += 1
        self._inputs = []
        self._last_lines = lines
        self._last_alt = s.alternate
        self._dirty = False

    def feed_event(self, time: float, code: str, data: str) -> list[Frame]:
        if self._dirty and time - self._last_out >= self.gap and not self.screen.synchronized:
            self.now = self._last_out
            self.take("quiet")
        self.now = time
        if code == "o":
            self._feed_output(data)
            self._dirty = True
            self._last_out = time
        elif code == "i":
            # Enter sends what the screen shows: the screen as drawn when the
            # key was pressed is a frame, however soon the key followed the
            # drawing (what a program drew only until then, an input line,
            # is gone from every later frame)
            if self._dirty and ("\r" in data or "\n" in data) and not self.screen.synchronized:
                self.now = self._last_out
                self.take("enter")
                self.now = time
            self._inputs.append(data)
        elif code == "r":
            size = parse_size(data)
            if size:
                self._flush_carry()
                plain, old_start = self._plain_from, self._line_start()
                self.screen.resize(lines=size[1], columns=size[0])
                self._kept_at_top = self.screen.kept_at_top
                self._kept_below = ([self.screen._history_entry(self.screen.buffer.get(y))
                                     for y in range(len(self._kept_at_top), self.screen.lines)]
                                    if self._kept_at_top else [])
                self._resized_rows = ([] if self.screen.alternate else
                                      [self.screen._history_entry(self.screen.buffer.get(y))
                                       for y in range(self.screen.lines)])
                self._in_string = False
                self._undrawn = (False, False, False)
                self._plain_from = self._plain_across_resize(plain, old_start)
                self._plain_text = self._plain_text and self._plain_from is not None
                self._mark("resize")
                self._dirty = True
        return self.drain()

    def _line_start(self) -> int:
        """Absolute row where the cursor's line begins (rows it wrapped from above it)."""
        s = self.screen
        y = min(s.cursor.y, s.lines - 1)
        while y > 0 and (row := s.buffer.get(y - 1)) is not None and row.wrapped:
            y -= 1
        return s.history_total + y

    def _plain_across_resize(self, plain: tuple[int, int] | None, old_start: int) -> tuple[int, int] | None:
        """Where a run of plain text began, after a resize laid the rows out anew.

        Rows move, but lines do not: a run that began at a row's start on or
        above the cursor's line still does. Kept as the cursor line's first row
        when it began there, else as the row just above (the end of the line
        before, plain too): a shell with no line editor (dash) resized at its
        prompt still gets its frame when the next program starts, without pauses.
        A run that began inside the cursor's line is dropped (its column moved)."""
        if plain is None or plain[0] != 0 or plain[1] > old_start:
            return None
        start = self._line_start()
        return (0, start) if plain[1] == old_start else (0, max(0, start - 1))

    _SLICE = 4096  # characters fed at once: at most that many rows can scroll

    def _feed_bounded(self, data: str) -> None:
        """Feed `data`, taking a frame before the screen's bounded history
        could drop rows no frame has read yet (a long burst of output with
        no pause and no state boundary in it)."""
        s = self.screen
        keep = s.history.maxlen or 10_000
        step = max(64, min(self._SLICE, keep // 2))  # a slice scrolls at most `step` rows
        for i in range(0, len(data), step):
            s.feed(data[i:i + step])
            if s.history_total - self._hist_mark >= keep - 2 * step and not s.synchronized:
                self.take("history")

    def _feed_tracked(self, data: str) -> None:
        """Feed `data`, noting where the cursor was after its last control
        sequence other than a colour (SGR) and whether visible text followed:
        the start of a run of plain output (`Frame.teletype_from`). Event
        boundaries do not move it."""
        if self._plain_from is not None:
            data = data[self._plain_end(data):]
        i = data.rfind("\x1b")
        m = None
        while i >= 0:
            m = _ESC_AT.match(data, i)
            if m is None or not _QUIET.fullmatch(m.group()):
                break
            i = data.rfind("\x1b", 0, i)  # colours are part of plain output (`ls --color`)
        if i < 0:
            self._plain_text = self._plain_text or bool(_QUIET.sub("", data).strip())
            self._feed_bounded(data)
            return
        end = m.end() if m else len(data)
        self._feed_bounded(data[:end])
        s = self.screen
        self._plain_from = (s.cursor.x, s.history_total + s.cursor.y)
        self._plain_text = bool(_QUIET.sub("", data[end:]).strip())
        if end < len(data):
            self._feed_bounded(data[end:])

    def _plain_end(self, data: str) -> int:
        """Plain text that began a row and went on over rows ends at a control
        sequence with the cursor at a row's start: a frame there ("plain"), before
        the sequence is fed. A shell with no line editor (dash, sh) writes its
        prompt, the echo of a command and the command's output as plain text;
        the program started next (an agent) opens with control sequences, and
        without this frame no frame would show what the shell wrote (no pause
        needed, the bytes' order places it). A sequence that moves the cursor
        along or up and down from there, or erases the row (CUU/CUD/CUF/CUB,
        CHA, EL), is the same program drawing on (an inline renderer's rows
        joined by CR LF, then the next row placed with CHA): no frame, or one
        would be taken mid-render only where an event happened to start."""
        s = self.screen
        if self._plain_from[0] != 0 or s.alternate or s.synchronized:  # type: ignore[index]
            return 0  # (asked below too, before any scan: the common answer)
        j = data.find("\x1b")
        while j >= 0:
            m = _ESC_AT.match(data, j)
            if m is None or not _QUIET.fullmatch(m.group()):
                break
            j = data.find("\x1b", m.end())
        if j < 0:
            return 0
        s = self.screen
        x0, a0 = self._plain_from  # type: ignore[misc]
        head = data[:j]
        if x0 != 0 or s.alternate or s.synchronized or not (self._plain_text or _QUIET.sub("", head).strip()):
            return 0
        self._feed_bounded(head)
        self._plain_text = True
        if (s.cursor.x == 0 and s.history_total + s.cursor.y > a0 + 1
                and not (m is not None and _DRAWS_ON.fullmatch(m.group()))):
            self.take("plain", force=True)
        return j  # the caller feeds the rest, from the control sequence on

    def _teletype_from(self) -> tuple[int, int] | None:
        """Where the plain text written since the last control sequence began, on
        the screen as it is now (y < 0: scrolled off); None when there is none."""
        if not self._plain_text or self._plain_from is None or self.screen.alternate:
            return None
        x, a = self._plain_from
        return x, a - self.screen.history_total

    def _resume(self) -> None:
        """A line editor starts reading a line (bracketed paste on): after plain
        text, a frame showing that text and where it began."""
        s = self.screen
        if not self._plain_text or self._plain_from is None or s.synchronized or s.alternate:
            return
        self.take("resume", force=True)
        self._plain_text = False

    def _mark(self, why: str) -> None:
        if not self.screen.alternate:
            self._marks.append((self.screen.history_total, why))

    def _feed_output(self, data: str) -> None:
        """Feed output, taking a frame where the drawing shows a state ended.

        Split only at the start of a sequence matched whole in this event: a
        sequence cut between events is still fed whole by the parser, it
        only gives no early frame.
        """
        feed = self._feed_tracked
        if self._carry:
            data, self._carry = self._carry + data, ""
        if self._kept_at_top:
            i, self._in_string = _first_drawn(data, self._in_string)
            if i is None:
                self._wait_drawing(data)
            else:
                kept, self._kept_at_top = self._kept_at_top, []
                below, self._kept_below = self._kept_below, []
                rows, self._resized_rows = self._resized_rows, []
                wipe, to_top = self._wipe_before(data, i)
                if i:
                    self._feed_output(data[:i])
                    data = data[i:]
                if not self._kept_wiped(kept, below, data) and wipe and rows:
                    # the rows kept at the top stayed: the wipe may still have
                    # reached finished rows under them (a cursor the shrink
                    # put on the bottom row: see `_over_wiped`)
                    self._over_wiped(rows, data, to_top)
        elif self._resized_rows:
            i, self._in_string = _first_drawn(data, self._in_string)
            if i is None:
                self._wait_drawing(data)
            else:
                rows, self._resized_rows = self._resized_rows, []
                wipe, to_top = self._wipe_before(data, i)
                if wipe:
                    self._feed_output(data[:i])
                    self._over_wiped(rows, data[i:], to_top)
                    data = data[i:]
        cut = _PARTIAL.search(data, max(0, len(data) - 16))
        if cut is not None:
            # a control sequence cut by the event's end: held back and fed
            # with the next event, so one cut anywhere still marks the state
            # end it would have marked whole (it draws nothing until complete)
            data, self._carry = data[:cut.start()], data[cut.start():]
        pos = 0
        for m in _STATE_END.finditer(data):
            kind = m.lastgroup  # the alternative matched (the named groups hold no others)
            if kind == "wipe":
                if m.start() > pos:
                    feed(data[pos:m.start()])
                    pos = m.start()
                if self._dirty and not self.screen.synchronized:
                    self.take("home")
                feed(data[pos:m.end()])
                pos = m.end()
                if m.group().count("\x1b[2K") >= self.screen.lines - 1:
                    self._mark("clear")
            elif kind == "home":
                if m.start() > pos:
                    feed(data[pos:m.start()])
                    pos = m.start()
                if self._dirty and not self.screen.synchronized:
                    self.take("home")
            elif kind == "accept":
                if m.start() > pos:
                    feed(data[pos:m.start()])
                    pos = m.start()
                if not self.screen.synchronized and not self.screen.alternate:
                    s = self.screen
                    self._accepts.append((s.cursor.x, s.history_total + s.cursor.y))
                    self.take("accept")  # the line as it was read: still `reading`
                    self._reading = False
            elif kind == "resume":
                if m.start() > pos:
                    feed(data[pos:m.start()])
                    pos = m.start()
                self._resume()
                self._reading = True
            elif kind == "up":
                if m.start() > pos:
                    feed(data[pos:m.start()])
                    pos = m.start()
                if self._reaches_top(m.group()):
                    if self._dirty and not self.screen.synchronized:
                        self.take("up")
                elif not self.screen.alternate and not self.screen.synchronized:
                    # An inline renderer starting its next render in place: the
                    # state drawn last ended here (a row this render erases, a
                    # running tool group's call, was in no frame otherwise when
                    # no pause followed it).
                    self.take("render")
            elif kind == "show":
                feed(data[pos:m.end()])
                pos = m.end()
                if not self.screen.synchronized:
                    self.take("cursor")
            else:
                feed(data[pos:m.end()])
                pos = m.end()
                self._mark("clear")
            self._dirty = True
        if pos < len(data):
            feed(data[pos:])

    def _wait_drawing(self, data: str) -> None:
        """An event after a resize that draws nothing: its moves and erases
        (fed as usual) belong to the wipe before the first drawing, which a
        renderer may write in an event of its own (Gemini CLI's Ink: the
        erase of its live area, then the rows it draws again)."""
        lines, display, top = self._undrawn
        more_lines, more_display = _erases(data, len(data))
        self._undrawn = (lines or more_lines, display or more_display, top or self._reaches_top(data))

    def _wipe_before(self, data: str, i: int) -> tuple[bool, bool]:
        """The first drawing after a resize is at `data[i]`: whether the
        output before it since the resize (this event's and the undrawn
        events' before it) wipes lines and not the display (`_erases`),
        and whether its moves took the cursor to the top row."""
        lines, display, top = self._undrawn
        self._undrawn = (False, False, False)
        more_lines, more_display = _erases(data, i)
        wipe = (lines or more_lines) and not (display or more_display)
        return wipe, wipe and (top or self._reaches_top(data[:i]))

    def _kept_wiped(self, kept: list, below: list | None = None, drawing: str = "") -> bool:
        """The program's first drawing after a shrink: were the rows the shrink
        kept at the top (`VirtualScreen.kept_at_top`) erased before it?

        A program that redraws "the last screenful" after the terminal got
        shorter believes the rows above it scrolled off, as xterm scrolls
        them; tmux dropped blank rows below the cursor instead and kept those
        rows at the top, where the program's wipe (row after row, or a clear
        of its own) erases them: shown, and in no history. They go to the
        history now, where they would have scrolled, with a mark after them
        (a reprint may repeat some). Told by the bytes' order alone: the
        wipe may be cut across events.

        The rows under them (`below`, which xterm too showed) are wiped as
        well, and a program that redraws only its live area (Claude Code
        2.1.197's inline renderer) never draws the finished output among
        them again: those above the first one the drawing (`drawing`, the
        rest of this event) draws again go to the history after the kept
        rows. Without such a row in the drawing, none does (what it
        redraws is not known). Returns whether the kept rows were erased
        (False: none had text, or one is still on the screen)."""
        s = self.screen
        if s.alternate or not any(e.text.strip() for e in kept):
            return False
        buf = s.buffer
        for y in range(min(len(kept), s.lines)):
            row = buf.get(y)
            if _inked(row):
                return False
        at = s.history_total
        s.record_rows(_not_redrawn(kept, below or [], drawing, buf, len(kept)))
        # a mark the wipe set where the rows now go moves after them
        self._marks = [(p, why) for p, why in self._marks if not (p == at and why == "clear")]
        self._mark("clear")
        return True

    def _over_wiped(self, rows: list, drawing: str, to_top: bool = False) -> None:
        """The program's first drawing after a resize (no rows kept at the
        top, or kept rows it did not erase) whose wipe before the first
        character it draws erases lines (`CSI 2K`, no display erase): did it
        erase finished rows it never draws again?

        An inline renderer erases as many rows as its live area held before
        the resize; a reflow that joined rows makes that count reach above
        the live area (Gemini CLI's Ink renderer after a widening), wiping
        rows of finished output that no later drawing holds. So does a
        shrink that deleted the rows under the cursor (tmux: the cursor, in
        the live area, is left on the bottom row): the renderer's move down
        to its live area's last row stops there, and its erase reaches as
        many rows higher (Gemini CLI's input row four rows above its last). The wiped rows
        (`rows`: the screen as the resize left them) above the first one the
        drawing (the rest of this event) draws again (as `_not_redrawn`)
        are lost that way: they go to the history with every screen row
        above them, as if scrolled off (their order kept), and those rows
        leave the screen. Nothing goes when no wiped row is drawn again, a
        row under them was not wiped, the wipe clears the display or reaches
        the top row (`to_top`: its moves take the cursor there; or nothing
        it left above it was on the screen before it: the program redraws
        the whole screen). Rows above it blank before the wipe too (an
        earlier such move to the history left them so) do not stop it."""
        s = self.screen
        if s.alternate:
            return
        buf = s.buffer
        top = None
        for y, entry in enumerate(rows[:s.lines]):
            row = buf.get(y)
            if entry.text.strip() and not _inked(row):
                top = y
                break
        if not top or to_top or not any(_inked(buf.get(y)) for y in range(top)) and any(
                e.text.strip() for e in rows[:top]):
            return  # the wipe reached the top row: a whole-screen redraw (see `_kept_wiped`)
        lost = _not_redrawn([], rows[top:], drawing, buf, top)
        if not lost:
            return
        at = s.history_total
        above = [s._history_entry(buf.get(y)) for y in range(top)] if any(
            _inked(buf.get(y)) for y in range(top)) else []
        s.record_rows(above + lost)
        for y in range(top):
            buf[y] = s._new_row()
            s.dirty.add(y)
        self._marks = [(p, why) for p, why in self._marks if not (p == at and why == "clear")]
        self._mark("clear")

    def _reaches_top(self, run: str) -> bool:
        """A run of cursor moves (see `_UP`), fed from where the cursor is now,
        takes it up to the top row of the main screen."""
        s = self.screen
        if s.alternate:
            return False
        y, last = s.cursor.y, s.lines - 1
        key = (run, y, last)  # an inline renderer writes the same runs from the same rows
        got = _REACHES_TOP.get(key)
        if got is None:
            if len(_REACHES_TOP) > 4096:
                _REACHES_TOP.clear()
            got = _REACHES_TOP[key] = self._run_reaches_top(run, y, last)
        return got

    @staticmethod
    def _run_reaches_top(run: str, y: int, last: int) -> bool:
        for n, op in _MOVES.findall(run):
            k = int(n or 1) or 1
            if op == "A":
                if y > 0 and y - k <= 0:
                    return True
                y = max(0, y - k)
            elif op == "B":
                y = min(last, y + k)
        return False

    def _flush_carry(self) -> None:
        if self._carry:
            data, self._carry = self._carry, ""
            self._feed_tracked(data)

    def finish(self) -> list[Frame]:
        self._flush_carry()
        self.take("end", force=True)
        return self.drain()

    def drain(self) -> list[Frame]:
        out, self._ready = self._ready, []
        return out


#: (run, cursor row, last row) -> the run takes the cursor to the top row (`_reaches_top`)
_REACHES_TOP: dict[tuple[str, int, int], bool] = {}


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _inked(row) -> bool:
    """A screen row (a buffer's, or None) holds a character that is not a space."""
    return bool(row) and any(c.data.strip() for c in row.values())


def _not_redrawn(kept: list, below: list, drawing: str, buf, first: int) -> list:
    """The rows a wipe after a shrink erased that go to the history: the
    rows the shrink kept at the top (`kept`), and those of the rows under
    them (`below`, from screen row `first` down) that `drawing` does
    not draw again: the ones above the first row whose text (spaces aside:
    a redraw at another width wraps and pads anew) the drawing's text
    holds, blank rows right above it left out. None of `below` when no row
    of them is drawn again, or one is still on the screen (no wipe reached
    it).

    A row of one character repeated (a rule, a band's edge: `───`, `▄▄▄`)
    is in any drawing that holds a longer run of it. The first wiped row
    being one tells nothing: the walk goes on to the first row with other
    text drawn again (an inline prompt's band, `▄▄▄` / `> prompt` / `▀▀▀`,
    above the answer the drawing redraws); rows go only when one of them
    holds other text (rules and blanks alone are the live area's)."""
    drawn = _squeezed(_ESC_AT.sub("", drawing))
    drawn = "".join(ch for ch in drawn if ch >= " " and ch != "\x7f")
    if not drawn:
        return kept
    out: list = []
    past_rule = False  # walking on past such a row at the top
    for k, entry in enumerate(below, first):
        if _inked(buf.get(k)):
            return kept  # not wiped
        text = _squeezed(entry.text)
        if text and text in drawn:
            rule = len(set(text)) == 1
            if rule and not out:
                past_rule = True
            elif not rule or not past_rule:
                while out and not out[-1].text.strip():
                    out.pop()
                if past_rule and not any(len(set(_squeezed(e.text))) > 1 for e in out):
                    return kept  # only rules and blanks under the first: the live area's own
                return kept + out
        out.append(entry)
    return kept


_WIPES_DISPLAY = re.compile(r"\x1b\[[0-9]*J")


def _erases(data: str, end: int) -> tuple[bool, bool]:
    """Whether `data[:end]` erases lines (`CSI 2K`) and whether it erases the
    display: a live area's wipe is the first without the second, and can
    reach rows a resize moved under it (`_kept_wiped`, `_over_wiped`)."""
    return "\x1b[2K" in data[:end], bool(_WIPES_DISPLAY.search(data, 0, end))


def _first_drawn(data: str, in_string: bool = False) -> tuple[int | None, bool]:
    """Where the first character that draws is in `data` (outside control
    sequences and strings; control characters draw nothing), or None; and
    whether `data` ends inside a string (OSC, DCS: a title cut across
    events). `in_string`: `data` opens inside one."""
    pos, n = 0, len(data)
    if in_string:
        m = _STRING_END.search(data)
        if m is None:
            return None, True
        pos = m.end()
    while pos < n:
        ch = data[pos]
        if ch == "\x1b":
            m = _ESC_AT.match(data, pos)
            kind = data[pos + 1:pos + 2]
            opens = kind in ("]", "P", "X", "^", "_")
            if m is None or ((opens or kind == "[") and m.end() == pos + 2):
                # cut at the event's end (a string goes on in the next event)
                return None, opens
            pos = m.end()
        elif ch < " " or ch == "\x7f":
            pos += 1
        else:
            return pos, False
    return None, False


_STRING_END = re.compile(r"\x07|\x1b\\")


def iter_frames(reader: CastReader, scrollback: int = 10_000, gap: float = DEFAULT_GAP,
                styles: bool = True, until: float | None = None) -> Iterator[Frame]:
    """Stream frames from an open recording (optionally stopping at `until`)."""
    h = reader.header
    fb = FrameBuilder(h.width, h.height, scrollback=scrollback, gap=gap, styles=styles)
    for ev in reader.events():
        if until is not None and ev.time > until:
            break
        yield from fb.feed_event(ev.time, ev.code, ev.data)
    yield from fb.finish()


def replay_screen(path: str | Path, at: float | None = None, scrollback: int = 10_000,
                  size: tuple[int, int] | None = None, timing: str | Path | None = None
                  ) -> tuple[CastHeader, VirtualScreen, float]:
    """The screen of any recording format at time `at` (default: the end) and the time reached;
    `size` and `timing` as `screen.rawlog.open_recording` takes them for logs without a header."""
    from screen.rawlog import open_recording
    with open_recording(path, size=size, timing=timing) as reader:
        h = reader.header
        s = VirtualScreen(h.width, h.height, scrollback=max(0, scrollback))
        t = 0.0
        for ev in reader.events():
            if at is not None and ev.time > at:
                break
            t = ev.time
            if ev.code == "o":
                s.feed(ev.data)
            elif ev.code == "r":
                size = parse_size(ev.data)
                if size:
                    s.resize(lines=size[1], columns=size[0])
        return h, s, t


__all__ = ["Frame", "FrameBuilder", "SpanCache", "iter_frames", "replay_screen", "Line"]
