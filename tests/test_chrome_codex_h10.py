"""Codex replay: behaviours the h10 round of recordings found broken.

- Alternate screen, Ctrl-T pressed back and forth: Codex switches its
  history between the compact view (`• Ran <cmd>` with `└` output,
  `• Explored`) and the expanded one (`$ <cmd>` at the left edge, its whole
  output, `✓ • 0ms`, the reasoning). Rows of one view never line up with
  the other's: the stitcher placed the compact view on the expanded one's
  last rows (the answer and `Worked for` are the only rows both share), so
  the turn came back twice, its first copy without the answer (turns_ok
  0.00, recall 0.97 on h10-think-alt-c-120x36). A switch of view is now a
  new layout, joined to the old by words, as a width change is.
- Inline (`--no-alt-screen`), a window edge dragged mid-answer: every
  resize clears the screen and the scrollback and Codex reprints the whole
  conversation from its header card; the next resize, a few hundredths of
  a second later, cuts that reprint short. A cut reprint restates only the
  first prompts, so the older full copy before it no longer matched the
  stretch right after it and stayed: every turn came back several times.
  An older copy is now any stretch whose prompts a later stretch restates.
- On a narrow screen the `■ Conversation interrupted - use /feedback if
  something went wrong` notice and the exit lines (`Token usage: …`,
  `codex resume <id>`) go on over a second row, which was read as the
  answer's last words.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from agents_chrome.codex import CodexProfile
from tests.conftest import RECORDINGS, cast_events, cli_replay, frames_of, meta_of
from tests.test_chrome_codex_r3 import WORD, by_prompt, norm, truth

THINK = RECORDINGS / "codex" / "h10-think-alt-c-120x36"
TINY = RECORDINGS / "codex" / "h10-tiny-na-b-60x20"
H10 = [THINK, TINY]
WAYS = [False, True]  # as recorded, and with every input event removed


def _conv(case: Path, screen_only: bool) -> dict:
    return cli_replay(case, "codex", screen_only)


def test_recordings_hold_the_situations() -> None:
    """The drawings the tests below rely on are in the bytes."""
    # THINK: the alternate screen, Ctrl-T pressed five times, both views drawn
    assert "--no-alt-screen" not in meta_of(THINK)["command"]
    assert sum(1 for a in meta_of(THINK)["timeline"] if a.get("label", "").startswith("Ctrl-T")) >= 5
    out = "".join(e[2] for e in cast_events(THINK) if e[1] == "o")
    assert "Explored" in out and "Ran" in out  # the compact view
    assert "$ \x1b" in out or "$ sed" in out or "$ wc" in out  # the expanded view's command row
    assert "✓" in out
    # TINY: inline, a drag (seven resizes within a second during one turn), and
    # reprints (each opened by clearing screen and scrollback) that the next
    # one clears a fraction of a second later: four within a second
    assert "--no-alt-screen" in meta_of(TINY)["command"]
    during = [a["t"] for a in meta_of(TINY)["timeline"] if a["action"] == "resize_during_turn"]
    assert any(sum(1 for u in during if t <= u < t + 1.0) >= 7 for t in during)
    clears = [e[0] for e in cast_events(TINY) if e[1] == "o" and "\x1b[3J" in e[2]]
    assert any(sum(1 for u in clears if t <= u < t + 1.0) >= 4 for t in clears)


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", H10, ids=lambda c: c.name)
def test_every_prompt_exactly_once(case: Path, screen_only: bool) -> None:
    want = [norm(t["text"]) for t in truth(case)["turns"] if t["role"] == "user"]
    got = [norm(t["text"]) for t in _conv(case, screen_only)["turns"] if t["role"] == "user"]
    assert got == want


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", H10, ids=lambda c: c.name)
def test_every_answer_once_and_whole(case: Path, screen_only: bool) -> None:
    """Each turn's answers come back once (no older copy beside a reprint or
    beside the other view's drawing), and hold the words the turn served."""
    served = by_prompt(truth(case)["turns"])
    got = by_prompt(_conv(case, screen_only)["turns"])
    assert len(got) == len(served)
    for want, seg in zip(served, got):
        assert len(seg["assistant"]) == len(want["assistant"]), want["user"]
        have = WORD.findall(" ".join(seg["assistant"]))
        need = WORD.findall(" ".join(want["assistant"]))
        # an answer cut by Esc loses what was still in flight: its last word or two
        missing = [w for w in need if w not in have]
        assert len(missing) <= 2, (want["user"], missing)


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
def test_each_call_once_across_view_switches(screen_only: bool) -> None:
    """A call drawn in both views (`• Ran python3 …`, then `$ python3 …`)
    is one call; the first turn's two calls come back as two."""
    served = by_prompt(truth(THINK)["turns"])
    got = by_prompt(_conv(THINK, screen_only)["turns"])
    for want, seg in zip(served, got):
        assert len(seg["tools"]) == len(want["tools"]), want["user"]


def test_the_views_are_told_apart() -> None:
    """Frames of the compact view and of the expanded one get different
    layouts; a frame with no call in view takes none."""
    prof = CodexProfile()
    seen = {prof.layout(f) for f in frames_of(THINK) if f.alternate}
    assert {"compact", "expanded", None} <= seen


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
def test_no_notice_or_exit_row_in_an_answer(screen_only: bool) -> None:
    """Words of the interrupt notice and of the exit lines stay out of the
    answers, also when the narrow screen wraps them onto a second row."""
    words = set()
    for want in by_prompt(truth(TINY)["turns"]):
        words |= set(WORD.findall(" ".join(want["assistant"])))
    for t in _conv(TINY, screen_only)["turns"]:
        if t["role"] == "assistant":
            extra = [w for w in WORD.findall(t["text"]) if w not in words]
            assert not extra, (t["text"][-120:], extra)


@pytest.mark.parametrize("size, visible, history", [
    # width only: the region (rows 1-5) is kept, the cursor on its last row scrolls it
    ((50, 10), ["line2", "line3", "line4", "X1", "X2", "line5", "line6", "line7", "line8", "last"],
     ["line0", "line1"]),
    # taller: the region is reset, the cursor moves down the whole screen
    ((40, 12), ["line0", "line1", "line2", "line3", "line4", "X1ne5", "X2ne6", "line7", "line8", "last", "", ""],
     []),
], ids=["width-only", "taller"])
def test_a_scroll_region_survives_a_width_only_resize(size, visible, history) -> None:
    """As tmux 3.3a (what it showed for these very bytes): Codex inline,
    resized from 39x20 to 60x20 while it reprinted inside a region it had
    set, kept scrolling that region into history."""
    from screen.vscreen import VirtualScreen

    s = VirtualScreen(40, 10, scrollback=100)
    s.feed("".join("line%d\r\n" % i for i in range(9)) + "last")
    s.feed("\x1b[1;5r\x1b[5;1H")
    s.resize(columns=size[0], lines=size[1])
    s.feed("\r\nX1\r\nX2")
    assert [ln.rstrip() for ln in s.text_lines()] == visible
    assert [ln.text for ln in s.scrollback] == history
