"""Arbitrary bytes never break the screen, and memory stays bounded."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from screen.vscreen import VirtualScreen

ESCAPES = st.sampled_from(["\x1b[", "\x1b]", "\x1bP", "\x1b[?1049h", "\x1b[?1049l", "\x1b[?2026h",
                           "\x1b[?2026l", "\x1b[2J", "\x1b[3J", "\x1b[5;10r", "\x1bM", "\r\n", "\x1b[38:2::1:2:3m",
                           "\x1b[>4;1m", "\x1b[999;999H", "\x1b[99999b", "日", "\u0301", "\ufe0f", "🇫🇷", "\x1b[S",
                           "\x1b[3@", "\x1b[2P", "\x1b[4X", "\x1b[2L", "\x1b[2M", "\x1b[?5h", "\x1b#8", "\x1bc",
                           "\x1b[4h", "\x1b[4l", "\x1b[?7l", "\x1b[?7h", "\x1b[1K", "\x1b[1J", "\x1b[H", "\x1b[10;3H"])

# Any CSI a program could send: a private marker, numbers (huge ones too),
# colon sub-parameters, an intermediate byte and every final byte.
GENERATED_CSI = st.builds(
    lambda private, params, inter, final: f"\x1b[{private}{params}{inter}{final}",
    st.sampled_from(["", "?", ">", "<", "="]),
    st.lists(st.one_of(st.integers(0, 10), st.integers(0, 10**7), st.just("")), max_size=4).map(
        lambda ps: ";".join(map(str, ps))),
    st.sampled_from(["", "", " ", "!", "$", "'"]),
    st.characters(min_codepoint=0x40, max_codepoint=0x7e))
GENERATED_ESC = st.builds(lambda inter, final: f"\x1b{inter}{final}",
                          st.sampled_from(["", "(", ")", "#", " "]),
                          st.characters(min_codepoint=0x30, max_codepoint=0x7e))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=40), ESCAPES, GENERATED_CSI, GENERATED_ESC, st.binary(max_size=20).map(
    lambda b: b.decode("utf-8", "replace"))), max_size=60),
    st.integers(1, 50), st.integers(1, 20))
def test_arbitrary_input_never_raises(parts, cols, rows):
    s = VirtualScreen(cols, rows, scrollback=50)
    for p in parts:
        s.feed(p)
    lines = s.text_lines()
    assert len(lines) == rows
    assert 0 <= s.cursor.y < rows and 0 <= s.cursor.x <= cols
    assert len(s.scrollback) <= 50 and len(s.history) <= 50
    assert all(k < rows for k in s.buffer)


@settings(max_examples=20, deadline=None)
@given(st.integers(1000, 5000))
def test_memory_bounded_by_scrollback(n):
    s = VirtualScreen(40, 5, scrollback=100)
    for i in range(n):
        s.feed(f"line {i} " + "x" * 30 + "\r\n")
    assert len(s.scrollback) == 100 and len(s.history) == 100
    assert len(s.buffer) <= 5


PARAMS = ["", "0", "1", "2", "3", "5", "7;9", "9999999", "1;2;3;4;5", "0;0", ";", "4:3", "38:2::1:2:3"]


def _scribbled(cols: int = 12, rows: int = 4) -> VirtualScreen:
    s = VirtualScreen(cols, rows, scrollback=20)
    s.feed("ab日本\u0301c\r\n\x1b[31mred\x1b[0m line\r\n\x1b[2;3r\x1b[3;2H")
    return s


def test_every_csi_final_with_any_parameters_never_raises():
    """A sweep, not a sample: every final byte, private marker and parameter shape."""
    for alternate in ("", "\x1b[?1049h"):
        for private in ("", "?", ">", "<", "="):
            for params in PARAMS:
                for final in map(chr, range(0x40, 0x7f)):
                    s = _scribbled()
                    s.feed(alternate)
                    seq = f"\x1b[{private}{params}{final}"
                    s.feed(seq + "z")
                    assert len(s.text_lines()) == 4, repr(seq)
                    assert 0 <= s.cursor.y < 4 and 0 <= s.cursor.x <= 12, repr(seq)


def test_every_esc_final_never_raises():
    for inter in ("", "(", ")", "#", " ", "%"):
        for final in map(chr, range(0x30, 0x7f)):
            s = _scribbled()
            s.feed(f"\x1b{inter}{final}z")
            assert len(s.text_lines()) == 4
