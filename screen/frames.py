"""Replay a recording through the virtual screen and yield frames.

A frame is the screen as a person would have seen it at a quiet moment:
after a pause in output, at the end of a synchronized update, and just
before anything that wipes the view (alternate-screen switch, full clear,
resize). Never in the middle of a synchronized update, so half-drawn
screens never reach the chrome rules.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from screen.cast import CastHeader, CastReader, parse_size
from pyte.screens import Char

from screen.vscreen import Line, Span, VirtualScreen, cells_spans

DEFAULT_GAP = 0.08  # seconds of recording time without output that make a quiet point


class SpanCache:
    """Style spans of row snapshots, shared by the frames of one replay.

    A row that did not change between frames is the very same cell tuple
    in both, so its spans are worked out once, not once per frame.
    """

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._by_id: dict[int, tuple[tuple[Char, ...], tuple[Span, ...]]] = {}

    def spans(self, cells: tuple[Char, ...]) -> tuple[Span, ...]:
        # Keyed by identity; the entry holds the tuple so its id stays its own.
        hit = self._by_id.get(id(cells))
        if hit is not None and hit[0] is cells:
            return hit[1]
        if len(self._by_id) >= self.limit:
            self._by_id.clear()
        spans = cells_spans(cells)
        self._by_id[id(cells)] = (cells, spans)
        return spans


@dataclass
class Frame:
    index: int
    time: float
    reason: str  # quiet | sync | clear | alt-enter | alt-leave | resize | end
    columns: int
    rows: int
    lines: list[str]  # visible rows, trailing blanks trimmed
    cursor: tuple[int, int]  # (x, y)
    cursor_hidden: bool
    alternate: bool  # the alternate screen is active
    scrolled: list[str]  # lines that left the main screen since the previous frame
    inputs: list[str] = field(default_factory=list)  # input events since the previous frame
    cells: list[tuple[Char, ...] | None] = field(default_factory=list, repr=False)
    span_cache: SpanCache | None = field(default=None, repr=False, compare=False)
    _styles: list[tuple[Span, ...]] | None = field(default=None, repr=False)

    @property
    def styles(self) -> list[tuple[Span, ...]]:
        """Style spans per row (start, end, fg, bg, flags), computed on first use."""
        if self._styles is None:
            spans = self.span_cache.spans if self.span_cache is not None else cells_spans
            self._styles = [spans(c) if c is not None else () for c in self.cells]
        return self._styles

    def text(self) -> str:
        return "\n".join(self.lines)


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
        self._inputs: list[str] = []
        self._dirty = False  # output since the last frame
        self._last_out = 0.0
        self._last_lines: list[str] | None = None
        self._last_alt = False

    def _on_boundary(self, reason: str) -> None:
        if self.screen.synchronized:
            return
        self.take(reason)

    def take(self, reason: str, force: bool = False) -> None:
        s = self.screen
        cells, lines = s.snapshot_with_text()
        scrolled = s.history_since(self._hist_mark)
        self._hist_mark = s.history_total
        if (not force and not scrolled and not self._inputs and lines == self._last_lines
                and s.alternate == self._last_alt):
            self._dirty = False
            return
        self._ready.append(Frame(
            index=self._count, time=self.now, reason=reason, columns=s.columns, rows=s.lines,
            lines=lines, cells=cells if self.want_styles else [], cursor=(s.cursor.x, s.cursor.y), cursor_hidden=s.cursor.hidden,
            alternate=s.alternate, scrolled=scrolled, inputs=self._inputs, span_cache=self._spans))
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
            self.screen.feed(data)
            self._dirty = True
            self._last_out = time
        elif code == "i":
            self._inputs.append(data)
        elif code == "r":
            size = parse_size(data)
            if size:
                self.screen.resize(lines=size[1], columns=size[0])
                self._dirty = True
        return self.drain()

    def finish(self) -> list[Frame]:
        self.take("end", force=True)
        return self.drain()

    def drain(self) -> list[Frame]:
        out, self._ready = self._ready, []
        return out


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


def replay_screen(path: str | Path, at: float | None = None, scrollback: int = 10_000
                  ) -> tuple[CastHeader, VirtualScreen, float]:
    """The screen at time `at` (default: the end) and the time reached."""
    with CastReader(path) as reader:
        h = reader.header
        s = VirtualScreen(h.width, h.height, scrollback=scrollback)
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
