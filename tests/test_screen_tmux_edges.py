"""Adversarial byte streams, each drawn by our screen and by tmux 3.3a.

Small synthetic streams aimed at what real recordings meet seldom but
tmux does in a definite way: halves of wide characters overwritten,
combining marks at the last column, after a wrap and at the first column,
zero-width joiners (tmux joins the next character to the cell left of the
cursor, wherever the cursor went, and never gives it a cell of its own),
VS16, tabs at the edge, scroll regions that do not start at the top (tmux
moves their top row into its scrollback), DECSET 2027 (tmux 3.3a does not
know it), reflow with wide characters at the fold, the alternate screen
resized, insert and delete over wide characters, autowrap off with wide
characters. Every visible row,
every scrollback row and the cursor must equal tmux after each step; the
cases also state, without tmux, what the screen must hold.

Left different on purpose: character widths follow the `wcwidth` package
(what agents' own width functions say), not glibc's `wcwidth`, which tmux
uses: glibc gives Indic spacing marks (the ि of हिन्दी) one cell where the
agent and we give none, so tmux garbles text the agent placed by its own
widths (see KNOWN_DIFFERENT in test_screen_conformance.py).
"""
from __future__ import annotations

import pytest

from screen.vscreen import VirtualScreen
from tests.test_screen_reflow import needs_tmux, run, same_as_tmux

WOMAN, MICROSCOPE, FIRE = "\U0001f469", "\U0001f52c", "\U0001f525"
ZWJ = "\u200d"
LONG_JP = "日本語の文字列です。"

CASES: dict[str, tuple[int, int, list]] = {
    "wide-over-wide-shifted": (10, 3, ["日本語", "\x1b[1;2H中", "\x1b[2;1H中文\x1b[2;2Hé"]),
    "ascii-over-right-half-past-column-one": (10, 3, ["a日本語", "\x1b[1;3Hxy"]),
    "mark-at-the-last-column": (6, 3, ["abcdef\u0301g", "\r\n12345中\u0301x"]),
    "mark-after-a-wrap": (6, 3, ["abcdefg\u0301h\r\nabcde中\u0302"]),
    "mark-at-the-first-column-is-dropped": (6, 3, ["abc\r\n\u0301x\x1b[2;1H\u0303"]),
    "marks-kept-as-received": (12, 3, ["cafe\u0301 e\u0301\u0302 na\u0308ive", "\r\nd\u0323\u0307 \u4e2d\x1b[D\u0301|"]),
    "marks-past-21-bytes-dropped": (12, 2, ["e" + "\u0301" * 12 + "|"]),
    "zwj-sequences": (14, 4, [f"a{WOMAN}{ZWJ}{MICROSCOPE}b|", f"\r\n{WOMAN}{ZWJ}{MICROSCOPE}{ZWJ}{FIRE}|",
                              "\r\n\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466|"]),
    "zwj-joins-what-comes-next-wherever-the-cursor-is": (
        14, 5, [f"{WOMAN}{ZWJ}\x1b[C{MICROSCOPE}|", f"\r\n{WOMAN}{ZWJ}ab\x1b[2;7Hé|",
                f"\r\n{WOMAN}{ZWJ}\r\n{MICROSCOPE}|", f"\r\n{ZWJ}x{ZWJ}中|"]),
    "zwj-with-autowrap-off-joins-ascii": (10, 2, [f"\x1b[?7l{WOMAN}{ZWJ}x|\x1b[?7h"]),
    "zwj-at-the-fold-and-resized": (8, 4, [f"12345{WOMAN}{ZWJ}{MICROSCOPE}{WOMAN}{ZWJ}{MICROSCOPE}.", (5, 4), (11, 4)]),
    "vs16-and-vs15": (12, 4, ["a\u2764\ufe0fb\r\n\U0001f3f3\ufe0f\u200d\U0001f308|\r\n\u263a\ufe0e|\u2764\ufe0f\u2764\ufe0f|"]),
    "decset-2027-changes-nothing-in-tmux": (12, 4, [f"\x1b[?2027h{WOMAN}{ZWJ}{MICROSCOPE}x\x1b[?2027l\r\n{WOMAN}{ZWJ}{MICROSCOPE}x"]),
    "tab-at-the-last-column-keeps-the-wrap": (20, 4, ["a\tb\tc\td\te\r\n\x1b[3g\x1b[5G\x1bH\r\tx\t\ty\r\n\x1b[2Z|", (13, 4), "\r\n\tq\tr"]),
    "tabs-after-wide-characters": (16, 3, ["中\t文\tz\r\n1234567\t中"]),
    "region-away-from-the-top-scrolls-into-tmux-scrollback": (
        10, 6, ["".join(f"L{i}\r\n" for i in range(5)) + "\x1b[2;4r\x1b[4;1H\r\nA\r\nB\x1b[2;1H\x1bM\x1bMC\x1b[r\x1b[6;1H\r\nD",
                (10, 8)]),
    "region-of-wide-text-scrolled-by-su-and-sd": (10, 6, ["\x1b[2;5r\x1b[5;1H" + LONG_JP * 3 + "\x1b[3S\x1b[2T\x1b[r"]),
    "reflow-with-wide-characters-at-the-fold": (9, 5, ["abcdefgh日本語あいう\r\nxy", (8, 5), (7, 4), (12, 6), (5, 3), (20, 5)]),
    "reflow-wide-run-odd-widths": (7, 5, ["a日本語あいう日本", (6, 5), (9, 5), (4, 5)]),
    "alternate-screen-resized-with-wide-text": (10, 4, ["main 日本語 text\r\n", "\x1b[?1049h\x1b[H日本語日本語x", (7, 4),
                                                        "\x1b[1;6Hz", (12, 5), "\x1b[?1049l", (9, 4)]),
    "alternate-row-wider-than-the-screen-keeps-a-stub": (12, 3, ["\x1b[?1049h\x1b[2;1Habcde日本語", (9, 3),
                                                                  "\x1b[2;1H\x1b[44m         \x1b[K\x1b[0m", (14, 3)]),
    "insert-and-delete-over-wide-characters": (10, 3, ["日本語ab", "\x1b[1;2H\x1b[2@", "\r\n日本語ab\x1b[2;2H\x1b[P",
                                                       "\r\nab日本\x1b[3;3H\x1b[1@"]),
    "erase-characters-and-line-over-halves": (10, 4, ["日本語ab\x1b[1;2H\x1b[2X", "\r\n日本語\x1b[2;4H\x1b[1X",
                                                      "\r\n日本語\x1b[3;4H\x1b[K", "\r\n日本語\x1b[4;4H\x1b[1K"]),
    "insert-mode-with-wide-characters": (10, 3, ["\x1b[4h日本\x1b[1;1Hx\x1b[1;4Hé\x1b[4l"]),
    # tmux counts a row a character was inserted into (mode 4 or ICH) as
    # written to the width, blanks moved in included, autowrap on or off: a
    # narrower resize splits it there; the cell pushed past the edge is gone.
    "insert-with-autowrap-off-then-erase-keeps-the-width": (6, 2, ["•●\x1b[?7la\x1b[4ha\x1b[K", (5, 2), (4, 2)]),
    "insert-at-the-start-of-a-short-no-wrap-row": (6, 2, ["\x1b[?7lxy\x1b[4h\ra\x1b[K\x1b[4l", (5, 2), (4, 2)]),
    "ich-on-a-no-wrap-row-then-erase": (6, 2, ["\x1b[?7lxy\r\x1b[@\x1b[C\x1b[K", (5, 2), (4, 2)]),
    "insert-mode-drops-the-cell-pushed-past-the-edge": (6, 3, ["abcdef\r\x1b[4hx\x1b[4l\r\nq", (5, 3), (3, 3), (7, 3)]),
    "autowrap-off-drops-a-wide-character-that-does-not-fit": (6, 3, ["\x1b[?7labcde中文x\r\n中文字中文\x1b[?7h"]),
}


@needs_tmux
@pytest.mark.parametrize("name", sorted(CASES))
def test_edge_streams_match_tmux(name):
    cols, rows, steps = CASES[name]
    same_as_tmux(cols, rows, steps)


def cell_texts(s: VirtualScreen, y: int) -> list[str]:
    return [s.buffer[y][x].data for x in range(s.columns)]


def test_combining_marks_stay_as_received():
    s = run(10, 2, ["cafe\u0301"])
    assert s.text_lines()[0] == "cafe\u0301"  # not composed to "café"
    assert cell_texts(s, 0)[3] == "e\u0301"


def test_a_joined_emoji_takes_one_wide_cell_and_the_cursor_stays():
    s = run(10, 2, [f"a{WOMAN}{ZWJ}{MICROSCOPE}b"])
    assert cell_texts(s, 0)[:4] == ["a", f"{WOMAN}{ZWJ}{MICROSCOPE}", "", "b"]
    assert s.cursor.x == 4


def test_a_joiner_waits_over_plain_ascii_for_the_next_other_character():
    s = run(12, 2, [f"{WOMAN}{ZWJ}ab\x1b[1;7Hé"])
    assert cell_texts(s, 0)[:7] == [WOMAN, "", "a", "b", " ", f" {ZWJ}é", " "]


def test_a_region_away_from_the_top_feeds_the_scrollback_not_the_history():
    s = run(10, 6, ["L0\r\nL1\r\nL2\r\n\x1b[2;3r\x1b[3;1H\r\nA"])
    assert [ln.text for ln in s.scrollback] == ["L1"]
    assert list(s.history) == []  # the engine history records rows leaving the screen's top only


def test_autowrap_off_drops_a_wide_character_at_the_edge():
    s = run(6, 2, ["\x1b[?7labcde中x"])
    assert s.text_lines()[0] == "abcdex" and s.cursor.x == 5


def test_a_tab_from_the_last_column_keeps_the_pending_wrap():
    s = run(10, 3, ["1234567890\tX"])
    assert s.text_lines()[:2] == ["1234567890", "X"]


def test_a_row_written_by_insert_mode_with_autowrap_off_counts_to_the_width():
    # The erase leaves "xyaa" but tmux's extent stays 6: at 5 columns the row
    # splits, its blank tail takes a row and the text goes to the scrollback.
    s = run(6, 2, ["xy\x1b[?7la\x1b[4ha\x1b[K"])
    assert s.buffer[0].used == 6
    s.resize(columns=5, lines=2)
    assert [ln.text for ln in s.scrollback] == ["xyaa"] and s.text_lines() == ["", ""]


def test_insert_mode_drops_the_cell_pushed_past_the_edge():
    s = run(6, 2, ["abcdef\r\x1b[4hx"])
    assert max(s.buffer[0]) == 5
    s.resize(columns=7, lines=2)
    assert s.text_lines()[0] == "xabcde"
