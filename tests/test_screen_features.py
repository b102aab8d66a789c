"""The virtual screen's features, each driven by the byte sequences TUIs send."""
from __future__ import annotations

import pyte
import pytest
from hypothesis import given, settings, strategies as st

from screen.frames import FrameBuilder
from screen.parser import _SGR_ONE, _sgr_params
from screen.vscreen import VirtualScreen


def screen(cols: int = 20, rows: int = 5, scrollback: int = 100) -> VirtualScreen:
    return VirtualScreen(cols, rows, scrollback=scrollback)


def test_lines_leaving_the_top_enter_scrollback_with_attributes():
    s = screen(rows=3)
    s.feed("\x1b[1;31mred\x1b[0m\r\nb\r\nc\r\nd")
    assert [ln.text for ln in s.scrollback] == ["red"]
    start, end, fg, bg, flags = s.scrollback[0].spans[0]
    assert (start, end, fg, flags & 1) == (0, 3, "red", 1)
    assert s.text_lines() == ["b", "c", "d"]


def test_scrollback_is_bounded():
    s = screen(rows=2, scrollback=10)
    s.feed("\r\n".join(str(i) for i in range(100)))
    assert len(s.scrollback) == 10
    assert s.scrollback[-1].text == "97"
    assert s.history_total == 98


def test_alternate_screen_1049_restores_main_screen_and_cursor():
    s = screen()
    s.feed("main line\r\nsecond\x1b[2;3H")
    s.feed("\x1b[?1049h")
    assert s.alternate and s.text_lines() == ["", "", "", "", ""]
    s.feed("\x1b[Hfull screen app")
    assert s.text_lines()[0] == "full screen app"
    s.feed("\x1b[?1049l")
    assert not s.alternate
    assert s.text_lines()[:2] == ["main line", "second"]
    assert (s.cursor.x, s.cursor.y) == (2, 1)


@pytest.mark.parametrize("mode", ["1047", "47"])
def test_other_alternate_modes(mode):
    s = screen()
    s.feed("keep me")
    s.feed(f"\x1b[?{mode}h\x1b[HALT")
    assert s.text_lines()[0] == "ALT"
    s.feed(f"\x1b[?{mode}l")
    assert s.text_lines()[0] == "keep me"


def test_alternate_screen_does_not_feed_scrollback():
    s = screen(rows=2)
    s.feed("\x1b[?1049h" + "\r\n".join("abcdef"))
    assert len(s.scrollback) == 0 and s.history_total == 0


def test_erase_scrollback_keeps_engine_history():
    s = screen(rows=2)
    s.feed("one\r\ntwo\r\nthree\r\nfour")
    assert [ln.text for ln in s.scrollback] == ["one", "two"]
    s.feed("\x1b[3J")
    assert len(s.scrollback) == 0
    assert list(s.history) == ["one", "two"]


def test_full_clear_pushes_visible_lines_to_history():
    s = screen(rows=4)
    s.feed("alpha\r\nbeta\x1b[2J\x1b[Hnew")
    assert list(s.history) == ["alpha", "beta"]
    assert s.text_lines()[0] == "new"


def test_synchronized_update_is_never_split_across_frames():
    fb = FrameBuilder(20, 3, gap=0.05)
    frames = []
    frames += fb.feed_event(0.0, "o", "\x1b[?2026h\x1b[2J\x1b[Hhalf")
    frames += fb.feed_event(1.0, "o", " drawn")  # long gap, but still inside the update
    frames += fb.feed_event(1.01, "o", "\x1b[?2026l")
    frames += fb.finish()
    texts = [f.lines[0] for f in frames]
    assert "half" not in texts
    assert texts[0] == "half drawn"
    assert frames[0].reason == "sync"


def test_frames_taken_before_clear_alt_switch_and_resize():
    fb = FrameBuilder(20, 3, gap=10)
    frames = fb.feed_event(0, "o", "before clear\x1b[2Jafter")
    assert frames[-1].reason == "clear" and frames[-1].lines[0] == "before clear"
    frames = fb.feed_event(0.1, "o", "\x1b[?1049h")
    assert frames[-1].reason == "alt-enter"
    frames = fb.feed_event(0.2, "r", "30x5")
    assert frames[-1].reason == "resize"
    end = fb.finish()[-1]
    assert end.reason == "end" and (end.columns, end.rows) == (30, 5) and end.alternate


def test_quiet_gap_makes_a_frame_and_carries_scrolled_lines_and_inputs():
    fb = FrameBuilder(10, 2, gap=0.5)
    fb.feed_event(0.0, "o", "a\r\nb\r\nc")
    fb.feed_event(0.1, "i", "x")
    frames = fb.feed_event(2.0, "o", "d")
    assert len(frames) == 1 and frames[0].reason == "quiet"
    assert frames[0].scrolled == ["a"] and frames[0].inputs == ["x"]


def test_scroll_regions_and_reverse_index():
    s = screen(rows=5)
    s.feed("1\r\n2\r\n3\r\n4\r\n5")
    s.feed("\x1b[2;4r\x1b[2;1H\x1bM")  # reverse index at the region top inserts a line
    assert s.text_lines() == ["1", "", "2", "3", "5"]
    s.feed("\x1b[4;1H\n")  # linefeed at the region bottom scrolls only the region
    assert s.text_lines() == ["1", "2", "3", "", "5"]
    assert s.history_total == 0  # a region not starting at the top feeds no history


def test_su_sd_scroll_whole_screen():
    s = screen(rows=3)
    s.feed("a\r\nb\r\nc\x1b[2S")
    assert s.text_lines() == ["c", "", ""] and list(s.history) == ["a", "b"]
    s.feed("\x1b[1T")
    assert s.text_lines() == ["", "c", ""]


def test_wide_and_combining_characters():
    s = screen(cols=6, rows=2)
    s.feed("日本語x")  # three wide chars fill 6 cells; x wraps
    assert s.text_lines() == ["日本語", "x"]
    s = screen(cols=10, rows=1)
    s.feed("e\u0301 ✔️ ok")  # combining accent (kept as received, as tmux); check mark + VS16 must not eat the rest
    assert s.text_lines() == ["e\u0301 ✔️ ok"]


def test_wide_char_at_last_column_wraps():
    s = screen(cols=5, rows=2)
    s.feed("abcd日")
    assert s.text_lines() == ["abcd", "日"]


def test_modern_sequences_leave_no_garbage():
    s = screen(cols=40, rows=2)
    s.feed("\x1b[>4;1m\x1b[>1u\x1b[<u\x1b[=1;1u\x1b[?u\x1b[?2004h\x1b[?1004h\x1b[5 q"
           "\x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\x1bP+q544e\x1b\\"
           "\x1b_Gi=1;AAAA\x1b\\\x1b[?2026$p\x1b[>0q\x1b[4:3mcurly\x1b[58;5;3mU\x1b[0m")
    assert s.text_lines()[0] == "linkcurlyU"
    assert s.title == "title"
    assert not s.cursor.attrs.bold  # CSI > 4;1 m is not SGR bold


def test_sequence_split_across_chunks():
    s = screen(cols=20, rows=2)
    for part in ["ab\x1b", "[3", "1mre", "d\x1b]0;t", "itle\x07z"]:
        s.feed(part)
    assert s.text_lines()[0] == "abredz"
    assert s.buffer[0][2].fg == "red"


def test_rep_repeats_last_character():
    s = screen(cols=20, rows=1)
    s.feed("─\x1b[9b")
    assert s.text_lines()[0] == "─" * 10


def test_resize_shrink_pushes_top_lines_to_history():
    s = screen(cols=10, rows=4)
    s.feed("1\r\n2\r\n3\r\n4")
    s.resize(lines=2, columns=10)
    assert s.text_lines() == ["3", "4"] and list(s.history) == ["1", "2"]
    s = screen(cols=10, rows=4)
    s.feed("1\x1b[H")  # blank rows below the cursor go first
    s.resize(lines=2)
    assert s.text_lines() == ["1", ""] and s.history_total == 0


def test_ascii_over_half_of_a_wide_character_blanks_the_other_half():
    s = screen(cols=10, rows=1)
    s.feed("日本語")
    s.feed("\x1b[1;2Hab")  # overwrites the right half of 日 and the left half of 本
    assert s.text_lines()[0] == " ab 語"


def test_redrawing_the_same_words_in_the_same_place_takes_the_current_attributes():
    # The same text at the same column is drawn from a cache of cell runs:
    # the cells must still carry the attributes in force now, on every row.
    s = screen(cols=20, rows=3)
    s.feed("\x1b[1;1H\x1b[31mstatus line\x1b[2;1H\x1b[32mstatus line\x1b[3;1H\x1b[0mstatus line")
    s.feed("\x1b[1;1H\x1b[32mstatus line")
    assert s.text_lines() == ["status line"] * 3
    fgs = [s.buffer[y][0].fg for y in range(3)]
    assert fgs == ["green", "green", "default"]
    assert all(s.buffer[0][x].fg == "green" for x in range(11))


def test_a_cached_run_over_a_wide_character_still_blanks_its_other_half():
    s = screen(cols=10, rows=2)
    s.feed("\x1b[2;1Hxabcd")  # "abcd" at column 1 is now a cached run
    s.feed("\x1b[1;1H日本語\x1b[1;2Habcd")  # over the right half of 日, the left half of 語
    assert s.text_lines() == [" abcd", "xabcd"]
    assert s.buffer[0][5].data == " "


def test_cursor_moves_follow_a_resize_and_origin_mode():
    s = screen(cols=20, rows=5)
    s.feed("\x1b[30;40HA")
    assert (s.cursor.y, s.cursor.x) == (4, 20)  # clamped: the A sits at the last column
    s.resize(lines=10, columns=50)
    s.feed("\x1b[30;40HB")
    assert (s.cursor.y, s.cursor.x) == (9, 40)
    s.feed("\x1b[3;6r\x1b[?6h\x1b[2;4HC")  # origin mode: relative to the margins
    assert s.text_lines()[3][3] == "C"


@pytest.mark.parametrize("seq, expected", [
    ("\x1b[K", "abc"), ("\x1b[0K", "abc"), ("\x1b[1K", "    efgh"), ("\x1b[2K", ""),
])
def test_erase_in_line_variants(seq, expected):
    s = screen(cols=8, rows=1)
    s.feed("abcdefgh\x1b[1;4H" + seq)
    assert s.text_lines() == [expected]


def test_many_distinct_words_keep_the_run_cache_bounded():
    from screen.vscreen import _RUN_BUDGET, _RUN_MAX
    s = screen(cols=200, rows=2)
    for i in range(40_000):
        s.feed(f"\x1b[1;{i % 150 + 1}Hword-{i:06d}")
    assert s._run_cells <= _RUN_BUDGET + _RUN_MAX
    row = s.text_lines()[0]
    assert row[39_999 % 150:].startswith("word-039999")


def test_text_mixing_ascii_with_wide_and_combining_characters():
    s = screen(cols=8, rows=3)
    s.feed("abcdefg日x\r\n")  # 日 does not fit in the last cell: it wraps, leaving that cell as it was (blank)
    s.feed("cafe\u0301 日")
    assert s.text_lines() == ["abcdefg", "日x", "cafe\u0301 日"]  # marks kept as received, as tmux
    assert s.buffer[2][3].data == "e\u0301" and s.buffer[2][5].data == "日" and s.cursor.x == 7


def test_a_wide_character_that_does_not_fit_leaves_the_last_cell_as_it_was():
    # tmux wraps it to the next row and keeps what the last cell held: an old
    # row's character, or a border Claude Code drew there just before (it moves
    # the cursor back onto the last column and writes a CJK cell of a table
    # wider than the terminal)
    s = screen(cols=10, rows=3)
    s.feed("0123456789\rabcdefghi中")
    assert s.text_lines()[:2] == ["abcdefghi9", "中"]
    s.feed("\r\nabcdefgh│x\x1b[10G日")
    assert s.text_lines() == ["中", "abcdefgh│x", "日"]


def test_line_drawing_charset_applies_once_to_mixed_text():
    s = screen(cols=10, rows=1)
    s.feed("\x1b(0lq日qk\x1b(Bq")  # DEC special graphics, then back to ASCII
    assert s.text_lines() == ["┌─日─┐q"]


SGR_CODES = st.sampled_from([0, 1, 2, 3, 4, 5, 7, 9, 22, 23, 24, 25, 27, 29, 30, 31, 37, 38, 39, 40, 47, 48,
                             49, 58, 90, 97, 100, 107, 2, 5, 255, 256, 9999])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.one_of(SGR_CODES.map(str), st.just("")), max_size=7), min_size=1, max_size=3),
       st.sampled_from(["default", "red", "aabbcc"]), st.booleans())
def test_an_sgr_run_sets_exactly_what_pyte_would(seqs, fg, bold):
    # The screen works out what a run of SGR sequences does once per run
    # text; applied to any starting attributes it must give pyte's result.
    run = "\x1b[".join(";".join(s) + "m" for s in seqs)
    ref = pyte.Screen(10, 2)
    ref.cursor.attrs = ref.cursor.attrs._replace(fg=fg, bold=bold)
    for params in _SGR_ONE.findall(run):
        ref.select_graphic_rendition(*_sgr_params(params))
    s = VirtualScreen(10, 2)
    s.cursor.attrs = s.cursor.attrs._replace(fg=fg, bold=bold)
    s.feed("\x1b[" + run + "x")
    assert s.buffer[0][0] == ref.cursor.attrs._replace(data="x")


MOVES = st.sampled_from(["\r", "\n", "\r\n", "\x1b[A", "\x1b[3A", "\x1b[0B", "\x1b[2B", "\x1b[C", "\x1b[7C",
                         "\x1b[D", "\x1b[4D", "\x1b[G", "\x1b[5G", "\x1b[99G", "\x1b[2;3H", "\x1b[31m",
                         "\x1b[0m", "\x1b[999999A", "\x1b[12C\x1b[1mab"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(MOVES, st.text(alphabet="abcdefgh ", min_size=1, max_size=12)), max_size=40))
def test_relative_moves_and_line_breaks_do_what_pyte_does(parts):
    # Moves, line breaks and the text after them are handled in the parser's
    # loop, not through pyte's methods; the screen must not tell.
    ref = pyte.Screen(10, 4)
    stream = pyte.Stream(ref)
    s = VirtualScreen(10, 4)
    for p in parts:
        stream.feed(p)
        s.feed(p)
        assert (s.cursor.x, s.cursor.y) == (ref.cursor.x, ref.cursor.y), p
    assert s.text_lines() == [ln.rstrip() for ln in ref.display]


@pytest.mark.parametrize("seq", ["\x1b[38;2;255;9;58mX", "\x1b[48;2;58;58;58mX", "\x1b[1;38;2;58;1;2;4mX",
                                 "\x1b[38;5;58mX", "\x1b[58;5;3;31mX", "\x1b[38;2;1;2mX"])
def test_colour_arguments_are_numbers_not_codes(seq):
    """A 58 among a colour's arguments is a level (Amp's gradients send them),
    not the underline-colour code: the colour is set as pyte sets it."""
    import pyte
    ours = VirtualScreen(10, 2)
    ours.feed(seq)
    ref = pyte.Screen(10, 2)
    pyte.Stream(ref).feed(seq)
    a, b = ours.buffer[0][0], ref.buffer[0][0]
    assert (a.data, a.fg, a.bg, a.bold, a.underscore) == (b.data, b.fg, b.bg, b.bold, b.underscore)
