"""Gemini CLI and Amp: behaviour found by the h6 round of fresh recordings.

Gemini:
- `/clear` draws the logo and tips again over an empty conversation: the
  stretch before it is no older copy of what follows (only a reprint that
  draws the same prompts again is), so every turn before a clear is kept
  (h6-gem-depot-long, h6-gem-glacier-narrow lost all their turns);
- a resize mid-answer leaves the paragraph as far as it had streamed (cut
  inside a word) in the scrollback above its reprint: the cut copy goes;
- a full row cut inside a spaceless run holding wide characters
  (`写进calib-1.lo` + `g文件`) is one line again;
- `^C^C` echoed by the terminal after the CLI exits is no answer.
Amp:
- an answer taller than the screen stays marked partial in the archive
  (`import` then `show`), not only in `replay`.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agents_chrome.gemini import _drop_rewrapped_repeats, _join_wide_wraps
from tests.conftest import RECORDINGS, cli, cli_replay

GEM = RECORDINGS / "gemini"
AMP = RECORDINGS / "amp"
CLEARED = [GEM / "h6-gem-depot-long-93x27", GEM / "h6-gem-glacier-narrow-62x20"]


def typed(turns: list[dict]) -> list[str]:
    return [" ".join(t["text"].split()) for t in turns if t["role"] == "user" and not t.get("kind")]


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
@pytest.mark.parametrize("case", CLEARED, ids=[c.name for c in CLEARED])
def test_the_turns_before_a_clear_are_kept(case: Path, screen_only: bool, tmp_path_factory) -> None:
    truth = json.loads((case / "truth.json").read_text())["turns"]
    got = cli_replay(case, "gemini", screen_only, tmp_path_factory)["turns"]
    assert typed(got) == typed(truth)
    last = [t["text"] for t in truth if t["role"] == "assistant"][-1]
    assert " ".join(last.split()) in " ".join(t["text"] for t in got if t["role"] == "assistant").replace("\n", " ")


def test_a_paragraph_cut_by_a_resize_is_not_repeated(tmp_path_factory) -> None:
    case = GEM / "h6-gem-depot-long-93x27"
    got = cli_replay(case, "gemini", False, tmp_path_factory)["turns"]
    answer = next(t["text"] for i, t in enumerate(got) if t["role"] == "assistant"
                  and got[i - 1]["text"].startswith("walk me through the overnight brake-test"))
    assert answer.count("In part 1 the job wakes") == 1


def test_cut_copy_rules() -> None:
    # the streamed part of a paragraph, cut inside a word, then the paragraph whole
    assert _drop_rewrapped_repeats("In part 1 the job wakes fr\n\nIn part 1 the job wakes from slot 11.") == \
        "In part 1 the job wakes from slot 11."
    # a short paragraph the next one merely opens with is kept
    assert _drop_rewrapped_repeats("Done.\n\nDone. Next step.") == "Done.\n\nDone. Next step."
    text = " 1. 第1步：等待读数稳定3分钟，然后把偏差写进calib-1.lo\n    g文件，若偏差超过2厘米就重新开始。"
    assert "calib-1.log文件" in _join_wide_wraps(text)
    # a new list item under a full row is not joined
    assert _join_wide_wraps(" 1. 一二三四五六七八九十\n 2. abc") == " 1. 一二三四五六七八九十\n 2. abc"


@pytest.mark.parametrize("case", sorted(GEM.glob("h6-*")), ids=lambda c: c.name)
def test_no_key_echo_in_answers(case: Path, tmp_path_factory) -> None:
    got = cli_replay(case, "gemini", False, tmp_path_factory)["turns"]
    assert not [t for t in got if t["role"] == "assistant" and re.fullmatch(r"\s*(\^[A-Z])+\s*", t["text"])]


def test_the_archive_keeps_an_answer_partial(capcap_home, tmp_path_factory) -> None:
    case = AMP / "h6-amp-lighthouse-tall-74x21"
    replayed = cli_replay(case, "amp", False, tmp_path_factory)["turns"]
    want = [t["text"] for t in replayed if t.get("partial")]
    assert len(want) == 2  # the two answers taller than the 21-row screen
    p = cli("import", str(case / "session.cast"), "--agent", "amp")
    assert p.returncode == 0, p.stderr
    cid = p.stdout.split()[0]
    shown = cli("show", cid, "--format", "json")
    assert shown.returncode == 0, shown.stderr
    assert [t["text"] for t in json.loads(shown.stdout)["turns"] if t.get("partial")] == want
    md = cli("show", cid, "--format", "markdown").stdout
    assert md.count("partial") == 2
