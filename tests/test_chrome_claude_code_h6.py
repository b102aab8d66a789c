"""Claude Code chrome on real recordings: what the h6 round of fresh
recordings found, asserted on every Claude Code recording that shows the
situation (never on one case by name), against its truth.json:

- two resizes in quick succession: the inline renderer redraws the whole
  conversation laid out for the width it saw first, in a narrower terminal
  (rows pile up at the right edge, the input box's rules autowrap). Those
  frames, and what their drawing pushed into history, add no text; the
  history that left the screen before the resize stays;
- an answer that arrived in one burst can scroll its `●` row out of the
  full-screen view before any frame shows it: what was drawn, after the
  prompt's working status and tip, is the answer, not more prompt (a tip's
  own wrapped rows are indented to its text).
"""
from __future__ import annotations

import difflib
import unicodedata

import pytest
import regex

from agents_chrome.claude_code import _drawn_wider
from tests.conftest import frames_of
from tests.selection import select
from tests.test_chrome_claude_code_h5 import CASES, replayed_segments, truth_segments, turns_of

WORD = regex.compile(r"\w+")


def words(text: str) -> list[str]:
    """Words (NFC), leaving out code fences' language tags (the TUI never draws
    them); wide (CJK) text counts by character: it has no spaces, and the
    width wraps it anywhere."""
    out: list[str] = []
    for w in WORD.findall(unicodedata.normalize("NFC", regex.sub(r"```\w*", "", text)).lower()):
        wide = any(unicodedata.east_asian_width(ch) in "WF" for ch in w)
        out.extend(w if wide else [w])
    return out


def common(a: list[str], b: list[str]) -> int:
    """Words of `a` and `b` in the same order (longest common subsequence, by blocks)."""
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return sum(m.size for m in sm.get_matching_blocks())


def contains(hay: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return any(hay[i:i + n] == needle for i in range(len(hay) - n + 1))


def drawn_trigrams(case) -> set[tuple[str, str, str]]:
    """Every run of three words on some frame of the recording (a frame's rows
    read in order, so a paragraph wrapped across rows keeps its runs)."""
    out: set[tuple[str, str, str]] = set()
    for f in frames_of(case):
        ws = words("\n".join(f.lines))
        out.update(zip(ws, ws[1:], ws[2:]))
    return out


def lost_drawn(tw: list[str], pw: list[str], runs: set[tuple[str, str, str]]) -> int:
    """How many words of `tw` the in-order match with `pw` leaves out that some
    frame drew: each inside a run of three of `tw` a frame shows (a lone word
    is on screen somewhere by chance)."""
    drawn = [False] * len(tw)
    for i in range(len(tw) - 2):
        if tuple(tw[i:i + 3]) in runs:
            drawn[i] = drawn[i + 1] = drawn[i + 2] = True
    sm = difflib.SequenceMatcher(None, tw, pw, autojunk=False)
    matched = {b.a + x for b in sm.get_matching_blocks() for x in range(b.size)}
    return sum(1 for i in range(len(tw)) if i not in matched and drawn[i])


#: Answers known to hold text that is no answer, as (recording, answer index): reason.
KNOWN_NOISE = {
    ("h23-cc-s2307-inline-134x59", 5): "a table streamed through a resize, drawn as a box then as records: "
                                        "the reprint after the resize opens inside the records and is not "
                                        "folded onto the box's copy; the quote and heading after the table "
                                        "come twice (the records' copy of the table goes: _without_record_copies)",
}

#: recordings with an inline frame laid out wider than the screen
WIDER = select("WIDER", CASES, lambda c: any(not f.alternate and _drawn_wider(f) for f in frames_of(c)))


def test_some_recording_has_an_inline_frame_drawn_wider() -> None:
    assert WIDER, "no recording has an inline frame laid out wider than the screen"


@pytest.mark.parametrize("case", WIDER, ids=lambda c: c.name)
def test_inline_frames_drawn_for_a_wider_width_add_no_text(case) -> None:
    truth, got = truth_segments(case), replayed_segments(case)
    assert len(got) == len(truth), case.name
    runs = drawn_trigrams(case)
    for k, (want, have) in enumerate(zip(truth, got)):
        tw, pw = words(" ".join(want)), words(" ".join(have))
        hit = common(tw, pw)
        if (case.name, k) in KNOWN_NOISE:
            # strict: the entry goes once the answer is clean
            assert hit < 0.95 * len(pw), f"{case.name} answer {k} is clean: drop it from KNOWN_NOISE"
            continue
        assert hit >= 0.95 * len(pw), f"{case.name} answer {k}: text that is no answer"
        # Lost is measured against what some frame drew: an interrupted
        # answer's truth may hold a chunk the TUI never drew, and a full-screen
        # view can scroll an answer's first rows away before any frame shows
        # them (an answer streamed into a 63-column full-screen view and
        # stopped with Ctrl+Z: its `●` row is on no frame of the recording).
        # A replay cannot bring back words no frame held: only the
        # truth words it leaves out that a frame drew count as lost.
        assert lost_drawn(tw, pw, runs) <= 0.05 * len(tw), f"{case.name} answer {k}: answer text lost"


#: Answers whose drawn last line is known lost, as (recording, answer index): reason.
#: Strict: the test fails once the line comes back, so the entry goes.
KNOWN_LOST = {
}


def _drawn_tails(case) -> list[tuple[int, list[str], str]]:
    """(answer index, its last six words, its last line) of each truth answer
    whose last line of six words or more some frame drew."""
    rows = [words(ln) for f in frames_of(case) for ln in f.lines if ln.strip()]
    out = []
    for k, want in enumerate(truth_segments(case)):
        last = next((ln for ln in reversed("\n".join(want).splitlines()) if len(words(ln)) >= 6), None)
        if last is None:
            continue
        tail = words(last)[-6:]
        if any(contains(r, tail) for r in rows):
            out.append((k, tail, last))
    return out


#: recordings on which some frame drew an answer's last line
TAILED = select("TAILED", CASES, lambda c: _drawn_tails(c))


def test_answers_last_lines_are_drawn_in_many_recordings() -> None:
    assert len(TAILED) >= 20


@pytest.mark.parametrize("case", TAILED, ids=lambda c: c.name)
def test_drawn_answers_never_join_the_prompt(case) -> None:
    """The last line of each answer, wherever a frame drew it, comes back in
    that prompt's answer."""
    truth, got = truth_segments(case), replayed_segments(case)
    if len(truth) != len(got):
        pytest.skip("the prompt count differs: the golden tests' business")
    for k, tail, last in _drawn_tails(case):
        if (case.name, k) in KNOWN_LOST:
            assert not contains(words(" ".join(got[k])), tail), f"{case.name} answer {k} is back: drop it from KNOWN_LOST"
            continue
        assert contains(words(" ".join(got[k])), tail), f"{case.name} answer {k}: {last!r} missing"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_no_prompt_holds_answer_rows(case) -> None:
    """No prompt holds more than was typed: answer rows joined to it leave a run of blank lines."""
    for p in (t.text for t in turns_of(case) if t.role == "user"):
        assert "\n\n\n" not in p, f"{case.name}: answer rows joined the prompt {p[:40]!r}"
