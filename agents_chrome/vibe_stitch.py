"""Stitching for Mistral Vibe's viewport: the live tail first.

The same idea as the shared `agents_chrome.stitch.Stitcher` (each view is
placed where it overlaps the document; a view wholly inside it, away from
its end, is the user paging back), with two differences Vibe needs, kept
here so that changes to the shared stitcher cannot shift Vibe's output:

- Vibe answers often repeat whole lines of an earlier answer (the same
  list items, the same boilerplate paragraph). Lines the new answer has
  not yet pushed into the document vote for the older copy, and the view
  would be taken for paging back and dropped. Vibe's viewport follows the
  tail unless the user scrolls, so an offset that keeps the view on the
  document's tail wins whenever at least two lines agree on it.
- Vibe redraws scrolled rows by diffing cells; next to wide characters
  the redraw can leave a stray blank or lose one (`终 端`, `einen
  eindeutigen` -> `eineneindeutigen`). The row as first drawn is right: a
  later copy that differs from it only in blanks is not taken.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from difflib import SequenceMatcher


def _distinct(line: str) -> bool:
    return len(line.strip()) >= 3


def _squeeze(s: str) -> str:
    return "".join(s.split())


class TailStitcher:
    def __init__(self) -> None:
        self.doc: list[str] = []
        self.times: list[float] = []
        self._pos: dict[str, list[int]] = defaultdict(list)

    def _rebuild_index(self) -> None:
        self._pos = defaultdict(list)
        for i, ln in enumerate(self.doc):
            if _distinct(ln):
                self._pos[ln].append(i)

    def _vote(self, view: list[str]) -> int | None:
        """The document offset of the view: on the tail if two lines agree, else the best voted."""
        votes: Counter[int] = Counter()
        for i, ln in enumerate(view):
            occ = self._pos.get(ln) if _distinct(ln) else None
            if not occ or len(occ) > 4:
                continue
            for p in occ:
                votes[p - i] += 1
        if not votes:
            return None
        n = len(view)
        tail = {o: v for o, v in votes.items() if o + n >= len(self.doc) - n and v >= 2}
        pool = tail or votes
        best = max(pool.values())
        if best < 2 and n > 2:
            return None
        return max(o for o, v in pool.items() if v == best)

    def add(self, view: list[str], time: float = 0.0) -> None:
        while view and not view[-1].strip():
            view = view[:-1]
        while view and not view[0].strip():  # padding above the first visible line
            view = view[1:]
        if not view:
            return
        doc = self.doc
        if not doc:
            self.doc, self.times = list(view), [time] * len(view)
            self._rebuild_index()
            return
        n = len(view)
        where = self._vote(view)
        if where is not None and where + n < len(doc) - n:
            return  # a page-back view, wholly inside what we have
        s = max(0, len(doc) - 2 * n - 20)
        if where is not None:
            s = min(s, max(0, where - n))
        window = doc[s:]
        sm = SequenceMatcher(None, window, view, autojunk=False)
        blocks = [b for b in sm.get_matching_blocks()
                  if b.size and any(_distinct(view[j]) for j in range(b.b, b.b + b.size))]
        if not blocks:
            start = len(doc)
        else:
            first, last = blocks[0], blocks[-1]
            rest = window[last.a + last.size:]
            if sum(1 for ln in rest if _distinct(ln)) > max(3, n // 3) and last.b + last.size >= n - 1:
                return  # the view ends well before the document does: paging
            start = s + first.a - first.b
        old_time = {b.b + k: self.times[s + b.a + k] for b in blocks for k in range(b.size)}
        new_times = [old_time.get(j, time) for j in range(n)]
        if start < 0:
            view, new_times, start = view[-start:], new_times[-start:], 0
        new_doc = doc[:start] + list(view)
        for i in range(start, min(len(doc), len(new_doc))):
            if doc[i] != new_doc[i] and doc[i].strip() and _squeeze(doc[i]) == _squeeze(new_doc[i]):
                new_doc[i] = doc[i]  # the row as first drawn
        self.doc = new_doc
        self.times = self.times[:start] + new_times
        self._rebuild_index()
