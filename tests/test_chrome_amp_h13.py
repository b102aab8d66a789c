"""Amp: prompts that hold several lines (found by the h13 round of fresh
recordings; the probe, 99x31, five turns pasted with bracketed paste, was not
landed: the round lands one recording, Kimi's).

- A blank line in a prompt is a bar row with nothing after the bar (` ┃`).
  The prompt rule wanted a space after the bar, so the answer rule read the
  row as an answer `┃` and cut the prompt there: a paste with a fenced block
  and a list came back as four prompts and three answers `┃`.
- Amp wraps a prompt by words at six columns less than the screen and drops
  the space at the break. Each bar row was a line of the prompt, so a long
  prompt came back with line breaks it never had (h8-amp-smelter-narrow-67x21:
  `…plan the furnace\\ncharge`). A row the next row's first word would not
  have fitted after, on the widest screen the row was drawn on, is wrapped.
- Amp draws a tool folded (`✓ Explored 1 search ▸`); the rows right under it
  are its command, wrapped. An answer that opens with a code block under a
  tool row (past a blank row) is indented past the answer's column, so no
  rule claimed it and its code was lost with the tool row.
"""
from __future__ import annotations

import pytest

from agents_chrome.amp import PROFILE, wrapped_prompt
from agents_chrome.transcript import TLine
from tests.conftest import RECORDINGS, cli_replay, truth_turns

SMELTER = RECORDINGS / "amp" / "h8-amp-smelter-narrow-67x21"

# rows as the probe drew them at 99 columns (text 93 wide)
LONG = [
    " ┃ I found an old brass barometer in my grandmother's attic and the needle sits at Change no",
    " ┃ matter what the weather does, the glass is intact, the little set hand turns freely, there is",
    " ┃ a screw on the back marked with an arrow, the case smells faintly of machine oil, and tapping",
    " ┃ the dial moves the needle a hair before it settles back, so what is stuck inside and how",
    " ┃ would I adjust it safely?",
]
PASTE = [
    " ┃ my kayak rudder cable keeps going slack, here is the tension check I wrote:",
    " ┃",
    " ┃ ```python",
    " ┃ def slack_mm(pull_newtons, stretch=0.042):",
    " ┃     return round(pull_newtons * stretch, 2)",
    " ┃ ```",
    " ┃",
    " ┃ 1. the cable runs through two nylon pulleys",
    " ┃ 2. it loosens after every long paddle",
    " ┃",
    " ┃ what could stretch it?",
]


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_a_prompt_wrapped_by_the_width_is_one_line(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(SMELTER, "amp", screen_only, tmp_path_factory)["turns"]
    typed = [t["text"] for t in truth_turns(SMELTER) if t["role"] == "user" and not t.get("kind")]
    assert any(len(p) > 67 - 6 for p in typed)  # a prompt wider than the prompt's text column
    assert [t["text"] for t in turns if t["role"] == "user"] == typed


def test_wrapped_prompt_joins_only_rows_the_next_word_did_not_fit() -> None:
    one = " ".join(r[3:] for r in LONG)
    assert wrapped_prompt([(r, 99) for r in LONG]) == one
    # drawn on a screen where the next word fitted: the rows were lines of their own
    assert wrapped_prompt([(r, 120) for r in LONG]) == "\n".join(r[3:] for r in LONG)
    assert wrapped_prompt([(r, 0) for r in LONG]) == "\n".join(r[3:] for r in LONG)
    # blank lines, an indented code line and short lines stay as typed
    assert wrapped_prompt([(r, 99) for r in PASTE]) == "\n".join(r[3:] for r in PASTE)
    # a typed line one word short of the width followed by a short word stays a line
    near = [" ┃ " + "x" * 88, " ┃ ok"]
    assert wrapped_prompt([(r, 99) for r in near]) == "x" * 88 + "\nok"
    assert wrapped_prompt([(r, 99) for r in near + [" ┃"]]) == "x" * 88 + "\nok"  # the bar's padding row


def _turns(rows: list[str]) -> list[tuple[str, str]]:
    PROFILE._bar_cols = {r: 99 for r in rows if "┃" in r[:2]}
    lines = [TLine(r, float(k), "alt", 1) for k, r in enumerate(rows)]
    return [(t.role, t.text) for t in PROFILE.turns(PROFILE.label(lines))]


def test_blank_bar_rows_stay_in_the_prompt() -> None:
    got = _turns(PASTE + ["", " Load cells drift with temperature."])
    assert got == [("user", "\n".join(r[3:] for r in PASTE)), ("assistant", "Load cells drift with temperature.")]


def test_answer_opening_with_code_under_a_folded_tool_row() -> None:
    rows = [" ┃ show me how to read the scope offsets", "", " ✓ Explored 1 search ▸", "",
            "     grep -n 'offset' /etc/scope.conf", "     sed -n '1,5p' /etc/scope.conf", "",
            " The first prints each offset with its line number."]
    got = _turns(rows)
    assert got[0] == ("user", "show me how to read the scope offsets")
    assert got[1][0] == "tool_call"
    assert got[2][0] == "assistant"
    assert got[2][1].startswith("grep -n 'offset' /etc/scope.conf\nsed -n '1,5p' /etc/scope.conf")
    assert got[2][1].endswith("The first prints each offset with its line number.")


def test_a_shell_command_wrapped_under_its_tool_row_stays_the_command() -> None:
    rows = [" ┃ check the disk", "", " ✓ $ df -h . | \\", "   tail -1 ▸", "", " Plenty of space."]
    got = _turns(rows)
    assert got[1] == ("tool_call", "df -h . | tail -1")
    assert got[2] == ("assistant", "Plenty of space.")
