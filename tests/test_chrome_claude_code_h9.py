"""Claude Code chrome on real recordings: what the h9 round of fresh
recordings found, asserted on every Claude Code recording that shows the
situation (never on one case by name), against its truth.json:

- a prompt typed with a heading of level two or deeper (`## h`, `### h`)
  is echoed as a bold row either way: the echo cannot tell the levels
  apart. The input box showed the text raw while it was typed (each
  keystroke is a repaint), so the prompt comes back as typed, as recorded
  and with the input events stripped.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from tests.conftest import cli_replay
from tests.test_chrome_claude_code_h5 import CASES, truth_of

#: a prompt line opening with a heading of level two or deeper
DEEP_HEADING = regex.compile(r"(?m)^#{2,6}\s\S")


def _typed_with_deep_headings(case: Path) -> list[str]:
    return [t["text"] for t in truth_of(case)["turns"]
            if t["role"] == "user" and not t.get("kind") and DEEP_HEADING.search(t["text"])]


HEADING_CASES = [c for c in CASES if _typed_with_deep_headings(c)]


def test_some_recording_has_a_prompt_with_a_deep_heading() -> None:
    assert HEADING_CASES, "no Claude Code recording has a prompt typed with ## or ###"


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", HEADING_CASES, ids=lambda p: p.name)
def test_heading_levels_of_prompts_come_back_as_typed(case: Path, screen_only: bool, tmp_path_factory) -> None:
    got = [t["text"] for t in cli_replay(case, "claude-code", screen_only, tmp_path_factory)["turns"]
           if t["role"] == "user"]
    for typed in _typed_with_deep_headings(case):
        assert typed in got, f"{case.name}: {typed!r} not among the replayed prompts {got}"
