"""Kimi CLI: behaviour found by the h16 round of seeded randomized probes.

- h16-kimi-toolresize-66x22 (66x22, no --yolo, 13 turns): a Shell call
  (`sleep 2; …`) approved, then the terminal shrinks to 60x20 while the
  command runs; later Ctrl+C with a resize right after it, and two resizes
  in one answer. A shrink in height and width at once: tmux drops the blank
  rows below the cursor and keeps the rows above at the top
  (`VirtualScreen.kept_at_top`, for a program that wipes "the last
  screenful"), and the width change then reflows, which sent those same top
  rows to the history. Kimi's wipe recorded them a second time, under the
  prompt: the previous answer's last rows came back as rows of the next
  prompt (user_exact 0.85). Kept rows the reflow already recorded are no
  longer kept.
- The same recording: a table cell holding a word longer than its column
  (`skum ri` / `rtyrkcl` / `oos bas` / `shoond`): the glue between `ri` and
  `rtyrkcl` was decided on the halves alone; the word goes on over the next
  row, and whole (`rirtyrkcloos`) the session draws it.
- h16-kimi-repeat-slash-70x23 (70x23, no --yolo, 13 turns, unknown slash
  commands, a prompt typed twice): after an unknown `/word` Kimi prints one
  red row; what came next was read as that command's output until a prompt
  echo row was drawn for the first time. A prompt identical to an earlier
  one draws no new row, so its calls and answer became command output
  (tool_recall 0.82). A prompt leaving the input box ends the command's
  output.
- A row holding `⚠️` (a sign and VS16): one column on the terminal, two to
  `wcswidth`; such a row that reached the last column read as one column
  short, so the word the fold cut was joined with a space (`qu ondskaik`).
- A nested quote (`▌ ▌ …`): Rich lays each level out two columns short, so
  its rows are cut four short of the width; only one level was allowed for
  and the fold inside `voumgoorkskoust` was joined with a space.
- A row stopping one column short before a wide symbol (`✅`) on the next
  row: read as a wide character that did not fit, joined with no space;
  Rich keeps a word and a symbol written together on one row, so the space
  before the symbol was the one the fold dropped (ideographs still join).
- Probe seed 1613 (60x37, not landed: 621 kB) also found: rows a width change
  laid out anew while an unknown slash command's output was still open were
  taken for that output (a whole interrupted answer became a system turn),
  and a link whose answer was laid out anew lost its target (the new rows are
  first seen after the link was drawn). Rows first seen in a frame whose
  width changed are no command output, and a link goes to the first answer,
  in order, showing its text whose rows were drawn by the link's frame or later.
"""
from __future__ import annotations

import pytest

from agents_chrome.kimi import _cells, unfold_table_rows
from screen.cast import CastReader
from screen.frames import iter_frames
from tests.conftest import RECORDINGS, cli_replay, truth_turns, typed_prompts
from tests.segments import by_prompt as _by_prompt

AGENT = "kimi"
TOOLRESIZE = RECORDINGS / AGENT / "h16-kimi-toolresize-66x22"
REPEAT = RECORDINGS / AGENT / "h16-kimi-repeat-slash-70x23"
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])


def test_rows_kept_at_the_top_by_a_shrink_reach_the_history_once() -> None:
    """The answer's last rows stood at the top when the terminal went from
    66x22 to 60x20 while a command ran; they leave for the history once."""
    row = "  • Tosque draimsteat zin weangkong!"
    left = [t for f in iter_frames(CastReader(TOOLRESIZE / "session.cast")) for t in f.scrolled if t == row]
    assert len(left) == 1


@BOTH
def test_prompt_typed_before_a_resize_while_a_tool_runs(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(TOOLRESIZE, AGENT, screen_only, tmp_path_factory)
    assert typed_prompts(conv["turns"]) == typed_prompts(truth_turns(TOOLRESIZE))
    ours = _by_prompt(conv["turns"])
    truth = _by_prompt(truth_turns(TOOLRESIZE))
    assert len(ours) == len(truth)
    for k, (t, o) in enumerate(zip(truth, ours)):
        assert [x["name"] for x in o if x["role"] == "tool_call"] == \
            [x["name"] for x in t if x["role"] == "tool_call"], k


@BOTH
def test_table_cell_word_cut_twice_comes_back_whole(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(TOOLRESIZE, AGENT, screen_only, tmp_path_factory)
    answers = "\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant")
    assert "│ skum rirtyrkcloos basshoond │" in answers


def test_cell_glue_reads_the_word_over_every_fold() -> None:
    """Rows of the table as Kimi drew them at 66 columns; `ri` is a word the
    session draws elsewhere, `rtyrkcl` only here: the whole word decides."""
    rows = ["┌─────────┬──────────┬─────────┬──────────┬─────────┬──────────┐",
            "│ Rynten  │ Vingsyng │ Cetclou │ Fax      │ Merirkq │ Trok     │",
            "├─────────┼──────────┼─────────┼──────────┼─────────┼──────────┤",
            "│ troust  │ 海       │ lounglo │ tungsloo │ skum ri │ 2526     │",
            "│ dribeto │          │ onclurk │ t quixsh │ rtyrkcl │          │",
            "│ x rooxs │          │ slea    │ es bassh │ oos bas │          │",
            "│ kast ne │          │         │ oond tho │ shoond  │          │",
            "│ andjek  │          │         │ usjait   │         │          │",
            "└─────────┴──────────┴─────────┴──────────┴─────────┴──────────┘"]
    words = {"ri": 2, "skum": 1, "rirtyrkcloos": 1, "basshoond": 1, "tungsloot": 1, "quixshes": 1}
    body = [[c.strip() for c in r.strip("│").split("│")] for r in unfold_table_rows(rows, words)[1:]]
    assert len(body) == 1
    assert body[0][4] == "skum rirtyrkcloos basshoond"


@BOTH
def test_prompt_typed_again_after_an_unknown_slash_command(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(REPEAT, AGENT, screen_only, tmp_path_factory)
    truth = truth_turns(REPEAT)
    assert typed_prompts(conv["turns"]) == typed_prompts(truth)
    prompts = typed_prompts(truth)
    assert len(prompts) != len(set(prompts))  # a prompt typed twice
    ours, theirs = _by_prompt(conv["turns"]), _by_prompt(truth)
    for k, (t, o) in enumerate(zip(theirs, ours)):
        assert [x["name"] for x in o if x["role"] == "tool_call"] == \
            [x["name"] for x in t if x["role"] == "tool_call"], k
        # the call and the answer after the repeated prompt are no command output
        assert not any(x["role"] == "system" and "Used " in x["text"] for x in o), k


def test_vs16_sign_takes_one_column() -> None:
    assert _cells("⚠️ ab") == 4
    assert _cells("🧪 ab") == 5


@BOTH
def test_row_with_a_vs16_sign_reaching_the_edge(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(REPEAT, AGENT, screen_only, tmp_path_factory)
    answers = "\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant")
    assert "Stoongslais quondskaik ho vou" in answers


@BOTH
def test_nested_quote_row_cut_at_its_own_width(screen_only: bool, tmp_path_factory) -> None:
    """Rich lays a quote out two columns short of the block's width a level: a
    nested quote's row (`▌ ▌ …`) reaching 66 of 70 columns was cut there, inside
    `voumgoorkskoust`, a word the session draws whole elsewhere."""
    conv = cli_replay(REPEAT, AGENT, screen_only, tmp_path_factory)
    answers = "\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant")
    assert "stungsku voumgoorkskoust drourkzestquung" in answers


@BOTH
def test_space_before_a_symbol_pushed_to_the_next_row(screen_only: bool, tmp_path_factory) -> None:
    """A thinking row stopped one column short of the width and `✅` opened the
    next: the space before it fell in the last column (`trox ✅ dastgrustpeark`)."""
    assert any("trox ✅ dastgrustpeark" in t["text"] for t in truth_turns(REPEAT) if t["role"] == "thinking")
    conv = cli_replay(REPEAT, AGENT, screen_only, tmp_path_factory)
    assert any("trox ✅ dastgrustpeark" in t["text"] for t in conv["turns"] if t["role"] == "thinking")
