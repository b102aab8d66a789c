"""The incremental snapshot (dirty rows only) always equals a full re-read."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from screen.cast import CastReader, parse_size
from screen.frames import iter_frames
from screen.vscreen import VirtualScreen, cells_spans, cells_text
from tests.conftest import recording_cases
from tests.test_screen_fuzz import ESCAPES


def texts(snap):
    return [cells_text(c) if c is not None else "" for c in snap]


#: Every event of every fourth recording is checked (sorted by agent and
#: name, so each agent's rounds are all in); on the rest, every resize,
#: every sixteenth output event and the end (a row the incremental read
#: missed stays wrong until it is drawn again). A full read per event on
#: all recordings, then on every other one, was the costliest test in CI;
#: the hypothesis test below checks every event of made-up streams.
@pytest.mark.parametrize(("case", "every"), [(c, 1 if i % 4 == 0 else 16) for i, c in enumerate(recording_cases())],
                         ids=lambda v: f"{v.parent.name}/{v.name}" if isinstance(v, Path) else f"every{v}")
def test_incremental_snapshot_matches_full_read_on_recordings(case, every):
    with CastReader(case / "session.cast") as r:
        s = VirtualScreen(r.header.width, r.header.height)
        n = 0
        for ev in r.events(warn=False):
            if ev.code == "o":
                s.feed(ev.data)
                n += 1
                if n % every:
                    continue
            elif ev.code == "r" and parse_size(ev.data):
                c, rows = parse_size(ev.data)
                s.resize(lines=rows, columns=c)
            else:
                continue
            assert s.snapshot() == s.fresh_snapshot()
        assert s.snapshot() == s.fresh_snapshot()


@pytest.mark.parametrize("case", recording_cases()[:6], ids=lambda c: f"{c.parent.name}/{c.name}")
def test_frame_styles_shared_between_frames_are_each_rows_own(case):
    # Unchanged rows share their spans between frames; every frame must
    # still get exactly the spans of its own rows.
    with CastReader(case / "session.cast") as r:
        frames = list(iter_frames(r))
    assert frames
    for f in frames:
        assert f.styles == [cells_spans(c) if c is not None else () for c in f.cells]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=30), ESCAPES), max_size=40), st.integers(1, 30), st.integers(1, 10))
def test_incremental_snapshot_matches_full_read_on_any_input(parts, cols, rows):
    s = VirtualScreen(cols, rows, scrollback=20)
    for p in parts:
        s.feed(p)
        assert s.snapshot() == s.fresh_snapshot()
