"""Codex: what round h23's randomized probes found.

The probes come from the h22 generators reseeded (seeds 2321-2345, harness
copy /tmp/h23-codexoc/harness/codex: gen23.py, gen23c.py for Codex started
from a shell): sessions of 8 to 14 prompts, both screen modes, approvals,
resizes while an answer streams and while a slow tool runs, Esc, `/model`,
`/clear`, CJK and emoji prompts, tables with wide cells.

h23-codex-s2323-na-73x23 (`--no-alt-screen`, twelve prompts, seven
resizes): inline, Codex prints the whole conversation again at each resize.
At 62 columns a prompt's `stomir カタカナ praglewim` was cut inside the
Katakana word (`… stomir カタカ` / `ナ praglewim …`). The text spaces its
wide words (`한국어 数据 函数`), so the cut was read as a space: the prompt
came back as `カタカ ナ` (user_exact .92 both ways). Codex cuts a wide word
where the row is full, and a space break between two wide words leaves the
same rows: the layout alone cannot tell them apart. The layouts at 156 and
136 columns drew `カタカナ` whole inside a row. A run of wide letters some
frame drew whole inside a row (text on both sides of it), whose spaced form
no frame drew, is now joined without a space where a row's end cut it
(agents_chrome/codex.py `_learn_intact`, `_join_wide_wraps`).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import regex

from agents_chrome.codex import _join_wide_wraps
from tests.conftest import RECORDINGS, recording_cases, replay_json, truth_turns, typed_prompts

S2323 = RECORDINGS / "codex" / "h23-codex-s2323-na-73x23"
WIDE_RUN = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}ー]{2,}")
#: a resize event in the raw cast
RESIZE_RAW = regex.compile(r'^\[[0-9.]+, "r", ', regex.M)


def _wide_prompts_resized(case: Path) -> bool:
    """A recording whose typed prompts hold a run of wide letters and whose
    window was resized (raw truth.json and cast, read at collection: no replay)."""
    truth = (case / "truth.json")
    if not truth.exists():
        return False
    turns = json.loads(truth.read_text(encoding="utf-8"))["turns"]
    if not any(t["role"] == "user" and not t.get("kind") and WIDE_RUN.search(t["text"]) for t in turns):
        return False
    return bool(RESIZE_RAW.search((case / "session.cast").read_text(encoding="utf-8")))


WIDE_CASES = [c for c in recording_cases("codex") if _wide_prompts_resized(c)]


def test_the_probe_is_selected():
    assert S2323 in WIDE_CASES


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", WIDE_CASES, ids=[c.name for c in WIDE_CASES])
def test_wide_words_of_prompts_come_back_whole(case: Path, screen_only: bool):
    """Every run of wide letters a prompt was typed with comes back whole in
    that prompt: a resize's reprint cut inside one is no space."""
    got = typed_prompts(replay_json(case / "session.cast", "codex", screen_only)["turns"])
    want = typed_prompts(truth_turns(case))
    for p in want:
        runs = WIDE_RUN.findall(p)
        if not runs or p in got:
            continue
        # the prompt came back otherwise (another loss, tested elsewhere): its wide
        # runs must still be whole in the prompt that shares its opening
        twin = next((g for g in got if g[:12] == p[:12]), None)
        assert twin is not None, p[:40]
        assert all(r in twin for r in runs), (p, twin)


def test_a_run_drawn_whole_elsewhere_joins_without_a_space():
    rows = "› stomir 한국어 数据 函数 tra カタカ\n  ナ praglewim ishgle?"
    # a text that spaces its wide words: the cut reads as a space ...
    assert _join_wide_wraps(rows) == "› stomir 한국어 数据 函数 tra カタカ ナ praglewim ishgle?"
    # ... unless another layout drew the run whole inside a row
    assert _join_wide_wraps(rows, intact=frozenset({"カタカナ"})) == "› stomir 한국어 数据 函数 tra カタカナ praglewim ishgle?"
    # and not when a frame drew it spaced, too
    assert _join_wide_wraps(rows, intact=frozenset({"カタカナ", "カタカ ナ"})).count("カタカ ナ") == 1

