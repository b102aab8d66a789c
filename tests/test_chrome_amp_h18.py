"""Amp: what round h18's randomized probes found.

h18-amp-s1880-64x55 is the seeded probe `gen18.py --seed 1880` (harness
copy /tmp/h18-gemamp/harness/amp): nine prompts at 64x55, three pasted,
resizes in the middle of answers (62x23 then 165x23 in the first; 124x44),
while a shell call runs (186x38 then 153x56; 105x34 after a resize to
74x42 between turns), answers tall enough that Amp never draws their top
(`"partial": true`), lists, quotes,
tables with CJK cells, code blocks with empty lines, Markdown links, shell
and Read calls. Before: prompts 1.00, recall 0.884, precision 0.982,
tools 1.00; after: 1.00, 0.899, 1.00, 1.00 (both ways); every drawn word
comes back (tests.drawn_recall 1.00: the recall lost is the tops of the
tall answers, never drawn, and one link target left out, below).

Amp draws a link's text and tells the terminal its target (OSC 8); the
replay puts the target back after the text, in the answer whose rows were
first drawn when the link was. Two faults:

- the text was looked for as a substring: the link `[bru](…)` went in
  after `bru` inside `kadys = bruorstin(13)`, a code row of another answer
  (`bru (https://…)orstin`). The text must be whole words now.
- a resize redraws the whole history: the answers drawn before it get the
  redraw's time, and a link first drawn before the resize falls in no
  answer's window (or in the window of an answer without its text): its
  target was lost. A link left over goes to the one answer holding its text
  nearest in time (links.with_stray_link_targets); two answers as near (a
  redraw gave them one time) leave it out (here `[bru](…)` of the answer
  to `Sar ul sha tel 🌊 dra.`: `bru` is a word of the answer before too;
  since h22 the row the link was drawn on names its answer and it is back,
  test_chrome_amp_h22).
  Web targets only: a `file://` link is Amp's own mark on a path.
"""
from __future__ import annotations

import re

import pytest

from tests import drawn_recall
from tests.conftest import RECORDINGS, cli_replay, recording_cases, truth_turns
from tests.segments import per_prompt

S1880 = RECORDINGS / "amp" / "h18-amp-s1880-64x55"
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")


def _links(turns: list[dict]) -> list[tuple[str, str]]:
    return [m for t in turns if t["role"] == "assistant" for m in LINK.findall(t["text"]) if m[0] != m[1]]


LINKED = [c for c in recording_cases("amp") if _links(truth_turns(c))]


def test_the_probe_shows_links() -> None:
    assert S1880 in LINKED


@BOTH
@pytest.mark.parametrize("case", LINKED, ids=lambda c: c.name)
def test_a_link_target_goes_after_its_whole_text_in_its_own_answer(case, screen_only: bool) -> None:
    replayed = cli_replay(case, "amp", screen_only)["turns"]
    texts = [t["text"] for t in replayed if t["role"] == "assistant"]
    served = per_prompt(truth_turns(case))
    by_prompt = dict(per_prompt(replayed))
    for prompt, turns in served:
        got = "\n".join(t["text"] for t in by_prompt.get(prompt, []) if t["role"] == "assistant")
        for label, url in _links(turns):
            put = "(" + url + ")"
            # never inside a word, never in another prompt's answer
            assert not any(re.search(re.escape(put) + r"\w", t) for t in texts), url
            # (h20-amp-s2041 serves one target under two labels in two answers:
            # each answer has it as its own)
            own = {p for p, ts in served if any(u == url for _, u in _links(ts))}
            elsewhere = [p for p, ts in by_prompt.items() if p not in own
                         and any(put in t["text"] for t in ts if t["role"] == "assistant")]
            assert not elsewhere, (url, elsewhere)
            # drawn in this answer and in no other: its target is back after it
            whole = re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, label.split())) + r"(?!\w)")
            if whole.search(got) and sum(bool(whole.search(t)) for t in texts) == 1:
                assert re.search(whole.pattern + r" " + re.escape(put), got), (label, url)


@BOTH
def test_answers_amp_never_drew_whole_are_partial_and_every_drawn_word_is_back(screen_only: bool) -> None:
    turns = cli_replay(S1880, "amp", screen_only)["turns"]
    served = truth_turns(S1880)
    assert any(t.get("partial") for t in turns if t["role"] == "assistant")
    drawn = drawn_recall.drawn_sequence(S1880 / "session.cast", drawn_recall.typed_prompts(served))
    total, got = drawn_recall.recall(served, turns, drawn)
    assert total > 300 and got >= 0.99 * total
