"""Vibe stopped with Ctrl+Z and brought back with `fg`, round h11, on the
recording's real bytes through the real CLI / replay functions.

Mistral Vibe 3.0.2 started from bash: 2 turns, Ctrl+Z (Vibe prints `Mistral
Vibe has been suspended. Run fg to bring Mistral Vibe back.`), `jobs`, a
command, the window grows while it is stopped, `fg`; 2 more turns, the second
stopped with Ctrl+Z while its answer streams and brought back with `fg`.

Brought back, Vibe redraws its conversation from the first stretch on (the
answer before the first stop cut at the top), and the answer that was
streaming at the second stop comes back whole after the `fg` line. With a
resumed stretch compared only with the one before it, the first stretch's
turns and the cut answer came back a second time (asst_prec 0.48, turns_ok 0
on this recording); the rules of 6509a50 (a resumed stretch compared with all
the job showed, the part of an answer drawn before the stop dropped) give each
turn once. This guards them on Vibe, whose redraw does not repeat the prompt
the way OpenCode's does.
"""
from __future__ import annotations

import json

import pytest

from agents_chrome import shell
from agents_chrome.turns import Turn
from tests.conftest import RECORDINGS, replay_json

CASE = RECORDINGS / "vibe" / "h11-sh-vibe-jobctl-103x29"


def _truth() -> list[dict]:
    return json.loads((CASE / "truth.json").read_text(encoding="utf-8"))["turns"]


def _flat(text: str) -> str:
    """Text without markdown marks, bullets and line breaks (Vibe draws `-` items as `•`)."""
    for mark in ("**", "`", "•", "- "):
        text = text.replace(mark, " ")
    return "".join(text.split())


@pytest.mark.parametrize("screen_only", [False, True])
def test_each_answer_once_across_two_stops(screen_only: bool) -> None:
    turns = replay_json(CASE / "session.cast", "vibe", screen_only)["turns"]
    got = [t for t in turns if t["role"] in ("user", "assistant")]
    want = [t for t in _truth() if t["role"] in ("user", "assistant") and t.get("kind") != "exit_command"]
    assert [t["role"] for t in got] == [t["role"] for t in want]
    assert [_flat(t["text"]) for t in got] == [_flat(t["text"]) for t in want]


def test_the_answer_stopped_mid_stream_comes_back_once_and_whole() -> None:
    turns = replay_json(CASE / "session.cast", "vibe")["turns"]
    whole = _flat([t for t in _truth() if t["role"] == "assistant"][-1]["text"])
    head = whole[:40]
    copies = [t for t in turns if t["role"] == "assistant" and _flat(t["text"]).startswith(head)]
    assert [_flat(t["text"]) for t in copies] == [whole]
    # asked before the second stop, answered after the `fg` that brought Vibe back
    fgs = [i for i, t in enumerate(turns) if t["role"] == "system" and t["text"].split("\n")[0].endswith("% fg")]
    last_user = max(i for i, t in enumerate(turns) if t["role"] == "user")
    assert len(fgs) == 2 and fgs[0] < last_user < fgs[1] < turns.index(copies[0])


def test_answer_resumed_without_its_prompt_redrawn() -> None:
    """Vibe stopped while its first answer streamed, the screen shrunk while it
    was stopped (78x22 from 97x28, probe h11-sh-vibe-stopshrink), `fg`: the
    redraw no longer reaches the prompt and opens with the whole answer. The
    part drawn before the stop is dropped (before: the answer came back twice,
    cut and whole, asst_prec 0.61 both ways -> 1.00)."""
    part = "A canal lock lifts a boat with nothing but gravity\nand two pairs of gates.\n\nThe boat enters"
    whole = part.replace("\n", " ") + " the chamber at the lower level and the bottom gates close behind it."
    prev = [Turn("user", "how does a canal lock work?"), Turn("assistant", part)]
    assert shell._answer_resumed(prev, [Turn("assistant", whole), Turn("user", "next")]) == 1
    # nothing of the answer drawn before the stop: nothing to drop, nothing taken
    assert shell._answer_resumed(prev[:1], [Turn("assistant", whole)]) is None
    # a different answer opening the resumed stretch is not the cut one
    other = "Locks on a river navigation are usually wider than canal locks and have weirs beside them."
    assert shell._answer_resumed(prev, [Turn("assistant", other)]) is None
    # the prompt redrawn too (OpenCode, Vibe on a screen not shrunk): as before
    assert shell._answer_resumed(prev, [Turn("user", "how does a canal lock work?"), Turn("assistant", whole)]) == 1


def test_answer_resumed_with_its_redraw_cut_at_the_top() -> None:
    """Vibe stopped after a long answer had filled the screen, the window shrunk
    to 66x18 while it was stopped (probe h11-sh-vibe-longstop), `fg`: the
    redraw opens inside the part drawn before the stop (at a bullet below the
    screen's new top). The answer is that part up to where the redraw opens,
    then the redraw: once and whole (before: the part and the redraw's tail as
    two answers, asst_prec 0.80 both ways -> 1.00)."""
    part = ("Bees shiver to warm the cluster.\n\nWhen it is hot, foragers bring water\ninstead of nectar.\n\n"
            "- fanning bees line up at the entrance\n- a few workers, called heater bees, press their")
    redraw = ("- fanning bees line up at the entrance\n- a few workers, called heater bees, press their\n"
              "  warm bodies into empty cells among the brood\n\nWinter is the real test.")
    prev = [Turn("user", "how do bees keep the hive warm?"), Turn("assistant", part)]
    new = [Turn("assistant", redraw), Turn("user", "thanks")]
    assert shell._answer_resumed(prev, new) == 1
    assert new[0].text == ("Bees shiver to warm the cluster.\n\nWhen it is hot, foragers bring water\ninstead of "
                           "nectar.\n\n" + redraw)
    # a redraw that opens with words the part never drew is not joined to it
    other = [Turn("assistant", "Queens are raised in larger cells that hang from the comb's lower edge, fed royal jelly.")]
    assert shell._answer_resumed(prev, other) is None
    assert other[0].text.startswith("Queens")
    # the redraw must go on with the rest of the part, not only share a phrase with it
    stray = [Turn("assistant", "- fanning bees line up at the entrance\nand nothing else of the part follows")]
    assert shell._answer_resumed(prev, stray) is None
