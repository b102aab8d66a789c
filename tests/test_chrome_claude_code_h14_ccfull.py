"""Claude Code chrome on real recordings: what round h14 (ccfull) found,
asserted on every Claude Code recording that shows the situation (never on
one case by name), against its truth.json, as recorded and with the input
events removed:

- a prompt opening with a slash word that names no command or skill
  (`/flight show the sluice …`) is never echoed as `❯ /flight …`: Claude
  Code (2.1.330 full screen, 2.1.197 inline) draws `● Unknown command:
  /flight` (2.1.197 adds `. Did you mean /name?`) and
  `● Args from unknown skill: show the sluice …`, both with an answer's
  marker, and sends nothing to the model. Replay gave the two rows as two
  answers and lost the prompt. A pair not under a prompt of its own is the
  prompt as typed now, and no answer.
- a box the model drew with rounded corners and a `├──┤` rule inside
  (`╭──╮ │ lid coil │ ├──┤ │ shelf 2 │ │ shelf 1 │ ╰──╯`) had its two rows
  under the rule joined into one (`│ shelf 2 shelf 1 │`), read as a table
  record whose cell wrapped. Only rows in a table as Claude Code draws one
  (`├─┼─┤` rules and rows up to a `┌─┬─┐` top and down to a `└─┴─┘` bottom)
  are joined now.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from agents_chrome.claude_code import _unknown_commands
from agents_chrome.rules import Labeled
from agents_chrome.transcript import TLine
from tests.conftest import cli_replay, truth_turns
from tests.test_chrome_claude_code_h5 import CASES

WAYS = [False, True]  # as recorded, and with every input event removed
SLASH_WORD = regex.compile(r"^/[\w:-]+(?:\s|$)")


def _norm(s: str) -> str:
    return " ".join(s.split())


def _unanswered_slash_prompts(case: Path) -> list[str]:
    """truth's prompts opening with a slash word that the model never got:
    no answer, tool call or thinking before the next prompt (a command that
    ran locally, or none at all)"""
    turns = truth_turns(case)
    out = []
    for k, t in enumerate(turns):
        if t["role"] != "user" or not SLASH_WORD.match(t["text"]) or len(t["text"].split()) < 2:
            continue
        nxt = next((x for x in turns[k + 1:] if x["role"] != "system"), None)
        if nxt is None or nxt["role"] == "user":
            out.append(t["text"])
    return out


UNKNOWN_CASES = [c for c in CASES if _unanswered_slash_prompts(c)]


def test_there_are_unknown_command_cases():
    assert UNKNOWN_CASES


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", UNKNOWN_CASES, ids=lambda c: c.name)
def test_a_slash_word_that_is_no_command_is_the_prompt(case, screen_only):
    """Each such prompt comes back as typed, in truth's place among the prompts, and the
    renderer's `Unknown command:` / `Args from unknown skill:` rows are no answer."""
    conv = cli_replay(case, "claude-code", screen_only)
    users = [_norm(t["text"]) for t in conv["turns"] if t["role"] == "user"]
    # (a local command truth keeps as a user turn, `/clear`, replays as the CLI's own: no prompt)
    truth_users = [_norm(t["text"]) for t in truth_turns(case) if t["role"] == "user" and not t.get("kind")]
    assert users == truth_users
    answers = [t["text"] for t in conv["turns"] if t["role"] == "assistant"]
    assert not [a for a in answers if regex.match(r"(Unknown command: /|Args from unknown skill:)", a)]


def _labeled(rows: list[tuple[str, str, str]]) -> list[Labeled]:
    return [Labeled(TLine(body, 0.0, "alt", 0), kind, rule, body) for kind, rule, body in rows]


def test_an_answer_under_its_prompt_that_says_unknown_command_stays_an_answer():
    """The pair is read as a prompt only where no prompt of its own is above it: a model's
    answer row `Unknown command: /x` under the prompt it answers is the answer's."""
    rows = _labeled([("user", "prompt", "what did the shell print?"), ("blank", "blank", ""),
                     ("assistant", "answer", "Unknown command: /frobnicate"), ("blank", "blank", ""),
                     ("assistant", "answer", "Args from unknown skill: --all")])
    _unknown_commands(rows)
    assert [lb.kind for lb in rows] == ["user", "blank", "assistant", "blank", "assistant"]
    alone = _labeled([("assistant", "answer", "Done."), ("blank", "blank", ""),
                      ("assistant", "answer", "Unknown command: /frobnicate"), ("blank", "blank", ""),
                      ("assistant", "answer", "Args from unknown skill: --all")])
    _unknown_commands(alone)
    assert [(lb.kind, lb.body) for lb in alone if lb.kind not in ("blank", "chrome")] == [
        ("assistant", "Done."), ("user", "/frobnicate --all")]


ROUNDED_BOX = regex.compile(r"(?m)^[ \t]*╭─*╮[ \t]*\n(?:[ \t]*[│├].*\n)+?[ \t]*╰─*╯")


def _rounded_box_rows(case: Path) -> list[str]:
    """the rows inside the rounded boxes truth's answers drew"""
    return [row.strip() for t in truth_turns(case) if t["role"] == "assistant"
            for box in ROUNDED_BOX.findall(t.get("text") or "") for row in box.split("\n")[1:-1]]


BOX_CASES = [c for c in CASES if sum(r.startswith("│") for r in _rounded_box_rows(c)) >= 2]


def test_there_are_rounded_box_cases():
    assert BOX_CASES


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", BOX_CASES, ids=lambda c: c.name)
def test_a_box_the_model_drew_keeps_one_line_per_row(case, screen_only):
    conv = cli_replay(case, "claude-code", screen_only)
    drawn = {_norm(ln) for t in conv["turns"] if t["role"] == "assistant" for ln in t["text"].split("\n")}
    assert [r for r in _rounded_box_rows(case) if _norm(r) not in drawn] == []


def test_two_slash_words_that_are_no_commands_in_a_row_are_two_prompts():
    """Nothing answers a prompt no command took: the next `Unknown command` row right under it
    is the next such prompt; so is one under a local command (`❯ /model` and its output).
    A slash word alone (no `Args from unknown skill` row) is the command typed, refused by
    the CLI: a system turn (h18: truth records `/dol` typed alone as a slash command)."""
    rows = _labeled([("assistant", "answer", "Unknown command: /flight"), ("blank", "blank", ""),
                     ("assistant", "answer", "Args from unknown skill: over the weir"), ("blank", "blank", ""),
                     ("assistant", "answer", "Unknown command: /sluice. Did you mean /skills?"),
                     ("blank", "blank", ""),
                     ("system", "slash-command", "/model"), ("cont", "unmatched", "  ⎿  Set model to Opus"),
                     ("assistant", "answer", "Unknown command: /paddle")])
    _unknown_commands(rows)
    assert [(lb.kind, lb.body) for lb in rows if lb.kind not in ("blank", "chrome", "cont")] == [
        ("user", "/flight over the weir"), ("system", "/sluice"), ("system", "/model"), ("system", "/paddle")]
