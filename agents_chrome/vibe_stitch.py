"""Stitching for Mistral Vibe's viewport: prefer the live tail.

Vibe answers often repeat whole lines of an earlier answer (the same
list items, the same boilerplate paragraph). The shared `Stitcher` votes
on where a view sits by its distinctive lines; lines the new answer has
not yet pushed into the document vote for the older copy, and the view is
then taken for the user paging back and dropped. Vibe's viewport follows
the tail unless the user scrolls, so an offset that keeps the view on the
document's tail wins whenever at least two lines agree on it.
"""
from __future__ import annotations

from collections import Counter

from agents_chrome.stitch import Stitcher, _distinct


class TailStitcher(Stitcher):
    def _vote(self, view: list[str]) -> int | None:
        votes: Counter[int] = Counter()
        for i, ln in enumerate(view):
            occ = self._pos.get(ln) if _distinct(ln) else None
            if not occ or len(occ) > 4:
                continue
            for p in occ:
                votes[p - i] += 1
        n = len(view)
        tail = {o: v for o, v in votes.items() if o + n >= len(self.doc) - n and v >= 2}
        if tail:
            best = max(tail.values())
            return max(o for o, v in tail.items() if v == best)
        return super()._vote(view)

    def add(self, view: list[str], time: float = 0.0) -> None:
        old = list(self.doc)
        super().add(view, time)
        # Vibe redraws scrolled rows by diffing cells; next to wide characters
        # the redraw can leave a stray blank or lose one (`终 端`, `einen
        # eindeutigen` -> `eineneindeutigen`). The row as first drawn is right:
        # a later copy that differs from it only in blanks is not taken.
        changed = False
        for i in range(min(len(old), len(self.doc))):
            a, b = old[i], self.doc[i]
            if a != b and a.strip() and _squeeze(a) == _squeeze(b):
                self.doc[i] = a
                changed = True
        if changed:
            self._rebuild_index()


def _squeeze(s: str) -> str:
    return "".join(s.split())
