"""Amp: what round h15's randomized probes found.

h15-amp-gen4k-189x31 is turns 2, 7 and 8 of the seeded probe `gen_cases.py
--seed 4 --keep 2,7,8` (harness copy of round h15): a long wrapped prompt
whose answer (tables with wide cells, code) streams while the window goes
189 -> 143 -> 189 columns; a markdown-looking prompt, an edit and a wide
table; a pasted `@README.md` prompt with a shell call and a Grep while the
window goes from 31 to 26 rows. Before: recall 0.30, precision 0.40, tool
recall 0.67, turns_ok 0 (both ways); after: 0.52 (every drawn word: the
rest is above the screen, tests.drawn_recall 1.00), 1.00, 1.00, 1.00.

- after a height change Amp goes on for a few drawings painting only the
  cells it thinks changed, over rows the terminal has moved, then paints
  every row. Those drawings left rows like `┃ what is in @README.md about
  thogout kamdrir?tickdre quoupand…` (the prompt over an old row's tail)
  and `Trooffbe skeartEglaxquy kurulair.`, which came back as a second copy
  of the last turn, a prompt nobody typed and its answer. The drawings after
  a height change are held now, and one that a later held drawing shows a
  row of with more text after it is dropped.

Other probes of the round (not landed: one recording per agent), tested
below on the rules' own functions:

- h15-amp-gen5-85x47: the command palette, 80 cells wide, centred on an
  85-column screen stands three cells in; overlay.popup_rows wanted four,
  so its rows (`✕ │ amp show welcome │`) were the conversation's. A centred
  box with the conversation beside it may stand two cells in now.
- h15-amp-gen5 and gen1: a tool that failed is drawn `✕ Editing src/util.py
  ▸` (or a group, `✕ Ran 2 commands, 1 failed ▸`); `✕` was no status glyph,
  so the row was answer text and the call was lost.
- h15-amp-gen5: an answer's `---` rule matched the exit banner's logo (a row
  of `.#*+:=%@-`), chrome, and the code box drawn under it was dropped with
  it. The banner is printed on the main screen after Amp leaves the
  alternate one: on the alternate screen such a row is the answer's.
- h15-amp-gen1 (61 columns): a table too wide for the width wraps inside its
  cells; Amp draws a rule under every row, so the rows between two rules are
  one table row, joined per column (agents_chrome/grids.py, Vibe's rule
  moved there); Amp carries the space it wrapped at to the next row
  (`│  tozoon │` under `│ vickbroor │`): a word starts there even under a
  full cell.
- h15-amp-gen3: the first rows an answer view shows after a gap, right under
  a tool row (`⠻ Exploring 1 file ▸`, a table's rows), were taken for the
  tool's wrapped command and dropped: a table row, or the first row after a
  gap, under a tool row opens the answer.
"""
from __future__ import annotations

import pytest

from agents_chrome.amp import PROFILE
from agents_chrome.grids import merge_grid_rows
from agents_chrome.overlay import popup_rows
from agents_chrome.transcript import TLine
from screen.frames import FrameBuilder
from tests.conftest import RECORDINGS, cli_replay, truth_turns, typed_prompts

GEN4K = RECORDINGS / "amp" / "h15-amp-gen4k-189x31"


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_height_change_leaves_no_second_turn(screen_only: bool) -> None:
    turns = cli_replay(GEN4K, "amp", screen_only)["turns"]
    assert typed_prompts(turns) == typed_prompts(truth_turns(GEN4K))
    text = "\n".join(t["text"] for t in turns)
    assert "kamdrir?tickdre" not in text and "skeartEglaxquy" not in text
    last = turns[[i for i, t in enumerate(turns) if t["role"] == "user"][-1]:]
    said = [t["text"] for t in last if t["role"] == "assistant"]
    assert said[:2] == ["Trooffbe skeart glaxquy kurglair.",
                        "Bemcox gloosjash ful trockplush skoostuff glupur suxgaish cart?"]
    assert [t.get("name") for t in last if t["role"] == "tool_call"] == ["shell_command", "search"]


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_wrapped_table_cells_come_back_whole(screen_only: bool) -> None:
    turns = cli_replay(GEN4K, "amp", screen_only)["turns"]
    first = next(t["text"] for t in turns if t["role"] == "assistant")
    # cells of one table row, wrapped over several rows at 143 columns
    assert "│ glitroock thetju shotdairt cilskou thaixtrour pylglim nouffjoul │ " \
           "juxwind jenpleash brarmaiff bemcox │ chu bis │ birskooff shulvumnat thynkyr │" in first


def _label(rows: list[str], source: str = "alt") -> list:
    return PROFILE.label([TLine(r, 1.0, source, 1) for r in rows])


def test_failed_tool_row_is_a_tool_call() -> None:
    got = _label([" ┃ tidy the helper", "", " Saick bras trouff wutpirnot!", " ✕ Editing src/util.py ▸",
                  " ✕ Ran 2 commands, 1 failed ▸"])
    assert [(lb.kind, lb.rule) for lb in got[-2:]] == [("tool_call", "tool"), ("tool_call", "tool")]
    made = PROFILE.turns(got)
    calls = [t for t in made if t.role == "tool_call"]
    assert [t.name for t in calls] == ["edit_file", "shell_command", "shell_command"]


def test_rule_row_on_the_alternate_screen_is_the_answers() -> None:
    rows = [" ┃ thindthait sond?", "", " Hoockbooff Thindthait", "", " ---", "", "     │ diff     │", "",
            "     │ welmaick │", "", " Fea haiquynd quipudai reax."]
    made = PROFILE.turns(_label(rows))
    answer = "\n".join(t.text for t in made if t.role == "assistant")
    assert "---" in answer and "│ welmaick │" in answer and "│ diff     │" in answer
    # the exit banner's logo, on the main screen, stays chrome
    assert _label(["   *##%%#+--"], source="screen")[0].kind == "chrome"


def test_centred_palette_three_cells_in_is_a_popup() -> None:
    fb = FrameBuilder(85, 12)
    rows = ["\x1b[?1049h", "\x1b[1;1H rickskytple mymgox cagoumzour welmaick glelmoock pundskin caifoostirt!"]
    rows.append("\x1b[3;4H╭─ Command Palette " + "─" * 60 + "╮")
    for y, body in ((4, ""), (5, ">"), (6, "   thread  new"), (7, "      amp  show welcome")):
        rows.append(f"\x1b[{y};2H{'✕' if y == 7 else ' '} │ {body:<77}│")
    rows.append("\x1b[8;4H╰" + "─" * 78 + "╯")
    rows.append("\x1b[10;1H╭" + "─" * 83 + "╮")
    frames = list(fb.feed_event(0.0, "o", "".join(rows)))
    frames += list(fb.finish())
    frame = frames[-1]
    assert frame.lines[2].startswith("   ╭─ Command Palette")
    assert list(popup_rows(frame)) == [2, 3, 4, 5, 6, 7]
    assert [r for r in PROFILE.rows(frame)[2:8]] == [None] * 6


def test_grid_rows_join_per_column() -> None:
    text = "\n".join([
        "│ Tyxvart  │ Vickbroo │",
        "│          │ r        │",
        "├──────────┼──────────┤",
        "│ kairdus  │ thosyff  │",
        "│ lurplean │ loulor   │",
        "│ d        │ vickbroo │",
        "│ sheand   │  tozoon  │",
        "├──────────┼──────────┤",
        "│ quyffste │ kilquick │",
        "│ as       │  kairdus │",
    ])
    assert merge_grid_rows(text, carried_space=True).split("\n") == [
        "│ Tyxvart │ Vickbroor │",
        "├──────────┼──────────┤",
        "│ kairdus lurpleand sheand │ thosyff loulor vickbroo tozoon │",
        "├──────────┼──────────┤",
        "│ quyffsteas │ kilquick kairdus │",
    ]


def test_table_right_under_a_tool_row_opens_the_answer() -> None:
    # a view that opens below a gap: the spinner row of a call, then the
    # bottom rows of the answer's table (the blank and the answer's top hidden)
    rows = [" ┃ /glywal batkoos stildrox", "", " Moond pouck quoulpoort!", "", " ⠻ Exploring 1 file ▸",
            " │ nunfus      │ 椅声雨   │", " ├─────────────┼──────────┤", " │ plaishbut   │ 90       │", "",
            " 1. Bret shousquuff skea ken."]
    made = PROFILE.turns(_label(rows))
    answer = "\n".join(t.text for t in made if t.role == "assistant")
    assert "│ nunfus      │ 椅声雨   │" in answer and "│ plaishbut   │ 90       │" in answer
    assert [t.role for t in made].count("tool_call") == 1
