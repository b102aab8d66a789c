"""Amp widened again while an answer streams (found by the h12 round of fresh
recordings).

Amp lays its whole thread out again at each width, and the stitcher keeps one
document per width, spliced at the prompts they share. Shrunk, the terminal
keeps the cells past the new last column; widened again, they show once more.
Amp's first drawing after a widening can redraw only the input box: the rows
above it are still the narrow layout, with the old wide layout's right-hand
cells (a table's last column, the box's old end) beside them. That frame was
taken for a view at the new width whose rows matched nothing, so the next,
real drawing was added after it: the first turns came back twice and the
prompt sent before the resize swallowed the first one
(`full storage order for every jar\\n안녕하세요, kimchi cellar help please`).
A widened frame whose rows, within the old width, are the rows last seen at
that width is now no view of the conversation.

h12-amp-kimchi-cjk-111x33: 111x33, Hangul and Chinese, a table with CJK cells,
an answer taller than the screen (its top is on no frame), three shrink/grow
cycles while it streams.
"""
from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns

KIMCHI = RECORDINGS / "amp" / "h12-amp-kimchi-cjk-111x33"


def _plain(text: str) -> str:
    return "".join(text.replace("`", "").replace("*", "").replace("|", "").replace("│", "").split())


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_every_prompt_once_through_the_widenings(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(KIMCHI, "amp", screen_only, tmp_path_factory)["turns"]
    typed = [t["text"] for t in truth_turns(KIMCHI) if t["role"] == "user" and not t.get("kind")]
    assert [t["text"] for t in turns if t["role"] == "user"] == typed


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_each_answer_once_in_its_own_turn(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(KIMCHI, "amp", screen_only, tmp_path_factory)["turns"]
    answers = [_plain(t["text"]) for t in turns if t["role"] == "assistant"]
    served = [t["text"] for t in truth_turns(KIMCHI) if t["role"] == "assistant"]
    assert len(answers) == len(served)
    everything = "".join(answers)
    for got, text in zip(answers, served):
        # the answer's last line: drawn whole, and only in its own turn
        tail = _plain(text.strip().splitlines()[-1])
        assert tail in got and everything.count(tail) == 1, tail
    # the table's rows, every one of them, once
    for row in ("배추김치2.5%4도3주", "동치미1.8%2도4주", "깍두기2.2%5도10일", "갓김치3.0%3도2주"):
        assert everything.count(row) == 1, row
