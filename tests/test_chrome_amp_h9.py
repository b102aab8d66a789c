"""Amp: behaviour checked by the h9 round of fresh recordings.

- an answer streams while the terminal shrinks and grows again (Amp draws
  a counter while it streams, then the finished answer anchored at the
  bottom at the new size): it comes back from what was drawn, marked
  partial, in its own turn; the turns after it come back whole.
"""
from __future__ import annotations

import pytest

from tests import drawn_recall
from tests.conftest import RECORDINGS, cli_replay, truth_turns

DAIRY = RECORDINGS / "amp" / "h9-amp-dairy-resize-80x24"


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_answers_through_resizes_both_ways_hold_what_was_drawn(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(DAIRY, "amp", screen_only, tmp_path_factory)["turns"]
    served = truth_turns(DAIRY)
    typed = [t["text"] for t in served if t["role"] == "user" and not t.get("kind")]
    assert [" ".join(t["text"].split()) for t in turns if t["role"] == "user"] == typed
    long_ = [t["text"] for t in served if t["role"] == "assistant" and t["text"].startswith("## ")]
    partial = [t for t in turns if t["role"] == "assistant" and t.get("partial")]
    assert len(long_) == 2 and len(partial) == 2
    for t, s in zip(partial, long_):
        assert " ".join(t["text"].split()) in " ".join(s.replace("\n", " ").split())
    # the answers after the resized ones: whole, in their turns
    short = [t["text"] for t in served if t["role"] == "assistant" and not t["text"].startswith("## ")]
    got = [t["text"] for t in turns if t["role"] == "assistant" and not t.get("partial")]
    plain = [" ".join(s.replace("*", "").replace("`", "").split()) for s in short]
    assert [" ".join(g.split()) for g in got] == plain
    drawn = drawn_recall.drawn_sequence(DAIRY / "session.cast", drawn_recall.typed_prompts(served))
    total, rec = drawn_recall.recall(served, turns, drawn)
    assert total > 300 and rec >= 0.98 * total
