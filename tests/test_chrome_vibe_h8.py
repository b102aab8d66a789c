"""Mistral Vibe: behaviour found by the h8 round of fresh recordings.

- a table streaming while the terminal shrinks and grows is laid out again
  at each width; the layouts that scrolled away are stitched as grids of
  their own and dropped as drafts of the last one. The view that drew the
  next layout also showed the last rows of the lead-in paragraph above it
  (its first rows had scrolled out of that view): right under a dropped
  grid, a paragraph that is the tail of the one before goes with the grid;
- a summary row that also folds a thought (`Ran 3 commands, thought`) is
  three calls and a thinking turn, not one call named `3 commands, thought`;
- approvals (allowed once, denied with Esc) and fast streaming: the
  permission dialog never reaches a turn, code blocks keep their blank rows.
Checked on real recordings (recordings/vibe/h8-*), with and without input
events, plus the paragraph rule on its own.
"""
from __future__ import annotations

import pytest

from agents_chrome.vibe import _drop_grid_drafts
from tests.conftest import RECORDINGS, cli_replay
from tests.segments import answer_with

AGENT = "vibe"
TUGBOAT = RECORDINGS / AGENT / "h8-vibe-tugboat-long-67x22"
LETTERPRESS = RECORDINGS / AGENT / "h8-vibe-letterpress-approve-193x57"


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_lead_in_is_not_repeated_after_a_table_relaid_by_resizes(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(TUGBOAT, AGENT, screen_only, tmp_path_factory)
    text = answer_with(conv, "Bollard")
    assert text.count("berthing:") == 1
    assert " ".join(text.split("┌")[0].split()) == "Here is how the three harbour tugs compare for tonight's berthing:"
    assert text.count("┌") == 1  # one grid: the drafts laid out at 58 and 67 columns are gone


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_approvals_and_code_blocks_with_blank_rows(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(LETTERPRESS, AGENT, screen_only, tmp_path_factory)
    turns = conv["turns"]
    assert not any("Permission for the" in t["text"] or "Allow once" in t["text"] for t in turns)
    assert [t["text"] for t in turns if t["role"] == "tool_call"] == ["ls", "mkdir -p formes", "rm notes.txt"]
    code = answer_with(conv, "CHASE_WIDTH_PT = 612")
    assert "return sum(s.width for s in sorts)\n\n\ndef fits(forme):" in code
    assert "for line in forme)\n\n    return widest" in code
    assert answer_with(conv, "You denied it") == "You denied it, so notes.txt stays where it is."


def test_tail_of_the_lead_in_under_a_dropped_grid_goes() -> None:
    draft = ["┌─────┬─────┐", "│ Tug │ Crew│", "├─────┼─────┤", "│ Mar │ 4   │", "└─────┴─────┘"]
    final = ["┌───────┬──────┐", "│ Tug │ Crew │", "├───────┼──────┤", "│ Mar │ 4 │",
             "│ Pet │ 3 │", "└───────┴──────┘"]
    text = "\n".join(["Compare the tugs for tonight's", "berthing:", ""] + draft + ["berthing:", ""] + final
                     + ["", "Done."])
    out = _drop_grid_drafts(text)
    assert out.count("berthing:") == 1
    assert out.count("┌") == 1
    # a paragraph repeating only the tail of another is kept when no grid was dropped above it
    plain = "\n".join(["Compare the tugs for tonight's", "berthing:", ""] + final + ["", "berthing:"])
    assert _drop_grid_drafts(plain).count("berthing:") == 2


def test_summary_row_folding_calls_and_a_thought() -> None:
    """Vibe folds consecutive calls, and a reasoning model's thinking between
    them, into one row: `⏵ Ran 3 commands, thought` (`■ Running 3 commands,
    thinking` while it streams). Seen on a 76x23 session whose second and
    third commands were never drawn alone: three calls (the one shown alone
    keeps its command) and a thinking turn, and the row is no call of its own."""
    from agents_chrome.vibe import VibeProfile

    p = VibeProfile()
    p._tools_seen, p._tools_set = [], set()
    p._note_tools(["⏵ Ran ls src", "⏵ Ran 3 commands, thought", "■ Running 3 commands, thinking"], 5)
    assert p._tools_seen == [(5, "Ran", "ls src")]
    p._tools_used, p._turn_start = set(), 0
    got = p._folded_summary("Ran", "bash", "3 commands, thought", 7)
    assert [(t.role, t.text) for t in got] == [("tool_call", "ls src"), ("tool_call", ""), ("tool_call", ""),
                                               ("thinking", "Thought")]
    assert p._folded_summary("Ran", "bash", "ls src, then more", 7) is None  # a command with a comma
    # one call never drawn alone (a grep Vibe counts as a search) folded with a thought
    got = p._folded_summary("Ran", "bash", "1 search, thought", 9)
    assert [(t.role, t.name, t.text) for t in got] == [("tool_call", "bash", ""), ("thinking", None, "Thought")]
