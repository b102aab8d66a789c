"""Amp: content that looks like Amp's own chrome, found by round h14.

h14-amp-orienteer-chrome-127x36 (8 turns at 127x36, shrunk to 109 columns
while the last long answer streams): answers holding box diagrams in and out
of code blocks, a tree, rows opening with Amp's status glyphs (`✓ ✗ ● ⚠`)
and with `$ `, checkboxes and rules; a shell call whose output has `\\r`
progress and `ls -la`; a URL, a sha256 and base64 longer than the row in a
prompt and an answer; `@READ` completed with Tab; a prompt opening with
`/leg …` (pasted: typed, a `/` on an empty input opens Amp's command
palette). It lost (user 0.875, recall 0.91, precision 0.985, as recorded and
screen only):

- an answer row `✓ headlamp charged`, `● start kite placed`, `$ remember the
  tape` read as a tool call. Amp folds every tool row once it ran (`▸` at its
  end; a shell row also ends with `(exit code: N)` or a long command's ` \\`)
  and a running one has a braille spinner: a row with none of these is text.
- a box or tree row the model drew (`│ attack points before map │`,
  `│   └── legs.txt`, a code block's `│ 31 │ 47 │ 52 │`) read as Amp's own
  box. Amp's boxes start in the first column; an answer is indented.
- a token longer than the row is cut where the row is full, with no space:
  the URL in the prompt came back as `control-descript` + `ions-…` (the
  prompt matched nothing typed), and the answer's URL and base64 were cut in
  two. A full row whose last word and the next row's first are together
  longer than the row is one token again (on the recording: tests/test_long_tokens.py).

A second probe (101x30, not landed: one recording per agent) typed `/` on
the empty input, `hel`, Esc, then its prompt; the model quoted two lines
opening with `┃`. It lost half of everything (recall 0.54, precision 0.55,
turns_ok 0): Amp's command palette is a box centred over the conversation,
not at its right edge as the Ctrl+C menu is, so overlay.popup_rows missed it
and its rows (`relay d │  amp reconnect │`) came back as prompts; and the
quoted `┃` lines read as a prompt. A box away from both edges whose sides run
down to its bottom corners, with conversation showing beside it, is a popup
now; and a `┃` drawn in the text's default colour is the model's (Amp draws a
prompt's bar in its mode's colour). The probe is 1.00 both ways after; the
tests below replay a cast written here with those drawings through the CLI.
"""
from __future__ import annotations

import json

import pytest

from agents_chrome.amp import join_cut_tokens, wrapped_prompt, PROFILE
from agents_chrome.transcript import TLine
from tests.conftest import RECORDINGS, answer_with, cli, cli_replay, truth_turns, typed_prompts

ORIENT = RECORDINGS / "amp" / "h14-amp-orienteer-chrome-127x36"


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_every_prompt_comes_back_typed(screen_only: bool) -> None:
    turns = cli_replay(ORIENT, "amp", screen_only)["turns"]
    assert typed_prompts(turns) == typed_prompts(truth_turns(ORIENT))


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_status_glyph_rows_of_an_answer_are_its_text(screen_only: bool) -> None:
    turns = cli_replay(ORIENT, "amp", screen_only)["turns"]
    answer = answer_with(turns, "Night start checklist")
    for row in ("✓ headlamp charged and strapped", "✗ compass left in the car", "● start kite placed by the gate",
                "⚠ marsh on leg four is deep", "$ remember the reflective tape", "Good luck out in the beech wood."):
        assert row in answer
    assert "✓ m40 legs written" in answer_with(turns, "The course folder")
    calls = [t for t in turns if t["role"] == "tool_call"]
    # the one turn that ran a tool shows its folded rows, and only those
    assert {t["text"] for t in calls} == {"Ran 2 commands", "Explored 1 search"}


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_boxes_and_trees_the_model_drew_stay(screen_only: bool) -> None:
    turns = cli_replay(ORIENT, "amp", screen_only)["turns"]
    assert "│ 31 │ 47 │ 52 │" in answer_with(turns, "punching grid")
    assert "│   └── legs.txt" in answer_with(turns, "The course folder")
    assert "│ attack points before map │" in answer_with(turns, "Route choice")


def test_rules_tell_tool_rows_from_text_rows() -> None:
    rows = [" ┃ go", "", " ✓ Ran 1 command ▸", "", " ✓ done with it", " ● next up", " $ echo is only text",
            "", " $ false (exit code: 1)", "", " ⠋ Reading file", "", " $ df -h . | \\"]
    labeled = PROFILE.label([TLine(t, 0.0, "alt", 1) for t in rows])
    kinds = {lb.line.text: lb.kind for lb in labeled}
    assert kinds[" ✓ Ran 1 command ▸"] == "tool_call"
    assert kinds[" $ false (exit code: 1)"] == "tool_call"
    assert kinds[" ⠋ Reading file"] == "tool_call"
    assert kinds[" $ df -h . | \\"] == "tool_call"
    assert kinds[" ✓ done with it"] == "assistant"
    assert kinds[" ● next up"] == "assistant"
    assert kinds[" $ echo is only text"] == "assistant"


def test_box_rows_in_the_first_column_stay_chrome() -> None:
    rows = [" ┃ hi", "", " Here:", " │ a box │", "", "│ typed in the input box          │"]
    labeled = PROFILE.label([TLine(t, 0.0, "alt", 1) for t in rows])
    kinds = {lb.line.text: lb.kind for lb in labeled}
    assert kinds[" │ a box │"] == "cont"
    assert kinds["│ typed in the input box          │"] == "chrome"


def test_cut_tokens_join_only_past_the_row() -> None:
    w = 40
    token = "a1b2" * 12  # 48 characters: longer than a 40-column row
    text = "\n".join(["see", token[:w], token[w:] + " and more", "a row of words that ends at the edge wi", "th"])
    joined = join_cut_tokens(text).split("\n")
    assert token + " and more" in joined
    # a word that just met the edge and the next word: shorter together than the row, two lines
    prose = "the quick brown fox jumps over the lazy\ndog"
    assert join_cut_tokens(prose) == prose
    # the prompt: a full row cut inside a token, and a row wrapped between words
    prompt = wrapped_prompt([(" ┃ open " + "x" * 40, 44), (" ┃ " + "y" * 12 + " now", 44)])
    assert prompt == "open " + "x" * 40 + "y" * 12 + " now"
    assert wrapped_prompt([(" ┃ open the", 20), (" ┃ door", 20)]) == "open the\ndoor"


def _palette_cast(path, palette: bool) -> None:
    """An Amp-like alternate screen at 80x24: a prompt with its bar in green, an
    answer quoting two lines that open with `┃` (default colour), the input
    box at the bottom; then (with `palette`) a box centred over it all, taken
    away again."""
    w, h = 80, 24

    def at(y: int, x: int, s: str) -> str:
        return f"\x1b[{y + 1};{x + 1}H{s}"

    box = at(h - 5, 0, "╭" + "─" * (w - 2) + "╮") + "".join(at(y, 0, "│" + " " * (w - 2) + "│")
                                                          for y in range(h - 4, h - 1)) + at(h - 1, 0, "╰" + "─" * (w - 2) + "╯")
    rows = [" \x1b[38;5;2m┃\x1b[39m relay plan please", "", " Quoted from the rules:", "",
            " ┃ every runner carries a whistle", " ┃ the last leg starts at noon", "", " Bring spare pins."]
    conv = "\x1b[2J" + "".join(at(4 + i, 0, r) for i, r in enumerate(rows)) + box
    c, top, bottom, bw = 12, 3, 14, 50
    pal = at(top, c, "╭─ Command Palette " + "─" * (bw - 20) + "╮") + "".join(
        at(y, c, "│" + ("   thread  new" if y == top + 4 else "").ljust(bw - 2) + "│") for y in range(top + 1, bottom))
    pal += at(bottom, c, "╰" + "─" * (bw - 2) + "╯")
    events = [[0.5, "o", "\x1b[?1049h" + conv]] + ([[1.0, "o", pal], [2.0, "o", conv]] if palette else []) + \
        [[3.0, "o", "\x1b[?1049l"]]
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps({"version": 2, "width": w, "height": h, "command": "amp"}) + "\n")
        for e in events:
            f.write(json.dumps(e) + "\n")


@pytest.mark.parametrize("palette", [False, True], ids=["plain", "palette-opened"])
def test_a_centred_palette_and_quoted_bars_stay_out_of_the_prompts(tmp_path, palette: bool) -> None:
    cast = tmp_path / "session.cast"
    _palette_cast(cast, palette)
    p = cli("replay", str(cast), "--agent", "amp", "--format", "json")
    assert p.returncode == 0, p.stderr
    turns = json.loads(p.stdout)["turns"]
    assert [t["text"] for t in turns if t["role"] == "user"] == ["relay plan please"]
    answer = "\n".join(t["text"] for t in turns if t["role"] == "assistant")
    assert "┃ every runner carries a whistle" in answer and "Bring spare pins." in answer
    assert "thread  new" not in answer and "│" not in answer
