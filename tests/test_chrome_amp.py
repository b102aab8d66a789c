"""Amp chrome: answers taller than the viewport and the exit popup, against truth.json.

Amp draws a finished answer anchored to the bottom of its viewport (a token
counter while it streams), so the top of an answer taller than the screen
is on no frame. The replay recovers every row that was drawn and marks such
a turn partial, in the JSON and in the rich and markdown views. The real
CLI runs as a subprocess.
"""
from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

import pytest

from tests.conftest import cli, recording_cases

AGENT = "amp"
CASES = recording_cases(AGENT)
WORD = re.compile(r"\w+", re.UNICODE)


_cache: dict[tuple[str, str], str] = {}


def replay(case: Path, fmt: str = "json") -> str:
    if (str(case), fmt) in _cache:
        return _cache[(str(case), fmt)]
    p = cli("replay", str(case / "session.cast"), "--agent", AGENT, "--format", fmt)
    assert p.returncode == 0, p.stderr
    _cache[(str(case), fmt)] = p.stdout
    return p.stdout


def segments(turns: list[dict]) -> list[dict]:
    segs: list[dict] = []
    for t in turns:
        if t["role"] == "user" and not t.get("kind"):
            segs.append({"user": t["text"], "assistant": [], "partial": False})
        elif segs and t["role"] == "assistant":
            segs[-1]["assistant"].append(t["text"])
            segs[-1]["partial"] = segs[-1]["partial"] or bool(t.get("partial"))
    return segs


def recall(got: str, want: str) -> float:
    a, b = WORD.findall(got), WORD.findall(want)
    if not b:
        return 1.0
    return sum(m.size for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()) / len(b)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_answer_the_screen_did_not_show_whole_is_marked_partial(case: Path):
    """No false negatives. A turn marked partial may still be whole: an answer
    that just fits once its prompt scrolled out is drawn the same way, with
    nothing on screen joining it to what came before."""
    got = segments(json.loads(replay(case))["turns"])
    want = segments(json.loads((case / "truth.json").read_text())["turns"])
    assert [s["user"] for s in got] == [s["user"] for s in want]
    for g, w in zip(got, want):
        r = recall("\n".join(g["assistant"]), "\n".join(w["assistant"]))
        if not g["partial"]:
            # the one word a code fence's language tag gives is never drawn
            assert r >= 0.95, f"{g['user']!r}: {r:.2f} of the answer and not marked partial"
    assert sum(g["partial"] for g in got) <= len(got) // 2 + 1  # not every turn


def test_a_tall_answer_keeps_every_drawn_row_and_says_it_is_partial():
    case = next(c for c in CASES if c.name == "amp-c05-glob-grep-shell-100x30")
    turns = json.loads(replay(case))["turns"]
    last = [t for t in turns if t["role"] == "assistant"][-1]
    assert last.get("partial") is True
    # the last row was under the Ctrl+C popup on the final frames: kept whole
    assert last["text"].rstrip().endswith("apply any of these changes.")
    assert "30. Step 30" in last["text"] and "def handle(items):" in last["text"]
    assert not any(t.get("partial") for t in turns if t is not last)
    assert "[partial: not all of it was on screen]" in replay(case, "markdown")
    assert "partial: not all of it was on screen" in replay(case, "rich")
