"""Stitching the views of a full-screen TUI into one transcript."""
from __future__ import annotations

import json

from agents_chrome.stitch import Stitcher
from agents_chrome.transcript import build_transcript
from screen.cast import CastReader
from screen.frames import iter_frames

ROWS, COLS = 24, 60
VIEW = ROWS - 3  # header row + input box rows


def answer_lines(n: int = 200) -> list[str]:
    # Varied, repeating-in-places content: blank lines and identical lines too.
    out = []
    for i in range(n):
        if i % 17 == 0:
            out.append("")
        elif i % 23 == 0:
            out.append("    return None")
        else:
            out.append(f"line {i:03d}: the quick brown fox #{i * 7 % 101}")
    return out


def draw_view(lines: list[str], top: int) -> str:
    """A full redraw inside a synchronized update: header, viewport, input box."""
    parts = ["\x1b[?2026h\x1b[H\x1b[2J", "\x1b[1;1H\x1b[7m Synthetic TUI \x1b[0m"]
    for r, ln in enumerate(lines[top:top + VIEW]):
        parts.append(f"\x1b[{r + 2};1H{ln}")
    parts.append(f"\x1b[{ROWS - 1};1H{'─' * COLS}\x1b[{ROWS};1H> ")
    parts.append("\x1b[?2026l")
    return "".join(parts)


def synthetic_cast(tmp_path) -> tuple:
    lines = answer_lines()
    events = [[0.0, "o", "\x1b[?1049h"]]
    t = 0.1
    shown = 0
    tops = []
    # The answer streams in: a few lines at a time, the view follows the bottom.
    while shown < len(lines):
        shown = min(len(lines), shown + 3)
        tops.append(max(0, shown - VIEW))
    # PageUp twice in the middle of the session, then back down.
    mid = len(tops) // 2
    tops = tops[:mid] + [max(0, tops[mid] - VIEW), max(0, tops[mid] - 2 * VIEW), tops[mid]] + tops[mid:]
    shown_by_step = []
    shown = 0
    for i, top in enumerate(tops):
        if i < mid or i > mid + 2:
            shown = min(len(lines), shown + 3)
        shown_by_step.append(shown)
        events.append([round(t, 3), "o", draw_view(lines[:shown], top)])
        t += 0.2
    events.append([round(t, 3), "o", "\x1b[?1049l"])
    p = tmp_path / "synthetic.cast"
    with p.open("w") as f:
        f.write(json.dumps({"version": 2, "width": COLS, "height": ROWS}) + "\n")
        for e in events:
            f.write(json.dumps(e) + "\n")
    return p, lines


def test_200_line_answer_with_paging_comes_out_whole_once_in_order(tmp_path):
    path, lines = synthetic_cast(tmp_path)
    with CastReader(path) as r:
        frames = list(iter_frames(r))
    tl = build_transcript(frames, viewport=lambda f: (1, ROWS - 2))
    got = [t.text for t in tl if t.source == "alt"]
    while got and not got[-1]:
        got.pop()
    while lines and not lines[0]:
        lines = lines[1:]  # blank rows above the first text are padding
    assert got == lines


def test_stitcher_places_repeated_views_without_duplicates():
    st = Stitcher()
    doc = [f"row {i} of the answer" for i in range(50)]
    for top in list(range(0, 41, 5)) + [10, 20, 40]:
        st.add(doc[top:top + 10])
    assert st.doc == doc


def test_stitcher_updates_the_streaming_tail_in_place():
    st = Stitcher()
    st.add(["> the question", "answer part", "⠋ working"])
    st.add(["> the question", "answer part one", "and two"])
    assert st.doc == ["> the question", "answer part one", "and two"]


def test_stitcher_keeps_lines_when_text_is_inserted_mid_view():
    st = Stitcher()
    st.add(["> question", "Sure, here it is:", "class A:", "And the tests:", "Why this?", "footer line"])
    # a late-rendered block pushes the rest down and the top scrolls away
    st.add(["class A:", "    def f(self): ...", "    def g(self): ...", "And the tests:",
            "import pytest", "Why this?", "footer line"])
    assert st.doc[:2] == ["> question", "Sure, here it is:"]
    assert st.doc[2:] == ["class A:", "    def f(self): ...", "    def g(self): ...", "And the tests:",
                          "import pytest", "Why this?", "footer line"]
