"""Mistral Vibe: behaviour found by the h12 round of fresh recordings.

- h12-vibe-teahouse-cjk-117x35 (117x35, an odd width, no --auto-approve):
  CJK and emoji prompts and answers, mixed CJK/Latin box tables, two answers
  that open with a code block, bash approvals (one allowed, one denied with
  Esc, one more allowed), served thinking; a long answer streams through a
  window-edge drag down to 97x31 and back up to 117x35.
- Every blank between two ideographs was taken out of an answer (a cell-diff
  redraw was said to leave one there), so a table cell holding a Japanese
  term and its Chinese gloss came back glued (`水回し 拌水` -> `水回し拌水`).
  Rows are read as first drawn since the stitcher keeps them so
  (`LayoutStitcher(first_drawn=True)`), and every golden recording reads the
  same without that rule: a blank the screen drew between ideographs stays.
- Textual lays a one-column character that carries the emoji presentation
  selector U+FE0F (`🗂️`, `⛰️`, `🕶️`) out two columns wide and moves the
  cursor past both; the terminal gives it one column and leaves the second
  blank, so `src/ 🗂️;` came back as `src/ 🗂️ ;`. That blank goes.
"""
from __future__ import annotations

import pytest

from agents_chrome.vibe import _close_vs16_gaps
from tests.conftest import RECORDINGS, cli_replay
from tests.segments import answer_with

AGENT = "vibe"
CASE = RECORDINGS / AGENT / "h12-vibe-teahouse-cjk-117x35"


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_blank_between_ideographs_in_a_cell_stays(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(CASE, AGENT, screen_only, tmp_path_factory)
    table = answer_with(conv, "十分钟")
    for term in ("水回し 拌水", "練り 揉面", "延し 擀面", "切り 切面"):
        assert f"│ {term} " in table


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_no_blank_after_a_narrow_emoji_with_vs16(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(CASE, AGENT, screen_only, tmp_path_factory)
    assert "and src/ 🗂️; no service sheets yet." in answer_with(conv, "service sheets")


def test_close_vs16_gaps() -> None:
    # as drawn: the blank cell after a one-column character with U+FE0F goes
    assert _close_vs16_gaps("src/ \U0001f5c2\ufe0f ; no") == "src/ \U0001f5c2\ufe0f; no"
    assert _close_vs16_gaps("a wide U \u26f0\ufe0f  and more") == "a wide U \u26f0\ufe0f and more"
    # a two-column character with U+FE0F takes its two cells: its space stays
    assert _close_vs16_gaps("done \u2705\ufe0f next") == "done \u2705\ufe0f next"
    assert _close_vs16_gaps("no selector 🗂 here") == "no selector 🗂 here"


# `vibe --continue` from a shell, a second session after the first: Vibe draws
# the earlier session's turns again (the first answer cut at the screen's top)
# under a `⎣ Resuming session…` notice, then the new turns. A round-h12 probe
# (bash at 90x26, three turns, /exit, a shell command, `vibe --continue`, two
# more turns) gave every earlier turn twice, the notice as a system turn in
# between (turns_ok 0, asst_prec 0.70); with the shared resumed-launch rule
# of the shell layer (`resume_words`) it gives each turn once. The probe is
# not in recordings/ (one new recording per agent per round): these check
# the two pieces on the real profile and the real shell reader (the launch lines: tests/test_shell_resume.py).
def test_resume_notice_is_chrome() -> None:
    from agents_chrome.transcript import TLine
    from agents_chrome.vibe import PROFILE
    rows = ["  ⎣ Resuming session…", "  ⎣ Resumed session 368cd7f6", "  ⎣ Session title set"]
    kinds = [lb.kind for lb in PROFILE.label([TLine(t, 0.0, "screen", 0) for t in rows])]
    assert kinds[:2] == ["chrome", "chrome"]
    assert kinds[2] != "chrome"  # other command output stays
