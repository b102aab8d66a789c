"""Kimi CLI: behaviour found by the h12 round of fresh recordings.

- h12-kimi-terrace-cjk-83x25 (83x25, an odd width): CJK and emoji in
  prompts and answers, a mixed CJK/Latin table whose cells fold, served
  thinking, ten turns; one answer streams through a shrink to 71 columns,
  a later one through a grow back to 83 (a window edge dragged).
- Rich cuts a paragraph's row by character and skips the space that falls
  in the last column, so a row that ends one short of the width goes on.
  Only a row ending in a letter was taken so; a row ending in punctuation
  (`…and then the slow close:` at 70 of 71 columns, `…left it entirely;`)
  came back as two lines of the answer.
- A row exactly as long as a width the terminal had while a window edge was
  dragged reads as cut there, even when Kimi drew it at a wider width; a
  list item 77 cells long drawn at 83 columns swallowed the paragraph under
  it (`…vanishes in a seasonMeasured in the field`). A row that opens at the
  column of the list marker above it is a paragraph after the list, never
  the rest of the item (whose rows hang under the item's text).
- A table cell that fills its column goes on in the row under it; whether
  the fold ate a space was left to the session's words on both sides, so a
  left half drawn nowhere else stayed glued (`pressedinto`). A right half of
  four letters or more that the session draws as a word twice, after a left
  half no word of the session starts, was a word of its own, as for an
  answer's rows (a shorter right half is too often a cut word's tail:
  `headl|and`).
"""
from __future__ import annotations

import pytest

from agents_chrome.kimi import _cell_glue
from tests.conftest import RECORDINGS, cli_replay
from tests.segments import answer_with

AGENT = "kimi"
CASE = RECORDINGS / AGENT / "h12-kimi-terrace-cjk-83x25"


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
@pytest.mark.parametrize("case,needle,whole", [
    ("h12-kimi-terrace-cjk-83x25", "slow close", "then the slow close: every port is bricked up"),
    ("h5-kimi-storm-88x26", "roughly 305 metres", "has left it entirely; axle counters at both ends"),
])
def test_row_one_short_ending_in_punctuation_goes_on(case: str, needle: str, whole: str, screen_only: bool,
                                                      tmp_path_factory) -> None:
    conv = cli_replay(RECORDINGS / AGENT / case, AGENT, screen_only, tmp_path_factory)
    row = next(r for r in answer_with(conv, needle).split("\n") if needle in r)
    assert whole in row  # on the same line: the row went on


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_paragraph_under_a_list_item_as_long_as_a_dragged_width(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(CASE, AGENT, screen_only, tmp_path_factory)
    rows = answer_with(conv, "barchan").split("\n")
    item = next(k for k, r in enumerate(rows) if "vanishes in a season" in r)
    assert rows[item].rstrip().endswith("in a season")
    assert rows[item + 1].startswith("Measured in the field")


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_table_cell_fold_that_ate_a_space(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(CASE, AGENT, screen_only, tmp_path_factory)
    table = answer_with(conv, "Lacquer coats")
    assert "│ hemp cloth pressed into paste │" in table
    assert "│ filtered black urushi │" in table  # a word cut by character stays one word


def test_cell_glue() -> None:
    lexicon = {"with": 3, "into": 2, "the": 9, "and": 5, "urushi": 1, "headland": 1, "once": 1}
    assert _cell_glue("raw urushi thinned", "with turpentine", lexicon) == " "
    assert _cell_glue("hemp cloth pressed", "into paste", lexicon) == " "
    # a left half that starts a word of the session: a word cut in two
    assert _cell_glue("filtered black uru", "shi", lexicon) == ""
    # a right half under four letters, or one drawn only once, says nothing
    assert _cell_glue("exposed headl", "and", lexicon) == ""
    assert _cell_glue("stirred", "once a day", lexicon) == ""


# `kimi --continue` from a shell, a second session after the first: Kimi
# draws the earlier session again, each answer (or tool row) right under its
# prompt echo with no blank row between, as it never does live. A round-h12
# probe (bash at 96x28, three turns, /exit, a shell command, `kimi --yolo
# --continue`, two more turns) read each reprinted answer as more of its
# prompt, and the reprinted turns came twice (turns_ok 0, asst_prec 0.96);
# with both pieces below every turn comes once (1.00 both ways). The probe is
# not in recordings/ (one new recording per agent per round): these check the
# pieces on the real profile and the real shell reader (the launch lines: tests/test_shell_resume.py).
def test_answer_right_under_a_prompt_echo_is_no_prompt_row() -> None:
    from agents_chrome.kimi import PROFILE
    from agents_chrome.transcript import TLine
    rows = ["✨ how many lines does the readme have?", "• Used Shell (wc -l README.md)", "",
            "• The readme has 3 lines.", "", "✨ name a hardy rootstock",
            "• M.111: vigorous, drought tolerant and anchored well in heavy soil.", "",
            "✨ a prompt typed on", "two rows", "", "• Both rows are the prompt."]
    kinds = [lb.kind for lb in PROFILE.label([TLine(t, 0.0, "screen", 0) for t in rows])]
    assert kinds == ["user", "tool_call", "blank", "assistant", "blank", "user", "assistant", "blank",
                     "user", "cont", "blank", "assistant"]
