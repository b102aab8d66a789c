"""Kimi CLI: behaviour found by the h7 round of fresh recordings.

- a table far wider than the screen: Rich squeezes its columns and folds
  each cell inside its column, so one table row is many drawn rows. Every
  drawn row between the top rule and the header rule is the header (a header
  sits at the bottom of its rows); under it cells sit at the top of theirs,
  so text under a cell that had ended opens the next row; two drawn rows
  that fill every column are one table row only when every column they
  fill folds elsewhere in the table and one of them cuts a word at the
  column's edge (a column never seen folding holds each cell on one row);
- bold and `code` set against ideographs with no space keep their markdown
  (`先从**楷书**入门`, `是`src/main.py`。`): Kimi draws bold as bold cells in
  the default colour and inline code as bold cells in a colour, and the
  markers are the only word boundary there.
Checked on real recordings (recordings/kimi/h7-*), with and without input
events, plus synthetic tables for the row rules.
"""
from __future__ import annotations

import json

import pytest

from agents_chrome.kimi import unfold_table_rows
from tests.conftest import RECORDINGS, cli_replay

AGENT = "kimi"
H7 = sorted(p.parent for p in RECORDINGS.glob(f"{AGENT}/h7-*/session.cast"))


def prompts(turns: list[dict]) -> list[str]:
    return [" ".join(t["text"].split()) for t in turns if t["role"] == "user" and not t.get("kind")]


def test_h7_cases_exist() -> None:
    assert len(H7) >= 3


def test_header_rows_between_the_rules_are_one_row() -> None:
    rows = ["┌────┬─────┐",
            "│    │ ren │",
            "│ ch │ net │",
            "├────┼─────┤",
            "│ go │ 2.5 │",
            "│ ud │ ml  │",
            "│ a  │ ea  │",
            "│    │ ch  │",
            "│ co │ 1   │",
            "│ w  │     │",
            "└────┴─────┘"]
    assert unfold_table_rows(rows) == ["│ ch │ rennet │", "│ gouda │ 2.5 ml ea ch │", "│ cow │ 1 │"]


def test_full_rows_in_columns_that_never_fold_stay_apart() -> None:
    """The first column holds each cell on one row: `Russet` then `Jazz` are two rows."""
    rows = ["├─────────────────┼────────────────┤",
            "│ Bramley         │ sharp, cooks t │",
            "│                 │ o a fluff      │",
            "│ Egremont Russet │ dry, pear-like │",
            "│ Jazz            │ crisp and swee │",
            "│                 │ t              │",
            "└─────────────────┴────────────────┘"]
    got = unfold_table_rows(rows)
    assert [r.split("│")[1].strip() for r in got] == ["Bramley", "Egremont Russet", "Jazz"]


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", H7, ids=[c.name for c in H7])
def test_prompts_and_tool_calls(case, screen_only: bool, tmp_path_factory) -> None:
    """Every typed prompt once, in order; every served Shell call once."""
    truth = json.loads((case / "truth.json").read_text())
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    assert prompts(conv["turns"]) == prompts(truth["turns"])
    calls = lambda turns: sum(t["role"] == "tool_call" for t in turns)  # noqa: E731
    assert calls(conv["turns"]) == calls(truth["turns"])


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_squeezed_table_one_row_per_table_row(screen_only: bool, tmp_path_factory) -> None:
    """h7-kimi-dairy: an eleven-column table at 60 columns, two to three
    cells a column: a header and four rows, each opening with its cheese."""
    case = RECORDINGS / AGENT / "h7-kimi-dairy-long-60x20"
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    answer = next(t["text"] for t in conv["turns"] if t["role"] == "assistant" and "│" in t["text"])
    rows = [r for r in answer.split("\n") if r.startswith("│")]
    assert [r.split("│")[1].strip() for r in rows] == ["cheese", "cheddar", "gouda", "camembert", "manchego"]
    assert "no, dry salted" in rows[1] and "white mould turned" in rows[3]


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_bold_against_ideographs_keeps_its_markers(screen_only: bool, tmp_path_factory) -> None:
    case = RECORDINGS / AGENT / "h7-kimi-shodo-approve-83x26"
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    text = "\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant")
    assert "建议先从**楷书**入门" in text and "今天练了**永字八法**" in text
    assert "****" not in text
