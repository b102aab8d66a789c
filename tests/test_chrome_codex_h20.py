"""Codex: randomized long-session probes (round h20).

The probes come from a seeded generator (seeds 2001-2020: sessions of 8 to 14
prompts, sizes 60x20 to 200x60, both screen modes, resizes in the middle of
answers and while a tool runs, approvals granted and refused, `/status`,
`/model`, `/diff`, an unknown command, `@` mentions, pastes, CJK and emoji
prompts, tables with wide cells, code blocks with empty lines), and a third
of them start Codex from bash, zsh or fish (see test_shell_h20.py).

h20-codex-s2006-na-78x23 (`--no-alt-screen`, twelve prompts, approvals,
`/frobnicate` twice): Codex answers an unknown slash command with a notice,
`• Unrecognized command '/frobnicate'. Type "/" for a list of supported
commands.`, drawn as an answer is (a dim `• `, the text in the default
colours) but under the `Worked for` row that ends the turn before, with no
prompt between. It came back as the answer of the turn before (asst_prec
.96, in both screen modes: the alternate screen draws it so too).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import regex

from tests.conftest import frames_of, recording_cases, replay_json, truth_turns, typed_prompts
from tests.selection import select

CODEX = recording_cases("codex")
#: the row that ends a turn (the model has nothing more to say in it)
WORKED_FOR = regex.compile(r"^\s*(─+\s*)?Worked for\s+\d")
#: a block Codex opens at column 0 with its bullet
BULLET = regex.compile(r"^•\s+(?P<text>\S.*)$")
#: a call's or the status's bullet row (a live view may show one there: the next turn running)
#: a word (notices are compared with served text by their words)
WORDS = regex.compile(r"\w+")
CALL_OR_STATUS = regex.compile(r"^(Working|Ran|Explored|Exited|Running|You ran|Called|Edited)\b")


def _after_turn_bullets(case: Path) -> set[str]:
    """The text of every `• ` row a frame shows under a `Worked for` row with
    only blank rows between: what Codex itself said once a turn had ended."""
    found: set[str] = set()
    for f in frames_of(case):
        rows = list(f.scrolled) + list(f.lines)
        for y, row in enumerate(rows):
            if not WORKED_FOR.match(row):
                continue
            j = y + 1
            while j < len(rows) and not rows[j].strip():
                j += 1
            m = BULLET.match(rows[j]) if j < len(rows) else None
            if m and not CALL_OR_STATUS.match(m.group("text")):
                found.add(" ".join(m.group("text").split()))
    return found


def _notices(case: Path) -> set[str]:
    """The after-turn `• ` rows that hold no words the model was served (a live
    view may show the next turn's answer there while its prompt is off the top)."""
    # compared by words: an answer opening with a table draws its header row as
    # `• Bru    Vexyozel …`, served as `| Bru | Vexyozel | …`
    served = [" ".join(WORDS.findall(t["text"])) for t in truth_turns(case) if t["role"] == "assistant"]
    return {h for h in _after_turn_bullets(case) if not any(" ".join(WORDS.findall(h))[:40] in s for s in served)}


NOTICE_CASES = select("NOTICE_CASES", CODEX, lambda c: (c / "truth.json").exists() and _notices(c))


def _ids(cases: list[Path]) -> list[str]:
    return [c.name for c in cases]


def test_cases_exist():
    assert NOTICE_CASES


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", NOTICE_CASES, ids=_ids(NOTICE_CASES))
def test_notice_after_a_turn_is_no_answer(case: Path, screen_only: bool):
    """A `• ` block drawn under the `Worked for` row of a finished turn is
    Codex's notice: no answer holds its words, it comes back as a system turn,
    and the prompts come back as typed."""
    out = replay_json(case / "session.cast", "codex", screen_only)
    answers = [" ".join(t["text"].split()) for t in out["turns"] if t["role"] == "assistant"]
    system = [" ".join(t["text"].split()) for t in out["turns"] if t["role"] == "system"]
    for head in _notices(case):
        assert not any(head[:40] in a for a in answers), head
        assert any(s.startswith(head[:40]) for s in system), head
    assert typed_prompts(out["turns"]) == typed_prompts(truth_turns(case))


def test_the_notice_is_what_an_unknown_command_gave():
    """The recordings that show the situation hold an unknown slash command
    in their truth (the rule is not keyed to it: this checks the selection)."""
    for case in NOTICE_CASES:
        truth = json.loads((case / "truth.json").read_text(encoding="utf-8"))
        assert truth.get("slash_commands"), case.name
