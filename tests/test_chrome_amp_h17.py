"""Amp: what round h17's randomized probes found.

h17-amp-gen1701k-95x59 is the seeded probe `gen_cases.py --seed 1701
--keep 9,10,11,12` (harness copy /tmp/h17-gemamp/harness/amp): a CJK
prompt answered with three shell calls and a list, three resizes in one
answer (110x59, 71x60, 60x60), a resize to 60x60 while a slow shell call
runs, then an answer with a four-column table whose CJK cells do not fit
their columns at 60 columns. Before: prompts 1.00, recall 0.967 (every
drawn word: tests.drawn_recall 1.00 after), precision 0.967, tools 1.00;
after: 1.00, 0.976, 0.985, 1.00 (both ways).

- A table too wide for the width wraps inside its cells; a run of CJK has
  no space to wrap at and is cut by character, leaving one cell free at
  the column's edge when the next character is two cells wide. The merge
  of a table row's drawn rows (grids.merge_cells) took that free cell for a
  wrap at a space and put a space into the cell (`河星音椅町 石`). A cut
  between two wide characters where the second would not have fitted is
  joined without one (grids._wide_cut).

The full probe (seed 1701, 603 kB, not landed) found the same; seeds 1702
and 1704 scored 1.00 on every drawn word (tests.drawn_recall), as did the
round's other Amp probe.
"""
from __future__ import annotations

import pytest
import regex

from tests.conftest import RECORDINGS, cli_replay, truth_turns

GEN1701K = RECORDINGS / "amp" / "h17-amp-gen1701k-95x59"
IDEO = regex.compile(r"\p{Han}+")


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_a_cjk_cell_wrapped_by_character_comes_back_whole(screen_only: bool) -> None:
    turns = cli_replay(GEN1701K, "amp", screen_only)["turns"]
    cells = [c.strip() for t in truth_turns(GEN1701K) if t["role"] == "assistant"
             for ln in t["text"].splitlines() if ln.startswith("|")
             for c in ln.strip("|").split("|") if IDEO.fullmatch(c.strip())]
    assert cells, "the recording's CJK cells"
    drawn = [" ".join(c.split()) for t in turns if t["role"] == "assistant"
             for ln in t["text"].splitlines() if ln.lstrip().startswith("│")
             for c in ln.strip().strip("│").split("│")]
    # each CJK cell comes back as one cell, in one piece (its cut made no space)
    for cell in cells:
        assert cell in drawn, (cell, [d for d in drawn if IDEO.search(d)])
