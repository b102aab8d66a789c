"""Kimi CLI: behaviour found by the h14 round of fresh recordings.

- h14-kimi-lookalike-101x29 (101x29, 10 turns): answers that look like
  Kimi's own chrome. A box diagram in a fenced block with labels on its
  edges (`┌──┐  tls 1.3  ┌──┐`, `╭─ shadow pool ─╮`, `╰─ drops writes ╯`),
  the same outside a fence, a moon-phase list (`🌑 new moon: …`), a
  `Press Ctrl+C to cancel …` sentence, a `████████░░ 80%` bar, a tree
  listing, rows opening with `✨ • ⏺ $`, a URL, a sha512 and a base64 blob
  longer than the width, and a one-line answer `Using uv (astral)`.
- The rules every agent shares (spinners, box borders, rules, interrupt
  hints, progress bars) and Kimi's moon spinner dropped such rows whole.
  Kimi draws all of its own chrome at column 0 (or under the input rule),
  and an answer's rows are indented under its bullet: a row those rules
  match, indented under an answer and holding words (or a box edge), is
  the answer's text now. A heading's underline (a rule of `─` alone) is
  still no text.
- `• Using uv (astral)` read as a call of a tool named `uv`: Kimi colours
  a call's bullet by its outcome (green, red) and draws an answer's bullet
  in the default colour, which the rule reads now.
- h14-sh-kimi-zsh-continue-150x44 (150x44, zsh with a right prompt): two
  Kimi sessions, the second started with `kimi --yolo --continue` (the first
  session drawn again), an `@README.md` mention typed in a prompt (the file
  completion opens under the input), a slash popup opened with `/he` and
  erased before a prompt. A row cut mid-word at the width (`ordnance sh` /
  `eets.`) was read as two words: the session's lexicon counted `sh` from
  Kimi's farewell (`install.sh`, once per session); a file name's extension
  is no word of the session now.
- The same recording has two pasted prompts whose lines look like Kimi's
  chrome at column 0 (one in each session) (`$ make kiosk-image`, `• flash the
  card…`, a `╭─ checklist ─╮` box, `✨ the splash…`, `Used Shell (…)`, a
  tree, `🌕 is the icon…`, a rule of `─`). Kimi prints a prompt's lines
  under its `✨ ` echo at column 0, where the rules read its shell-mode
  echo, answers, boxes and the spinner: the prompt was cut into three user
  turns, an answer and a system turn. The input box the prompt was typed
  (pasted) in holds its lines: the rows under the echo that are the box's
  next lines, blank lines included, are the prompt's now.
- `kimi --continue` draws the first session's pasted prompt again with no
  box to read it from: it was cut there, so the drawn-again turns no longer
  matched the first session's and came back twice. The shell split gives a
  run that resumes a session the prompts the earlier run was given
  (`ChromeProfile.prompts_before`); a drawn-again echo whose first line is
  one of theirs takes that prompt's lines.
"""
from __future__ import annotations

import re

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns

AGENT = "kimi"
LOOKALIKE = RECORDINGS / AGENT / "h14-kimi-lookalike-101x29"
ZSH = RECORDINGS / AGENT / "h14-sh-kimi-zsh-continue-150x44"


def _answers(conv: dict) -> str:
    return "\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant")


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_box_diagram_rows_stay_in_the_answer(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(LOOKALIKE, AGENT, screen_only, tmp_path_factory)
    first = next(t["text"] for t in conv["turns"] if t["role"] == "assistant")
    rows = first.split("\n")
    # labels drawn on a box's top or bottom edge, and the bare bottom edges between them
    for label in ("tls 1.3", "grpc", "╭─ shadow pool ─╮", "╰─ drops writes ╯"):
        assert any(label in r for r in rows), label
    top = next(k for k, r in enumerate(rows) if "tls 1.3" in r)
    assert "browser" in rows[top + 1] and rows[top + 2].lstrip().startswith("└──")
    # the rounded box drawn without a fence: Rich runs its rows into one paragraph
    assert "╭─ retry lane ─╮ │ backoff 2^n" in _answers(conv)


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_rows_like_spinners_hints_and_bars_stay(screen_only: bool, tmp_path_factory) -> None:
    answers = _answers(cli_replay(LOOKALIKE, AGENT, screen_only, tmp_path_factory))
    assert "🌑 new moon: spring tides" in answers and "🌗 last quarter" in answers
    assert "Press Ctrl+C to cancel the chart download" in answers
    assert "████████░░ 80% of the coastline" in answers
    # a heading's underline and a horizontal rule hold no words: still no text
    assert not re.search(r"^\s*─+\s*$", answers, re.M)


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_answer_reading_like_a_tool_row_is_an_answer(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(LOOKALIKE, AGENT, screen_only, tmp_path_factory)
    calls = [(t["name"], t["text"].split()[0]) for t in conv["turns"] if t["role"] == "tool_call"]
    truth = [(t["name"], t["input"]["command"].split()[0]) for t in truth_turns(LOOKALIKE)
             if t["role"] == "tool_call"]
    assert calls == truth == [("Shell", "printf"), ("Shell", "printf")]
    turns = conv["turns"]
    k = next(i for i, t in enumerate(turns) if t["role"] == "user" and "installer" in t["text"])
    assert turns[k + 1] == {**turns[k + 1], "role": "assistant", "text": "Using uv (astral)"}


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_long_unbroken_tokens_come_back_whole(screen_only: bool, tmp_path_factory) -> None:
    answers = _answers(cli_replay(LOOKALIKE, AGENT, screen_only, tmp_path_factory))
    served = next(t["text"] for t in truth_turns(LOOKALIKE) if t["role"] == "assistant" and "sha512" in t["text"])
    tokens = [w for w in served.split() if len(w) > 101 and not w.startswith("`")]
    assert len(tokens) == 3  # URL, checksum, base64: each longer than the width
    for w in tokens:
        assert w in answers


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_word_cut_at_the_width_is_one_word_though_the_farewell_says_install_sh(
        screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(ZSH, AGENT, screen_only, tmp_path_factory)
    answers = _answers(conv)
    assert "since the first ordnance sheets." in answers
    assert "sh eets" not in answers


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_two_sessions_with_a_mention_and_an_erased_popup(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(ZSH, AGENT, screen_only, tmp_path_factory)
    users = [t["text"] for t in conv["turns"] if t["role"] == "user"]
    want = [t["text"] for t in truth_turns(ZSH) if t["role"] == "user" and not t.get("kind")]
    assert "read @README.md and tell me what this project is for" in want
    assert users == want  # the resumed session's turns come back once, the mention as typed
    calls = [t["text"] for t in conv["turns"] if t["role"] == "tool_call"]
    assert calls == ["cat README.md", "ls src/*.py | wc -l"]
    for t in conv["turns"]:
        # neither the file completion nor the slash popup reaches a turn
        assert not re.search(r"^\s+README\.md\s*$|/help\s+Show help information", t["text"], re.M), t


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_pasted_prompt_lines_that_look_like_chrome_stay_in_the_prompt(
        screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(ZSH, AGENT, screen_only, tmp_path_factory)
    users = [t["text"] for t in conv["turns"] if t["role"] == "user"]
    pasted = [t["text"] for t in truth_turns(ZSH) if t["role"] == "user" and "\n" in t["text"]]
    assert len(pasted) == 2 and all(p in users for p in pasted)
    # rows of a prompt at column 0 read by Kimi's rules: shell-mode echo, answer, box, prompt echo, tool
    deploy = next(p for p in pasted if "kiosk" in p)
    for row in ("$ make kiosk-image", "• flash the card", "╭─ checklist ─╮", "│ wifi off    │",
                "✨ the splash screen", "Used Shell (dd"):
        assert any(ln.startswith(row) for ln in deploy.split("\n")), row
    # a tree, a moon-emoji row and a rule of ─ after a blank line of the prompt
    tree = next(p for p in pasted if "exhibits/" in p)
    assert "\n\n🌕 is the icon" in tree and "\n────────────\n" in tree
    assert not any(t["role"] == "system" and "layout sensible" in t["text"] for t in conv["turns"])


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_resumed_session_draws_the_pasted_prompt_again_and_it_comes_back_once(
        screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(ZSH, AGENT, screen_only, tmp_path_factory)
    turns = conv["turns"]
    launch = next(k for k, t in enumerate(turns) if t["role"] == "system" and "--continue" in t["text"])
    deploy = next(t["text"] for t in truth_turns(ZSH) if t["role"] == "user" and "kiosk" in t["text"])
    # asked in the first session, drawn again after `kimi --yolo --continue`: once, before the launch
    assert [k for k, t in enumerate(turns) if t["role"] == "user" and t["text"] == deploy][0] < launch
    assert sum(t["role"] == "user" and "kiosk" in t["text"] for t in turns) == 1
    after = turns[launch + 1:]
    assert after[0] == {**after[0], "role": "user", "text": "and which one keeps compass bearings straight?"}
    assert not any("flash the card" in t["text"] or "checklist" in t["text"] for t in after)
