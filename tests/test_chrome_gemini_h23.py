"""Gemini CLI: what round h23's randomized probes found.

h23-gemini-s2351-181x34 and h23-gemini-s2352-fish-164x55 are the seeded
probes `gen23.py --seed 2351` / `--seed 2352` (round h22's generator,
harness copy /tmp/h23-others/harness/gemini): nine and eight prompts,
thinking drawn inline (s2351), `/help`, an unknown `/tel …` sent as a
prompt, Esc at an empty prompt, pastes, tables with CJK cells, code blocks
with empty lines, tool calls, resizes while an answer streams (s2351:
181x34 -> 91x39 -> 74x60 while a table streams; s2352: 111x54 -> 177x37)
and between turns; s2352 started from fish (`env NOTE=1 gemini --yolo`,
`clear` and `wc -l notes.txt` after). Before: s2351 precision 0.97, s2352
0.99; after: 1.00 / 1.00, both ways (recall 1.00 / 0.98: the fence
languages, never drawn). The three h23 Gemini probes: precision 0.988 ->
0.999, the rest unchanged (prompts, tools, turns 1.00; recall 0.993).

Ink draws a table while it streams as wide as its cells are so far, and
draws it again, whole and wider, when more cells come. A resize while it
streamed made Ink's erase miss rows (gemini._drop_stale_live_copies): the
first drawing's top border, header and rule stayed above the whole table,
and the replay kept both (`Wimmogol 表格 测试` twice). A copy left behind
is told by the rows under it repeating it; a grid's lines are drawn as
wide as the columns and differ between the two drawings, so the
comparison (and the `✦` rows that mark an answer drawn twice) now leaves
them out and reads the cells' words (gemini._drop_prefix_copies,
_marker_repeated).

In s2351 the narrowing also left the answer's first list drawn over the
footer's rows with no erase to the rows' ends: `- Golbru mo.      sandbox`
and `- Ber dyszan wim bruti/h23-…/demo-app` (the workspace path's tail),
then the list again, whole. A row right above the live area's chrome is
now compared without the footer's pieces at its end (`_FOOTER_TAIL`: a
column title after a gap, a path's tail), so that copy goes too.

A code block of one row draws its gutter's `1` like any other, but the
number was left in when nothing of the block came after it: a block of
empty lines only (```` ```python ````, an empty line, ```` ``` ````: a bare
`   1` between blank rows) and a one-line block that ends the answer right
above the next prompt's band (`✦  1     orstinka = fen(17)`). A `1` at the
gutter's column (one in from the answer's text; a paragraph's rows are at
it) with a blank row before it and nothing of the answer under it is now
such a block (gemini._block_alone); the h18/h22/r3 per-recording tests
caught it on s2352. Older probes moved by it: h21-gemini-s2121 and s2125
(both a stray `1` gone).

Seen and left: Gemini never draws fence languages; a table cell wrapped in
a narrow column reads row by row (`ulluncro` before `kari 表格` of the cell
beside it, s2351).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from tests.conftest import cli_replay, recording_cases, truth_turns
from tests.segments import per_prompt

BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
GEMINI = recording_cases("gemini")
#: a markdown table's header row as served, the rule under it
_HEAD = regex.compile(r"^\|(.+)\|\n\|[-:| ]+\|$", regex.M)


def _resized(case: Path) -> bool:
    """The raw cast has a resize (no replay)."""
    return '"r", "' in (case / "session.cast").read_text(encoding="utf-8")


RESIZED = [c for c in GEMINI if _resized(c)]
#: the footer's column titles after a gap, as a resize left them over an answer's row
_FOOTER_PIECE = regex.compile(r"\S\s{3,}(?:no sandbox|sandbox|/model)\b")


def _answers(turns: list[dict]) -> dict[str, str]:
    out: dict[str, str] = {}
    for prompt, after in per_prompt(turns):
        out[prompt] = out.get(prompt, "") + "\n".join(t["text"] for t in after if t["role"] == "assistant")
    return out


def test_the_probes_are_among_the_recordings() -> None:
    assert {"h23-gemini-s2351-181x34", "h23-gemini-s2352-fish-164x55"} <= {c.name for c in RESIZED}


@BOTH
@pytest.mark.parametrize("case", RESIZED, ids=lambda c: c.name)
def test_no_answer_keeps_what_a_resize_left_above_it(case: Path, screen_only: bool) -> None:
    """A header cell's text is in a prompt's answer no more often than the
    model served it there (the header of a table drawn while it streamed,
    left behind above the whole table, is no answer's), and no answer holds
    a piece of the footer drawn over one of its rows."""
    turns = cli_replay(case, "gemini", screen_only)["turns"]
    got = _answers(turns)
    for prompt, served in _answers(truth_turns(case)).items():
        for head in _HEAD.finditer(served):
            for cell in {c.strip() for c in head.group(1).split("|") if len(c.strip()) >= 4}:
                assert got.get(prompt, "").count(cell) <= served.count(cell), (prompt, cell)
    assert not [t["text"] for t in turns if t["role"] == "assistant" and _FOOTER_PIECE.search(t["text"])]
