"""Stitch successive views of a scrolling region into one document.

A full-screen TUI redraws its conversation viewport in place; what scrolls
out of it lands in no scrollback. Each view is placed where it best
overlaps the document built so far (line-hash votes), newer text wins in
place, and a view that sits at the document's end may shorten it (a
spinner line replaced by the answer). A view that matches the middle (the
user paged up) changes nothing after it, so paging never duplicates or
reorders lines.
"""
from __future__ import annotations

from collections import Counter, defaultdict


class Stitcher:
    def __init__(self) -> None:
        self.doc: list[str] = []
        self.times: list[float] = []
        self._pos: dict[str, list[int]] = defaultdict(list)
        self._last_offset = 0

    def _index(self, i: int, line: str) -> None:
        if line.strip():
            self._pos[line].append(i)

    def _rebuild_index(self) -> None:
        self._pos = defaultdict(list)
        for i, ln in enumerate(self.doc):
            self._index(i, ln)

    def _fit(self, view: list[str], offset: int) -> int:
        doc = self.doc
        score = 0
        for i, ln in enumerate(view):
            j = offset + i
            if j < 0 or j >= len(doc) or not ln.strip():
                continue
            other = doc[j]
            if other == ln:
                score += 2
            elif other.strip():
                score -= 1
        return score

    def add(self, view: list[str], time: float = 0.0) -> None:
        while view and not view[-1].strip():
            view = view[:-1]
        # Leading blank rows are padding above the first visible line; they
        # must not blank out the text that just scrolled past them.
        while view and not view[0].strip():
            view = view[1:]
        if not view:
            return
        doc = self.doc
        if not doc:
            self.doc = list(view)
            self.times = [time] * len(view)
            self._rebuild_index()
            return
        votes: Counter[int] = Counter()
        for i, ln in enumerate(view):
            if not ln.strip():
                continue
            occ = self._pos.get(ln)
            if not occ or len(occ) > 8:
                continue  # unknown or too common to place anything
            for p in occ:
                if p - i >= -len(view):
                    votes[p - i] += 1
        if votes:
            # Votes propose offsets; the overlap decides: matching non-blank
            # lines count for, differing ones against (a streaming tail
            # differs in a line or two, a wrong placement in many).
            cands = [o for o, _ in votes.most_common(8)]
            offset = max(cands, key=lambda o: (self._fit(view, o), -abs(o - self._last_offset), o))
        else:
            offset = len(doc)
        if offset < 0:
            view = view[-offset:]
            offset = 0
        end = offset + len(view)
        at_end = end >= len(doc) - 1 or offset >= len(doc)
        if offset > len(doc):
            offset = len(doc)
        new_doc = doc[:offset] + list(view)
        new_times = self.times[:offset] + [
            self.times[offset + i] if offset + i < len(doc) and doc[offset + i] == ln else time
            for i, ln in enumerate(view)]
        if not at_end:
            new_doc += doc[end:]
            new_times += self.times[end:]
        self.doc, self.times = new_doc, new_times
        self._last_offset = offset
        self._rebuild_index()
