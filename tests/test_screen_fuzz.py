"""Arbitrary bytes never break the screen, and memory stays bounded."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from screen.vscreen import VirtualScreen

ESCAPES = st.sampled_from(["\x1b[", "\x1b]", "\x1bP", "\x1b[?1049h", "\x1b[?1049l", "\x1b[?2026h",
                           "\x1b[?2026l", "\x1b[2J", "\x1b[3J", "\x1b[5;10r", "\x1bM", "\r\n", "\x1b[38:2::1:2:3m",
                           "\x1b[>4;1m", "\x1b[999;999H", "\x1b[99999b", "日", "\u0301", "\ufe0f", "🇫🇷", "\x1b[S",
                           "\x1b[3@", "\x1b[2P", "\x1b[4X", "\x1b[2L", "\x1b[2M", "\x1b[?5h", "\x1b#8", "\x1bc",
                           "\x1b[4h", "\x1b[4l", "\x1b[?7l", "\x1b[?7h", "\x1b[1K", "\x1b[1J", "\x1b[H", "\x1b[10;3H"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=40), ESCAPES, st.binary(max_size=20).map(
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
