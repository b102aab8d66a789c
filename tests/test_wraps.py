"""agents_chrome.wraps: rows an agent wrapped, told from breaks the user typed."""
from __future__ import annotations

from hypothesis import given, strategies as st
from wcwidth import wcswidth

from agents_chrome.wraps import unwrap_words, wide

WORDS = st.text(alphabet=st.sampled_from("abcdefgh测试"), min_size=1, max_size=9)


def _wrap(words: list[str], room: int) -> list[str]:
    """A word wrapper: the next word goes to a new row when it would not fit."""
    rows = [words[0]]
    for w in words[1:]:
        if wcswidth(rows[-1]) + 1 + wcswidth(w) <= room:
            rows[-1] += " " + w
        else:
            rows.append(w)
    return rows


@given(st.lists(WORDS, min_size=1, max_size=30), st.integers(10, 40))
def test_rows_a_word_wrapper_made_are_one_line_again(words: list[str], room: int) -> None:
    rows = _wrap(words, room)
    assert unwrap_words(rows, [wcswidth(r) for r in rows], [room] * len(rows)) == " ".join(words)


@given(st.lists(st.lists(WORDS, min_size=1, max_size=4), min_size=2, max_size=6))
def test_short_lines_the_user_typed_stay_lines(lines: list[list[str]]) -> None:
    # every line fits its row with room for any word after it: each break was typed
    rows = [" ".join(ws) for ws in lines]
    room = max(wcswidth(r) for r in rows) + 20
    assert unwrap_words(rows, [wcswidth(r) for r in rows], [room] * len(rows)) == "\n".join(rows)


def test_a_break_between_wide_characters_joins_with_nothing_when_told_so() -> None:
    rows = ["plan 测试测试", "数据 done"]
    drawn, rooms = [wcswidth(r) for r in rows], [wcswidth(rows[0]) + 2] * 2
    assert unwrap_words(rows, drawn, rooms) == "plan 测试测试 数据 done"
    assert unwrap_words(rows, drawn, rooms, glue=lambda a, b: wide(a) and wide(b)) == "plan 测试测试数据 done"


def test_a_blank_row_and_an_indented_row_are_lines() -> None:
    rows = ["x" * 30, "", "y" * 30, "  - item"]
    assert unwrap_words(rows, [30, 0, 30, 8], [31] * 4) == "\n".join(rows)
