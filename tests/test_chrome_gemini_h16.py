"""Gemini CLI: what round h16's randomized probes found.

h16-gem-gen1609k-76x24 is inputs 10, 5 and 13 of the seeded probe
`gen_cases.py --seed 1609 --keep 10,5,13 --size 76x24 --paste` (harness
copy of round h16, /tmp/h16-gemamp/harness/gemini): a prompt holding a
base64 token, answered with shell calls, a listing and a table whose cells
wrap at words; a `/word` prompt answered with five calls (an edit among
them; a failing read and a failing edit Gemini never draws); a question
whose long answer streams while the window widens from 76 to 125 columns.

- A prompt's token longer than the band is cut by Ink where the row is
  full. After the window widened, the terminal reports the band's rows at
  the new width, and a row the token filled to the band's edge no longer
  read as cut: the token came back in three pieces. The rows between a
  band's two edges take the edges' width now (`_band_widths`).
- The token's last row ends with its `=` padding, short of the width, and
  the next row opens with a word: the shared token joiner breaks after `=`
  (Codex's URLs), so the word was glued on. Gemini's prompt breaks a token
  after a `-` only.
- `✓  Edit  util.py → Accepted (+1, -1)`: the edit tool's name is one word;
  the bare-tool rule wanted two (`ReadFile`), so the call and its diff were
  answer text.
- A table too wide for the terminal has its columns narrowed and each cell
  wrapped at its words (a word longer than its column cut into pieces),
  aligned to the top, with no rule between body rows: read row by row the
  cells' words interleaved. Such a table, as wide as the terminal, comes
  back a row per table row (agents_chrome/grids.py,
  unfold_word_wrapped_rows); a table of one-word cells, whose columns are
  as wide as their widest word, reads the same wrapped or not and stays as
  drawn.

Other probes of the round (not landed), tested on the recordings in the
repository:

- h16-gem-gen1617-187x40 (ui.useAlternateBuffer, thinking): with the
  alternate buffer a thinking block has no `Thinking...` head; its bar rows
  right under the band, under a tool drawn bare, or opening with a bare bar
  under the text the model wrote before its next call, were answer text.
"""
from __future__ import annotations

import re

import pytest

from agents_chrome.gemini import PROFILE
from agents_chrome.grids import unfold_word_wrapped_rows
from agents_chrome.transcript import TLine
from tests.conftest import RECORDINGS, cli_replay, truth_turns, typed_prompts

GEN1609K = RECORDINGS / "gemini" / "h16-gem-gen1609k-76x24"
GLACIER = RECORDINGS / "gemini" / "h6-gem-glacier-narrow-62x20"
POLICY = RECORDINGS / "gemini" / "gem-h2-long-a-100x30"


def _rows_of(truth_table: str) -> list[list[str]]:
    rows = [r for r in truth_table.splitlines() if r.startswith("|") and not re.match(r"^\|[-|\s:]+\|$", r)]
    return [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_prompts_come_back_typed_after_the_window_widened(screen_only: bool) -> None:
    turns = cli_replay(GEN1609K, "gemini", screen_only)["turns"]
    assert typed_prompts(turns) == typed_prompts(truth_turns(GEN1609K))


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_a_table_wrapped_at_words_comes_back_a_row_per_row(screen_only: bool) -> None:
    turns = cli_replay(GEN1609K, "gemini", screen_only)["turns"]
    served = next(t["text"] for t in truth_turns(GEN1609K) if t["role"] == "assistant" and "|---|" in t["text"])
    said = " ".join(" ".join(t["text"].split()) for t in turns if t["role"] == "assistant")
    for cells in _rows_of(served[served.index("|"):]):
        assert "│ " + " │ ".join(cells) + " │" in said


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_the_one_word_edit_tool_is_a_call(screen_only: bool) -> None:
    turns = cli_replay(GEN1609K, "gemini", screen_only)["turns"]
    assert [t["text"] for t in turns if t["role"] == "tool_call" and t.get("name") == "Edit"] \
        == ["util.py → Accepted (+1, -1)"]
    assert not any("Accepted" in t["text"] or "return a + b" in t["text"] for t in turns if t["role"] == "assistant")


def test_table_heads_and_cells_unfold_on_the_glacier_recording() -> None:
    turns = cli_replay(GLACIER, "gemini", False)["turns"]
    table = next(t["text"] for t in turns if t["role"] == "assistant" and "┌" in t["text"])
    # a header word that fills its column exactly is a word, `(m)` the next
    assert "│ stake │ altitude (m) │ melt (cm) │ comment │" in table
    assert "│ S-01 │ 2710 │ 84 │ heavy crevassing nearby, approach from the north │" in table


def test_a_table_of_one_word_cells_stays_as_drawn() -> None:
    turns = cli_replay(POLICY, "gemini", False)["turns"]
    table = next(t["text"] for t in turns if t["role"] == "assistant" and "policy_timeout" in t["text"])
    assert "│ policy_timeout │ 30      │ seconds before giving up │" in table
    assert "│ policy_verbose │ false   │ logs every decision      │" in table


def test_unfold_cuts_a_word_only_where_its_column_was_too_narrow() -> None:
    # rows as Gemini drew a five-column table at 61 columns (h16-gem-gen1601-61x36)
    rows = ["┌───────────┬────────┬──────────┬──────────┬──────────┐",
            "│ Waiduffgu │ Duquys │ Chail    │ Skushtha │ Heal     │",
            "│ n         │ h      │          │ l        │          │",
            "├───────────┼────────┼──────────┼──────────┼──────────┤",
            "│           │ 235    │ 888      │          │ 210      │",
            "│           │ 88     │          │ 170      │ 914      │",
            "│ ceax      │ 290    │ thyrchef │ 710      │ chisglai │",
            "│           │        │ f        │          │ x        │",
            "└───────────┴────────┴──────────┴──────────┴──────────┘"]
    got = unfold_word_wrapped_rows("\n".join(rows), 61).split("\n")
    assert got[1] == "│ Waiduffgun │ Duquysh │ Chail │ Skushthal │ Heal │"
    # rows with empty cells are rows of their own: a cell that ended holds nothing more
    assert got[3:5] == rows[4:6]
    assert got[5] == "│ ceax │ 290 │ thyrcheff │ 710 │ chisglaix │"
    # the same table in a terminal much wider than it was not narrowed: as drawn
    assert unfold_word_wrapped_rows("\n".join(rows), 120).split("\n") == rows


def test_a_thinking_block_without_its_head_is_thinking() -> None:
    # rows as Gemini drew them with ui.useAlternateBuffer (h16-gem-gen1617-187x40)
    rows = ["▄" * 60, " > wouquax skooff neal toux sisnox please", "▀" * 60,
            " │", " │ For Tousfys", " │ Fam styckski", " │", " │ m skour bratshun noonddaind cais",
            "✦ Sketdyskour bratshun skas bongloonvyl.",
            " │", " │ Wooslout Drout", " │ quert quaiff", "  ✓  WriteFile  zeaff_63.txt → Accepted (+5, -0)",
            "✦ Lertji treasjax skaishoo."]
    labeled = PROFILE.label([TLine(r, 0.0, "alt", 1, 60) for r in rows])
    made = PROFILE.turns(labeled)
    assert [t.role for t in made] == ["user", "thinking", "assistant", "thinking", "tool_call", "assistant"]
    answers = [t.text for t in made if t.role == "assistant"]
    assert answers == ["Sketdyskour bratshun skas bongloonvyl.", "Lertji treasjax skaishoo."]
    # under a tool's box, the block, then an answer opening with a code block, no blank between
    w = 60
    rows = ["╭" + "─" * (w - 2) + "╮", "│ ✓  Shell seq 1 3" + " " * (w - 19) + "│", "╰" + "─" * (w - 2) + "╯",
            " │", " │ Lomdrend Skailwais", " │", " │ fain buhuquis queawaltait", "  1     if steamnai > 8:",
            "  2     reankrar = 41", "", "  > Choomter gloulvooff fistaxthai."]
    made = PROFILE.turns(PROFILE.label([TLine(r, 0.0, "alt", 1, w) for r in rows]))
    assert [t.role for t in made][-3:] == ["tool_result", "thinking", "assistant"] or \
        [t.role for t in made][-2:] == ["thinking", "assistant"]
    said = next(t.text for t in made if t.role == "assistant")
    assert "if steamnai > 8:" in said and "reankrar = 41" in said and "Choomter" in said
    assert "steamnai" not in next(t.text for t in made if t.role == "thinking")
