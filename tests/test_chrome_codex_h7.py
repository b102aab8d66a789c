"""Codex replay: behaviours the h7 round of recordings found broken.

Tables: a column the markdown aligned right (`--:`) sits at the end of its
rule run, not one past its start; a header left over from an older layout
(the table was laid out again as rows streamed in, the newer header had
scrolled off a short screen) still parts its cells by gaps; a CJK table's
rows are placed on the rules by terminal cells, not characters. Korean
wrapped inside a word joins without a space also when the row carries
inline code (the text has backticks the drawn row had not).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from agents_chrome.codex import _fits, _join_wide_wraps, _runs, _tables_as_markdown
from tests.test_chrome_codex_r3 import CASES, by_prompt, conv, ids, truth

RIGHT_ALIGNED = "\n".join([
    " item          per day    ten days",
    "━━━━━━━━━━━━  ━━━━━━━━━  ━━━━━━━━━━",
    " rail pass          28         280",
    "────────────  ─────────  ──────────",
    " total             105        1050",
    "",
    "Booking early helps.",
])


def test_right_aligned_cells_sit_at_the_end_of_their_rule() -> None:
    assert _tables_as_markdown(RIGHT_ALIGNED).splitlines()[:4] == [
        "| item | per day | ten days |", "|---|---|---|", "| rail pass | 28 | 280 |", "| total | 105 | 1050 |"]


def test_a_cell_in_the_middle_of_a_column_is_no_table_cell() -> None:
    """The tail of a cell wrapped in another layout lands anywhere in a
    column: neither at its start nor at its end, it is not this table's."""
    geo = _runs("──────────  ─────────────────  ──────────────────  ──────────────────")
    assert _fits(" plastic     you read the       about a             empty it daily,", geo)
    assert not _fits("               each morning                         frost", geo)


def test_header_of_an_older_layout_is_read_by_its_gaps() -> None:
    text = "\n".join([
        " switch        feel         force (g)    noise     good for",
        "━━━━━━━━━━━  ━━━━━━━━━━━  ━━━━━━━━━━  ━━━━━━━━━━━  ━━━━━━━━━━━",
        " linear       smooth       45          quiet        gaming",
        " red",
    ])
    assert _tables_as_markdown(text).splitlines() == [
        "| switch | feel | force (g) | noise | good for |", "|---|---|---|---|---|",
        "| linear red | smooth | 45 | quiet | gaming |"]


def test_prose_over_a_rule_is_no_header() -> None:
    """A row over a heavy rule whose gaps do not count its columns stays text."""
    text = "some words here\n━━━━  ━━━━  ━━━━\n just text"
    assert _tables_as_markdown(text) == text


def test_korean_row_with_inline_code_joins_as_drawn() -> None:
    text = "• 설명하면, `git stash`는 변경을 잠\n  시 치워 두는 명령입니다."
    full = frozenset({"• 설명하면, git stash는 변경을 잠"})
    assert _join_wide_wraps(text, full) == "• 설명하면, `git stash`는 변경을 잠시 치워 두는 명령입니다."


H7 = [c for c in CASES if c.name.startswith("h7-")]
TABLE_ROW = re.compile(r"^\|(.+)\|\s*$")


def _rows(text: str) -> list[tuple[str, ...]]:
    """The body rows of the markdown tables in `text`, cells without marks."""
    out = []
    for ln in text.splitlines():
        m = TABLE_ROW.match(ln.strip())
        if m and not re.fullmatch(r"[\s|:-]+", m.group(1)):
            out.append(tuple(c.strip().replace("**", "") for c in m.group(1).split("|")))
    return out


@pytest.mark.parametrize("case", [c for c in H7 if "|" in (c / "truth.json").read_text()],
                         ids=ids([c for c in H7 if "|" in (c / "truth.json").read_text()]))
def test_served_tables_come_back_as_markdown(case: Path) -> None:
    """Every row of every served table is a `| a | b |` row of its turn:
    right-aligned, CJK, relaid out while streaming at 60 columns."""
    for got, want in zip(by_prompt(conv(case)["turns"]), by_prompt(truth(case)["turns"])):
        have = set(_rows("\n".join(got["assistant"])))
        for row in _rows("\n".join(want["assistant"])):
            assert row in have, (want["user"], row)


def test_quote_wrapped_by_the_width_is_one_quoted_line() -> None:
    """Codex puts `> ` before every row of a wrapped quote; rows the next
    word would have fitted after stay lines of their own."""
    from agents_chrome.codex import _quote_wraps
    drawn = "> Cut just outside the branch collar, the slight swelling\n> where a branch meets the trunk.\n\nok"
    assert _quote_wraps(drawn) == \
        "> Cut just outside the branch collar, the slight swelling where a branch meets the trunk.\n\nok"
    assert _quote_wraps("> short line\n> another one that is long") == "> short line\n> another one that is long"
