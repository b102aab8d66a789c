"""Our screen against tmux, the reference terminal, on real agent recordings.

The same recorded output goes to tmux (in a detached session of the
recording's size) and to our screen; every visible row and every
scrollback row must match.
"""
from __future__ import annotations

import pytest

from screen.cast import CastReader
from screen.vscreen import VirtualScreen
from tests.conftest import recording_cases
from tests.tmux_ref import tmux_available, tmux_render

CASES = [c for c in recording_cases()
         if not any(e.code == "r" for e in CastReader(c / "session.cast").events(warn=False))]


def test_there_are_recordings_to_check():
    assert len(CASES) >= 5, "copy real corpus cases into recordings/"


@pytest.mark.skipif(not tmux_available(), reason="tmux not installed (.ci/run installs it)")
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.parent.name}/{c.name}")
def test_final_screen_and_scrollback_match_tmux(case):
    with CastReader(case / "session.cast") as r:
        h = r.header
        data = "".join(e.data for e in r.events(warn=False) if e.code == "o")
    ours = VirtualScreen(h.width, h.height, scrollback=10_000)
    ours.feed(data)
    visible, history = tmux_render(data, h.width, h.height, history=10_000)
    rows = ours.text_lines()
    matching = sum(a == b for a, b in zip(rows, visible)) / h.height
    assert matching >= 0.98, "\n".join(f"ours {a!r}\ntmux {b!r}" for a, b in zip(rows, visible) if a != b)
    assert [ln.text for ln in ours.scrollback] == history
