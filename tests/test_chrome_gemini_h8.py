"""Gemini CLI: behaviour found by the h8 round of fresh recordings.

- an answer that opens with a code block has the block's first line number
  on the `✦` marker's row: the numbers go and the code keeps its own
  indentation (before, the gutter stayed in the answer, or the rows under
  the head came back one or two columns off, and rows 10+ of a block
  further off than rows 2-9);
- inline thinking (`ui.inlineThinkingMode: full`): a bare `Thinking...`
  row and the text under its bar are a thinking turn, never the answer;
- an answer streaming while the terminal shrinks, and another while it
  grows, come back once each, whole.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns

GEM = RECORDINGS / "gemini"
TANNERY = GEM / "h8-gem-tannery-long-74x23"
DOME = GEM / "h8-gem-observatory-wide-190x55"
# recordings holding an answer that opens with a fenced code block
CODE_FIRST = [TANNERY, GEM / "h6-gem-depot-long-93x27", GEM / "h7-gem-brewery-wide-180x50",
              GEM / "h7-gem-kiln-long-101x29", GEM / "gem-h2-alt-c-120x36", GEM / "h4-gem-shell-inline-110x32"]


def fenced_head(text: str) -> list[str] | None:
    """The lines of the code block an answer opens with (tabs as Gemini draws them)."""
    m = re.match(r"```[^\n]*\n(.*?)\n```", text, re.S)
    return [ln.expandtabs(4).rstrip() for ln in m.group(1).split("\n")] if m else None


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", CODE_FIRST, ids=lambda c: c.name)
def test_code_first_answer_keeps_its_code_without_line_numbers(case: Path, screen_only: bool,
                                                               tmp_path_factory) -> None:
    got = [t["text"] for t in cli_replay(case, "gemini", screen_only, tmp_path_factory)["turns"]
           if t["role"] == "assistant"]
    blocks = [b for t in truth_turns(case) if t["role"] == "assistant" and (b := fenced_head(t.get("text") or ""))]
    assert blocks
    for code in blocks:
        turn = next(t for t in got if t.lstrip().startswith(code[0].strip()))
        lines = [ln for ln in code if ln]
        rows = [r.rstrip() for r in turn.split("\n") if r.strip()][:len(lines)]
        # the block's rows exactly as served: no number, the indentation kept
        # (two blank code rows in a row come back as one: not looked at here)
        assert rows == lines


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_inline_thinking_is_a_thinking_turn_not_the_answer(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(DOME, "gemini", screen_only, tmp_path_factory)["turns"]
    thoughts = [t for t in truth_turns(DOME) if t["role"] == "thinking"]
    thinking = [t for t in turns if t["role"] == "thinking"]
    assert len(thinking) == len(thoughts) == 3
    for t in turns:
        if t["role"] == "assistant":
            assert "Thinking..." not in t["text"] and not t["text"].lstrip().startswith("│")
    for t in thinking:
        assert "│" not in t["text"]
    # each thinking block comes right before what the model did after it
    for i, t in enumerate(turns):
        if t["role"] == "thinking":
            assert turns[i - 1]["role"] == "user" and turns[i + 1]["role"] in ("assistant", "tool_call")
    # the words of the thoughts are in the thinking turns, none in an answer
    answers = " ".join(t["text"] for t in turns if t["role"] == "assistant")
    for word in ("Planning", "Considering", "worm"):
        assert word not in answers


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_answers_streaming_through_a_shrink_and_a_grow_come_back_once_whole(screen_only: bool,
                                                                            tmp_path_factory) -> None:
    meta = json.loads((TANNERY / "meta.json").read_text())
    assert meta["resizes"] == [[61, 20], [86, 26]]
    got = [t["text"] for t in cli_replay(TANNERY, "gemini", screen_only, tmp_path_factory)["turns"]
           if t["role"] == "assistant"]
    served = [t["text"] for t in truth_turns(TANNERY) if t["role"] == "assistant" and t["text"].startswith("## ")]
    assert len(served) == 2
    flat = [" ".join(g.split()) for g in got]
    for text in served:
        items = [" ".join(ln.split()) for ln in text.split("\n") if re.match(r"\d+\. ", ln)]
        # every numbered row in exactly one answer, and that answer holds them all
        holders = [g for g in flat if items[0] in g]
        assert len(holders) == 1
        assert all(it in holders[0] for it in items)
        assert all(sum(it in g for g in flat) == 1 for it in items)
