"""Kimi CLI: behaviour found by the h6 round of fresh recordings.

- a table too wide for the terminal: Rich wraps its cells, at a word when one
  fits and by character when none does, and aligns the header to the bottom
  of its rows (the upper rows of a wrapped header leave the short cells
  empty). Each table row comes back as one row with its cells whole, and a
  row that fills every column under one that fills every column stays a row;
- approval dialogs (non-yolo): approved once, rejected, approved for the
  session; every prompt is one user turn, in order, and a rejected call
  keeps its call.
Checked on real recordings (recordings/kimi/h6-*), with and without input
events, plus a small synthetic table.
"""
from __future__ import annotations

import json

import pytest

from agents_chrome.kimi import unfold_table_rows
from tests.conftest import RECORDINGS, cli_replay

AGENT = "kimi"


def prompts(turns: list[dict]) -> list[str]:
    return [" ".join(t["text"].split()) for t in turns if t["role"] == "user" and not t.get("kind")]


def test_wrapped_cells_come_back_whole() -> None:
    """A header aligned to the bottom, a cell wrapped at a word beside one cut
    by character, then an ordinary row: three rows."""
    rows = ["│        │ cost per k │ notes    │",
            "│ glue   │ g          │ when     │",
            "│ wheat  │ 4 EUR      │ hinges,  │",
            "│ paste  │            │ repairs  │",
            "│ PVA    │ 9 EUR      │ spines   │"]
    assert unfold_table_rows(rows) == ["│ glue │ cost per kg │ notes when │",
                                       "│ wheat paste │ 4 EUR │ hinges, repairs │",
                                       "│ PVA    │ 9 EUR      │ spines   │"]


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_wide_table_rows_whole(screen_only: bool, tmp_path_factory) -> None:
    """h6-kimi-cjk-wide: a nine-column table in 113 columns; every served row
    comes back as one row holding its cells' words in order (the one cell
    cut by character exactly at its edge, `polyvinyl|acetate`, may glue)."""
    case = RECORDINGS / AGENT / "h6-kimi-cjk-wide-147x43"
    truth = json.loads((case / "truth.json").read_text())
    served = next(t["text"] for t in truth["turns"] if t["role"] == "assistant" and "| glue |" in t["text"])
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    answer = next(t["text"] for t in conv["turns"] if t["role"] == "assistant" and "glue" in t["text"])
    got = [" ".join(r.replace("│", " ").split()) for r in answer.split("\n") if r.startswith("│")]
    want = [" ".join(r.replace("|", " ").split()) for r in served.split("\n")
            if r.startswith("|") and not r.startswith("|--")]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.replace(" ", "") == w.replace(" ", "") and abs(len(g.split()) - len(w.split())) <= 1, (g, w)


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_approval_dialogs(screen_only: bool, tmp_path_factory) -> None:
    """h6-kimi-approve: the prompts come back once each, in order; the
    rejected `rm` keeps its call; the call approved for the session and the
    one run without asking both show."""
    case = RECORDINGS / AGENT / "h6-kimi-approve-101x33"
    truth = json.loads((case / "truth.json").read_text())
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    assert prompts(conv["turns"]) == prompts(truth["turns"])
    calls = [t["text"] for t in conv["turns"] if t["role"] == "tool_call"]
    assert "rm notes.txt" in calls and "mkdir -p wheel-logs" in calls and "ls -F" in calls
