"""Gemini CLI: what round h17's randomized probes found.

h17-gem-mix-140x31 is a shorter recording of two h17 probes (harness copy
/tmp/h17-gemamp/harness/gemini, `mix17.py`): `gen_cases.py --seed 1702`
inputs 13 and 14 at the size they met (140x31: two shell calls and an
answer with a code block, a diagram, a five-column table of long cells and
a list while the window goes 125x34, 87x40, 118x43; then an answer with a
CJK table and a nested quote while the window goes 97x43 and back), a
resize to 140x45, and `--seed 1706` input 6 (a pasted four-line prompt, a
shell call, the window narrowed to 116 columns while it runs). Before:
prompts 1.00, recall 0.962, precision 0.964, tools 1.00; after: 1.00,
0.998, 1.00, 1.00 (both ways).

Each resize mid-answer makes Ink erase too few rows: what the live area
showed stays in the history, and the narrowing reflows the history rows.
What was left behind, and what the rules do now:

- the running box of the shell call (`⊷`), one copy per redraw of the drag,
  above the box drawn again settled: four calls too many. A box drawn
  running followed by a box with the same header is the copy.
- a table laid out while the window went through widths no row keeps: its
  cells wrapped at words but the table as wide as none of the terminal
  widths, so it stayed read row by row (words of three table rows
  interleaved). The rows a narrowing reflowed are joined with the cells as
  drawn, and a table wider than the narrowest width the answer was laid out
  at and narrower than the widest is unfolded too (gemini._rejoin_wrapped,
  grids.unfold_word_wrapped_rows(also=)).
- the tail of the spinner row (`?` of `? for shortcuts`) on a row of its own
  under the band: it opened an answer `?`.

Probes of the round not landed (one recording per agent), same rules on
other bytes: seed 1702 (a raw `| cell | cell |` row Ink shows while a table
streams left above the grid; a nested quote streamed to `wea tro` left
above the quote drawn whole: the answer has a width change but no chrome
piece, so the stale-copy rule did not look at it), seed 1706 (a box's
reflowed right edges `│` left under a prompt read as the prompt's rows).
"""
from __future__ import annotations

import re

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns, typed_prompts

MIX = RECORDINGS / "gemini" / "h17-gem-mix-140x31"
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])


def _per_prompt(turns: list[dict]) -> list[list[dict]]:
    out: list[list[dict]] = []
    for t in turns:
        if t["role"] == "user" and not t.get("kind") and len(t.get("text") or "") > 1:
            out.append([])
        elif out and t["role"] != "user":
            out[-1].append(t)
    return out


@BOTH
def test_prompts_come_back_exact_after_a_narrowing(screen_only: bool) -> None:
    turns = cli_replay(MIX, "gemini", screen_only)["turns"]
    assert typed_prompts(turns) == typed_prompts(truth_turns(MIX))


@BOTH
def test_a_running_box_left_behind_by_a_resize_is_no_call(screen_only: bool) -> None:
    got = [[t for t in turn if t["role"] == "tool_call"] for turn in _per_prompt(cli_replay(MIX, "gemini", screen_only)["turns"])]
    want = [[t for t in turn if t["role"] == "tool_call"] for turn in _per_prompt(truth_turns(MIX))]
    assert [len(g) for g in got] == [len(w) for w in want]


@BOTH
def test_every_answer_holds_a_word(screen_only: bool) -> None:
    # the `?` a reflowed spinner row left on a row of its own is no answer
    answers = [t["text"] for t in cli_replay(MIX, "gemini", screen_only)["turns"] if t["role"] == "assistant"]
    assert answers and all(re.search(r"\w", a) for a in answers), answers


def _table_rows(markdown: str) -> list[list[str]]:
    rows = [ln for ln in markdown.splitlines() if ln.startswith("|") and not set(ln) <= set("|-: ")]
    return [[" ".join(c.split()) for c in r.strip().strip("|").split("|")] for r in rows]


@BOTH
def test_a_table_laid_out_mid_resize_reads_a_row_per_table_row(screen_only: bool) -> None:
    turns = cli_replay(MIX, "gemini", screen_only)["turns"]
    truth = [t["text"] for t in truth_turns(MIX) if t["role"] == "assistant"]
    tables = [rows for text in truth for rows in [_table_rows(text)] if rows and max(len(r) for r in rows) >= 5]
    assert tables, "the recording's five-column table"
    drawn = [[" ".join(c.split()) for c in ln.strip().strip("│").split("│")]
             for t in turns if t["role"] == "assistant" for ln in t["text"].splitlines() if ln.lstrip().startswith("│")]
    for rows in tables:
        for row in rows:
            assert row in drawn, row


@BOTH
def test_no_row_streamed_then_drawn_again_stays_twice(screen_only: bool) -> None:
    # a quote row of the truth comes back once; none of it as a piece cut where the stream stood
    turns = cli_replay(MIX, "gemini", screen_only)["turns"]
    answers = "\n".join(t["text"] for t in turns if t["role"] == "assistant")
    lines = [" ".join(ln.split()) for ln in answers.splitlines()]
    for text in (t["text"] for t in truth_turns(MIX) if t["role"] == "assistant"):
        for ln in text.splitlines():
            if ln.startswith("> ") and len(ln) > 12:
                row = " ".join(ln.split()).replace("**", "").replace("`", "")
                assert sum(1 for x in lines if x == row) == 1, row
                assert not any(x != row and len(x) > 8 and row.startswith(x) for x in lines), row
    assert not any(re.match(r"^\s*\|\s.*\s\|", ln) for ln in answers.splitlines())
