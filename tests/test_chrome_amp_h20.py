"""Amp: what round h20's randomized probes found.

h20-amp-s2041-70x48 is the seeded probe `gen20.py --seed 2041` (harness copy
/tmp/h20-ampkimi/harness/amp, gen18's generator with h20 seeds): thirteen
prompts at 70x48, five pasted, Esc at the idle prompt, resizes between
turns (94x31, 104x29) and in the middle of answers (112x20; 134x39 then
153x34 0.3 s apart; 186x30 then 90x51; 159x39), shell and Read calls,
tables with CJK cells, code blocks, quotes, Markdown links.

Two resizes 0.3 s apart while an answer streamed (134x39, then 153x34) left
frames on which Amp had not drawn again: the 134-column layout moved down
three rows and cut at the new height, the input box gone, and Amp's token
counter written over the prompt row (`┃≈Orspel zanz266pel …`). With no
input box on the frame the whole screen was taken for the conversation
view, and each of those frames was stitched in as new text: the two
prompts above came back five more times (`Foquizan …`, `Orspel zanz223pel
…`), the table rows above them as answers. Before: prompts 1.00, recall
0.991, precision 0.648, tools 1.00, turns 0 (both ways); after: 1.00,
0.995, 1.00, 1.00, 1 (both ways). Amp draws its input box under the thread
on every frame of a conversation, so a frame without it is no view
(`AmpProfile.viewport`).

Asked in the brief: of the recall the landed h17 and h18 Amp recordings
lose (0.925 together), none is lost by the replay: tests.drawn_recall is
1.000 on both (297 and 442 drawn words). What is missing was never drawn:
the tops of two tall answers in h18-amp-s1880 (`"partial": true`), the
language names of code fences, link targets Amp does not draw, CJK table
cells cut at the width. All six h20 Amp probes also recover every drawn
word (drawn recall 1.000).
"""
from __future__ import annotations

import pytest

from agents_chrome.amp import BOX_TOP, WELCOME
from tests import drawn_recall
from tests.conftest import RECORDINGS, cli_replay, frames_of, recording_cases, truth_turns, typed_prompts
from tests.selection import select

S2041 = RECORDINGS / "amp" / "h20-amp-s2041-70x48"
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])


def _boxless(case) -> list:
    """Alternate-screen frames, after Amp first drew its input box, that show
    text but no input box: a resize caught before Amp drew again."""
    out, started = [], False
    for f in frames_of(case):
        if not f.alternate or any(WELCOME.search(ln) for ln in f.lines):
            continue
        if any(BOX_TOP.match(ln) for ln in f.lines):
            started = True
        elif started and any(ln.strip() for ln in f.lines):
            out.append(f)
    return out


BOXLESS = select("BOXLESS", recording_cases("amp"), lambda c: _boxless(c))


def test_the_probe_shows_frames_without_the_input_box() -> None:
    assert S2041 in BOXLESS
    # the old layout under the new width: rows no wider than the old one, a counter over a prompt row
    frames = _boxless(S2041)
    assert any(f.columns == 153 and max(len(ln.rstrip()) for ln in f.lines) <= 134 for f in frames)
    assert any(ln.startswith(" ┃≈") for f in frames for ln in f.lines)


@BOTH
@pytest.mark.parametrize("case", BOXLESS, ids=lambda c: c.name)
def test_a_frame_without_the_input_box_adds_no_turn(case, screen_only: bool) -> None:
    turns = cli_replay(case, "amp", screen_only)["turns"]
    assert typed_prompts(turns) == typed_prompts(truth_turns(case))
    # no answer holds a copy of a prompt row or a table border read from such a frame
    assert not any("┃" in t["text"] or t["text"].lstrip().startswith("├")
                   for t in turns if t["role"] == "assistant")


@BOTH
@pytest.mark.parametrize("case", BOXLESS, ids=lambda c: c.name)
def test_every_drawn_word_comes_back_around_such_frames(case, screen_only: bool) -> None:
    turns = cli_replay(case, "amp", screen_only)["turns"]
    served = truth_turns(case)
    drawn = drawn_recall.drawn_sequence(case / "session.cast", drawn_recall.typed_prompts(served))
    total, got = drawn_recall.recall(served, turns, drawn)
    assert total > 300 and got >= 0.99 * total
