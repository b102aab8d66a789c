"""Codex: randomized long-session probes (round h22).

The probes come from a seeded generator (seeds 2221-2232: sessions of 8 to 14
prompts, sizes 60x20 to 200x60, both screen modes, approvals granted and
refused, resizes in the middle of answers and while a slow tool runs, Esc,
`/clear` in the middle of a session, `/model`, `/diff`, long tool outputs,
CJK and emoji prompts, tables with wide cells, code blocks with empty lines),
and a third of them start Codex from bash, zsh or fish (see test_shell_h22.py).

h22-codex-s2223-na-128x21 (`--no-alt-screen`, nine prompts, `/clear`): an
answer whose first line is empty (a code block opening on an empty line)
starts with Codex's bullet alone on its row, `•`, the block's rows under it.
The answer rule wanted the bullet and a space: the bare `•` row was no answer,
and the whole answer (code block, link, paragraph) came back as the output
of the call drawn above it (asst_recall .93 in both screen modes).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from tests.conftest import frames_of, recording_cases, replay_json, truth_turns, typed_prompts

#: Codex's dim bullet with nothing after it on its row: a newline, or the cursor sent
#: to the next row's first column (a cheap look at the raw cast, before any replay)
BARE_BULLET_RAW = regex.compile(r"\\u001b\[2m•\\u001b\[(?:39m\\u001b\[49m\\u001b\[0m\\r\\n|\d+;1H)")
WORD = regex.compile(r"\w+")


def _shows_bare_bullet(case: Path) -> bool:
    return bool(BARE_BULLET_RAW.search((case / "session.cast").read_text(encoding="utf-8")))


BARE_CASES = [c for c in recording_cases("codex") if (c / "truth.json").exists() and _shows_bare_bullet(c)]


def _ids(cases: list[Path]) -> list[str]:
    return [c.name for c in cases]


def _under_bare_bullets(case: Path) -> list[str]:
    """The first non-blank row under each `•` drawn alone at the left edge (its
    block's first row with text), as frames show it."""
    found: dict[str, None] = {}
    for f in frames_of(case):
        rows = list(f.lines)
        for y, row in enumerate(rows):
            if row.rstrip() != "•":
                continue
            j = y + 1
            while j < len(rows) and not rows[j].strip():
                j += 1
            if j < len(rows) and rows[j].startswith("  ") and not rows[j].lstrip().startswith("└"):
                found[" ".join(rows[j].split())] = None
    return list(found)


def test_cases_exist():
    assert BARE_CASES


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", BARE_CASES, ids=_ids(BARE_CASES))
def test_bare_bullet_opens_an_answer(case: Path, screen_only: bool):
    """The rows under a bullet drawn alone are an answer's (its first line was
    empty): they come back in an assistant turn, in no call's output, and the
    prompts come back as typed."""
    out = replay_json(case / "session.cast", "codex", screen_only)
    answers = [" ".join(WORD.findall(t["text"])) for t in out["turns"] if t["role"] == "assistant"]
    outputs = [" ".join(WORD.findall(t["text"])) for t in out["turns"] if t["role"] == "tool_result"]
    rows = _under_bare_bullets(case)
    assert rows  # the raw cast's bare bullet is on a frame, at the left edge
    for row in rows:
        words = " ".join(WORD.findall(row))
        assert any(words in a for a in answers), row
        assert not any(words in o for o in outputs), row
    assert typed_prompts(out["turns"]) == typed_prompts(truth_turns(case))
