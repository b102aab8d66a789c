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
from typing import Optional, Sequence

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


class Stitcher:
    def __init__(self, first_drawn: bool = False, reach: str = "wide") -> None:
        self.doc: list[str] = []
        self.times: list[float] = []
        self.first_drawn = first_drawn
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

    # -- index ----------------------------------------------------------------
    def _rebuild_index(self, start: int = 0) -> None:
        if start <= 0:
            self._pos = defaultdict(list)
        else:
            for ln in list(self._pos):
                occ = self._pos[ln]
                while occ and occ[-1] >= start:
                    occ.pop()
                if not occ:
                    del self._pos[ln]
        for i in range(max(0, start), len(self.doc)):
            ln = self.doc[i]
            if _distinct(ln):
                self._pos[ln].append(i)

    # -- placement ------------------------------------------------------------
    def _votes(self, view: Sequence[Row]) -> Counter[int]:
        votes: Counter[int] = Counter()
        for i, ln in enumerate(view):
            if not _distinct(ln):
                continue
            occ = self._pos.get(ln)  # type: ignore[arg-type]
            if not occ or len(occ) > MAX_OCCURRENCES:
                continue
            for p in occ:
                votes[p - i] += 1
        return votes

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

    def add(self, view: Sequence[Row], time: float = 0.0, at_end: bool = False) -> None:
        """`at_end`: the program shows (e.g. by its scrollbar) that the view
        ends where the document does: it is never paging and never anchors
        on an older copy of its lines away from the tail (Amp)."""
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
        n, m = len(view), len(self.doc)
        votes = self._votes(view)
        if at_end:
            voted = bool(votes)
            votes = Counter({o: v for o, v in votes.items()
                             if o + n >= m - max(3, n // 3) and self._shows_rest(view, o)})
            if voted and not votes:  # only older copies of its lines: it continues the document
                self._replace(m, [], view, time)
                self.gaps.add(m)
                return
        n_distinct = sum(1 for v in view if _distinct(v))
        need = 2 if n_distinct > 2 else 1
        slack = max(3, n // 3)
        floor = max(0, m - n - slack) if self.reach == "view" else max(0, m - 2 * n - 20)
        s = floor
        placed: int | None = None
        if votes:
            best_v = max(votes.values())
            tail = {o: v for o, v in votes.items() if o + n >= m - slack and v >= need and 2 * v >= best_v}
            if tail:
                top_v = max(tail.values())
                lo = min(o for o, v in tail.items() if 2 * v >= top_v)
                s = max(0, min(lo, m - 1))
                placed = max(o for o, v in tail.items() if v == top_v)
            elif best_v >= need:
                o = max(o for o, v in votes.items() if v == best_v)
                if self._is_page_back(view, o):
                    return
        self._place(view, s, time, floor=floor, placed=placed, at_end=at_end)

    def _place(self, view: list[Row], s: int, time: float, floor: int = 0,
               placed: int | None = None, at_end: bool = False) -> None:
        doc, n = self.doc, len(view)
        window = doc[s:]
        # Blank and covered rows never anchor an alignment: each is made unique.
        a_keys = [ln if _distinct(ln) else f"\0a{i}" for i, ln in enumerate(window)]
        b_keys = [ln if _distinct(ln) else f"\0b{j}" for j, ln in enumerate(view)]
        sm = SequenceMatcher(None, a_keys, b_keys, autojunk=False)
        count = Counter(a_keys)
        # A stretch of rows drawn several times in the window (a rule under
        # every prompt, a "Click to expand" row) anchors nothing on its own:
        # it would pull the view onto an older copy and cut what follows it.
        blocks = [b for b in sm.get_matching_blocks() if b.size and (
            any(count[a_keys[b.a + t]] == 1 for t in range(b.size))
            or (placed is not None and s + b.a - b.b == placed))]
        if not blocks:
            self._replace(len(doc), [], view, time)
            self.gaps.add(len(doc))
            return
        first, last = blocks[0], blocks[-1]
        rest = window[last.a + last.size:]
        after = [v for v in view[last.b + last.size:] if _distinct(v)]
        if not at_end and sum(1 for ln in rest if _distinct(ln)) > max(3, n // 3) and len(after) <= 2:
            return  # the view ends well before the document does: paging
        # rows of the view above its first shared row: they replace the rows
        # just above in the document only as far as they resemble them
        anchor = s + first.a
        k = first.b
        j = self._rows_above(view[:k], anchor, min(s, floor))
        start = anchor - j
        if sum(1 for b in blocks for t in range(b.size) if _distinct(view[b.b + t])) <= 1:
            # one shared row (a rule, a status row) is a weak anchor: it may not
            # take away rows the view does not show in any form
            kept = {s + b.a + t for b in blocks for t in range(b.size)}
            shown = _squeeze("".join(v for v in view if v))
            lost = [d for i, d in enumerate(doc[start:], start)
                    if i not in kept and _distinct(d) and _squeeze(d) not in shown]
            if len(lost) > 2:
                self._replace(len(doc), [], view, time)
                self.gaps.add(len(doc))
                return
        old_time: dict[int, float] = {}
        for b in blocks:
            for t in range(b.size):
                old_time[b.b + t] = self.times[s + b.a + t]
        new_times = [old_time.get(i, time) for i in range(n)]
        # rows of the view matched to the document (covered rows keep theirs)
        matched_doc: dict[int, int] = {}
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag in ("equal", "replace") and i2 - i1 == j2 - j1 and s + i1 >= start:
                for t in range(j2 - j1):
                    matched_doc[j1 + t] = s + i1 + t
        for t in range(min(j, k)):
            matched_doc[k - t - 1] = anchor - t - 1
        self._replace(start, [(matched_doc.get(i)) for i in range(n)], view, time, new_times)

    def _rows_above(self, prefix: list[Row], anchor: int, floor: int) -> int:
        """How many document rows just above `anchor` the view's `prefix` rows
        stand for: rows it redrew (grown, settled, rewrapped after a resize),
        never rows it does not show (a late block pushed them out of view)."""
        if not prefix:
            return 0
        text = _squeeze("".join(v for v in prefix if v))
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
            ok = (len(sq) >= 8 and sq in text) or (aligned is not None and aligned.strip() != ""
                                                   and _resembles(aligned, d))
            if not ok and j + pending < k and prefix[k - 1 - (j + pending)] is None:
                ok = True  # covered by an overlay: the row is kept below
            if not ok:
                break
            j += pending + 1
            pending = 0
            y -= 1
        return min(j, anchor)

    def _replace(self, start: int, at: list[int | None], view: list[Row], time: float,
                 new_times: list[float] | None = None) -> None:
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
        times = new_times if new_times is not None else [time] * len(view)
        self.gaps = {g for g in self.gaps if g <= start}  # a view never shows what is above its top
        self.doc = doc[:start] + rows
        self.times = self.times[:start] + list(times)
        self._rebuild_index(start)
