"""Stitch successive views of a scrolling region into one document.

A full-screen TUI redraws its conversation viewport in place; what scrolls
out of it lands in no scrollback. Each new view is matched against the
document built so far:

- a view that sits inside the document, away from its end, is the user
  paging back: it changes nothing, so paging never duplicates or reorders;
- otherwise the view shows the document's tail: it is aligned on the lines
  it shares with the tail (a line diff, so text the program inserted in
  the middle, e.g. a code block rendered late, does not throw the
  alignment off) and replaces everything from where it starts. What
  scrolled out above it stays; newer text wins below it (a spinner
  replaced by the answer);
- a view that shares nothing with the document continues it.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from difflib import SequenceMatcher


def _distinct(line: str) -> bool:
    return len(line.strip()) >= 3


class Stitcher:
    def __init__(self) -> None:
        self.doc: list[str] = []
        self.times: list[float] = []
        self._pos: dict[str, list[int]] = defaultdict(list)
        self._last_offset = 0

    def _rebuild_index(self) -> None:
        self._pos = defaultdict(list)
        for i, ln in enumerate(self.doc):
            if _distinct(ln):
                self._pos[ln].append(i)

    def _vote(self, view: list[str]) -> int | None:
        """The document offset most of the view's distinctive lines agree on."""
        votes: Counter[int] = Counter()
        for i, ln in enumerate(view):
            occ = self._pos.get(ln) if _distinct(ln) else None
            if not occ or len(occ) > 4:
                continue
            for p in occ:
                votes[p - i] += 1
        if not votes:
            return None
        best = max(votes.values())
        if best < 2 and len(view) > 2:
            return None
        return max(o for o, v in votes.items() if v == best)

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
        # Blank rows never anchor an alignment: each is made unique.
        sm = SequenceMatcher(None, [ln if _distinct(ln) else f"\0a{i}" for i, ln in enumerate(window)],
                             [ln if _distinct(ln) else f"\0b{j}" for j, ln in enumerate(view)], autojunk=False)
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
        new_times = [old_time.get(j, time) for j in range(len(view))]
        if start < 0:
            view, new_times, start = view[-start:], new_times[-start:], 0
        self.doc = doc[:start] + list(view)
        self.times = self.times[:start] + new_times
        self._last_offset = start
        self._rebuild_index()
