"""Vibe: tokens wider than the row come back whole (round h14).

Vibe 3.0.2 wraps a prompt or an answer at word boundaries, but a token wider
than the whole row (a URL in a prompt, a base64 payload or a digest in an
answer) is moved to a row of its own and cut by character where the row
ends: the row holds that one token up to the edge and the token goes on at
the start of the next row. Read as two words (a space or a line break at the
cut), the URL no longer matched what was typed and the payload lost its word.

The recording h14-vibe-mushroom-lookalike-89x27 also holds content that looks
like Vibe's chrome (answer lines opening with `⏵ Ran`, `□ Running`, `✓`, box
diagrams in and out of code blocks, a rule of `─`), an `@` mention picked
from the completion popup with Tab, and a prompt opening with `/` text that
is no command: those read right before this round and are guarded here too.
"""
from __future__ import annotations

import pytest

from agents_chrome.vibe import _join_broken_tokens, _join_prompt_rows
from tests.conftest import RECORDINGS, cast_events, cli_replay, truth_turns

CASE = RECORDINGS / "vibe" / "h14-vibe-mushroom-lookalike-89x27"


def _turns(screen_only: bool) -> list[dict]:
    return cli_replay(CASE, "vibe", screen_only)["turns"]


def test_recording_cuts_a_url_and_a_payload_at_the_edge() -> None:
    """The situation is in the bytes: the URL's and the payload's first pieces
    end a row at the edge and their rests open the next row."""
    shown = "".join(e[2] for e in cast_events(CASE) if e[1] == "o")
    assert "block-0117/harvest" in shown and "block-0117/harvest?" not in shown
    assert "IDEu" in shown and "IDEuNDI" not in shown


@pytest.mark.parametrize("screen_only", [False, True])
def test_prompts_come_back_as_typed(screen_only: bool) -> None:
    typed = [t["text"] for t in truth_turns(CASE) if t["role"] == "user" and t["text"] != "/exit"]
    users = [t["text"] for t in _turns(screen_only) if t["role"] == "user"]
    assert users == typed
    assert any("harvest?weight=1.42kg" in u for u in users)  # the URL cut at the edge, whole
    assert "summarise @src/util.py in one line" in users  # the `@` mention the popup completed
    assert any(u.startswith("/racks/four") for u in users)  # slash text, no command


@pytest.mark.parametrize("screen_only", [False, True])
def test_payload_cut_at_the_edge_is_one_token(screen_only: bool) -> None:
    served = next(t["text"] for t in truth_turns(CASE) if t["role"] == "assistant" and "payload" in t["text"])
    payload = served.split("\n\n")[3]
    answer = next(t["text"] for t in _turns(screen_only) if t["role"] == "assistant" and "payload" in t["text"])
    assert payload in answer.split("\n")


@pytest.mark.parametrize("screen_only", [False, True])
def test_lines_shaped_like_tool_rows_stay_in_the_answer(screen_only: bool) -> None:
    turns = _turns(screen_only)
    answer = next(t["text"] for t in turns if t["role"] == "assistant" and "clipboard" in t["text"])
    for line in ("⏵ Ran the humidifier for twenty minutes", "□ Running the misting cycle on rack four",
                 "✓ Checked the CO2 meter against the spare"):
        assert line in answer.split("\n")
    assert not any(t["role"] == "tool_call" and "humidifier" in t["text"] for t in turns)


def test_join_prompt_rows_glues_only_a_full_row_of_one_token() -> None:
    width = 40
    url = "https://example.org/" + "a" * 18  # 38 columns: `> ` and it fill the row
    # `see` and the URL did not fit on one row (a soft wrap); the URL was cut at the edge
    assert _join_prompt_rows(["see", url, "?x=1 please"], width) == "see " + url + "?x=1 please"
    # a row of words up to the edge broke at a space
    words = "one two three four five six seven ei"
    assert _join_prompt_rows([words, "ght nine"], width) == words + " ght nine"
    # a short row: a typed line break
    assert _join_prompt_rows(["short", "next line"], width) == "short\nnext line"


def test_join_broken_tokens_leaves_rules_and_short_rows() -> None:
    width = 20
    assert _join_broken_tokens(["  " + "Q" * 18, "  rest=="], width) == ["  " + "Q" * 18 + "rest=="]
    rule = "  " + "─" * 18
    assert _join_broken_tokens([rule, "  text"], width) == [rule, "  text"]
    assert _join_broken_tokens(["  short", "  next"], width) == ["  short", "  next"]
    # the next row at another indent is another line (a list item, code)
    assert _join_broken_tokens(["  " + "Q" * 18, "    code"], width) == ["  " + "Q" * 18, "    code"]
