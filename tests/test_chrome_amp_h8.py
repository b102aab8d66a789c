"""Amp: behaviour found by the h8 round of fresh recordings.

- the menu one Ctrl+C opens over the right side of the screen is found by
  screen cells, not characters: over rows holding CJK (two cells a
  character) its side stands at a smaller index in the row's text, and
  the menu's rows ('│ Ctrl+N Archive and new thread', '│ Ctrl+C Quit')
  were read into the last answer and the last prompt;
- answers taller than the screen (Amp draws a finished answer anchored at
  the bottom, so their tops are never drawn) come back from what was drawn
  and are marked partial, through a resize while one streams.
"""
from __future__ import annotations

import pytest

from agents_chrome.overlay import popup_rows
from tests import drawn_recall
from tests.conftest import RECORDINGS, cli_replay, frames_of, truth_turns

AMP = RECORDINGS / "amp"
VINEYARD = AMP / "h8-amp-vineyard-wide-176x52"
SMELTER = AMP / "h8-amp-smelter-narrow-67x21"


def test_the_exit_menu_over_cjk_rows_is_found_in_its_cells() -> None:
    menus = [f for f in frames_of(VINEYARD) if f.alternate and any("Ctrl+C Quit" in ln for ln in f.lines)]
    assert menus
    for f in menus:
        rows = popup_rows(f)
        assert rows, "the menu was not seen as a box over the conversation"
        # the box covers its own rows, CJK rows among those beside it
        assert all(any(k in f.lines[y] for y in rows) for k in ("Ctrl+C then", "Esc cancel"))
    # a row with wide characters under the box is one of its rows
    assert any(any(any(ord(c) > 0x2e80 for c in f.lines[y]) for y in popup_rows(f)) for f in menus)


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_no_menu_row_in_the_last_prompt_or_answer(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(VINEYARD, "amp", screen_only, tmp_path_factory)["turns"]
    for t in turns:
        assert "Ctrl+" not in t["text"] and "Archive and" not in t["text"]
    typed = [t["text"] for t in truth_turns(VINEYARD) if t["role"] == "user" and not t.get("kind")]
    assert [" ".join(t["text"].split()) for t in turns if t["role"] == "user"] == typed
    assert turns[-1]["role"] == "assistant"
    assert turns[-1]["text"].strip() == truth_turns(VINEYARD)[-2]["text"]


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_answers_taller_than_the_screen_are_partial_and_hold_what_was_drawn(screen_only: bool,
                                                                            tmp_path_factory) -> None:
    turns = cli_replay(SMELTER, "amp", screen_only, tmp_path_factory)["turns"]
    served = truth_turns(SMELTER)
    long_ = [t["text"] for t in served if t["role"] == "assistant" and t["text"].startswith("## ")]
    answers = [t for t in turns if t["role"] == "assistant"]
    partial = [t for t in answers if t.get("partial")]
    # the two long answers (one streamed through the shrink), no other
    assert len(long_) == 2 and len(partial) == 2
    for t in partial:
        assert any(" ".join(t["text"].split()) in " ".join(s.split()) for s in long_)
    drawn = drawn_recall.drawn_sequence(SMELTER / "session.cast", drawn_recall.typed_prompts(served))
    total, got = drawn_recall.recall(served, turns, drawn)
    assert total > 150 and got >= 0.98 * total
