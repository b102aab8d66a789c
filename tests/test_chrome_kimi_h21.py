"""Kimi CLI: behaviour found by the h21 round of seeded randomized probes.

The probes come from /tmp/h21-vibekimi/harness/kimi/gen21.py (gen20's
generator, a slash command run twice more often): random sizes, resizes
between turns, in an answer and while a tool runs, `/help` closed with `q`
(twice), unknown slash commands, `/clear`, Esc at the idle prompt, pastes,
thinking, shell calls, tables with CJK cells, code blocks, links.

What was wrong before this round:

- a row ending in a narrow character (`… Tsudov torshel`) over a row opening
  with an ideograph (`折り返し tordarshel …`) was joined with no space
  (`torshel折り返し`) whenever the row stopped one cell short of the width:
  read as a wide character that did not fit in the last column. Rich breaks
  a row only at a space and moves a word that does not fit down whole; only
  a word wider than the row is folded anywhere, and its pieces start rows of
  their own. A row holding a space before its last word, ending in a narrow
  character over an ideograph, ended where a space was
  (`kimi._word_moved_down`). Seen in probe 2151 (`torshel 折り返し`, not
  landed) and in h18-kimi-s1846-tool-187x46 (`vogum 表格`).

"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from tests.conftest import RECORDINGS, cli_replay, recording_cases, truth_turns

AGENT = "kimi"
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
IDEO = r"[\p{Han}\p{Hiragana}\p{Katakana}]"
#: a word of letters or digits, a space, and an ideograph opening the next word
PAIR = regex.compile(r"(?<![\w`*])([\p{Latin}\d]+) (" + IDEO + r"+)")


def _served(case: Path) -> str:
    return "\n".join(t.get("text") or "" for t in truth_turns(case) if t["role"] == "assistant")


def _pairs(case: Path) -> set[tuple[str, str]]:
    """(word, ideographs) served apart, word then space then ideographs, whose
    glued spelling was never served."""
    served = _served(case)
    return {(a, b) for a, b in PAIR.findall(served) if a + b not in served}


CASES = [c for c in recording_cases(AGENT) if _pairs(c)]
S1846 = RECORDINGS / "kimi" / "h18-kimi-s1846-tool-187x46"


def test_the_situation_is_recorded() -> None:
    assert S1846 in CASES


@BOTH
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_word_before_ideographs_keeps_its_space(case: Path, screen_only: bool) -> None:
    """No word served before a space and ideographs comes back glued to them:
    a row that ends in the word and a row that opens with the ideographs
    were cut at that space."""
    got = "\n".join(t["text"] for t in cli_replay(case, AGENT, screen_only)["turns"] if t["role"] == "assistant")
    glued = sorted(a + b for a, b in _pairs(case) if regex.search(r"(?<![\w])" + regex.escape(a + b), got))
    assert not glued
