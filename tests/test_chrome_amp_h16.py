"""Amp: what round h16's randomized probes found.

h16-amp-gen1609-167x33 is the seeded probe `gen_cases.py --seed 1609`
(harness copy of round h16, /tmp/h16-gemamp/harness/amp): nine turns at
167x33 with thinking, a resize to 191 columns mid-answer, two tool-only
turns in a row, three turns without a tool, an answer that opens with an
earlier answer's first blocks, and two resizes in one answer (170x30, then
200x36 a second later). Before: prompts 0.89, recall 0.62, precision 0.72,
turns_ok 0 (both ways); after: 1.00, 0.71 (every drawn word but two: the
rest is above the screen, tests.drawn_recall 0.995), 1.00, 1.00.

- The answer to turn 6 is a lone `---` rule; turn 7's answer, taller than
  the screen and finished after the two resizes, ends with `---` and a
  paragraph. Its finished view shared one row with the document, that
  `---`, and the generic stitcher took a single shared row as an anchor
  when it took away at most two rows the view did not show: turn 7's prompt,
  wrapped over two rows at 200 columns. The end of the answer went over
  the prompt, turn 6's answer moved below it, and the re-laid-out thread
  spliced on at 200 columns repeated turns 4 to 6. A placement that takes
  away a prompt the view does not show is undone now; the view continues
  the document after a gap.

Other probes of the round (not landed: one recording per agent), tested on
the real bytes Amp drew:

- h16-amp-gen1607-121x53, gen1604-83x46: a shell command that printed
  nothing is drawn `$ touch notes.txt` with no `▸` (nothing to unfold);
  the rules wanted the `▸` (or a failure's exit code) to tell a settled call
  from an answer's own `$ echo` line, so the call was answer text. Amp draws
  a call's `$` bold in its status colour and the command bold in the text
  colour: such a row is the call.
- h16-amp-gen1607-121x53: a markdown link is drawn as its text; the target
  goes to the terminal in an OSC 8 sequence only. The answer now has
  `text (target)` as the model wrote it (agents_chrome/links.py, the
  shared form of Kimi's rule).
"""
from __future__ import annotations

import re

import pytest

from agents_chrome.amp import PROFILE
from agents_chrome.transcript import TLine
from screen.frames import FrameBuilder
from tests.conftest import RECORDINGS, cli_replay, truth_turns, typed_prompts

GEN1609 = RECORDINGS / "amp" / "h16-amp-gen1609-167x33"
GEN4K = RECORDINGS / "amp" / "h15-amp-gen4k-189x31"


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_a_short_rule_shared_with_an_older_turn_keeps_the_prompt(screen_only: bool) -> None:
    turns = cli_replay(GEN1609, "amp", screen_only)["turns"]
    truth = truth_turns(GEN1609)
    # every prompt once, in order: no turn comes back a second time
    assert typed_prompts(turns) == typed_prompts(truth)
    users = [i for i, t in enumerate(turns) if t["role"] == "user"]
    tusers = [i for i, t in enumerate(truth) if t["role"] == "user" and not t.get("kind")]
    # turn 6's answer is its `---`; turn 7's answer ends with its last paragraph
    six = [t["text"] for t in turns[users[6]:users[7]] if t["role"] == "assistant"]
    assert "\n".join(six).strip() == "---"
    said7 = "\n".join(t["text"] for t in turns[users[7]:users[8]] if t["role"] == "assistant")
    served7 = [t["text"] for t in truth[tusers[7]:tusers[8]] if t["role"] == "assistant"][-1]
    assert said7.split()[-8:] == served7.split()[-8:]
    assert said7.count("---") == 1


def _tline(text: str) -> TLine:
    return TLine(text, 1.0, "alt", 1)


def _frame(rows: dict[int, str], cols: int = 80, height: int = 12):
    fb = FrameBuilder(cols, height)
    data = "\x1b[?1049h" + "".join(f"\x1b[{y};1H{t}" for y, t in rows.items())
    data += f"\x1b[{height - 2};1H╭" + "─" * (cols - 2) + "╮"
    frames = list(fb.feed_event(0.0, "o", data)) + list(fb.finish())
    return frames[-1]


def test_a_command_that_printed_nothing_is_a_call() -> None:
    # the row as Amp drew it (h16-amp-gen1607-121x53): `$ ` bold green, the command bold
    quiet = " \x1b[38;5;2m\x1b[1m$ \x1b[39mtouch\x1b[22m tolramleax.cha\x1b[39m"
    frame = _frame({1: " \x1b[38;5;4m┃\x1b[39m make the file", 3: quiet, 5: " Done."})
    rows = PROFILE.rows(frame)
    labeled = PROFILE.label([_tline(r) for r in rows[:6] if r is not None])
    assert [lb.kind for lb in labeled if "touch" in lb.line.text] == ["tool_call"]
    calls = [t for t in PROFILE.turns(labeled) if t.role == "tool_call"]
    assert [(t.name, t.text) for t in calls] == [("shell_command", "touch tolramleax.cha")]
    # an answer's own `$ cmd` line, in the text colour, stays the answer's
    plain = _frame({1: " \x1b[38;5;4m┃\x1b[39m how?", 3: " $ touch tolramleax.cha", 5: " Done."})
    labeled = PROFILE.label([_tline(r) for r in PROFILE.rows(plain)[:6] if r is not None])
    assert [lb.kind for lb in labeled if "touch" in lb.line.text] == ["assistant"]


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_link_targets_come_back_after_their_text(screen_only: bool) -> None:
    turns = cli_replay(GEN4K, "amp", screen_only)["turns"]
    said = " ".join(" ".join(t["text"].split()) for t in turns if t["role"] == "assistant")
    links = [m for t in truth_turns(GEN4K) if t["role"] == "assistant"
             for m in re.findall(r"\[([^\]]+)\]\((https?://[^)]+)\)", t["text"])]
    assert links
    for label, url in links:
        assert f"{label} ({url})" in said
