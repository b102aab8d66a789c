"""Claude Code on real recordings: what the h12 round of fresh recordings
found, asserted on every Claude Code recording that shows the situation
(never on one case by name), against its truth.json, as recorded and with
the input events stripped:

- the inline renderer shrunk while it answers clears the screen and paints
  the rows that fit again at the new width, from wherever the top lands
  (here inside the answer before, a list with Japanese in it). The terminal
  had re-wrapped the old rows first, cutting a word at the edge on a row
  that also holds wide characters; that cut word is one word only when the
  row's width is counted in cells. Counted in characters, the old copy
  parted from the repaint by one word, was kept, and the repaint's rows
  joined the prompt after it (a prompt with half an answer in it, and the
  prompt twice);
- `claude --continue` (or `--resume`) typed at the shell after a run of its
  own prints that run's conversation again before the first new prompt:
  each earlier turn comes back once, not once per launch.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from wcwidth import wcswidth

from agents_chrome.claude_code import PROFILE
from agents_chrome.shell import _resumes_session, typed_agent
from agents_chrome.transcript import TLine, _words, fold_redraws
from tests.conftest import cli_replay, meta_of, recording_cases, truth_turns

CASES = recording_cases("claude-code")


def _typed(case: Path) -> list[str]:
    return [t["text"] for t in truth_turns(case) if t["role"] == "user" and not t.get("kind")]


def wide_answer_then_resize(case: Path, fullscreen: bool = False) -> bool:
    """Inline (or full screen), a served answer holds wide characters, and
    the terminal was resized while an answer streamed."""
    m = meta_of(case)
    if m.get("env", {}).get("CLAUDE_CODE_NO_FLICKER") != ("1" if fullscreen else "0") or m.get("shell"):
        return False
    wide = any(t["role"] == "assistant" and wcswidth(t["text"].replace("\n", "")) > len(t["text"].replace("\n", ""))
               for t in truth_turns(case))
    return wide and any("resized" in n and "serving" in n for n in m.get("notes", []))


def _resumed_launches(case: Path) -> bool:
    """A shell recording where Claude Code is started on its saved session
    after a run of its own."""
    launches = [x for x in meta_of(case).get("shell", {}).get("typed_at_shell", [])
                if typed_agent(x) == "claude-code"]
    return len(launches) >= 2 and any(_resumes_session(PROFILE, x) for x in launches[1:])


WIDE_RESIZE_CASES = [c for c in CASES if wide_answer_then_resize(c)]
RESUME_CASES = [c for c in CASES if _resumed_launches(c)]


def test_some_recordings_show_the_situations() -> None:
    assert WIDE_RESIZE_CASES, "no inline Claude Code recording resized after an answer with wide characters"
    assert RESUME_CASES, "no Claude Code recording starts it again with --continue from the shell"


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", WIDE_RESIZE_CASES + RESUME_CASES, ids=lambda p: p.name)
def test_every_prompt_comes_back_once_and_alone(case: Path, screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(case, "claude-code", screen_only, tmp_path_factory)["turns"]
    slash = {t["text"] for t in truth_turns(case) if t.get("kind") == "slash_command"}
    got = [t["text"] for t in turns if t["role"] == "user" and t["text"] not in slash]
    # spaces as one: the echo keeps a long prompt's soft wraps as line breaks (known, scored
    # whitespace-normalised); what this asserts is each prompt once, with no answer in it
    assert [" ".join(g.split()) for g in got] == [" ".join(t.split()) for t in _typed(case)]


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", RESUME_CASES, ids=lambda p: p.name)
def test_reprinted_answers_come_back_once(case: Path, screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(case, "claude-code", screen_only, tmp_path_factory)["turns"]
    flat = ["".join(t["text"].split()) for t in turns if t["role"] == "assistant"]
    served = [t for t in truth_turns(case) if t["role"] == "assistant"]
    assert len(flat) == len(served)
    assert len(set(flat)) == len(flat), flat


def test_word_cut_by_the_wrap_on_a_row_with_wide_characters_is_one_word() -> None:
    """Rows as the terminal re-wrapped them at 71 columns: the first holds
    three wide characters, so its 68 characters fill all 71 cells, and
    `each` is cut at the edge."""
    row = "  Print them at 14 point; the wide characters 主音栓 take two columns e"
    assert len(row) < 71 == wcswidth(row)
    lines = [TLine(row, 1.0, "history", 0, 71, True), TLine("ach on", 1.0, "history", 0, 71, False)]
    assert [w for w, _i, _c in _words(lines, 0, 2)][-3:] == ["columns", "each", "on"]
    # an ASCII row as short, wrapped, ends where the text broke: two words
    short = TLine("  Print them at 14 point; the narrow characters abc take two columns e", 1.0, "history", 0, 80, True)
    assert [w for w, _i, _c in _words([short, lines[1]], 0, 2)][-3:] == ["e", "ach", "on"]


def test_repaint_after_a_shrink_folds_the_rewrapped_copy() -> None:
    """History as a 80x24 inline screen shrunk to 71 columns left it: the
    old rows the terminal re-wrapped (one word cut at the edge), then the
    repaint at 71 columns from a list item on, with the prompt and the new
    answer under it. The old copy goes; the prompt stays once."""
    old = [("  - Bourdon 16' = 閉管 (heikan) 🔧 needs new leather", False),
           ("  - Trompette 8' = 小号 (xiǎohào) 🎺", False), ("", False),
           ("  Print them at 14 point; the wide characters 主音栓 take two columns e", True),
           ("ach on", False), ("  the label printer too.", False), ("", False),
           ("✻ Churned for 0s · done 3:18 AM", False), ("", False),
           ("❯ how do I releather a bourdon stopper?", False), ("", False)]
    new = ["  - Bourdon 16' = 閉管 (heikan) 🔧 needs new leather", "  - Trompette 8' = 小号 (xiǎohào) 🎺", "",
           "  Print them at 14 point; the wide characters 主音栓 take two columns",
           "  each on the label printer too.", "", "✻ Churned for 0s · done 3:18 AM", "",
           "❯ how do I releather a bourdon stopper?", "",
           "● Releathering a Bourdon stopper is a bench job, and it goes in four"]
    head = [TLine("● Labels for the stop knobs:", 0.5, "history", 0, 80)]
    lines = head + [TLine(t, 1.0, "history", 0, 71, w) for t, w in old] + [TLine(t, 2.0, "history", 0, 71) for t in new]
    got = [ln.text for ln in fold_redraws(lines, [(len(head) + len(old), 24)])]
    assert got == [head[0].text] + new
