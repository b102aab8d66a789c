"""Codex replay: content that looks like Codex's chrome, found by the h14 round,
asserted on every Codex recording that shows the situation (never on one case
by name), against its truth.json, as recorded and with the input events removed:

- a token longer than the row (a URL in a prompt, a digest or a base64 blob
  in an answer) is cut by Codex where the row is full, or after a `?` or `&`
  of a URL, and goes on, with nothing between, on the next row. It came back
  cut in two (`export?\\nseason=`): the prompt no longer as typed, the token's
  words lost. A row cut by the width, or one ending in such a character,
  whose last run with the next row's first is longer than the text column
  holds (no word wrapped at a space is) is now one line (asserted for
  every agent in tests/test_long_tokens.py).
- an answer line opening with the output glyph (`└ two frames of capped
  brood`) opened a tool result that took the rest of the answer. Codex draws
  a call's `└` row right under the call; one after a blank row of an answer
  is the answer's text.
- an answer opening with a call's verb (`Explored the README: …`, `Ran out
  of frames to count by hand; …`) was drawn `• Explored …` / `• Ran …` and
  read as a call: the answer was lost. Such a bullet is a call only when a
  call's body (`└` rows) follows it, as `• Called`/`• Edited` already were.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from tests.conftest import cli_replay, truth_turns
from tests.test_chrome_codex_r3 import CASES

WAYS = [False, True]  # as recorded, and with every input event removed


def _norm(s: str) -> str:
    return " ".join(s.split())


def _glyph_lines(case: Path) -> list[str]:
    """answer lines that open with the output glyph"""
    return [ln.strip() for t in truth_turns(case) if t["role"] == "assistant"
            for ln in t["text"].splitlines() if ln.startswith("└ ")]


def _verb_answers(case: Path) -> list[str]:
    """answers opening with a word Codex draws its call rows with"""
    return [t["text"].splitlines()[0] for t in truth_turns(case)
            if t["role"] == "assistant" and regex.match(r"(?:Ran|Explored)\s", t["text"])]


VERB = [c for c in CASES if _verb_answers(c)]
GLYPH = [c for c in CASES if _glyph_lines(c)]


def test_there_are_cases():
    assert GLYPH and VERB


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", GLYPH, ids=lambda c: c.name)
def test_an_answer_line_opening_with_the_output_glyph_stays_in_the_answer(case: Path, screen_only: bool):
    conv = cli_replay(case, "codex", screen_only)
    answers = "\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant")
    results = [t["text"] for t in conv["turns"] if t["role"] == "tool_result"]
    for line in _glyph_lines(case):
        assert line in answers
        assert not any(line[1:].strip() in r for r in results)
    # a call's own output under `└` is a tool result still: one per call that printed
    want = sum(1 for t in truth_turns(case) if t["role"] == "tool_result" and "Output:\n" in t["text"]
               and t["text"].split("Output:\n", 1)[1].strip())
    assert len(results) >= min(want, 1)


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", VERB, ids=lambda c: c.name)
def test_an_answer_opening_with_a_call_verb_is_an_answer(case: Path, screen_only: bool):
    conv = cli_replay(case, "codex", screen_only)
    answers = [_norm(t["text"]) for t in conv["turns"] if t["role"] == "assistant"]
    calls = [_norm(t["text"]) for t in conv["turns"] if t["role"] == "tool_call"]
    for first in _verb_answers(case):
        assert any(a.startswith(_norm(first)) for a in answers), first
        assert not any(_norm(first).startswith(c) or c.startswith(_norm(first)[:20]) for c in calls if c), first
