"""Claude Code chrome on real recordings: what the h14 round found, asserted on
every Claude Code recording that shows the situation (never on one case by
name), against its truth.json, as recorded and with the input events removed:

- a token longer than the row (a URL in a prompt, a digest or a base64 blob in
  an answer) is cut by Claude Code where the row is full and goes on, with
  nothing between, on the next row. It came back cut in two (`fields=\\nlevel`),
  a prompt no longer as typed and the token's words lost. A row filled to its
  width whose last run, with the next row's first, is longer than the text
  column holds (no word wrapped at a space is) is now one line; a row filled
  to its width by a word wrap (`... the token looks` / `valid`) stays two
  (asserted for every agent in tests/test_long_tokens.py).
- an answer line opening with the tool-output glyph (`⎿ tested at low
  water`, one space after it) opened a tool result that took the rest of the
  answer. A tool's output row opens `⎿` and two blanks (a space and a space
  or a no-break space): only such a row is one now.
- an answer paragraph that opens like a collapsed tool group (`Read 2 files
  before you change the logger config`, `Ran 3 shell commands on the hut
  modem …`) was read as a tool call, and one that opens like the status row
  (`✻ Cooked for 2 hours at the quay`) as chrome: the words were lost. A
  group's row is its phrases and nothing else (joined by commas, then
  `· N failed` and the key hint); a status row's time has its unit (`3s`,
  `1m`) or waits for a background agent.
- a command run in shell mode (typed after `!`) is echoed `! ls -1 hut/logger`
  at the left edge, its output under `⎿`; Claude Code sends both to the
  model, which answers. The echo was read as the last row of the answer
  above and the model's reply as more of that turn (turns_ok 0). The row is
  now the user's turn, `!` and the command as typed.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from tests.conftest import cli_replay, truth_turns
from tests.test_chrome_claude_code_h5 import CASES

WAYS = [False, True]  # as recorded, and with every input event removed


def _norm(s: str) -> str:
    return " ".join(s.split())


def _glyph_lines(case: Path) -> list[str]:
    """answer lines that open with the tool-output glyph"""
    return [ln.strip() for t in truth_turns(case) if t["role"] == "assistant"
            for ln in t["text"].splitlines() if ln.startswith("⎿ ")]


#: an answer line that opens like a collapsed group's row or the status row, and goes on in words
LOOKALIKE = regex.compile(r"^(?:(?:Read|Ran|Listed|Searched for|Wrote|Edited)\s+\d+\s+\w+(?:\s+\w+)?"
                          r"|[✻✶✳✢✽]\s+\w+\s+for\s+\d+)\s+[a-z]")


def _lookalike_lines(case: Path) -> list[str]:
    return [_norm(ln) for t in truth_turns(case) if t["role"] == "assistant"
            for ln in t["text"].splitlines() if LOOKALIKE.match(ln)]


def _bangs(case: Path) -> list[str]:
    return [t["text"] for t in truth_turns(case) if t["role"] == "user" and not t.get("kind")
            and t["text"].startswith("!")]


GLYPH = [c for c in CASES if _glyph_lines(c)]
SAYS = [c for c in CASES if _lookalike_lines(c)]
BANG = [c for c in CASES if _bangs(c)]


def test_there_are_cases():
    assert GLYPH and SAYS and BANG


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", GLYPH, ids=lambda c: c.name)
def test_an_answer_line_opening_with_the_output_glyph_stays_in_the_answer(case: Path, screen_only: bool):
    conv = cli_replay(case, "claude-code", screen_only)
    answers = "\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant")
    results = "\n".join(t["text"] for t in conv["turns"] if t["role"] == "tool_result")
    for line in _glyph_lines(case):
        body = line[1:].strip()
        assert body in answers and body not in results


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", SAYS, ids=lambda c: c.name)
def test_answer_lines_that_read_like_a_tool_group_or_the_status_stay_in_the_answer(case: Path, screen_only: bool):
    conv = cli_replay(case, "claude-code", screen_only)
    answers = _norm("\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant"))
    calls = [_norm(t["text"]) for t in conv["turns"] if t["role"] == "tool_call"]
    for line in _lookalike_lines(case):
        assert line in answers, line
        assert not any(c and c in line for c in calls), line


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", BANG, ids=lambda c: c.name)
def test_a_shell_mode_command_is_the_users_turn(case: Path, screen_only: bool):
    conv = cli_replay(case, "claude-code", screen_only)
    turns = [t for t in conv["turns"] if not (t["role"] == "user" and t.get("kind"))]
    users = [t["text"] for t in turns if t["role"] == "user"]
    typed = [t["text"] for t in truth_turns(case) if t["role"] == "user" and not t.get("kind")]
    assert [_norm(u) for u in users] == [_norm(u) for u in typed]
    for bang in _bangs(case):
        k = next(i for i, t in enumerate(turns) if t["role"] == "user" and t["text"] == bang)
        # its output, then the model's answer to it, belong to it
        after = [t["role"] for t in turns[k + 1:]]
        assert "assistant" in after[:3]
