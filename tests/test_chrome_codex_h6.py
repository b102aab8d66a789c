"""Codex replay: behaviours the h6 round of recordings found broken.

Korean wrapped between two syllables of a word (Codex breaks Hangul
anywhere, not only at spaces), bold set against CJK letters with no space
(a word boundary only its `**` shows), a prompt's list item that opens
with inline code, and answers cut by Esc mid-stream. The rules are
checked on small drawings and on every Codex recording they apply to.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from agents_chrome.codex import _default_text, _join_wide_wraps, _marked_wide_bold
from screen.vscreen import FLAG_BOLD
from tests.test_chrome_codex_r3 import CASES, by_prompt, conv, ids, truth

WORD = re.compile(r"\w+")


def test_korean_row_cut_at_the_last_cell_joins_without_a_space() -> None:
    """A row drawn to the terminal's last cell was cut inside a word; a
    shorter one ended on a word, and the space between stays."""
    text = "예를 들어 서버를 재시작하세요 다\n음에 실행하면 됩니다."
    assert _join_wide_wraps(text, frozenset({"예를 들어 서버를 재시작하세요 다"})) == \
        "예를 들어 서버를 재시작하세요 다음에 실행하면 됩니다."
    assert _join_wide_wraps(text) == "예를 들어 서버를 재시작하세요 다 음에 실행하면 됩니다."
    # a full row's text may still carry its bullet
    assert _join_wide_wraps(text, frozenset({"• 예를 들어 서버를 재시작하세요 다"})).count(" 음에") == 0


def test_chinese_rows_join_as_before() -> None:
    assert _join_wide_wraps("雨季可以两种方式结合：晴天骑\n车，雨天坐地铁。\n短行") == \
        "雨季可以两种方式结合：晴天骑车，雨天坐地铁。\n短行"


def test_bold_against_cjk_gets_its_marks_back() -> None:
    row = "离地铁站不远，地铁最省时间 and bold"
    # cells: 7 wide letters (14 cells), then 地铁 bold at 14..18
    spans = [(0, 14, "default", "default", 0), (14, 18, "default", "default", FLAG_BOLD),
             (18, 26, "default", "default", 0), (31, 35, "default", "default", FLAG_BOLD)]
    assert _marked_wide_bold(row, spans) == "离地铁站不远，**地铁**最省时间 and bold"


def test_bold_between_spaces_is_left_as_drawn() -> None:
    row = "1. 新宿御苑 — 種類"
    spans = [(3, 11, "default", "default", FLAG_BOLD)]
    assert _marked_wide_bold(row, spans) == row


def test_card_body_opening_with_code_still_has_text_of_its_own() -> None:
    """`- `parse_head` on CRLF`: the body opens in the code colour, but the
    row's own (default) text follows, so the colour is inline code."""
    cells = list("  • parse_head on CRLF")
    spans = [(0, 2, "default", 0), (2, 4, "87d7d7", 0), (4, 14, "a6e3a1", 0), (14, 40, "default", 0)]
    assert _default_text(cells, spans, 4)
    assert not _default_text(cells[:14], spans[:3], 4)


INTERRUPTED = [c for c in CASES if any(t.get("interrupted") for t in truth(c)["turns"])]


@pytest.mark.parametrize("case", INTERRUPTED, ids=ids(INTERRUPTED))
def test_answer_cut_by_esc_stays_in_its_turn(case: Path) -> None:
    """What Codex drew before Esc is the answer of its prompt (all but the
    last words still in flight), and the next prompt opens a new turn."""
    got, want = by_prompt(conv(case)["turns"]), by_prompt(truth(case)["turns"])
    # whitespace aside: a prompt reprinted at a narrower width keeps the row
    # break Codex wrapped it at (h10-tiny-na-b; left alone, see its commit)
    assert [" ".join(g["user"].split()) for g in got] == [" ".join(w["user"].split()) for w in want]
    cut = [i for i, t in enumerate(by_prompt([t for t in truth(case)["turns"]]))
           if any(x.get("interrupted") for x in _turns_of(truth(case)["turns"], i))]
    assert cut
    for i in cut:
        served = WORD.findall(" ".join(want[i]["assistant"]))[:-6]
        have = " ".join(WORD.findall(" ".join(got[i]["assistant"])))
        assert " ".join(served) in have, want[i]["user"]


def _turns_of(turns: list[dict], index: int) -> list[dict]:
    """The truth turns under the index-th prompt."""
    k = -1
    out: list[dict] = []
    for t in turns:
        if t["role"] == "user":
            k += 1
        elif k == index:
            out.append(t)
    return out


def test_inline_code_against_hangul_gets_its_backticks_back() -> None:
    row = "음에 systemctl restart tinyhttp를 실행하면 됩니다."
    # 음에 + space = 5 cells; the code run is 26 cells, 를 follows at once
    spans = [(0, 5, "default", "default", 0), (5, 31, "a6e3a1", "default", 0), (31, 60, "default", "default", 0)]
    assert _marked_wide_bold(row, spans) == "음에 `systemctl restart tinyhttp`를 실행하면 됩니다."
