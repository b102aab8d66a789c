"""Stitch full-screen views across terminal width changes.

`Stitcher` places each view by row equality, which holds only while the
layout holds. When the width changes, a full-screen TUI re-wraps its whole
conversation: the rows after the change are other text for the same
document (a paragraph of four rows becomes six), so no row anchors, and
the first frames at the new size may still hold rows of the old layout
cut or wrapped by the terminal.

So a width change starts a new layout: the views at the new width are
stitched by rows into their own document, and the two documents are
joined by WORDS, the only thing both layouts share:

- the new layout's opening words are looked up in the tail of the old
  document; where its word sequence runs along the old one, the old rows
  stand (they were confirmed over many frames; the first frames of the new
  layout can be half-drawn);
- the old document is kept up to its last row whose words all reappear in
  the new layout, in order: rows after it were still changing when the
  width changed (a streaming row cut mid-word, a status that settled) and
  the new layout's version of them replaces them;
- the new layout continues from the word after that row's last word: the
  row where they meet is the old row up to that word and the new row from
  just after it;
- a new layout that shares no run of words with the old document's tail
  simply continues it.
"""
from __future__ import annotations

from typing import Optional, Sequence

import regex

from agents_chrome.stitch import Stitcher

Row = Optional[str]
WORD = regex.compile(r"\w+")
#: fewest words the new layout must share, in runs, with the old tail to be
#: joined on them (fewer is chance: a rule, a status word)
MIN_SHARED = 6
#: the longest run of the old tail's words looked up in the new layout
MAX_RUN = 40
#: trailing words of the old document that may be stale (a row streamed
#: mid-word, a status that settled) and give way to the new layout
MAX_STALE = 60
#: most rows the new layout may have drawn above a settled call row that the
#: old one had not (`LayoutStitcher._between`)
BETWEEN_ROWS = 6


def _words(rows: Sequence[str], lo: int, hi: int) -> list[tuple[str, int, int]]:
    """(word, row index, column) for rows[lo:hi]."""
    return [(m.group(), i, m.start()) for i in range(lo, hi) for m in WORD.finditer(rows[i])]


def _end_in(wa: list[tuple[str, int, int]], wb: list[tuple[str, int, int]],
            old: Sequence[str] = (), new: Sequence[str] = (), cut_words: bool = False) -> tuple[int, int] | None:
    """Where the old document's words end inside the new layout's words.

    The old tail's last words (dropping up to MAX_STALE trailing ones that
    were still changing) are looked up in the new layout as one run; the
    longest run wins, so text repeated across paragraphs anchors on its own
    copy. Returns (old word index, new word index) of the run's last word.
    `cut_words`: a run's last word that ends its old row may be the start
    of the new layout's word (the old row was a stream cut mid-word; the
    new word then differs from the old one).
    Given the rows (`old`, `new`), a run found more than once anchors on the
    first copy that opens its row as the old one did (the same text before
    its first word): a row quoting the command of the row under it (`✔ You
    approved codex to run <cmd>` above `$ <cmd>`) holds the same words. When
    no copy opens its row so, the copy whose run starts nearest the old run's
    column.
    """
    if not wa or not wb:
        return None
    sep = "\x00"
    hay = sep + sep.join(w for w, _, _ in wb) + sep

    def cut(i: int) -> bool:
        """Whether old word `i` ends its row: a streaming row cut there may
        have been cut mid-word."""
        if not old or not cut_words:
            return False
        w, r, c = wa[i]
        return c + len(w) == len(old[r].rstrip())

    for drop in range(0, min(MAX_STALE, len(wa) - 1) + 1):
        end = len(wa) - drop
        best = 0
        # the run's last word whole; or, when it ends its row, as the start of
        # the new layout's word (the old row was drawn mid-word)
        for close in ((sep,) if not cut(end - 1) else (sep, "")):
            for length in range(MIN_SHARED, min(MAX_RUN, end) + 1):
                if sep + sep.join(w for w, _, _ in wa[end - length:end]) + close in hay:
                    best = length
                else:
                    break
            if best:
                break
        if best:
            needle = sep + sep.join(w for w, _, _ in wa[end - best:end]) + close
            at = hay.index(needle)
            if old and new:
                _w, ra, ca = wa[end - best]
                lead = old[ra][:ca].strip()
                k = at
                nearest = None  # (distance of the copy's first word from the old one's column, copy)
                while k >= 0:
                    _w, rb, cb = wb[hay[:k + 1].count(sep) - 1]  # the copy's first word
                    if new[rb][:cb].strip() == lead:
                        at = k
                        nearest = None
                        break
                    if nearest is None or abs(cb - ca) < nearest[0]:
                        nearest = (abs(cb - ca), k)
                    k = hay.find(needle, k + 1)
                if nearest is not None:
                    # no copy opens its row as the old one did (the row's
                    # status word changed: `• Running <cmd>` became `• Ran
                    # <cmd>`): the copy whose run starts at the old run's
                    # column, not a row further right quoting it
                    at = nearest[1]
            qb = hay[:at + len(needle) - len(close)].count(sep) - 1  # index of the run's last word
            return end - 1, qb
    return None


def _row_words(words: list[tuple[str, int, int]], q: int) -> list[str]:
    """The words of word `q`'s row, up to it."""
    row, i = words[q][1], q
    while i > 0 and words[i - 1][1] == row:
        i -= 1
    return [w for w, _r, _c in words[i:q + 1]]


#: the old copy's words the reprint must hold, in order, to replace it
REPRINT_COVER = 0.9
#: words the old copy never had, within the stretch the reprint covers:
#: fewer is a stale row or two, which the word join already settles
REPRINT_HOLES = 6
#: how far ahead in the reprint the next word of the old copy is looked for
REPRINT_WINDOW = 60


def _cut_of(word: str, k: int, wb: list[tuple[str, int, int]], had: set[str]) -> bool:
    """Whether new word `k` ends its row and begins a word the old copy has:
    a row cut at the new layout's edge (a shrink the program has not yet
    redrawn for) draws the head of a word, which is no hole the old copy had."""
    if k + 1 < len(wb) and wb[k + 1][1] == wb[k][1]:
        return False
    return any(h != word and h.startswith(word) for h in had)


def _replaced_row(holes: list[int], pairs: list[tuple[int, int]], wa: list[tuple[str, int, int]]) -> bool:
    """Whether a hole of the reprint stands where the old copy drew a row in
    another state: between the matched words on either side of the hole, the
    old copy has a whole row whose words the reprint never matched (a call's
    `~ Writing command…` row that the old width showed, where the reprint
    draws the call's `$ <cmd>` title). A few holes are then no stale row the
    word join would settle: the old copy's row is the stale one, and it sits
    inside the stretch both hold, above the join."""
    for k in holes:
        before = [i for i, kb in pairs if kb < k]
        after = [i for i, kb in pairs if kb > k]
        if not before or not after:
            continue
        lo, hi = before[-1], after[0]
        for ra in {wa[i][1] for i in range(lo + 1, hi)}:
            if all(lo < i < hi for i, (_w, r, _c) in enumerate(wa) if r == ra):
                return True
    return False


def _reprint_join(old: list[str], old_times: list[float], old_gaps: set[int], new: list[str],
                  new_times: list[float], new_gaps: set[int], lo: int
                  ) -> tuple[list[str], list[float], set[int]] | None:
    """The new layout in place of the old document's end, when the new
    layout reprints that end whole and the old copy has holes.

    A TUI that redraws its whole conversation at a new width may have drawn
    the old width's copy with holes: a stream on a short screen scrolls rows
    past the top before any frame shows them whole (cut mid-word, or never
    drawn). The reprint then holds words the old copy never had. Where the
    new layout's opening words are found in the old tail, and the new layout
    holds (nearly) every word of the old document from there on, in order,
    with at least REPRINT_HOLES more within that stretch, the reprint
    replaces the old document from there. A word the old copy cut at a row's
    end matches the new word it begins.
    """
    wa = _words(old, lo, len(old))
    wb = _words(new, 0, len(new))
    if len(wa) < MIN_SHARED or len(wb) < MIN_SHARED:
        return None
    words_a = [w for w, _, _ in wa]
    words_b = [w for w, _, _ in wb]
    probe = words_b[:MIN_SHARED]
    start = next((i for i in range(len(words_a) - MIN_SHARED, -1, -1) if words_a[i:i + MIN_SHARED] == probe), None)
    if start is None:
        return None
    tail = words_a[start:]
    j = 0
    pairs: list[tuple[int, int]] = []  # (old word, new word) matched in order
    for i, w in enumerate(tail):
        cut_row_end = i + 1 == len(tail) or wa[start + i + 1][1] != wa[start + i][1]
        for k in range(j, min(len(words_b), j + REPRINT_WINDOW)):
            if words_b[k] == w or (cut_row_end and words_b[k].startswith(w)):
                pairs.append((i, k))
                j = k + 1
                break
    if len(pairs) < REPRINT_COVER * len(tail):
        return None
    # The stretch both cover ends with the last run of MIN_SHARED words that
    # follow each other in both: a few words matched past it (a status row
    # the old layout showed, found again under a later answer) do not stretch
    # it over text the new layout drew after the width changed.
    end = run = 0
    for n, (i, k) in enumerate(pairs):
        run = run + 1 if n and pairs[n - 1] == (i - 1, k - 1) else 1
        if run >= MIN_SHARED:
            end = k + 1
    hit = {k for _, k in pairs}
    # words the old copy never had, within that stretch: a word it has
    # elsewhere may be the new layout's own redraw of a row (its first frames
    # half-drawn), not a hole
    had = set(tail)
    holes = [k for k in range(end) if k not in hit and words_b[k] not in had and not _cut_of(words_b[k], k, wb, had)]
    if len(holes) < REPRINT_HOLES and not _replaced_row(holes, pairs, wa[start:]):
        return None
    _w, ra, ca = wa[start]
    rb = wb[0][1]
    head = [old[ra][:ca].rstrip()] if WORD.search(old[ra][:ca]) else []
    keep = ra + len(head)
    doc = list(old[:ra]) + head + list(new[rb:])
    times = list(old_times[:keep]) + list(new_times[rb:])
    gaps = {g for g in old_gaps if g <= keep} | {keep + g - rb for g in new_gaps if g > rb}
    return doc, times, gaps


def _settled(kept: list[str], new: Sequence[str], wa: list[tuple[str, int, int]],
             wb: list[tuple[str, int, int]], qa: int, qb: int) -> tuple[list[str], set[int]]:
    """The old rows kept before the join, each replaced by the new layout's
    copy of it where that copy is the same row with more after its last word
    and no further word: a stream that was cut after a word when the width
    changed, whose closing mark (a full stop, a bracket) only the new layout
    drew. The rows are paired along the run of words both layouts share,
    which ends at the join (old word `qa`, new word `qb`).

    Where the old layout had drawn that wordless end on a row of its own
    (the narrower width wrapped `工芸品です 🏮。` after `です`: a wide emoji
    and a full stop, no word), the new row holds it now: the old row that
    held only it is left out, unless the new layout has it under its row
    too. Returns the rows and the indices (in `kept`) of the rows left out.
    """
    out = kept
    dropped: set[int] = set()
    i, j = qa - 1, qb - 1
    while i >= 0 and j >= 0 and wa[i][0] == wb[j][0]:
        _w, ra, ca = wa[i]
        _w, rb, cb = wb[j]
        if ra < len(out) and (i + 1 == len(wa) or wa[i + 1][1] != ra) and (j + 1 == len(wb) or wb[j + 1][1] != rb):
            # the last word of its row in both layouts
            old_row, new_row = out[ra].rstrip(), new[rb].rstrip()
            end = ca + len(wa[i][0])
            tail = new_row[len(old_row):]
            if len(new_row) > len(old_row) == end and new_row.startswith(old_row) and not WORD.search(tail):
                out[ra] = new[rb]
                under = ra + 1
                if (under < len(out) and under not in dropped and tail.strip()
                        and out[under].strip() == tail.strip()
                        and (rb + 1 >= len(new) or new[rb + 1].strip() != tail.strip())):
                    dropped.add(under)
        i, j = i - 1, j - 1
    return out, dropped


class LayoutStitcher:
    """A `Stitcher` per layout (terminal width), joined by words.

    Exposes the joined `doc`, `times` and `gaps` like a `Stitcher`.
    """

    def __init__(self, fuller_reprint: bool = False, cut_words: bool = False, fresh_layouts: bool = False,
                 **stitcher_options: object) -> None:
        #: join a new layout that reprints the old document's end with more
        #: words than it had by the reprint (`_reprint_join`)
        self._fuller_reprint = fuller_reprint
        #: join the layouts on a word the old one drew cut at its row's end
        #: (`_end_in`'s `cut_words`)
        self._cut_words = cut_words
        #: a change of `layout` (not of width) starts a document of its own (a
        #: screen cleared for a new conversation): it follows the old one, never
        #: joined on words both happen to hold (a status row's `done 12:39 PM`)
        self._fresh_layouts = fresh_layouts
        self._fresh = False  # the current layout is such a document
        self._options = stitcher_options
        self._cur = Stitcher(**stitcher_options)  # type: ignore[arg-type]
        self._width = 0
        self._layout: object = None
        self._tall = 0  # the tallest view of the current layout
        self._base: list[str] = []
        self._base_times: list[float] = []
        self._base_gaps: set[int] = set()
        #: the last join and what it was made from (compared by identity: the
        #: stitcher replaces, never edits, its lists), so reading `doc` then
        #: `times` joins once
        self._join_key: tuple[object, ...] = ()
        self._join: tuple[list[str], list[float], set[int]] = ([], [], set())

    def add(self, view: Sequence[Row], time: float = 0.0, width: int = 0, layout: object = None,
            **kw: object) -> None:
        """`layout`: how the view lays the document out besides its width (a
        program's compact or expanded view of the same history); None: as
        before. A change of either starts a new layout."""
        relaid = layout is not None and self._layout is not None and layout != self._layout
        if self._cur.doc and ((width and self._width and width != self._width) or relaid):
            self._settle()
            self._fresh = self._fresh_layouts and relaid
        if width:
            self._width = width
        if layout is not None:
            self._layout = layout
        self._tall = max(self._tall, len(view))
        self._cur.add(view, time, **kw)  # type: ignore[arg-type]

    def _settle(self) -> None:
        """Fold the current layout's document into the base; start a new layout."""
        self._base, self._base_times, self._base_gaps = self._joined()
        self._cur = Stitcher(**self._options)  # type: ignore[arg-type]
        self._tall = 0

    def _joined(self) -> tuple[list[str], list[float], set[int]]:
        new, new_times, new_gaps = self._cur.doc, self._cur.times, self._cur.gaps
        old, old_times = self._base, self._base_times
        if not old:
            return list(new), list(new_times), set(new_gaps)
        if not new:
            return list(old), list(old_times), set(self._base_gaps)
        if self._fresh:
            return self._concat(old, old_times, self._base_gaps, new, new_times, new_gaps)
        reach = 3 * max(self._tall, 10) + 20
        lo = max(0, len(old) - reach)
        if self._fuller_reprint:
            joined = _reprint_join(old, old_times, self._base_gaps, new, new_times, new_gaps, lo)
            if joined is not None:
                return joined
        wa = _words(old, lo, len(old))
        wb = _words(new, 0, min(len(new), reach))
        found = _end_in(wa, wb, old, new, self._cut_words)
        if found is None:
            return self._concat(old, old_times, self._base_gaps, new, new_times, new_gaps)
        qa, qb = found  # the old tail's last confirmed word, and where it is in the new layout
        wa_word, ra, ca = wa[qa]
        wb_word, rb, cb = wb[qb]
        # the row where they meet: the old row up to that word (stale words
        # after it left out), then the new row from just after it
        kept = [old[ra][:ca + len(wa_word)] + new[rb][cb + len(wb_word):]]
        if wb_word != wa_word:
            # the old row was cut mid-word: the new row's word, whole
            kept = [old[ra][:ca] + new[rb][cb:]]
        ow, nw = _row_words(wa, qa), _row_words(wb, qb)
        if len(ow) == len(nw) > 1 and ow[0] != nw[0] and ow[1:] == nw[1:]:
            # the row's first word changed and nothing else (`• Running
            # <cmd>` settled to `• Ran <cmd>`): the new layout's row
            kept = [new[rb]]
            between = self._between(old, wa, wb, qa - len(ow), qb - len(nw), ra, new, rb)
        else:
            between = None
        cut = ra + 1
        rows, times = list(new[rb + 1:]), list(new_times[rb + 1:])
        start_row = rb + 1
        settled, dropped = _settled(list(old[:ra]), new, wa, wb, qa, qb)
        old_kept_times = list(old_times[:cut])
        base_gaps = {g for g in self._base_gaps if g <= cut}
        if between is not None and not dropped:
            # the rows the new layout drew between the settled row and the row
            # above it in both (`✔ You approved codex to run <cmd> this time`,
            # left when the approval the old layout showed was answered) stand
            # in place of the old layout's rows there
            lo_old, rows_new, _lo_new = between
            settled[lo_old:ra] = rows_new
            old_kept_times[lo_old:ra] = [old_kept_times[ra]] * len(rows_new)
            shift = len(rows_new) - (ra - lo_old)
            base_gaps = {g if g <= lo_old else g + shift for g in base_gaps}
            cut += shift
        if dropped:
            settled = [r for k, r in enumerate(settled) if k not in dropped]
            old_kept_times = [t for k, t in enumerate(old_kept_times) if k not in dropped]
            base_gaps = {g - sum(1 for k in dropped if k < g) for g in base_gaps}
            cut -= len(dropped)
        doc = settled + kept + rows
        gaps = base_gaps | {cut + g - start_row for g in new_gaps if g > start_row}
        return doc, old_kept_times + list(times), gaps

    @staticmethod
    def _between(old: Sequence[str], wa: list[tuple[str, int, int]], wb: list[tuple[str, int, int]],
                 i: int, j: int, ra: int, new: Sequence[str], rb: int) -> tuple[int, list[str], int] | None:
        """Where the old layout's word before the joined row (old word `i`,
        ending a row with no words between it and row `ra`) ends a row a few
        rows above the joined row in the new layout too (from new word `j`
        back), and the new layout has rows with words between it and the
        joined row (`rb`): (first old row after it, the new rows, new row)."""
        if i < 0 or j < 0:
            return None
        while j >= 0 and wb[j][0] != wa[i][0] and rb - wb[j][1] <= BETWEEN_ROWS:
            j -= 1
        if j < 0 or wb[j][0] != wa[i][0] or rb - wb[j][1] > BETWEEN_ROWS:
            return None
        if (j + 1 < len(wb) and wb[j + 1][1] == wb[j][1]) or (i + 1 < len(wa) and wa[i + 1][1] == wa[i][1]):
            return None  # not the last word of its row in both
        lo_old, lo_new = wa[i][1] + 1, wb[j][1] + 1
        rows_new = list(new[lo_new:rb])
        if not any(WORD.search(r) for r in rows_new) or any(WORD.search(r) for r in old[lo_old:ra]):
            return None
        return lo_old, rows_new, lo_new

    @staticmethod
    def _concat(old: list[str], old_times: list[float], old_gaps: set[int], new: list[str],
                new_times: list[float], new_gaps: set[int]) -> tuple[list[str], list[float], set[int]]:
        gaps = set(old_gaps) | {len(old) + g for g in new_gaps} | {len(old)}
        return list(old) + list(new), list(old_times) + list(new_times), gaps

    def _current(self) -> tuple[list[str], list[float], set[int]]:
        cur = self._cur
        key = (cur, cur.doc, cur.times, cur.gaps, self._base, self._base_times, self._base_gaps, self._tall)
        old = self._join_key
        if len(old) != len(key) or any(a is not b for a, b in zip(old, key)):
            self._join, self._join_key = self._joined(), key
        return self._join

    @property
    def doc(self) -> list[str]:
        return list(self._current()[0])

    @property
    def times(self) -> list[float]:
        return list(self._current()[1])

    @property
    def gaps(self) -> set[int]:
        return set(self._current()[2])
