"""Rows an agent broke inside one token, told from rows it wrapped at a space.

Agents wrap prose at spaces. A token longer than the row (a URL, a sha256
digest, a base64 blob) has no space to break at: the agent cuts it where
the row is full, or at a break its wrapper allows inside it (Codex breaks a
URL after `?`), and the token goes on, with nothing between, on the next row.
Both look the same on screen; what tells them apart is length: no word
wrapped at a space is longer than the text column, so a run of non-blank
characters ending one row that, with the next row's opening run, is longer
than the column was one token.
"""
from __future__ import annotations

from itertools import groupby
from typing import Callable, Sequence

import regex
from wcwidth import wcswidth, wcwidth

#: the run of non-blank characters that ends a row / opens one
_TAIL = regex.compile(r"\S+$")
_HEAD = regex.compile(r"^\S+")
#: a run that is text, not a drawing: a letter or digit in it
_WORDY = regex.compile(r"[\p{L}\p{N}]")


def _cells(s: str) -> int:
    return len(s) if s.isascii() else max(wcswidth(s), len(s))


def broken_token(row: str, nxt: str, width: int | None, column: int, full: bool = True,
                 drawn: int | None = None) -> bool:
    """`row` (its text, right blanks dropped) ends a token that `nxt` (the
    next row's text from its first non-blank) goes on with.

    `column` is the cells the text column holds (the width less the
    indent); `width` the row's width: with `full`, `row` (or its last
    screen row, `drawn` cells, when it is rows joined already) must reach
    within one cell of it (a wrapper that cuts only where the row is full). Box
    borders and rules (no letter or digit in a run) are never joined.
    """
    if not nxt or not row or row[-1].isspace():
        return False
    if full and (not width or (_cells(row) if drawn is None else drawn) < width - 1):
        return False
    tail = _TAIL.search(row)
    head = _HEAD.match(nxt)
    if tail is None or head is None:
        return False
    t, h = tail.group(), head.group()
    if _cells(t) + _cells(h) <= column:
        return False
    return bool(_WORDY.search(t)) and bool(_WORDY.search(h))


#: characters after which a wrapper may break inside a token that is not full:
#: Codex breaks a URL after its query mark or an ampersand
_BREAK_AFTER = frozenset("?&/=,;-")


def join_broken_tokens(text: str, cut: Callable[[str], bool], after: frozenset[str] = _BREAK_AFTER) -> str:
    """The rows of `text` (a turn's text, its indent taken off) that break one
    token, joined with nothing between.

    A paragraph's widest row stands for its text column. A row the width
    cut (`cut(row)`: drawn to the screen's edge), or one that ends in a
    character a URL may break after with a run longer than half the
    column, followed by a row whose opening run makes with its last run
    more than the column holds, is one line."""
    rows = text.split("\n")
    if len(rows) < 2:
        return text

    def join(para: list[str]) -> list[str]:
        out: list[str] = []
        top = max(_cells(r.rstrip()) for r in para)
        cur = last = para[0].rstrip()
        for nxt in para[1:]:
            q = nxt.strip()
            if cur and q and broken_token(cur, q, top, top, full=False) and (
                    (cur[-1] in after and 2 * _cells(_TAIL.search(last).group()) > top)
                    or cut(last.strip())):
                cur += q
            else:
                out.append(cur)
                cur = nxt.rstrip()
            last = nxt.rstrip()
        out.append(cur)
        return out

    return "\n".join(by_runs(rows, str.strip, join))


def by_runs(rows: list[str], member: Callable[[str], object],
            join: Callable[[list[str]], list[str]]) -> list[str]:
    """`rows` with each run of consecutive rows that are `member`s replaced
    by what `join` makes of it; the rows between runs as they are. A wrap is
    undone inside a paragraph (or a quote), never across what separates them."""
    out: list[str] = []
    for inside, run in groupby(rows, key=lambda r: bool(member(r))):
        out.extend(join(list(run)) if inside else run)
    return out


def wide(ch: str) -> bool:
    """A character that takes two cells: a wrapper may cut between two of
    them with no space to mark the break."""
    return wcwidth(ch) == 2


def unwrap_words(rows: list[str], drawn: Sequence[int], rooms: Sequence[int],
                 glue: Callable[[str, str], bool] | None = None) -> str:
    """Rows of a prompt's echo, which the agent wrapped at its words, as the
    user typed them.

    A wrapper breaks at the space before a word that would run past its
    room. So a row (`drawn[i]` cells of it on screen, `rooms[i]` the most
    it may hold) after which the next row's first word would still have
    fitted ended where the user broke the line (Shift+Enter, a pasted
    newline) and stays a line of its own; any other break is a wrap, joined
    with a space again, or with nothing when `glue(last, first)` says the
    wrapper cut between those two characters (inside a run of wide ones).
    A blank row or one that opens with a blank is always a line."""
    out = rows[0]
    for prev, row, cells, room in zip(rows, rows[1:], drawn, rooms):
        first = row.split(" ", 1)[0]
        if not prev.strip() or not first or row[:1].isspace() or cells + 1 + wcswidth(first) <= room:
            out += "\n" + row
        elif glue is not None and out and glue(out[-1], first[0]):
            out += row
        else:
            out = out.rstrip() + " " + row
    return out
