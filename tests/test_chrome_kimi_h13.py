"""Kimi CLI: behaviour found by the h13 round of fresh recordings.

- h13-sh-kimi-multiline-95x29 (95x29, Kimi started from bash): prompts that
  hold several lines pasted with bracketed paste (a fenced block and a
  numbered list, paragraphs with blank lines between them, lines that open
  with `#`, `>`, `-` and `/`), a long one-line prompt wrapped over five rows,
  a Shell call and an answer that opens with a code block.
- Kimi echoes a prompt as `✨ ` and its first line, then the other lines at
  column 0, blank lines included, then a blank row and the `• ` answer. A
  prompt was read to its first blank row: a pasted prompt with a blank line
  lost everything after it, and the rest came back as a system turn (text at
  column 0 with no bullet reads as a slash command's output). A blank row
  under a prompt now ends it only when no more of the prompt comes under it
  (the next row that is not blank is a bullet row, another prompt, or what a
  slash command printed).
"""
from __future__ import annotations

import json

import pytest

from tests.conftest import RECORDINGS, cli_replay

AGENT = "kimi"
CASE = RECORDINGS / AGENT / "h13-sh-kimi-multiline-95x29"


def _truth_prompts() -> list[str]:
    truth = json.loads((CASE / "truth.json").read_text())
    return [t["text"] for t in truth["turns"] if t["role"] == "user" and t.get("note") is None]


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_pasted_prompts_with_blank_lines_are_whole(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(CASE, AGENT, screen_only, tmp_path_factory)
    users = [t["text"] for t in conv["turns"] if t["role"] == "user"]
    want = [p for p in _truth_prompts() if p != "/exit"]
    assert any("\n\n" in p for p in want)  # the case holds prompts with blank lines
    assert users == want


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_no_prompt_row_becomes_a_system_turn_or_an_answer(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(CASE, AGENT, screen_only, tmp_path_factory)
    inside = [t for t in conv["turns"] if t.get("name") != "shell"]  # what the shell printed stays apart
    assert [t["role"] for t in inside if t["role"] == "system"] == []
    answers = "\n".join(t["text"] for t in inside if t["role"] == "assistant")
    for row in ("tare was set in July", "why would it drift?", "stir it back in before feeding"):
        assert row not in answers
    # the answer that opens with a code block keeps its first row
    assert any(t["text"].startswith("lamp  ->  prism rings") for t in inside if t["role"] == "assistant")
