"""Stitch successive views of a scrolling region into one document.

A full-screen TUI redraws its conversation viewport in place; what scrolls
out of it lands in no scrollback. The transcript is the shortest document
of which every view is a window, except its last block, which may still be
growing (a spinner replaced by an answer, a tool header that settles).

Each new view is placed where its distinctive lines agree with the
document (an offset vote), then aligned on the lines it shares with that
part of the document (a line diff):

- the live tail first: a TUI's viewport follows the end of the
  conversation unless the user scrolls, so an offset that keeps the view on
  the document's tail wins whenever it has real support, even if an older
  copy of the same lines (a repeated answer, a chrome row every turn draws)
  gets more votes. Votes only ever come from the tail region or from
  offsets the view could be scrolled to, and lines repeated all over the
  document do not vote at all;
- a view whose lines all sit inside the document, away from its end, is
  the user paging back, also when a row pinned to the bottom of the view
  (a "back to bottom" hint, an input hint) is not part of the document: it
  changes nothing, so paging never duplicates, reorders or cuts;
- a tail view replaces the document from where it starts. Rows of the view
  above its first shared line replace the document rows just above only as
  far as they resemble them (a row that grew, a spinner that became text);
  a block rendered late and taller than its placeholder is inserted there,
  never written over the rows above it, which the view no longer shows;
- rows a profile marks as covered (`None`: a popup drawn over the
  conversation) match anything and keep the document's row;
- a view that shares nothing with the document continues it.

`first_drawn` keeps a row as first drawn when a later copy differs from it
only in a blank or two: a cell-diffing renderer (Mistral Vibe) can drop or add a
blank next to wide characters when it redraws scrolled rows.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from difflib import SequenceMatcher
from typing import NamedTuple, Optional, Sequence

import regex

Row = Optional[str]  # None: covered by an overlay, unknown

#: an occurrence count above which a line never votes: it is chrome or
#: boilerplate that every turn draws, and anchors nothing
MAX_OCCURRENCES = 6


def _distinct(line: Row) -> bool:
    return line is not None and len(line.strip()) >= 3


def _squeeze(s: str) -> str:
    return "".join(s.split())


def _resembles(a: str, b: str) -> bool:
    """The same row in two states: equal, grown, trimmed, or mostly the same words."""
    a, b = a.strip(), b.strip()
    if not a or not b:
        return not a and not b
    if a.startswith(b) or b.startswith(a):
        return True
    return SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.6


class _Shown:
    """What a view shows, to tell whether a document row is in it in some form:
    as it is (spacing aside), or laid out anew. A program that lays a block
    out again as it grows (a box table whose columns widen as rows stream
    in) redraws each row with other padding, a cell's words wrapped onto a
    row of their own, and its borders at other lengths: such a row is shown
    when every word of it is in the view, and a row of borders alone when
    every glyph of it is."""

    def __init__(self, view: Sequence[Row]) -> None:
        rows = [v for v in view if v]
        self.text = _squeeze("".join(rows))
        self.words = {w for v in rows for w in _WORD.findall(v)}
        self.glyphs = set(self.text)

    def holds(self, row: str) -> bool:
        sq = _squeeze(row)
        if sq in self.text:
            return True
        words = _WORD.findall(row)
        if words:
            return all(w in self.words for w in words)
        return set(sq) <= self.glyphs


_WORD = regex.compile(r"\w+")
_BOX_RUN = regex.compile(r"[─━═]+")
#: a row of a box (a table's cells or borders)
_BOX_ROW = regex.compile(r"^\s*\S?\s*[│┃║├┌└╭╰┏┗╔╚]")


#: a box grid's top or bottom edge; a row of a box grid
GRID_EDGE = regex.compile(r"^\s*[┌└][─┬┴]+[┐┘]\s*$")
GRID_ROW_START = regex.compile(r"^\s*[┌├└│]")


def _boxless(row: str) -> str:
    """A row without its blanks and with each run of a border's rule one glyph:
    the same box row whatever its padding and column widths."""
    return _BOX_RUN.sub("─", _squeeze(row))


class Stitcher:
    def __init__(self, first_drawn: bool = False, reach: str = "wide", relaid_moved: bool = False,
                 relaid_grids: bool = False, bare_rows: bool = True, settling_text: bool = False) -> None:
        self.doc: list[str] = []
        self.times: list[float] = []
        self.first_drawn = first_drawn
        #: a box table laid out anew at every row it streams (Vibe) leaves one
        #: copy per layout in the document; a tail view that shows all of them
        #: as one, under rows the document holds above the first, stands for
        #: the document from those rows on (`_over_relaid`)
        self.relaid_grids = relaid_grids
        #: a view row of two cells or fewer (a panel's bare bar) may stand for
        #: a document row of text just above its first shared row, as its
        #: trimmed state (`_rows_above`); False: it stands for no row of text
        #: (OpenCode: a panel whose bar rows are all the view shows of a title
        #: it scrolled past)
        self.bare_rows = bare_rows
        #: the document's last two rows that may still be settling are its last
        #: two rows with text, not its last two rows (`_mismatched`; OpenCode:
        #: `~ Reading file…` over a blank row and the turn's footer)
        self.settling_text = settling_text
        #: a tail view sharing no row with the document's tail as drawn may lay
        #: its last rows out anew while it moved (`_relaid_unshared`): a
        #: renderer that draws without synchronized updates (Claude Code
        #: 2.1.197), whose views skip the states in between
        self.relaid_moved = relaid_moved
        #: how far back from the end a tail view may be aligned: "wide" (twice
        #: its height and more) serves TUIs that redraw their whole history
        #: after a resize (Codex); "view" (its height and a third) serves TUIs
        #: whose views only ever follow or page (Vibe, Amp), where reaching
        #: further only finds older copies of repeated text
        self.reach = reach
        #: document rows that follow a view sharing no row with what came before:
        #: rows between them may never have been on screen
        self.gaps: set[int] = set()
        self._pos: dict[str, list[int]] = defaultdict(list)
        #: the document list the index was last made for: the index is a
        #: function of the document only while this is `self.doc`
        self._indexed: list[str] | None = self.doc
        #: the last add's (view, at_end, document before it, what it did);
        #: see `add`
        self._memo: tuple[list[Row], tuple[bool, bool], list[str], _Op | None] | None = None
        self._op: _Op | None = None
        self._keys_for: list[str] | None = None
        self._key_list: list[str | int] = []

    # -- index ----------------------------------------------------------------
    def _rebuild_index(self, start: int = 0, old: list[str] | None = None) -> None:
        """Index the document from row `start` on. `old`: the document the
        index was made for (its rows before `start` unchanged), so only the
        keys of its rows from `start` on are visited."""
        pos = self._pos
        if start <= 0:
            pos = self._pos = defaultdict(list)
        else:
            keys = list(pos) if old is None else {ln for ln in old[start:] if ln in pos}
            for ln in keys:
                occ = pos[ln]
                while occ and occ[-1] >= start:
                    occ.pop()
                if not occ:
                    del pos[ln]
        doc = self.doc
        for i in range(max(0, start), len(doc)):
            ln = doc[i]
            if ln and len(ln.strip()) >= 3:  # _distinct, inlined: the hottest loop of a replay
                pos[ln].append(i)
        if start <= 0 or (old is not None and self._indexed is old):
            self._indexed = doc

    # -- placement ------------------------------------------------------------
    def _votes(self, view: Sequence[Row], vd: Sequence[bool] | None = None) -> Counter[int]:
        """`vd`: per view row, whether it is distinct (worked out once per add)."""
        votes: Counter[int] = Counter()
        if vd is None:
            vd = [_distinct(v) for v in view]
        pos = self._pos
        for i, ln in enumerate(view):
            if not vd[i]:
                continue
            occ = pos.get(ln)  # type: ignore[arg-type]
            if not occ or len(occ) > MAX_OCCURRENCES:
                continue
            for p in occ:
                votes[p - i] += 1
        return votes

    def _conflicts(self, view: Sequence[Row], vd: Sequence[bool], o: int) -> int:
        """Distinct view rows that the offset `o` puts over distinct document
        rows they do not resemble."""
        doc, m, c = self.doc, len(self.doc), 0
        for i, ln in enumerate(view):
            if vd[i] and 0 <= o + i < m:
                d = doc[o + i]
                if d != ln and _distinct(d) and not _resembles(d, ln):  # type: ignore[arg-type]
                    c += 1
        return c

    def _mismatched(self, view: Sequence[Row], vd: Sequence[bool], o: int) -> tuple[int, int]:
        """With the view at offset `o`: (distinct view rows over other
        distinct document rows that neither grew into nor from them, the
        document's last two rows aside (they may still be settling; with
        `settling_text`, its last two rows with text and the blanks among
        them); view rows over their own copy where the document holds that
        row once)."""
        doc, m, pos = self.doc, len(self.doc), self._pos
        bad = unique = 0
        settling, k = m - 2, 0
        if self.settling_text:
            settling = m
            while settling > 0 and k < 2:
                settling -= 1
                k += bool(doc[settling].strip())
        for i, ln in enumerate(view):
            if not vd[i] or not 0 <= o + i < m:
                continue
            d = doc[o + i]
            if d == ln:
                occ = pos.get(ln)  # type: ignore[arg-type]
                if occ is not None and len(occ) == 1:
                    unique += 1
            elif o + i < min(m - 2, settling) and _distinct(d):
                a, b = d.strip(), ln.strip()  # type: ignore[union-attr]
                if not (a.startswith(b) or b.startswith(a)):
                    bad += 1
        return bad, unique

    def _is_page_back(self, view: Sequence[Row], o: int) -> bool:
        """The view is a window of the document ending well before its end,
        give or take two rows the program pins to the bottom of the view."""
        n, m = len(view), len(self.doc)
        if o + n >= m - 2:
            return False
        # every row the view shares must sit there; only rows pinned to its
        # bottom may be foreign (a row foreign at its top is new text: the
        # top of an answer never shown before, a prompt, that repeats older lines)
        for cut in (0, 1, 2):
            if n - cut < 3:
                break
            rows = [(i, ln) for i, ln in enumerate(view[:n - cut]) if _distinct(ln)]
            miss = [k for k, (i, ln) in enumerate(rows) if not (0 <= o + i < m and self.doc[o + i] == ln)]
            # a row redrawn with another status glyph or timer may differ, never the first two
            if len(rows) - len(miss) >= 2 and len(miss) <= len(rows) // 10 and not any(k < 2 for k in miss):
                return True
        return False

    def _older_copy(self, view: Sequence[Row], vd: Sequence[bool], o: int, need: int) -> bool:
        """With the view at offset `o` (away from the tail), every distinct
        view row over the document is the very row there, `need` of them at
        least: the view is a copy of that stretch. Seen at the conversation's
        end, it is that stretch printed again, not the user paging back to it
        (a view that replaces settled rows, a tool's output folded to one
        row, lays some row over another one)."""
        doc, m = self.doc, len(self.doc)
        same = 0
        for i, ln in enumerate(view):
            if not vd[i] or not 0 <= o + i < m:
                continue
            if doc[o + i] != ln:
                return False
            same += 1
        return same >= need

    def _shows_rest(self, view: Sequence[Row], o: int) -> bool:
        """With the view at offset `o`, the text of the document from its
        first row the view shares to its end is in the view (rewrapped, or a
        few rows changed)."""
        shown = _squeeze("".join(v for v in view if v))
        m = len(self.doc)
        first = next((o + i for i, v in enumerate(view) if _distinct(v) and 0 <= o + i < m and self.doc[o + i] == v), m)
        rest = [d for d in self.doc[first:] if _distinct(d) and any(c.isalnum() for c in d)]
        covered = sum(1 for v in view if v is None)  # under a popup: may hold any row
        return sum(1 for d in rest if _squeeze(d) not in shown) <= max(2, len(rest) // 8) + covered

    def add(self, view: Sequence[Row], time: float = 0.0, at_end: bool = False, live: bool = False,
            printed: bool = False) -> None:
        """`at_end`: the program shows (e.g. by its scrollbar) that the view
        ends where the document does: it is never paging and never anchors
        on an older copy of its lines away from the tail (Amp).

        `live`: the program shows the view at the conversation's end, but
        the document's tail may hold rows the program has since taken away
        (a tool's output folded to one row once it settles: Vibe), so the
        view may still replace rows above the document's end. It is never
        paging, though: a view whose every row lies on an older copy of
        itself away from the tail (the block a command prints, printed
        again) continues the document (`_older_copy`).

        `printed`: with `live`, nothing was taken from the document's end
        since the program last showed it (a command's output printed, no
        tool folding its rows): a view that is an older copy of a stretch
        with rows of the document after it continues the document even
        where that copy lies near the tail (a short document)."""
        view = list(view)
        while view and view[-1] is not None and not view[-1].strip():
            view.pop()
        # Leading blank rows are padding above the first visible line; they
        # must not blank out the text that just scrolled past them.
        while view and not (view[0] or "").strip():
            view.pop(0)
        if not view:
            return
        if not self.doc:
            self.doc = [v or "" for v in view]
            self.times = [time] * len(view)
            self._rebuild_index()
            return
        # What an add does depends only on the view, `at_end` and the
        # document (the index is made from it); the time only stamps rows.
        # A program that redraws the same view many times (a spinner
        # elsewhere, a cursor blink) brings the same view to the same
        # document: what the last add did is done again, without placing.
        memo = self._memo
        # (the document is most often the very list the last add left: its
        # identity answers before a row-by-row comparison)
        if (memo is not None and memo[1] == (at_end, live, printed) and memo[0] == view
                and self._indexed is self.doc and (memo[2] is self.doc or memo[2] == self.doc)):
            if memo[3] is not None:
                self._apply(memo[3], time)
            return
        before = self.doc
        consistent = self._indexed is before
        self._op = None
        self._add(view, time, at_end, live, printed)
        self._memo = (view, (at_end, live, printed), before, self._op) if consistent else None

    def _add(self, view: list[Row], time: float, at_end: bool, live: bool = False, printed: bool = False) -> None:
        n, m = len(view), len(self.doc)
        vd = [v is not None and len(v.strip()) >= 3 for v in view]  # _distinct per row
        votes = self._votes(view, vd)
        if live and printed and votes:
            best = max(votes.values())
            o = max(o for o, v in votes.items() if v == best)
            if o + n < m and self._older_copy(view, vd, o, 2 if sum(vd) > 2 else 1):
                self._replace(m, [], view, time, gap=True)
                return
        if at_end:
            voted = bool(votes)
            votes = Counter({o: v for o, v in votes.items()
                             if o + n >= m - max(3, n // 3) and self._shows_rest(view, o)})
            if voted and not votes:  # only older copies of its lines: it continues the document
                self._replace(m, [], view, time, gap=True)
                return
        n_distinct = sum(vd)
        need = 2 if n_distinct > 2 else 1
        slack = max(3, n // 3)
        if self.relaid_moved and not any(o + n >= m - slack for o in votes):
            # (it may share rows with an older copy of the same block: an answer
            # that opens as an earlier one did)
            o = self._relaid_unshared(view, vd, m - slack)
            if o is not None:
                self._replace(o, [o + i if o + i < m else None for i in range(n)], view, time)
                return
        floor = max(0, m - n - slack) if self.reach == "view" else max(0, m - 2 * n - 20)
        s = floor
        placed: int | None = None
        relaid = False
        if votes:
            best_v = max(votes.values())
            tail = {o: v for o, v in votes.items() if o + n >= m - slack and v >= need and 2 * v >= best_v}
            # an offset that lays more of the view's rows over other text than on
            # their own copies is a repeated stretch matching by chance (rows every
            # paragraph shares), not where the view is
            if len(tail) > 1:
                tail = {o: v for o, v in tail.items() if self._conflicts(view, vd, o) <= v} or tail
            # Rows of text repeated paragraph after paragraph (near-identical
            # paragraphs) vote for every paragraph's offset alike, and the right
            # one, which leaves the view's last rows past the document's end,
            # gets fewer of them. An offset that lays view rows over other text
            # is one paragraph off: one that lays none wins; when every one
            # does and none lays a row the document holds once on its copy,
            # the view shares only repeated rows with the document, and
            # continues it.
            if tail and self._indexed is self.doc:
                marks = {o: self._mismatched(view, vd, o) for o in tail}
                clean = {o: v for o, v in tail.items() if not marks[o][0]}
                if clean:
                    tail = clean
                elif not any(u for _b, u in marks.values()):
                    self._replace(m, [], view, time, gap=True)
                    return
            if tail:
                top_v = max(tail.values())
                lo = min(o for o, v in tail.items() if 2 * v >= top_v)
                s = max(0, min(lo, m - 1))
                placed = max(o for o, v in tail.items() if v == top_v)
            elif best_v >= need:
                o = max(o for o, v in votes.items() if v == best_v)
                if live and self._older_copy(view, vd, o, need):
                    self._replace(m, [], view, time, gap=True)
                    return
                if self._is_page_back(view, o):
                    return
                # A prompt sent again (the same words as an earlier one) under
                # the answer's last row: that row is the view's only tie to
                # the tail, the prompt's rows vote for the older copy. When
                # the older copy lays the view's rows over other text and the
                # tail offset lays none, reaching past the end, the view goes
                # on from the tail.
                ends = {t: v for t, v in votes.items()
                        if t + n > m and t + n >= m - slack and self._conflicts(view, vd, t) == 0}
                if ends and self._conflicts(view, vd, o) > 0:
                    placed = max(ends)
                    s = max(0, min(placed, m - 1))
            else:
                o = self._relaid_tail(view, vd, votes, m - slack)
                if o is not None:
                    s, placed, relaid = max(0, min(o, m - 1)), o, True
        if placed is not None and self.relaid_grids and votes:
            o = self._over_relaid(view, vd, votes, placed, need)
            if o is not None:
                s = placed = o
        self._place(view, s, time, floor=floor, placed=placed, at_end=at_end, vd=vd, relaid=relaid)

    def _over_relaid(self, view: Sequence[Row], vd: Sequence[bool], votes: Counter[int], placed: int,
                     need: int) -> int | None:
        """An offset above `placed` for a tail view whose rows at its top are
        the document's rows there (a prompt, a tool row) and whose grid below
        them the document holds as several layouts, stacked (a table that
        streamed in while the screen was too short for it, laid out again at
        each row): the earliest offset with the votes it needs where every
        text row of the document from there on is in the view in some form
        (`_Shown`, a word still streaming as a start of one) and no row outside a grid is in the document there more
        often than in the view (a prompt sent again is not a relaid copy)."""
        doc, m, n = self.doc, len(self.doc), len(view)
        cands = sorted(o for o, v in votes.items() if 0 <= o < placed and v >= need and o + n < m)
        if not cands:
            return None
        o = cands[0]
        if not (vd[0] and doc[o] == view[0]):
            return None
        rest = [d for d in doc[o:] if _distinct(d)]
        if sum(1 for d in rest if GRID_EDGE.match(d)) < 2:
            return None
        shown = _Shown(view)
        starts = {w[:k] for w in shown.words for k in range(1, len(w))}

        def held(d: str) -> bool:  # (a draft's cell may end inside a word still streaming)
            return shown.holds(d) or all(w in shown.words or w in starts for w in _WORD.findall(d))

        if not all(held(d) for d in rest):
            return None
        in_view = Counter(v for v in view if v and _distinct(v))
        in_doc = Counter(d for d in rest if not GRID_ROW_START.match(d))
        if any(c > in_view.get(d, 0) for d, c in in_doc.items() if d in in_view):
            return None
        return o

    def _relaid_tail(self, view: Sequence[Row], vd: Sequence[bool], votes: Counter[int],
                     tail: int) -> int | None:
        """The offset of a view that lays the document's last block out anew.

        A block laid out again as it grows (a box table whose columns widen
        as rows stream in: every row redrawn with other padding) shares no
        row with its older layout; what the view shares with the document
        may be one row above the block that other turns draw too (a
        thinking time), too weak to place it. On the latest offset that
        keeps the view on the tail, when every row of the document after the
        shared row is in the view below it in some form (see `_Shown`), the
        view is that block's new layout, not new text after it."""
        cands = [o for o in votes if o + len(view) >= tail]
        if not cands:
            return None
        o = max(cands)
        doc, m = self.doc, len(self.doc)
        shared = [i for i, ln in enumerate(view) if vd[i] and 0 <= o + i < m and doc[o + i] == ln]
        if not shared:
            return None
        i = shared[-1]
        rest = [d for d in doc[o + i + 1:] if _distinct(d) and _WORD.search(d)]
        if len(rest) < 2:
            return None
        shown = _Shown(view[i + 1:])
        if all(shown.holds(d) for d in rest[:-1]):
            if shown.holds(rest[-1]):
                return o
            # `relaid_moved` (a renderer whose views skip the states between):
            # the last row was cut where it stopped streaming (a table's cell
            # `taspt` that the relaid block holds whole as `tasptrax`), the view
            # drawn once the row was whole: its words are the view's words, its
            # last may be the start of one
            if not self.relaid_moved:
                return None
            *whole, cut = _WORD.findall(rest[-1])
            if all(w in shown.words for w in whole) and any(w.startswith(cut) for w in shown.words):
                return o
        return None

    def _relaid_unshared(self, view: Sequence[Row], vd: Sequence[bool], tail: int) -> int | None:
        """The offset of a tail view that lays the document's last rows out anew
        while it moved, so that it shares no row with them as drawn.

        A box table whose columns widen as rows stream in is drawn again with
        other padding and border lengths; when the view scrolled in the same
        render (the rows above it went off the top), no row is the same. Its
        rows are the same but for blanks and the length of border runs: rows
        equal so (two or more with words, at one offset that keeps the view on
        the tail) place it, when the document's rows from there on are all in
        the view in some form (a word cut short where a row stopped is the
        start of a word of the view). The view then stands for those rows."""
        doc, m, n = self.doc, len(self.doc), len(view)
        # the document's last row, grown, at the view's top: a row drawn while it
        # streamed, then a render that scrolled the view past everything above it
        last = next((y for y in range(m - 1, -1, -1) if doc[y].strip()), None)
        top = next((i for i, v in enumerate(view) if v is not None and v.strip()), None)
        if last is not None and top is not None and vd[top]:
            a, b = doc[last].rstrip(), view[top].rstrip()  # type: ignore[union-attr]
            if len(a.strip()) >= 10 and len(b) > len(a) and b.startswith(a) and last - top >= 0:
                return last - top
        norm: dict[str, list[int]] = defaultdict(list)
        for y in range(max(0, tail - n), m):
            d = doc[y]
            if _distinct(d) and _WORD.search(d):
                norm[_boxless(d)].append(y)
        if not norm:
            return None
        votes: Counter[int] = Counter()
        for i, v in enumerate(view):
            if vd[i] and _WORD.search(v):  # type: ignore[arg-type]
                for y in norm.get(_boxless(v), ()):  # type: ignore[arg-type]
                    votes[y - i] += 1
        shown = _Shown(view)
        words = shown.words

        def held(d: str) -> bool:
            return (not _distinct(d) or shown.holds(d)
                    or all(w in words or any(x.startswith(w) for x in words) for w in _WORD.findall(d)))

        cands = {o: c for o, c in votes.items() if o >= 0 and o + n >= tail and c >= 2}
        if cands:
            o = max(cands, key=lambda k: (cands[k], k))
            return o if sum(1 for d in doc[o:] if not held(d)) <= 1 else None
        # the block relaid so far that no row is the same even so (its cells wrapped
        # anew): the document's last rows, box rows all, two with words at least,
        # every one in the view in some form; the view stands for them from the
        # first such row (the rows above it went off the view's top)
        o = m
        while o > max(0, tail - n) and _BOX_ROW.search(doc[o - 1]) and held(doc[o - 1]):
            o -= 1
        boxed = [d for d in doc[o:] if _distinct(d) and _WORD.search(d)]
        return o if o < m and len(boxed) >= 2 else None

    def _keys(self) -> list[str | int]:
        """The document's rows as alignment keys: a distinct row is its text,
        any other row (blank, short) its index, an int, equal to nothing in
        a view. Kept in step with the document by `_apply`."""
        if self._keys_for is not self.doc:
            self._key_list = [ln if ln and len(ln.strip()) >= 3 else i for i, ln in enumerate(self.doc)]
            self._keys_for = self.doc
        return self._key_list

    def _place(self, view: list[Row], s: int, time: float, floor: int = 0,
               placed: int | None = None, at_end: bool = False, vd: list[bool] | None = None,
               relaid: bool = False) -> None:
        """`relaid`: the view lays the document's last block out anew (`_relaid_tail`):
        its rows stand for the rows after the shared one in another layout."""
        doc, n = self.doc, len(view)
        if vd is None:
            vd = [_distinct(v) for v in view]
        # Blank and covered rows never anchor an alignment: each is made
        # unique (ints: the document's row index, minus one minus the view's).
        a_keys = self._keys()[s:]
        b_keys = [ln if vd[j] else -1 - j for j, ln in enumerate(view)]
        sm = SequenceMatcher(None, a_keys, b_keys, autojunk=False)
        # A stretch of rows drawn several times in the window (a rule under
        # every prompt, a "Click to expand" row) anchors nothing on its own:
        # it would pull the view onto an older copy and cut what follows it.
        pos = self._pos if self._indexed is doc else None
        count: Counter[str | int] | None = None

        def once(key: str | int) -> bool:  # the key is in the window once
            nonlocal count
            if pos is not None:
                occ = pos.get(key)  # type: ignore[arg-type]
                return occ is not None and len(occ) >= 1 and occ[-1] >= s and (len(occ) == 1 or occ[-2] < s)
            if count is None:
                count = Counter(a_keys)
            return count[key] == 1

        blocks = [b for b in sm.get_matching_blocks() if b.size and (
            any(once(a_keys[b.a + t]) for t in range(b.size))
            or (placed is not None and s + b.a - b.b == placed))]
        if not blocks:
            self._replace(len(doc), [], view, time, gap=True)
            return
        first, last = blocks[0], blocks[-1]
        after = sum(vd[last.b + last.size:])
        if (not at_end and after <= 2
                and sum(1 for key in a_keys[last.a + last.size:] if key.__class__ is str) > max(3, n // 3)):
            return  # the view ends well before the document does: paging
        # rows of the view above its first shared row: they replace the rows
        # just above in the document only as far as they resemble them
        anchor = s + first.a
        k = first.b
        j = self._rows_above(view[:k], anchor, min(s, floor))
        start = anchor - j
        if sum(sum(vd[b.b:b.b + b.size]) for b in blocks) <= 1:
            # one shared row (a rule, a status row) is a weak anchor: it may not
            # take away rows the view does not show in any form
            kept = {s + b.a + t for b in blocks for t in range(b.size)}
            if relaid:  # (a new layout shows the rows it replaces by their words)
                holds = _Shown(view).holds
            else:
                shown = _squeeze("".join(v for v in view if v))
                holds = lambda d: _squeeze(d) in shown  # noqa: E731
            lost = [d for i, d in enumerate(doc[start:], start)
                    if i not in kept and _distinct(d) and not holds(d)]
            if len(lost) > 2:
                self._replace(len(doc), [], view, time, gap=True)
                return
        # each matched row keeps the time it was first seen at (its index in
        # `times`); every other row is stamped with this view's time (-1)
        src = [-1] * n
        for b in blocks:
            for t in range(b.size):
                src[b.b + t] = s + b.a + t
        # rows of the view matched to the document (covered rows keep theirs)
        matched_doc: dict[int, int] = {}
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag in ("equal", "replace") and i2 - i1 == j2 - j1 and s + i1 >= start:
                for t in range(j2 - j1):
                    matched_doc[j1 + t] = s + i1 + t
            elif tag == "replace" and s + i1 >= start:
                # a popup over the view's last rows while the view moved a row or two (a menu
                # taller than the room below the text scrolls it): the covered rows stand for
                # the document's rows under them, top down, as far as both go
                for t in range(min(i2 - i1, j2 - j1)):
                    if view[j1 + t] is None:
                        matched_doc[j1 + t] = s + i1 + t
        for t in range(min(j, k)):
            matched_doc[k - t - 1] = anchor - t - 1
        self._replace(start, [(matched_doc.get(i)) for i in range(n)], view, time, src)

    def _rows_above(self, prefix: list[Row], anchor: int, floor: int) -> int:
        """How many document rows just above `anchor` the view's `prefix` rows
        stand for: rows it redrew (grown, settled, rewrapped after a resize),
        never rows it does not show (a late block pushed them out of view)."""
        if not prefix:
            return 0
        text = _squeeze("".join(v for v in prefix if v))
        top = next((v.strip() for v in prefix if v and v.strip()), None)
        j = pending = 0
        k = len(prefix)
        y = anchor - 1
        while y >= floor and j + pending < 2 * k + 2:
            d = self.doc[y]
            if not d.strip():
                pending += 1
                y -= 1
                continue
            aligned = prefix[k - 1 - (j + pending)] if j + pending < k else None
            sq = _squeeze(d)
            # (without `bare_rows`, a row of two cells or fewer stands for no
            # row of text: read as its trimmed state it would take the row
            # over, a title the view scrolled past)
            ok = (len(sq) >= 8 and sq in text) or (aligned is not None and aligned.strip() != ""
                                                   and (self.bare_rows or _distinct(aligned) or not _distinct(d))
                                                   and _resembles(aligned, d))
            if not ok and j == 0 and top is not None and len(d.strip()) >= 3 and top.startswith(d.strip()):
                # the row last drawn above the anchor is the view's first row,
                # grown: a block filled in at once (a code block streamed
                # past a whole screen between two frames) pushed it to the
                # view's top, and the view redraws everything below it
                ok = True
            if not ok and j + pending < k and prefix[k - 1 - (j + pending)] is None:
                ok = True  # covered by an overlay: the row is kept below
            if not ok:
                break
            j += pending + 1
            pending = 0
            y -= 1
        return min(j, anchor)

    def _replace(self, start: int, at: list[int | None], view: list[Row], time: float,
                 src: list[int] | None = None, gap: bool = False) -> None:
        """The document from row `start` on becomes the view's rows (`at`:
        the document row each stands for, if any). `src`: per row, the
        index in `times` of the time it keeps, -1 for this view's time (all
        rows when None). `gap`: the view shares nothing with what is above."""
        doc = self.doc
        rows: list[str] = []
        for i, v in enumerate(view):
            d = at[i] if i < len(at) else None
            old = doc[d] if d is not None and 0 <= d < len(doc) else None
            if v is None:
                rows.append(old if old is not None else "")
            elif (self.first_drawn and old and old != v and old.strip() and abs(len(old) - len(v)) <= 2
                  and _squeeze(old) == _squeeze(v)):
                rows.append(old)  # the row as first drawn
            else:
                rows.append(v)
        op = _Op(start, rows, src if src is not None else [-1] * len(view), gap)
        self._op = op
        self._apply(op, time)

    def _apply(self, op: "_Op", time: float) -> None:
        start = op.start
        doc, times = self.doc, self.times
        self.times = times[:start] + [times[k] if k >= 0 else time for k in op.src]
        self.gaps = {g for g in self.gaps if g <= start}  # a view never shows what is above its top
        if op.gap:
            self.gaps.add(len(doc))
        indexed = self._indexed is doc
        rows = op.rows
        # rows the op leaves as they were keep their index entries and keys
        same, top = 0, min(len(rows), len(doc) - start)
        if rows == doc[start:]:  # (in C: the same view added again leaves every row)
            same = top
        while same < top and rows[same] == doc[start + same]:
            same += 1
        if indexed and same == len(rows) == len(doc) - start:
            return  # the same rows: the document and its index stand
        new = self.doc = doc[:start] + rows
        if self._keys_for is doc:
            cut = start + same
            self._key_list = self._key_list[:cut] + [
                ln if ln and len(ln.strip()) >= 3 else i for i, ln in enumerate(rows[same:], cut)]
            self._keys_for = new
        self._rebuild_index(start + same if indexed else start, doc if indexed else None)


class _Op(NamedTuple):
    """What one add did to the document (see `Stitcher.add`)."""
    start: int
    rows: list[str]
    src: list[int]
    gap: bool
