"""The stitcher's shortcuts (the repeated-view memo, incremental index and
keys) must not change what it stitches: a stitcher with them and one that
places every view from scratch agree on document, times and gaps after
every view, including views redrawn unchanged many times in a row."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agents_chrome.relayout import LayoutStitcher
from agents_chrome.stitch import Stitcher

ROWS = ["alpha beta", "gamma delta", "epsilon", "zeta eta theta", "iota", "kappa lambda",
        "mu nu xi", "omicron pi", "rho sigma", "tau", "", "  ", "ab", None, "─" * 12]


class FromScratch(Stitcher):
    """A stitcher that forgets the last add before every add and rebuilds its
    index and keys from the whole document: the reference behaviour."""

    def add(self, view, time=0.0, at_end=False):  # type: ignore[no-untyped-def]
        self._memo = None
        self._keys_for = None
        self._rebuild_index()
        super().add(view, time, at_end)


views = st.lists(st.sampled_from(ROWS), min_size=0, max_size=12)
steps = st.lists(st.tuples(views, st.integers(0, 4), st.booleans()), min_size=1, max_size=25)


@settings(max_examples=300, deadline=None)
@given(steps, st.sampled_from(["wide", "view"]), st.booleans())
def test_memo_and_incremental_index_stitch_like_from_scratch(seq, reach, first_drawn):
    fast = Stitcher(reach=reach, first_drawn=first_drawn)
    ref = FromScratch(reach=reach, first_drawn=first_drawn)
    t = 0.0
    for view, repeats, at_end in seq:
        for _ in range(1 + repeats):  # a view redrawn unchanged, with a later time each time
            t += 1.0
            fast.add(view, t, at_end=at_end)
            ref.add(view, t, at_end=at_end)
            assert fast.doc == ref.doc
            assert fast.times == ref.times
            assert fast.gaps == ref.gaps


def test_a_view_redrawn_unchanged_restamps_rows_it_does_not_match():
    """Blank rows never anchor: each redraw of the same view stamps them anew,
    as a full placement does; the memo must do the same."""
    s = Stitcher()
    view = ["first row here", "", "second row here", "third row here"]
    s.add(view, 1.0)
    s.add(view + ["fourth row here"], 2.0)
    s.add(view + ["fourth row here"], 3.0)
    s.add(view + ["fourth row here"], 4.0)
    ref = FromScratch()
    for v, t in ((view, 1.0), (view + ["fourth row here"], 2.0), (view + ["fourth row here"], 3.0),
                 (view + ["fourth row here"], 4.0)):
        ref.add(v, t)
    assert s.doc == ref.doc and s.times == ref.times
    assert s.times[1] == 4.0  # the blank row carries the last redraw's time
    assert s.times[0] == 1.0  # a matched row keeps the time it was first seen


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(views, st.sampled_from([40, 60])), min_size=1, max_size=15))
def test_layout_stitcher_reads_the_same_join_twice(seq):
    ls = LayoutStitcher()
    for i, (view, width) in enumerate(seq):
        ls.add(view, float(i), width=width)
        joined = ls._joined()
        assert (ls.doc, ls.times, ls.gaps) == joined
        ls.doc.append("changed by a caller")  # a copy: the next read is unchanged
        assert ls.doc == joined[0]
