"""Claude Code chrome on real recordings: what round h18's randomized probes
found, asserted on every Claude Code recording that shows the situation
(never on one case by name), against its truth.json, as recorded and with
the input events removed:

- a slash word alone that names no command (`/chaskfeift`) is refused by
  the CLI itself: `● Unknown command: /chaskfeift. Did you mean …?` with an
  answer's marker, nothing sent to the model, and the session file keeps
  only that notice. Replay (and the session-file parser) gave it as a
  prompt (a user turn): one prompt too many. Alone it is the command typed,
  a system turn as `/help` is (with words after it, `Args from unknown
  skill: …`, it stays the prompt as typed:
  tests/test_chrome_claude_code_h14_ccfull.py).
- a prompt whose input box wrapped between a wide character and a narrow
  word (`… tilttreiskshar 测试数据` / `tultmoo …`) came back glued
  (`测试数据tultmoo`): the box's rows were joined with nothing between
  whenever a wide character stood at the break. Claude Code cuts inside a
  run of text only when the run is longer than a row; a shorter run went to
  the next row whole, at the space before it.
- full screen, a permission dialog taller than the view (rule and title
  off the top) left out of the stitched conversation (`_dialog_only`;
  asserted on every such recording by tests/test_chrome_claude_code_h17.py).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex
from wcwidth import wcwidth

from agents_chrome.claude_code import _box_lines, _dialog_only
from tests.conftest import cli_replay, frames_of, truth_turns, typed_prompts
from tests.test_chrome_claude_code_h5 import CASES
from tests.selection import select

WAYS = [False, True]  # as recorded, and with every input event removed
_UNKNOWN_ROW = regex.compile(r"^●\s+Unknown command: (/[\w:-]+)(?:\.(?:\s+Did you mean\s.*)?)?\s*$")


def _refused_words(case: Path) -> set[str]:
    """Slash words truth says were typed alone as local commands, which the
    recording's frames show refused (`● Unknown command: /word`)."""
    typed = {t["text"] for t in truth_turns(case)
             if t["role"] == "user" and t.get("kind") == "slash_command" and regex.match(r"^/[\w:-]+$", t["text"])}
    if not typed:
        return set()
    shown = set()
    for f in frames_of(case):
        for ln in f.lines:
            if "Unknown command" in ln:
                m = _UNKNOWN_ROW.match(ln.strip())
                if m and m.group(1) in typed:
                    shown.add(m.group(1))
    return shown


UNKNOWN_ALONE = select("UNKNOWN_ALONE", CASES, lambda c: _refused_words(c))


def _is_wide(ch: str) -> bool:
    return wcwidth(ch) == 2


def _wrapped_at_wide_space(case: Path) -> bool:
    """A typed prompt whose echo (`❯ ` row, then its indented next row) broke
    at a space between a wide character and a narrow one."""
    prompts = [" ".join(p.split()) for p in typed_prompts(truth_turns(case))]
    if not prompts or all(p.isascii() for p in prompts):
        return False
    for f in frames_of(case):
        rows = f.lines
        for a, b in zip(rows, rows[1:]):
            if not a.startswith("❯ ") or not b.startswith("  ") or not b.strip():
                continue
            head, tail = a[2:].rstrip(), b.strip()
            if not head or _is_wide(head[-1]) == _is_wide(tail[0]):
                continue
            joined = head + " " + tail
            if any(joined in p for p in prompts):
                return True
    return False


WIDE_SPACE = select("WIDE_SPACE", CASES, lambda c: _wrapped_at_wide_space(c))


def test_the_situations_are_recorded():
    assert UNKNOWN_ALONE and WIDE_SPACE


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", UNKNOWN_ALONE, ids=lambda c: c.name)
def test_a_refused_slash_word_alone_is_no_prompt(case, screen_only):
    """The prompts come back as typed, no more; each refused word is a
    system turn, none a user turn or an answer."""
    conv = cli_replay(case, "claude-code", screen_only)
    assert typed_prompts(conv["turns"]) == [" ".join(p.split()) for p in typed_prompts(truth_turns(case))]
    words = _refused_words(case)
    system = {t["text"].split()[0] for t in conv["turns"] if t["role"] == "system" and t["text"].strip()}
    assert words <= system
    assert not [t["text"] for t in conv["turns"] if t["role"] in ("user", "assistant")
                and t["text"].split()[:1] and t["text"].split()[0] in words]


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", WIDE_SPACE, ids=lambda c: c.name)
def test_a_prompt_wrapped_at_a_space_by_a_wide_character_keeps_it(case, screen_only):
    """Every typed prompt comes back with its spaces (whitespace-normalised)."""
    conv = cli_replay(case, "claude-code", screen_only)
    assert typed_prompts(conv["turns"]) == typed_prompts(truth_turns(case))


def test_box_rows_join_by_the_run_at_the_break():
    """Rows of the box at 95 columns (`❯ ` and the indent left out)."""
    head = "Pleaskzeix stift drir zhean choumploondskun moon boombio toultsooft tilttreiskshar 测试数据"
    assert _box_lines([head, "tultmoo sheamquoock"], 95) == head + " tultmoo sheamquoock"
    # a run longer than the row, cut where the row was full: nothing between
    assert _box_lines(["東" * 46, "abc def"], 95) == "東" * 46 + "abc def"
    assert _box_lines(["x " + "東京" * 22 + "タ", "ワーabc"], 95) == "x " + "東京" * 22 + "タワーabc"
    # a line the user broke: a row with room left
    assert _box_lines(["漢字", "next"], 95) == "漢字\nnext"


def test_a_dialog_filling_the_view_is_told_by_its_structure():
    rows = ["╌" * 60, "   1 alpha beta", "   2 gamma", "╌" * 60, " Do you want to create notes.txt?",
            " ❯ 1. Yes", "   2. Yes, and switch to accept edits", "   3. No", " ↑ 3 more lines",
            " Esc to cancel · Tab to amend"]
    assert _dialog_only(rows)
    # the dialog's rule on screen: its top is known (`_dialog_rule`), the rows above it stay
    assert not _dialog_only(["● Write(notes.txt)", "─" * 60, " Create file"] + rows[4:])
    # no question, or no way out under it: no dialog
    assert not _dialog_only(rows[:4] + rows[5:])
    assert not _dialog_only(rows[:-1])
