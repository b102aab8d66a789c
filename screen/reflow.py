"""Lay the main screen and its scrollback out again at a new width, as tmux 3.3a does.

A terminal that reflows (tmux, and the terminals people record in) joins
rows that autowrap split (`wrapped`) into their logical line and splits
that line again at the new width; rows longer than the new width are split
whether or not they wrapped. This is a port of tmux's `grid_reflow`
(grid.c): the same order of operations, the same measure of a row (its
extent, `cellused`, not its trimmed text), the same bookkeeping of how many
scrollback rows came from scrolling (`hscrolled`), and the same rule for
where the cursor lands (`grid_wrap_position` / `grid_unwrap_position`).
Following tmux step by step matters more than elegance here: the screens
after a resize are compared with tmux's, row by row.
"""
from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate, chain, compress, islice, repeat
from operator import add, attrgetter, eq, itemgetter, mul, not_
from typing import Any, Callable

Cell = Any  # a pyte Char; a wide character's right half has data ""


class RLine:
    """One row during a reflow: its cells up to its extent, and its flags.

    `seen`: the row is already in the engine history (it came from the
    scrollback, or was brought back from it), so it is not recorded again.
    `stub`: whether a wide character's right half is among the cells (None:
    not looked yet; a scrollback row keeps the answer from its last reflow).
    `entry`: the scrollback row (`HistoryLine`) these cells are, while the
    reflow leaves them as they were (its text is then the row's text).
    """

    __slots__ = ("cells", "wrapped", "seen", "dead", "stub", "entry")

    def __init__(self, cells: list[Cell] | None = None, wrapped: bool = False, seen: bool = False,
                 stub: bool | None = None, entry: Any = None) -> None:
        self.cells = [] if cells is None else cells
        self.wrapped = wrapped
        self.seen = seen
        self.dead = False
        self.stub = stub
        self.entry = entry


_DATA = itemgetter(0)  # a cell's character (`Char.data`)
_WRAPPED = attrgetter("wrapped")


def _has_stub(cells: list[Cell]) -> bool:
    """Whether a wide character's right half (data "") is among `cells` (in C)."""
    return "" in map(_DATA, cells)


def _stubbed(gl: RLine) -> bool:
    """`_has_stub` of a row's cells, looked at once per row."""
    stub = gl.stub
    if stub is None:
        stub = gl.stub = _has_stub(gl.cells)
    return stub


def _width(cells: list[Cell], i: int) -> int:
    """Cells a character takes: 2 when the next cell is its stub, 0 for the stub."""
    if cells[i].data == "":
        return 0
    return 2 if i + 1 < len(cells) and cells[i + 1].data == "" else 1


def _measure(cells: list[Cell], sx: int, stub: bool | None = None) -> tuple[int, int]:
    """(width, at): the row's width and the index of the first cell past `sx`
    (`stub`: `_has_stub(cells)` when known)."""
    if not (_has_stub(cells) if stub is None else stub):
        n = len(cells)
        return n, (sx if n > sx else n)
    # `_width` of every cell, and the width up to and with each: `at` is the
    # first cell whose width up to and with it passes `sx` (the widths only
    # grow), or the next one when that is the first cell (what a walk that
    # sets `at` while it is 0 ends with)
    # (in C: 0 for a stub, else 1 + whether the next cell is a stub)
    stubs = list(map(eq, map(_DATA, cells), repeat("")))
    ends = list(accumulate(map(mul, map(not_, stubs), map(add, repeat(1), chain(islice(stubs, 1, None), (False,))))))
    n = len(ends)
    i = bisect_right(ends, sx)
    at = 0 if i >= n else i if i > 0 else (1 if n > 1 else 0)
    return (ends[-1] if ends else 0), at


class Reflow:
    """One reflow of `lines` (scrollback then screen) to width `sx`.

    A row of `lines` that is not an `RLine` is a scrollback row the caller
    knows the reflow leaves as it is (see `reflow`): it goes to the target
    untouched, without its cells being copied or measured.
    """

    def __init__(self, lines: list[RLine], sx: int, hscrolled: int) -> None:
        self.src = lines
        self.sx = sx
        self.hscrolled = hscrolled
        self.target: list[RLine] = []

    def run(self) -> list[RLine]:
        src, sx = self.src, self.sx
        target = self.target
        for yy, gl in enumerate(src):
            if gl.__class__ is not RLine:
                target.append(gl)  # a kept row: moved as it is
                continue
            if gl.dead:
                continue
            width, at = _measure(gl.cells, sx, _stubbed(gl))
            if width == sx:
                self._move(gl)
            elif width > sx:
                self._split(yy, at)
            elif gl.wrapped:
                self._join(yy, width, already=False)
            else:
                self._move(gl)
        return self.target

    def _move(self, gl: RLine) -> RLine:
        to = RLine(gl.cells, gl.wrapped, gl.seen, gl.stub, gl.entry)
        self.target.append(to)
        gl.dead = True
        return to

    def _join(self, yy: int, width: int, already: bool) -> None:
        src, sx, target = self.src, self.sx, self.target
        if not already:
            to = len(target)
            gl = self._move(src[yy])
            gl.cells = list(gl.cells)
            gl.entry = None  # cells are joined on to it (or it stays as it was: the text reads the same)
        else:
            to = len(target) - 1
            gl = target[to]
        lines = 0
        wrapped = True
        want = 0
        frm: RLine | None = None
        total = len(src)
        while True:
            if yy + 1 + lines == total:
                break
            line = src[yy + 1 + lines]
            if not line.wrapped:
                wrapped = False
            if not line.cells:
                if not wrapped:
                    break
                lines += 1
                continue
            n = len(line.cells)
            if not _stubbed(line):
                # one cell per character: as many as fit, at once
                if width + 1 > sx:
                    break
                want = min(n, sx - width)
                gl.cells.extend(line.cells[:want])
                width += want
                frm = line
            else:
                w = _width(line.cells, 0)
                if width + w > sx:
                    break
                if gl.stub is False:
                    gl.stub = None  # may take a wide character's half
                width += w
                gl.cells.append(line.cells[0])
                frm = line
                want = 1
                while want < n:
                    w = _width(line.cells, want)
                    if width + w > sx:
                        break
                    width += w
                    gl.cells.append(line.cells[want])
                    want += 1
            gl.seen = gl.seen and line.seen
            lines += 1
            if not wrapped or want != n or width == sx:
                break
        if lines == 0:
            return
        left = len(frm.cells) - want if frm is not None else 0
        if left:
            frm.cells = list(frm.cells[want:])
            frm.entry = None
            if frm.stub:
                frm.stub = None
            lines -= 1
        elif not wrapped:
            gl.wrapped = False
        for i in range(yy + 1, yy + 1 + lines):
            src[i].dead = True
        if self.hscrolled > to + lines:
            self.hscrolled -= lines
        elif self.hscrolled > to:
            self.hscrolled = to

    def _split(self, yy: int, at: int) -> None:
        src, sx, target = self.src, self.sx, self.target
        gl = src[yy]
        cells = gl.cells
        was_wrapped = gl.wrapped
        narrow = not _stubbed(gl)
        stub = False if narrow else None
        first = RLine(list(cells[:at]), True, gl.seen, stub)
        target.append(first)
        line = RLine([], False, gl.seen, stub)
        target.append(line)
        lines = 2
        width = 0
        if sx > 0 and narrow:
            # one cell per character: rows of `sx` cells, the last one shorter
            for i in range(at, len(cells), sx):
                if width:
                    line.wrapped = True
                    line = RLine([], False, gl.seen, False)
                    target.append(line)
                    lines += 1
                line.cells = list(cells[i:i + sx])
                width = len(line.cells)
        else:
            for i in range(at, len(cells)):
                w = _width(cells, i)
                if width + w > sx:
                    line.wrapped = True
                    line = RLine([], False, gl.seen)
                    target.append(line)
                    lines += 1
                    width = 0
                width += w
                line.cells.append(cells[i])
        if was_wrapped:
            line.wrapped = True
        gl.dead = True
        if yy <= self.hscrolled:
            self.hscrolled += lines - 1
        if width < sx and was_wrapped:
            self._join(yy, width, already=True)


def wrap_position(lines: list[RLine], px: int, py: int) -> tuple[int | None, int]:
    """The cursor as (offset in its logical line, logical line number); None: past the end.

    The rows above the cursor are scanned in C (their wrap flags): in a long
    scrollback a walk in Python was a large part of a resize."""
    flags = list(map(_WRAPPED, islice(lines, py)))
    ay = sum(map(not_, flags))  # rows that end a logical line
    k = py
    while k > 0 and flags[k - 1]:
        k -= 1
    ax = sum(len(lines[yy].cells) for yy in range(k, py))  # the wrapped rows just above
    if px >= len(lines[py].cells):
        return None, ay
    return ax + px, ay


def unwrap_position(lines: list[RLine], wx: int | None, wy: int) -> tuple[int, int]:
    """Where the logical position `(wx, wy)` is in the reflowed `lines`."""
    last = len(lines) - 1
    if wy <= 0 or last <= 0:
        yy = 0
    else:
        # the row after the wy-th row that ends a logical line (rows that end
        # one found in C), at most the last row
        ends = list(islice(compress(range(last), map(not_, map(_WRAPPED, islice(lines, last)))), wy))
        yy = ends[-1] + 1 if len(ends) == wy else last
    if wx is None:
        while lines[yy].wrapped and yy < last:
            yy += 1
        return len(lines[yy].cells), yy
    while lines[yy].wrapped and yy < last:
        if wx < len(lines[yy].cells):
            break
        wx -= len(lines[yy].cells)
        yy += 1
    return wx, yy


def reflow(lines: list[Any], sx: int, sy: int, hscrolled: int, cursor: tuple[int, int],
           expand: Callable[[Any], RLine] | None = None) -> tuple[list[Any], int, int, tuple[int, int]]:
    """Lay `lines` (scrollback rows then `sy` screen rows) out at width `sx`.

    Returns the new rows, how many of them are scrollback, the new
    `hscrolled`, and the cursor `(x, absolute row)`.

    A scrollback row may be passed as it is kept (not an `RLine`; it needs a
    `wrapped` attribute, and `cells` for the row the cursor lands on) when the reflow cannot change it: it does not wrap,
    the row before it does not wrap (nothing is joined on to it) and it is at
    most `sx` cells long (not split). Such rows are most of a long scrollback
    and the reflow hands them back as they were; one that ends up on the
    screen is made an `RLine` by `expand`.
    """
    cx, cy = cursor
    wx, wy = wrap_position(lines, cx, cy)
    r = Reflow(lines, sx, hscrolled)
    out = r.run()
    if len(out) < sy:
        out.extend(RLine() for _ in range(sy - len(out)))
    hsize = len(out) - sy
    if expand is not None:
        for y in range(hsize, len(out)):
            if out[y].__class__ is not RLine:
                out[y] = expand(out[y])
    nx, ny = unwrap_position(out, wx, wy)
    return out, hsize, min(r.hscrolled, hsize), (nx, ny)
