"""Gemini started from bash, stopped with Ctrl+Z and brought back with `fg`
(found by the h11 round of fresh recordings).

Gemini 0.61 suspends on a second Ctrl+Z; the first shows `Press Ctrl+Z again
to suspend. Undo has moved to Alt+Z.` above the input box, and that row was
read as the end of the answer above it. The first press also undoes in the
input: the last prompt comes back (less its last character) and the next one
typed is glued to it; truth.json holds the prompts as Gemini's own session
file has them.

The terminal shrank from 72x20 to 62x17 while Gemini was stopped. No
SIGWINCH reaches a stopped process, so brought back Gemini still draws 72
columns wide and the terminal wraps its rows. Quit with Ctrl+C, it prints the
whole conversation again under the last turn; inline, each stretch between
stops is read alone, so that reprint (every turn since the launch) came back
as turns of the last stretch: every turn twice after the first `fg`. A
resumed stretch that repeats, in order, all the turns the agent gave before
and its own before that copy drops the copy, and an answer cut by a stop takes
the reprint's whole text.
"""
from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns

QUARRY = RECORDINGS / "gemini" / "h11-sh-gem-quarry-stop-72x20"


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_press_again_notice_is_not_answer(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(QUARRY, "gemini", screen_only, tmp_path_factory)["turns"]
    answers = [t["text"] for t in turns if t["role"] == "assistant"]
    assert answers
    assert not any("again to suspend" in a for a in answers)
    # the answer the notice was drawn under ends with its own last words
    second = [t["text"] for t in truth_turns(QUARRY) if t["role"] == "assistant"][1]
    assert any(a.rstrip().endswith(second.split()[-1]) and second.split()[0] in a for a in answers)


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_every_turn_once_after_the_exit_reprint(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(QUARRY, "gemini", screen_only, tmp_path_factory)["turns"]
    typed = [" ".join(t["text"].split()) for t in truth_turns(QUARRY) if t["role"] == "user" and not t.get("kind")]
    assert [" ".join(t["text"].split()) for t in turns if t["role"] == "user"] == typed
    # each answer whole and once, the one stopped while it streamed too (taken from the reprint)
    served = [" ".join(t["text"].replace("`", "").split()) for t in truth_turns(QUARRY) if t["role"] == "assistant"]
    assert [" ".join(t["text"].replace("`", "").split()) for t in turns if t["role"] == "assistant"] == served
