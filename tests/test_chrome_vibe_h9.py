"""Mistral Vibe: the h9 round of fresh recordings.

- tests.drawn_recall undercounted what the replay recovers when an answer's
  paragraphs read alike (they differed only in digits, which it does not
  count as words): its greedy alignment paired the drawn words of one
  paragraph with another paragraph of the replay and counted a whole
  paragraph as lost (r3-vibe-scroll-h: 178 of 212 drawn words "recovered",
  though the replay holds every served word in order). It counts with an
  exact longest common subsequence now: 212 of 212.
- h9-vibe-spoke-long-80x24: 11 turns at 80x24 with bash calls (one
  failing), two tables, an answer taller than the screen, the terminal
  shrinking then growing in one answer and growing then shrinking in
  another: every turn comes back whole, with and without input events (a
  guard; no rule needed changing).
"""
from __future__ import annotations

import json

import pytest

from tests import drawn_recall
from tests.conftest import RECORDINGS, cli_replay

AGENT = "vibe"
SPOKE = RECORDINGS / AGENT / "h9-vibe-spoke-long-80x24"
SCROLL_H = RECORDINGS / AGENT / "r3-vibe-scroll-h-90x24"


def test_lcs_length_is_exact() -> None:
    para = "Part of the rebalancer keeps a ring buffer".split()
    have = para * 7
    drawn = para * 2 + para[3:] + para * 2  # a paragraph drawn only from its middle on
    assert drawn_recall.lcs_length(have, drawn) == len(drawn)
    assert drawn_recall.lcs_length(list("abcbdab"), list("bdcaba")) == 4
    assert drawn_recall.lcs_length([], ["a"]) == 0


def test_drawn_recall_counts_repeated_paragraphs_once_each() -> None:
    truth = json.loads((SCROLL_H / "truth.json").read_text())["turns"]
    turns = drawn_recall.replay_turns(SCROLL_H / "session.cast", AGENT)
    drawn = drawn_recall.drawn_sequence(SCROLL_H / "session.cast", drawn_recall.typed_prompts(truth))
    total, got = drawn_recall.recall(truth, turns, drawn)
    assert total > 200 and got == total


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_long_session_with_resizes_both_ways(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(SPOKE, AGENT, screen_only, tmp_path_factory)
    truth = json.loads((SPOKE / "truth.json").read_text())["turns"]
    turns = conv["turns"]
    assert [t["text"] for t in turns if t["role"] == "user"] == \
        [t["text"] for t in truth if t["role"] == "user" and not t.get("kind")]
    assert [t["role"] for t in turns if t["role"] != "tool_result"] == \
        [t["role"] for t in truth if t["role"] != "tool_result" and not t.get("kind")]
    # Vibe's rows stay as drawn (one per screen row): compare the words
    answers = [" ".join(t["text"].split()) for t in turns if t["role"] == "assistant"]
    truing = next(a for a in answers if a.startswith("Truing a wheel at home"))
    # taller than the screen: its first and last rows both come back
    assert "You can fix most wobbles with a spoke key" in truing
    assert truing.endswith("seat the tyre bead again and pump it to pressure.")
    brakes = next(a for a in answers if a.startswith("Rim brakes squeal"))
    assert "so the front touches first and the vibration dies away." in brakes
    assert "road grime that builds up over a wet winter." in brakes
