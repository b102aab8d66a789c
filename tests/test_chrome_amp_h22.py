"""Amp: what round h22's randomized probes found.

h22-amp-s2254-107x53 is the seeded probe `gen22.py --seed 2254` (harness
copy /tmp/h22-ocamp/harness/amp): fourteen prompts at 107x53, pasted ones,
Esc at an empty prompt, a resize between turns (180x54) and resizes while
an answer streams and while a tool runs (94x31, 138x56), lists, tables with
CJK cells, code blocks with empty lines, Markdown links with short labels
(`[op](…)`, `[vex](…)`, `[ul](…)`), Read calls. Before: prompts 1.00,
recall 0.99, precision 0.99, tools 1.00; after: 1.00, 1.00, 1.00, 1.00
(both ways; the words left are the fence languages, never drawn). The
five h22 Amp probes: recall 0.950 -> 0.958, precision 0.991 -> 0.999.

Amp draws a link's text and tells the terminal its target (OSC 8); the
replay puts the target back after the text, in the answer whose rows were
first drawn when the link was. A resize makes Amp lay the whole thread out
again, and every turn stitched from that drawing carries its time (several
prompts at one instant). The answer before them then had a window reaching
the redraw, over the links of all the answers after it, and a link whose
text is a short word (`op`) went into it when that word was one of its
words too; an answer whose first row was stitched from a later drawing
than its link had the link go to the answer before; and in its own
answer the target went after the first whole `ul` (`[ul](…)` sits on a later
row). Now the row the link was drawn on (underlined, from the row's start
to the link's end) names its answer when one answer shows it, and where in
it the text is; else the windows of redrawn answers open at the turn
before the redraw, and a link several of them could hold goes to the one
its text is in, or the first not before the answer of the link drawn
before it (amp._place_links). Over the Amp recordings, the corpus and the
h20 and h22 probes, the links drawn (OSC 8) back after their own text in
their own answer: 56 of 63 before, 63 of 63 after.
"""
from __future__ import annotations

import re

import pytest

from tests.conftest import RECORDINGS, cli_replay, recording_cases, truth_turns
from tests.segments import per_prompt

S2254 = RECORDINGS / "amp" / "h22-amp-s2254-107x53"
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")


def _links(turns: list[dict]) -> list[tuple[str, str]]:
    return [m for t in turns if t["role"] == "assistant" for m in LINK.findall(t["text"]) if m[0] != m[1]]


def _drawn_links(case) -> list[tuple[str, str]]:
    """The served links whose target the recording handed to the terminal
    (an OSC 8 opening with it: `ESC ] 8 ; params ; target`, raw cast text)."""
    served = _links(truth_turns(case))
    if not served:
        return []
    cast = (case / "session.cast").read_text(encoding="utf-8")
    return [(label, url) for label, url in served if re.search(r"\]8;[^;]*;" + re.escape(url), cast)]


LINKED = [c for c in recording_cases("amp") if _drawn_links(c)]


def test_the_probe_draws_links_with_short_labels() -> None:
    assert S2254 in LINKED
    assert {"op", "vex", "ul"} <= {label for label, _ in _drawn_links(S2254)}


@BOTH
@pytest.mark.parametrize("case", LINKED, ids=lambda c: c.name)
def test_every_drawn_link_target_is_after_its_text_in_its_own_answer(case, screen_only: bool) -> None:
    """Also when its text is a word of other answers, and when a resize
    redrew the answers around it."""
    drawn = set(_drawn_links(case))
    by_prompt = dict(per_prompt(cli_replay(case, "amp", screen_only)["turns"]))
    for prompt, turns in per_prompt(truth_turns(case)):
        got = "\n".join(t["text"] for t in by_prompt.get(prompt, []) if t["role"] == "assistant")
        for label, url in _links(turns):
            if (label, url) not in drawn:
                continue
            whole = r"(?<!\w)" + r"\s+".join(map(re.escape, label.split())) + r"(?!\w)"
            assert re.search(whole + " " + re.escape("(" + url + ")"), got), (prompt[:40], label, url)
