"""OpenCode chrome, round h6: behaviour on real recordings (recordings/opencode/h6-*).

A held-out round recorded on a loaded machine: OpenCode drew seconds apart,
so answers jumped past whole screens between frames. Each test replays a
real recording through the real CLI and checks a structural property
against truth.json (what was typed and what the mock served).
"""
from __future__ import annotations

import json
import re

import pytest

from tests.test_chrome_opencode import answers, case, recall, replay, segments, truth_segments

H6 = ["h6-long-harbour-104x31", "h6-cjk-zwj-79x27", "h6-resize-stream-93x23", "h6-small-60x20",
      "h6-scroll-stream-150x44", "h6-wide-hives-200x60"]


def users(segs: list[dict]) -> list[str]:
    return [" ".join(s["user"].split()) for s in segs]


@pytest.mark.parametrize("name", H6)
def test_every_prompt_comes_back_exact(name, tmp_path_factory):
    """Twelve turns; resizes both ways while answers stream (93x23 -> 151x43
    -> 67x21, 61x20 -> 137x35); PageUp and the mouse wheel while an answer
    streams; CJK, ZWJ emoji and accents at odd widths: one user turn per
    typed prompt, each exact, in order."""
    path = case(name)
    got = segments(replay(path, False, tmp_path_factory)["turns"])
    assert users(got) == users(truth_segments(path))


def test_reasoning_is_not_answer_text(tmp_path_factory):
    """A reasoning model's thinking streams before its answer and folds to
    `+ Thought: 1.2s` when it ends: neither the thinking nor its fold comes
    out as answer text, and the answer after it is whole."""
    path = case("h6-long-harbour-104x31")
    truth = json.loads((path / "truth.json").read_text())["turns"]
    thoughts = [t["text"] for t in truth if t["role"] == "thinking"]
    assert thoughts
    got = segments(replay(path, False, tmp_path_factory)["turns"])
    text = "\n".join(answers(g) for g in got)
    assert "Thought:" not in text
    for thought in thoughts:
        assert thought[:40] not in text
    for g, w in zip(got, truth_segments(path)):
        if any(t["role"] == "thinking" for t in w["turns"]):
            assert recall(answers(w), answers(g)) == 1.0, g["user"]


def test_answer_that_opens_with_a_code_block(tmp_path_factory):
    """An answer whose first row is code (no text above the fence) is still
    the answer: its first code line opens it, the text after the block ends it."""
    path = case("h6-long-harbour-104x31")
    got = segments(replay(path, False, tmp_path_factory)["turns"])
    seg = next(g for g in got if g["user"].startswith("write me a function"))
    text = answers(seg)
    assert text.startswith("def high_waters(levels: list[float]) -> list[int]:")
    assert text.rstrip().endswith("you get the row numbers of the peaks.")


@pytest.mark.parametrize("screen_only", [False, True])
def test_scrolling_back_while_an_answer_streams(screen_only, tmp_path_factory):
    """PageUp twice and the mouse wheel three times while an answer streams
    (the view leaves the bottom, the stream goes on under it), then back
    down: every answer whole, each numbered item once."""
    path = case("h6-scroll-stream-150x44")
    got, want = segments(replay(path, screen_only, tmp_path_factory)["turns"]), truth_segments(path)
    assert users(got) == users(want)
    for g, w in zip(got, want):
        assert recall(answers(w), answers(g)) >= 0.99, g["user"]
        items = re.findall(r"^\s*\d+\. Messier \d+", answers(g), flags=re.M)
        assert len(items) == len(set(items)), g["user"]
