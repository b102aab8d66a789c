"""Codex replay: behaviours the h5 round of recordings found broken.

Each test checks one structural rule on every Codex recording it applies
to (found by what the recording holds, never by its name): frames taken
after a resize before Codex drew again, views scrolled back after a width
change, prompts written in markdown (rendered in their card), and the
`■` notice an interrupt leaves.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agents_chrome.codex import PROFILE, _stale
from agents_chrome.replay import replay as replay_in_process
from screen.cast import CastReader
from screen.frames import iter_frames
from tests.golden import replay
from tests.test_chrome_codex_r3 import CASES, conv, truth

MARKUP = re.compile(r"`[^`\n]+`|\*\*[^*\n]+\*\*|(?<![*\w])\*[^*\n]+\*(?!\*)|^#{1,6} |^> ", re.M)


def meta(case: Path) -> dict:
    return json.loads((case / "meta.json").read_text())


def inline(case: Path) -> bool:
    return "--no-alt-screen" in meta(case).get("command", [])


def norm(s: str) -> str:
    return " ".join(s.split())


def ids(cases: list[Path]) -> list[str]:
    return [c.name for c in cases]


RESIZED_ALT = [c for c in CASES if not inline(c) and meta(c).get("resizes")]


def test_some_recording_has_a_frame_drawn_before_the_resize() -> None:
    """The h5 recordings hold the case: a grown terminal caught before Codex redrew."""
    assert any(_stale_frames(c) for c in RESIZED_ALT)


def _stale_frames(case: Path) -> list[tuple[int, int, int]]:
    """(index, size changed at frame index, frames at the new size before it
    that were not stale) of every stale frame."""
    out = []
    last_size, changed_at, fresh = None, 0, 0
    with CastReader(case / "session.cast") as r:
        for f in iter_frames(r):
            if (f.columns, f.rows) != last_size:
                last_size, changed_at, fresh = (f.columns, f.rows), f.index, 0
            if _stale(f):
                out.append((f.index, changed_at, fresh))
            else:
                fresh += 1
    return out


@pytest.mark.parametrize("case", RESIZED_ALT, ids=ids(RESIZED_ALT))
def test_stale_frames_only_right_after_a_resize(case: Path) -> None:
    """A view judged stale (composer short of the edge, or empty rows under
    its footer) is drawn at a new size before Codex drew anew at it: Codex's
    own views never are. (Most often the one frame the resize makes; a frame
    Codex wrote for the old size just before it read the new one follows it
    when the window is resized as a prompt is sent: h17-cx-mention.)"""
    for index, changed_at, fresh in _stale_frames(case):
        assert fresh == 0 and index > 0, (index, changed_at)


@pytest.mark.parametrize("case", [c for c in CASES if not inline(c)], ids=ids([c for c in CASES if not inline(c)]))
def test_no_composer_or_footer_in_a_turn(case: Path) -> None:
    """A stale frame's composer and footer (`mock-model default · …`, a
    wrapped path) never reach the conversation."""
    footer = [ln for t in conv(case)["turns"] if t["role"] in ("user", "assistant")
              for ln in t["text"].splitlines() if re.search(r"default · /|· Mock session|f2 to view", ln)]
    assert not footer


SCROLLED_RESIZED = [c for c in RESIZED_ALT
                    if any(a.get("label", "").startswith(("PageUp", "wheel up")) for a in meta(c).get("timeline", []))]


@pytest.mark.parametrize("case", SCROLLED_RESIZED, ids=ids(SCROLLED_RESIZED))
def test_scrolled_back_views_add_no_copy(case: Path) -> None:
    """Scrolled back and resized mid-answer: each prompt once, in order, and
    no answer's words more often than served."""
    got = [norm(t["text"]) for t in conv(case)["turns"] if t["role"] == "user"]
    want = [norm(t["text"]) for t in truth(case)["turns"] if t["role"] == "user"]
    assert got == want
    have = " ".join(norm(t["text"]) for t in conv(case)["turns"] if t["role"] == "assistant")
    for t in truth(case)["turns"]:
        words = re.findall(r"\w+", t.get("text") or "") if t["role"] == "assistant" else []
        if len(words) >= 14 and "```" not in t["text"] and "|" not in t["text"]:
            probe = " ".join(words[:12])
            assert " ".join(re.findall(r"\w+", have)).count(probe) <= 1, probe


MD_ALT = [c for c in CASES if not inline(c)
          and any(t["role"] == "user" and MARKUP.search(t["text"]) for t in truth(c)["turns"])]
MD_INLINE = [c for c in CASES if inline(c)
             and any(t["role"] == "user" and "\n" in t["text"] and re.search(r"^(#|>|\d+\.|-) ", t["text"], re.M)
                     for t in truth(c)["turns"])]


def test_some_recordings_have_markdown_prompts() -> None:
    assert MD_ALT and MD_INLINE and MD_INLINE_MARKUP


@pytest.mark.parametrize("case", MD_ALT, ids=ids(MD_ALT))
def test_markdown_prompt_read_back_from_its_card(case: Path) -> None:
    """Codex renders a prompt's markdown in its card (bold, italics, inline
    code coloured, a heading's `#` kept, blocks spaced by blank rows): the
    styles give the markup back and every block stays in the prompt."""
    got = [norm(t["text"]) for t in conv(case)["turns"] if t["role"] == "user"]
    for t in truth(case)["turns"]:
        if t["role"] == "user" and MARKUP.search(t["text"]):
            assert norm(t["text"]) in got, t["text"]


@pytest.mark.parametrize("case", MD_INLINE, ids=ids(MD_INLINE))
def test_inline_prompt_blocks_stay_in_the_prompt(case: Path) -> None:
    """In the scrollback the card has no background: its indented rows
    after blank rows (a quote, a list under a heading) are still the
    prompt's, not an answer opening. (Inline markup - bold, code - has no
    style left in the scrollback: such prompts are not held to this.)"""
    users = [norm(t["text"]) for t in conv(case)["turns"] if t["role"] == "user"]
    for t in truth(case)["turns"]:
        if t["role"] == "user" and "\n" in t["text"] and not re.search(r"`|\*", t["text"]):
            assert norm(t["text"]) in users, t["text"]


MD_INLINE_MARKUP = [c for c in CASES if inline(c)
                    and any(t["role"] == "user" and MARKUP.search(t["text"]) for t in truth(c)["turns"])]


@pytest.mark.parametrize("case", MD_INLINE_MARKUP, ids=ids(MD_INLINE_MARKUP))
def test_inline_prompt_markdown_from_its_card_on_screen(case: Path) -> None:
    """The scrollback keeps a card's text only; the card was on screen,
    with its styles, before it scrolled away (and before a resize reprinted
    it wrapped anew): the prompt gets its markdown back from there."""
    got = [norm(t["text"]) for t in conv(case)["turns"] if t["role"] == "user"]
    for t in truth(case)["turns"]:
        if t["role"] == "user" and MARKUP.search(t["text"]):
            assert norm(t["text"]) in got, t["text"]


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_interrupt_notice_is_not_answer_text(case: Path) -> None:
    """`■ Conversation interrupted - …` (Esc, Ctrl+C, a refused approval) is Codex's notice.
    (A line the answer itself opened with the glyph is the answer's.)"""
    served = {ln.strip() for t in truth(case)["turns"] if t["role"] == "assistant" for ln in t["text"].splitlines()}
    for t in conv(case)["turns"]:
        if t["role"] == "assistant":
            notices = [m for m in re.findall(r"^■ .*$", t["text"], re.M) if m.strip() not in served]
            assert not notices, t["text"][:120]


def test_profile_state_does_not_leak_between_replays() -> None:
    """The learned card colours and live width belong to one replay: state
    left by another recording (here: a foreign card colour and width) does
    not change the next replay's turns."""
    case = MD_ALT[0]
    _meta, first, _ = replay_in_process(case / "session.cast", "codex")
    PROFILE._card_bgs = {"444444", "3a3a3a", "005f00"}
    PROFILE._live_width = 1
    _meta, again, _ = replay_in_process(case / "session.cast", "codex")
    assert [(t.role, t.text) for t in again] == [(t.role, t.text) for t in first]


def test_views_left_out_whatever_the_timing(tmp_path) -> None:
    """A stale view exists only when the redraw came after a pause: with
    every pause cut (no such view) the turns are the same."""
    from tests.test_timing import retime

    case = next(c for c in RESIZED_ALT if _stale_frames(c))
    fast = tmp_path / "session.cast"
    retime(case / "session.cast", fast, 11, 0.0, 0.5, 0.5)
    view = lambda c: [(t["role"], t["text"], t.get("name")) for t in c["turns"]]  # noqa: E731
    assert view(replay(fast, "codex")) == view(conv(case))
