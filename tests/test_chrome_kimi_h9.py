"""Kimi CLI: behaviour found by the h9 round of fresh recordings.

- A shrink wraps a long answer row (`…a fingertip the wa` / `y a wheat…`);
  the first half scrolls into history; the next grow brings it back into
  view, the reflow joins it with its other half and the whole row scrolls
  off again later. The history then holds the half (soft-wrapped, at the
  narrow width) and right after it the whole row, wider, starting with the
  half's text: the half goes (it was printed twice in the answer).
- A blank row that a grow brings back from history and a width change lays
  out again is recorded a second time when it scrolls off once more, out
  of place: here in the middle of a paragraph whose rows a shrink had
  wrapped (`which g` / blank / `ives the steam`), so the paragraph was cut
  in two and `gives` split. The screen now flags such a row
  (`HistoryLine.again`, kept through later reflows) and Kimi, which never
  reprints on a resize, drops it; other agents read the history as before.
Checked on recordings/kimi/h9-kimi-rye-long-102x31 (the terminal goes
102 -> 84 -> 110 -> 78 -> 104 -> 88 -> 100 columns while answers stream),
with and without input events, plus each rule on its own.
"""
from __future__ import annotations

import pytest

from agents_chrome.kimi import KLine, _lexicon, _lost_space, join_wrapped
from screen.vscreen import VirtualScreen
from tests.conftest import RECORDINGS, cli_replay
from tests.segments import answer_with

AGENT = "kimi"
RYE = RECORDINGS / AGENT / "h9-kimi-rye-long-102x31"


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_row_wrapped_by_a_shrink_and_joined_by_a_grow_is_kept_once(screen_only: bool,
                                                                   tmp_path_factory) -> None:
    conv = cli_replay(RYE, AGENT, screen_only, tmp_path_factory)
    proof = answer_with(conv, "Timing the bulk rise")
    assert proof.count("Rye has almost no gluten") == 1
    assert "under a fingertip the way a wheat loaf does. Watch the surface instead" in proof


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_blank_row_brought_back_by_a_grow_does_not_cut_a_paragraph(screen_only: bool,
                                                                  tmp_path_factory) -> None:
    conv = cli_replay(RYE, AGENT, screen_only, tmp_path_factory)
    crust = answer_with(conv, "Why the crust cracks")
    assert "before the tin goes in, which gives the steam a planned escape" in crust


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_twelve_turns_with_tools_and_resizes(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(RYE, AGENT, screen_only, tmp_path_factory)
    turns = conv["turns"]
    assert sum(t["role"] == "user" for t in turns) == 12
    calls = [t for t in turns if t["role"] == "tool_call"]
    assert [t["name"] for t in calls] == ["Shell", "ReadFile", "WriteFile", "Shell", "Shell", "Shell"]
    # Kimi draws no output under a Shell call (the ninety rows stay off screen)
    assert calls[0]["text"] == 'for n in $(seq 1 90); do ..."tray $n: rye loaf"; done'
    results = [t["text"] for t in turns if t["role"] == "tool_result"]
    assert not any("tray 2: rye loaf" in r for r in results)
    assert any(r.startswith("Failed with exit code: 2") and "timer/proof.py" in r for r in results)


def test_blank_row_brought_back_is_flagged_when_recorded_again() -> None:
    """x, a blank row, then y z w on a 3-row screen: x and the blank go to
    history; a grow to 5 rows and 12 columns brings them back (and a second
    width change lays them out again); when they scroll off again the blank
    is recorded again, flagged, and x is not."""
    for sizes in ([(12, 5)], [(12, 5), (14, 5)]):
        s = VirtualScreen(10, 3, scrollback=100)
        s.feed("x\r\n\r\ny\r\nz\r\nw")
        assert list(s.history) == ["x", ""]
        for cols, rows in sizes:
            s.resize(columns=cols, lines=rows)
        assert s.text_lines() == ["x", "", "y", "z", "w"]
        s.feed("\r\n" * 5 + "v")
        assert list(s.history) == ["x", "", "", "y", "z", "w"]
        assert [h.again for h in s.history_lines] == [False, False, True, False, False, False]
    # erased by the program, the row is drawn anew: no flag
    s = VirtualScreen(10, 3, scrollback=100)
    s.feed("x\r\n\r\ny\r\nz\r\nw")
    s.resize(columns=12, lines=5)
    s.feed("\x1b[2;1H\x1b[2K\x1b[5;2H" + "\r\n" * 5)
    assert [h.again for h in s.history_lines] == [False] * len(s.history_lines)


def test_half_before_its_regrown_row_goes() -> None:
    def row(text: str, width: int, wrapped: bool = False) -> KLine:
        return KLine(text, 0.0, "history", 0, width, wrapped, frozenset({84, 102, 110}), drawn=102)
    half = "  Rye has almost no gluten, so the dough never springs back under a fingertip the wa"
    whole = "  Rye has almost no gluten, so the dough never springs back under a fingertip the way a wheat loaf doe"
    rest = "  s. Watch the surface instead."
    out = join_wrapped([row(half, 84, True), row(whole, 110), row(rest, 110)])
    assert [ln.text for ln in out] == [whole + "s. Watch the surface instead."]
    # the same half followed by its own continuation (no grow): joined, kept
    out = join_wrapped([row(half, 84, True), row("y a wheat loaf doe", 84)])
    assert [ln.text for ln in out] == [half + "y a wheat loaf doe"]


def test_one_letter_half_after_a_fold_is_a_word_only_when_drawn_often() -> None:
    """`…the crumb keep|s setting`: `s` is drawn elsewhere only as a name in
    a code row (`s, f, w = ratio`), after a number (`1s`) or after an
    apostrophe (`keeper's`), so the fold ate no space; `a` drawn often is a
    word (`make|a loaf`)."""
    def row(text: str) -> KLine:
        return KLine(text, 0.0, "history", 0, 80, False, frozenset({80}))
    lexicon = _lexicon([row("the keeper's lamp, wait 1s"), row("    s, f, w = ratio"),
                        row("    unit = grams / s"), row("keep it short, a loaf, a tin, a rack"),
                        row("make it so")])
    assert lexicon.get("s", 0) == 2 and lexicon["keeper"] == 1 and lexicon["a"] == 3
    assert not _lost_space("the crumb keep", "s setting while it rests.", lexicon)
    assert _lost_space("you can make", "a loaf today", lexicon)
