"""OpenCode 1.18.33: randomized probes (round h18).

The probes come from a seeded generator (h18: made-up words mixed with CJK
words and emoji, markdown lists, tables with CJK cells, code blocks with
empty lines, long lines, links, bash calls with multi-line output, pastes,
`/help`, Esc, resizes between turns and one or two in an answer). What was
wrong before this round:

- an answer row that ended at a CJK word, or before one, was joined to the
  next row with no space (`语言服务器`, `fapizel编码`, `响应` / `请求.` left on
  two lines) whenever a space stood there: every row that ended at or
  before a CJK character was read as a CJK run broken by character.
  OpenCode's wrap moves a run without spaces down whole, CJK included; it
  breaks inside one only after CJK punctuation, or where a run wider than
  the whole row fills it to its edge. A row that ends at a CJK character or
  before one, with a run narrower than the row, broke at a space.

h18-opencode-s1861t7-184x60 is seed 1861 cut to its first seven turns (CJK
words amid made-up words wrapped at 184 columns, then a resize to 79x40 in
the last answer, which is laid out again at the narrow width);
h18-opencode-s1860t8-148x55 is seed 1860 cut to its first eight turns (resizes
to 194x42 in the first answer, to 111x25 between turns and to 123x44 in an
answer; `/help` and Esc; a Latin word wrapped before a CJK word; an answer
opening with a code block that OpenCode never drew, as it scrolled out of
view before its highlighter filled it in).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex
from wcwidth import wcswidth

from agents_chrome.opencode import AnswerRow, unwrap_answer
from tests.conftest import RECORDINGS, cli_replay, recording_cases, truth_turns

CJK = r"[\p{Han}\p{Hiragana}\p{Katakana}]"
#: two words, one of them CJK, with one space between them in a served answer
SPACED = regex.compile(r"(?:(?P<a>\w{0,6}" + CJK + r") (?P<b>[\w]{1,6}))|(?:(?P<a>\w{1,6}) (?P<b>" + CJK + r"\w{0,5}))")
MARKUP = regex.compile(r"\*\*|`|\[|\]\([^)]*\)")


def _answers(turns: list[dict]) -> str:
    return " ".join(" ".join(MARKUP.sub("", t["text"]).split()) for t in turns if t["role"] == "assistant")


def _spaced_pairs(case: Path) -> list[tuple[str, str]]:
    """The `(word, word)` pairs truth.json served with one space between
    them, one side CJK, whose glued spelling it never served."""
    text = _answers(truth_turns(case))
    pairs = set()
    for m in SPACED.finditer(text, overlapped=True):
        a, b = m.group("a"), m.group("b")
        if a + b not in text:
            pairs.add((a, b))
    return sorted(pairs)


CASES = [c for c in recording_cases("opencode") if _spaced_pairs(c)]


def test_the_situation_is_recorded() -> None:
    """The new recording is among the cases this file checks."""
    assert RECORDINGS / "opencode" / "h18-opencode-s1861t7-184x60" in CASES
    assert RECORDINGS / "opencode" / "h18-opencode-s1860t8-148x55" in CASES


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_space_before_or_after_a_cjk_word_is_kept(case: Path, screen_only: bool) -> None:
    """No word glued to a CJK word the answer had a space before or after,
    where the row wrapped between them or anywhere else."""
    got = _answers(cli_replay(case, "opencode", screen_only)["turns"])
    glued = [a + b for a, b in _spaced_pairs(case) if a + b in got]
    assert not glued


def _row(raw: str, limit: int) -> AnswerRow:
    return AnswerRow(raw, raw.strip(), limit)


def _fill(words: str, end: str, width: int) -> str:
    """An answer row at the answer column: `words`, a filler word, then `end`,
    `width` columns in all."""
    pad = width - wcswidth(" " * 5 + words + " " + end)
    return " " * 5 + words + " " + "o" * (pad - 1) + " " + end


def test_wrap_at_a_space_beside_cjk_gives_the_space_back() -> None:
    """Rows as OpenCode drew them at 79 columns (limit 76): a row ends at
    `语言` (or at `fapizel`, before `编码`) with the run that went down
    narrower than a row, so the wrap broke at a space; a run wider than the
    row broken at its edge, and a row ending in CJK punctuation, join with
    none."""
    first = _fill("Driloben suleck ul quoka. Lopi", "语言", 76)
    assert wcswidth(first) == 76
    spaced = [_row(first, 76), _row(" " * 5 + "服务器 vinpi ben ow drithra.", 76)]
    assert unwrap_answer(spaced) == first.strip() + " 服务器 vinpi ben ow drithra."
    first = _fill("Pizel kaowben bensulrust drithra drivin ny trakany", "fapizel", 77)
    assert wcswidth(first) == 77
    latin = [_row(first, 77), _row(" " * 5 + "编码.", 77)]
    assert unwrap_answer(latin) == first.strip() + " 编码."
    run = "习掌余镇灯舞带灭减死唯李" * 3  # 72 columns: wider than the row's 71
    broken = [_row(" " * 5 + run[:35], 75), _row(" " * 5 + run[35:], 75)]
    assert unwrap_answer(broken) == run
    punct = [_row(" " * 5 + "Lopi ben ow drithra vinpi, 就够了。", 40), _row(" " * 5 + "记录每一", 40)]
    assert unwrap_answer(punct) == "Lopi ben ow drithra vinpi, 就够了。记录每一"
