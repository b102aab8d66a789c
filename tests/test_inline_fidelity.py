"""Inline renderers: what a session did early never vanishes because it went
on, and a reprint after a clear or a resize is folded wherever it starts.

Unit tests of the fold on hand-made transcripts, then the real screen:
bytes an inline TUI writes when it clears and reprints, fed through the
frame builder and the transcript.
"""
from __future__ import annotations

from agents_chrome.transcript import TLine, build_transcript, fold_redraws
from screen.frames import FrameBuilder


def tl(rows: list[str], width: int = 80, source: str = "history") -> list[TLine]:
    return [TLine(r, float(i), source, 0, width) for i, r in enumerate(rows)]


def texts(lines: list[TLine]) -> list[str]:
    return [ln.text for ln in lines]


CONVERSATION = [
    "> header of the program v1",
    "",
    "› first question about ports",
    "",
    "• The first answer explains which ports the service opens and why each one is needed.",
    "",
    "› second question about logs",
    "",
    "• Logs rotate daily and keep fourteen days, compressed after the second day.",
]


def test_reprint_from_the_start_is_folded() -> None:
    old = tl(CONVERSATION + ["", "[input box] type here", "footer hints"])
    new = tl(CONVERSATION + ["", "› third question"])
    lines = old + new
    out = fold_redraws(lines, [(len(old), 4)])
    assert texts(out) == CONVERSATION + ["", "› third question"]


def test_reprint_from_the_last_prompt_keeps_what_came_before() -> None:
    old = tl(CONVERSATION)
    new = tl(CONVERSATION[6:] + ["", "› third question"])
    out = fold_redraws(old + new, [(len(old), 4)])
    assert texts(out) == CONVERSATION + ["", "› third question"]


def test_reprint_at_another_width_matches_by_words() -> None:
    narrow = ["• The first answer explains which ports the",
              "  service opens and why each one is needed.",
              "",
              "  Then it lists the firewall rules one by one,",
              "  with the reason for each."]
    wide = ["  service opens and why each one is needed.",
            "",
            "  Then it lists the firewall rules one by one, with the reason for each.",
            "",
            "› next"]
    lines = tl(narrow, 48) + tl(wide, 100)
    out = fold_redraws(lines, [(len(narrow), 10)])
    # the row the reprint starts in keeps nothing twice; nothing is lost
    joined = " ".join(" ".join(texts(out)).split())
    assert joined.count("service opens") == 1 and joined.count("firewall rules") == 1
    assert "The first answer explains which ports the" in joined and joined.endswith("› next")


def test_new_text_after_a_resize_is_not_folded() -> None:
    old = tl(CONVERSATION)
    new = tl(["› a question never asked before", "", "• An answer with words of its own."])
    out = fold_redraws(old + new, [(len(old), 4)])
    assert texts(out) == texts(old + new)


def test_same_prompt_typed_twice_is_kept_twice() -> None:
    turn = ["› thanks", "", "• You're welcome, glad it helped with the deployment today."]
    other = ["› thanks", "", "• Anytime: the rollout finished and every health check is green now."]
    lines = tl(CONVERSATION + turn) + tl(other)
    out = fold_redraws(lines, [(len(CONVERSATION) + len(turn), 4)])
    assert texts(out) == CONVERSATION + turn + other


def test_repeated_phrasing_folds_at_the_right_copy() -> None:
    paras = [f"Paragraph {i}. The same long sentence is said again for harbour {name}, word for word."
             for i, name in enumerate(["Aberdeen", "Bergen", "Cadiz", "Dubrovnik"], 1)]
    old = tl(paras, 100)
    new = tl(paras[2:] + ["› next"], 100)
    out = fold_redraws(old + new, [(len(old), 2)])
    assert texts(out) == paras + ["› next"]


def test_soft_wrapped_word_matches_its_reprint() -> None:
    a = TLine("• harbour notes: lighthou", 0.0, "history", 0, 25, wrapped=True)
    b = TLine("se keepers log the tides", 0.0, "history", 0, 25)
    reprint = tl(["• harbour notes: lighthouse keepers log the tides", "› next"], 60)
    out = fold_redraws([a, b] + reprint, [(2, 1)])
    assert texts(out) == ["• harbour notes: lighthouse keepers log the tides", "› next"]


def _feed(fb: FrameBuilder, t: float, data: str) -> list:
    return fb.feed_event(t, "o", data)


def test_clear_and_reprint_through_the_real_screen() -> None:
    """An inline TUI prints a conversation, clears screen and scrollback
    (ED 2, ED 3) and prints it again: the transcript holds it once."""
    body = "".join(f"line {i} of the conversation, with words {i * 7}\r\n" for i in range(30))
    fb = FrameBuilder(60, 10)
    frames = []
    frames += _feed(fb, 0.0, body + "> input box\r\n")
    frames += _feed(fb, 0.001, "\x1b[H\x1b[2J\x1b[3J\x1b[H" + body + "line after the reprint\r\n")
    frames += fb.finish()
    got = [ln.text for ln in build_transcript(frames) if ln.text.strip()]
    assert sum(1 for g in got if g.startswith("line 0 of")) == 1
    assert [g for g in got if g.startswith("line ")][:31] == [f"line {i} of the conversation, with words {i * 7}"
                                                             for i in range(30)] + ["line after the reprint"]


def test_long_session_keeps_its_first_turns() -> None:
    """Hundreds of rows and several clears later, the first rows are there."""
    fb = FrameBuilder(80, 24)
    frames = []
    t = 0.0
    for turn in range(12):
        rows = "".join(f"turn {turn} row {r} text\r\n" for r in range(40))
        frames += _feed(fb, t, rows)
        t += 0.005
        if turn % 4 == 3:  # a clear with nothing reprinted
            frames += _feed(fb, t, "\x1b[2J\x1b[H")
    frames += fb.finish()
    got = [ln.text for ln in build_transcript(frames) if ln.text.strip()]
    for turn in range(12):
        assert f"turn {turn} row 0 text" in got and f"turn {turn} row 39 text" in got


def test_frames_carry_marks_and_widths() -> None:
    fb = FrameBuilder(40, 5)
    frames = _feed(fb, 0.0, "".join(f"row {i}\r\n" for i in range(8)))
    frames += fb.feed_event(0.001, "r", "30x5")
    frames += _feed(fb, 0.002, "\x1b[2J" + "".join(f"again {i}\r\n" for i in range(8)))
    frames += fb.finish()
    marks = [(f.index, m) for f in frames for m in f.marks]
    assert {why for _, (_, why) in marks} == {"resize", "clear"}
    for f in frames:
        assert len(f.widths) == len(f.scrolled)


def test_look_alike_paragraphs_are_not_a_copy() -> None:
    """After a resize with no reprint (Kimi), new paragraphs that open like
    the old ones but name another harbour stay."""
    def para(i: int, name: str) -> list[str]:
        return [f"Paragraph {i}. The streaming answer keeps going so the terminal has time to change",
                f"size while it is drawn; each one names a harbour: {name}, with its lighthouse.", ""]
    old = tl(para(1, "Aberdeen") + para(2, "Bergen"), 90)
    new = tl(para(3, "Cadiz") + para(4, "Dubrovnik"), 70)
    lines = old + new
    for start in range(len(old) - 3, len(old) + 1):
        assert texts(fold_redraws(lines, [(start, 6)])) == texts(lines)


def test_a_burst_longer_than_the_scrollback_loses_nothing() -> None:
    """One event holding more rows than the screen's history keeps: frames
    are taken inside it, so the transcript still has the first rows."""
    fb = FrameBuilder(80, 24, scrollback=1000)
    rows = "".join(f"burst row {i}\r\n" for i in range(5000))
    frames = fb.feed_event(0.0, "o", rows) + fb.finish()
    got = [ln.text for ln in build_transcript(frames) if ln.text.strip()]
    assert got[:3] == ["burst row 0", "burst row 1", "burst row 2"]
    assert len([g for g in got if g.startswith("burst row")]) == 5000
