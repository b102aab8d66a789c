"""Gemini CLI: what round h15's randomized probes found.

h15-gem-gen6k-77x21 is three inputs of the seeded probe `gen_cases.py --seed 6
--keep 2,4,7` (harness copy of round h15): a long wrapped prompt whose turn
writes a 39-line file (write_file) and searches (grep_search), with inline
thinking (`ui.inlineThinkingMode: full`); the window shrinks from 77x21 to
60x20; then `@README.md` in a prompt, a shell call, thinking, and an answer
that opens with a code block. Before the fixes it scored recall 0.12,
precision 0.03 (both ways):

- a written file's numbered lines are drawn unwrapped under the `WriteFile`
  row; at 60 columns the terminal wrapped their tails to column 0
  (`2 kisploux … shulglaix dr` / `oortzis`), and the tail, left of the
  tool's name column, opened an answer holding the rest of the file. A row
  the terminal wrapped goes on the one above it: still the tool's output.
- an answer opening with a code block has no `✦`; after a prompt or a tool
  box it was opened, but after an inline thinking block its rows stayed
  under the thinking and were dropped. The first blank row under a thinking
  block's bar rows closes it, as a box's bottom closes a tool.

A third probe (h15-gem-gen8, not landed) lost a CJK paragraph's wrap: the
widest row of the answer, measured with the backticks put back around inline
code, was wider than the screen, so the full CJK row did not read as full.
Widths are measured as drawn now (test below, on the rule's own function).
"""
from __future__ import annotations

import pytest

from agents_chrome.gemini import _join_wide_wraps
from tests.conftest import RECORDINGS, answer_with, cli_replay, truth_turns, typed_prompts

GEN6K = RECORDINGS / "gemini" / "h15-gem-gen6k-77x21"


def _truth_answers() -> list[str]:
    return [t["text"] for t in truth_turns(GEN6K) if t["role"] == "assistant"]


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_prompts_come_back_typed(screen_only: bool) -> None:
    turns = cli_replay(GEN6K, "gemini", screen_only)["turns"]
    assert [" ".join(p.split()) for p in typed_prompts(turns)] == \
        [" ".join(p.split()) for p in typed_prompts(truth_turns(GEN6K))]


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_wrapped_file_lines_stay_the_tools_output(screen_only: bool) -> None:
    turns = cli_replay(GEN6K, "gemini", screen_only)["turns"]
    answers = [t["text"] for t in turns if t["role"] == "assistant"]
    # the written file's words are in no answer, and the turn's own answer is whole
    assert not any("treshpeff 4659" in a or "oortzis" in a for a in answers)
    first = _truth_answers()[0]
    assert answer_with(turns, first.split()[1]).split() == first.split()
    call = next(t for t in turns if t["role"] == "tool_call" and t.get("name") == "WriteFile")
    result = turns[turns.index(call) + 1]
    assert result["role"] == "tool_result"
    # every numbered line of the file, the rows the terminal wrapped included
    assert "".join(result["text"].split()).count("kisploux5573ploundzeamcharpeaffnonshulglaixdroortzis") == 1


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_answer_opening_with_code_after_thinking(screen_only: bool) -> None:
    turns = cli_replay(GEN6K, "gemini", screen_only)["turns"]
    truth = _truth_answers()[-1]
    code = [ln.strip() for ln in truth.split("```")[1].strip("\n").split("\n")]
    got = answer_with(turns, code[0])
    assert [ln.strip() for ln in got.split("\n")[:len(code)]] == code
    assert got.split()[-3:] == truth.split()[-3:]
    # the thinking before it keeps none of the answer
    thoughts = [t["text"] for t in turns if t["role"] == "thinking"]
    assert not any(code[0] in t for t in thoughts)


def test_cjk_wrap_measured_without_code_marks() -> None:
    # the widest row holds inline code whose backticks the screen never drew
    rows = ["`vofyssko_sax()` tin trux. Brishglit rymou boutrim jourtshour",
            "道橋月米林星橋声茶椅筆川光駅茶鳥影光米音山村油銀銀糖机糖道",
            "紙米茶路扉港油影米石町。"]
    assert _join_wide_wraps("\n".join(rows)).split("\n")[1] == rows[1] + rows[2]
    # a CJK row well short of the widest is a line of its own
    short = [rows[0], "道橋月米林星橋声茶椅", "紙米茶路"]
    assert _join_wide_wraps("\n".join(short)).split("\n") == short
