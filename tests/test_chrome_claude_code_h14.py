"""Claude Code inline on real recordings: what the h14 round (2.1.197, the
older build) found, asserted on every recording that shows the situation
(never on one case by name), against its truth.json, as recorded and with
the input events stripped:

- made shorter (the width kept) while an answer streams, the inline
  renderer wipes the screen row by row (home, then EL and cursor-down on
  each row) and redraws its last screenful, believing the rows above it
  scrolled off as xterm scrolls them. tmux (and our screen) drops the blank
  rows below the cursor first and keeps those rows at the top, where the
  wipe erases them: they were shown, yet reached no history. The answer
  of the turn before lost its head (`● Three: …`), its tool row went, and
  the tail left (`seconds a day.`) was glued onto the prompt above it. The
  rows the shrink kept at the top, erased before the program drew again,
  now go to history where they would have scrolled, with a mark after
  them (the redraw repeats some, and is folded).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from screen.frames import FrameBuilder, _first_drawn
from tests.conftest import cast_events, cli_replay, recording_cases, truth_turns
from tests.test_timing import retime, turns_of

CASES = recording_cases("claude-code")
_WORD = re.compile(r"\w+")
_MARKS = re.compile(r"\*\*|`|^#+ ", re.M)


def shorter_then_wiped(case: Path) -> bool:
    """An output event right after a height-only shrink opens (before any
    text) with the cursor going home and erasing rows."""
    header = json.loads((case / "session.cast").open(encoding="utf-8").readline())
    cols, rows = header["width"], header["height"]
    pending = False
    for _t, code, data in cast_events(case):
        if code == "r":
            c, r = map(int, data.split("x"))
            pending = c == cols and r < rows
            cols, rows = c, r
        elif code == "o" and pending:
            i, _ = _first_drawn(data)
            head = data if i is None else data[:i]
            if "\x1b[H\x1b[2K" in head:
                return True
            pending = i is None
    return False


SHORTER = [c for c in CASES if shorter_then_wiped(c)]


def _turns(turns: list[dict]) -> list[tuple[str, list[str]]]:
    """(prompt, answer words) per turn; slash commands and the rest left out."""
    out: list[tuple[str, list[str]]] = []
    for t in turns:
        if t["role"] == "user" and t.get("kind") != "slash_command" and not t["text"].startswith("/"):
            out.append((t["text"], []))
        elif t["role"] == "assistant" and out:
            out[-1][1].extend(_WORD.findall(_MARKS.sub("", t["text"])))
    return out


def test_some_recordings_show_the_situation() -> None:
    assert SHORTER, "no Claude Code recording made shorter (width kept) and wiped while an answer streamed"


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", SHORTER, ids=lambda p: p.name)
def test_every_prompt_and_answer_comes_back_in_its_turn(case: Path, screen_only: bool, tmp_path_factory) -> None:
    """Each typed prompt comes back exactly (nothing of an answer glued on),
    and each turn's served answer words are all in that turn, in order."""
    got = _turns(cli_replay(case, "claude-code", screen_only, tmp_path_factory)["turns"])
    want = _turns(truth_turns(case))
    assert [p for p, _ in got] == [p for p, _ in want]
    for (prompt, g), (_, w) in zip(got, want):
        it = iter(g)
        missing = [x for x in w if x not in it]
        assert len(missing) <= len(w) // 50, (prompt, missing[:12])


@pytest.mark.parametrize("case", SHORTER, ids=lambda p: p.name)
def test_rows_the_wipe_took_reach_history_before_a_mark(case: Path) -> None:
    """Right after each such shrink, the rows the screen kept at its top and
    the wipe erased are in the history, followed by a clear mark."""
    header = json.loads((case / "session.cast").open(encoding="utf-8").readline())
    fb = FrameBuilder(header["width"], header["height"])
    seen = 0
    kept: list[str] = []
    for t, code, data in cast_events(case):
        if code == "r":
            fb.feed_event(t, code, data)
            kept = [e.text for e in fb.screen.kept_at_top if e.text.strip()]
            continue
        before = fb.screen.history_total
        frames = fb.feed_event(t, code, data)
        if kept and code == "o" and _first_drawn(data)[0] is not None:
            rows = fb.screen.history_since(before)
            marks = [m for f in frames for m in f.marks] + list(fb._marks)
            if any(k in rows for k in kept):
                assert all(k in rows for k in kept)
                assert any(why == "clear" for _, why in marks)
                seen += 1
            kept = []
    assert seen


@pytest.mark.parametrize("case", SHORTER, ids=lambda p: p.name)
def test_the_same_turns_whatever_the_pauses_and_event_cuts(case: Path, tmp_path) -> None:
    """Re-timed (1 ms pauses and events cut anywhere, a wipe or a title cut
    in two; or no pauses and events joined): the same turns."""
    base = turns_of(case / "session.cast", "claude-code")
    for seed, (pause, split, merge) in enumerate([(0.001, 0.8, 0.0), (0.001, 0.95, 0.0), (0.0, 0.0, 0.95)]):
        dst = tmp_path / f"retimed-{seed}.cast"
        retime(case / "session.cast", dst, seed + 7, pause, split, merge)
        assert turns_of(dst, "claude-code") == base


@pytest.mark.parametrize("case", SHORTER, ids=lambda p: p.name)
def test_a_control_sequence_cut_at_the_events_end_draws_nothing(case: Path) -> None:
    """The wipe after the shrink, cut right after each `ESC [` in it: no
    character of a sequence is taken for text, nothing is drawn."""
    wipe = next(d for _t, c, d in cast_events(case) if c == "o" and "\x1b[H\x1b[2K" in d)
    head = wipe[:wipe.index("\x1b[H\x1b[2K") + len("\x1b[H\x1b[2K")]
    for k in [m.end() for m in re.finditer(r"\x1b\[", head)]:
        assert _first_drawn(head[:k]) == (None, False)
    assert _first_drawn("\x1b]0;✳ title")[1] is True  # a title cut in two
    assert _first_drawn("cut title\x07\x1b[2K", in_string=True) == (None, False)
