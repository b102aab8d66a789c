"""Shells around agents, round h9: long command lines and wrapped output, zsh's
right prompt. All on the recordings' real bytes through the real
CLI / replay functions.

- A command line that wraps over three rows or more comes back whole: each
  row it wrapped over is full, and a space the terminal trimmed at an edge is
  padded back at every edge, not only the first (before: a 380-character
  `printf` typed at bash stayed cut in five rows).
- zsh moves the cursor itself when a typed line passes the edge: no wrap flag,
  and a row whose last typed character is a space shows one cell short of the
  width. With the cursor still typing below it, it is the line going on
  (before: the command was cut at its first row, the rest read as output).
- Output rows the terminal's autowrap carried on are the one line the command
  printed (`drif` + `t-18` is one word); a row opening with the prompt is
  never joined to the row above (zsh leaves a wrap pending after a right
  prompt that reaches the edge).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agents_chrome import shell
from screen.frames import iter_frames
from screen.rawlog import open_recording
from tests.conftest import RECORDINGS, meta_of, replay_json

CC = RECORDINGS / "claude-code" / "h9-sh-cc-vi-newline-86x27"
ZSH = RECORDINGS / "opencode" / "h9-sh-oc-zsh-rprompt-104x31"
CODEX_ZSH = RECORDINGS / "codex" / "r3-sh-codex-zsh-100x30"
CASES = [CC, ZSH]


def ids(p: Path) -> str:
    return f"{p.parent.name}/{p.name}"




def _turns(case: Path) -> list[dict]:
    return replay_json(case / "session.cast", case.parent.name)["turns"]


def _truth(case: Path) -> dict:
    return json.loads((case / "truth.json").read_text(encoding="utf-8"))


def _frames(case: Path) -> list:
    with open_recording(case / "session.cast") as reader:
        return list(iter_frames(reader))


def _shell_turns(case: Path) -> list[list[str]]:
    return [t["text"].split("\n") for t in _turns(case) if t["role"] == "system" and t.get("name") == "shell"]


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_every_line_typed_at_the_shell_is_one_row_of_a_system_turn(case):
    """Each command typed at the prompt opens a system turn of its own, in
    order, read back whole on ONE row after the prompt's head rows, however
    many rows it wrapped over."""
    sh = meta_of(case)["shell"]
    prompt = sh["ps1"].split("\n")[-1]
    typed = []
    for rows in _shell_turns(case):
        row = next((r for r in rows if r.startswith(prompt)), None)
        assert row is not None, rows
        typed.append(row[len(prompt):].strip())
    assert typed == sh["typed_at_shell"]
    assert max(len(c) for c in typed) > 2 * _truth(case)["cols"] or case is ZSH


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_agent_turns_match_truth_and_hold_no_shell_text(case):
    """One user turn per truth prompt, exactly; no prompt and no command typed
    at the shell in any of the agent's turns."""
    truth = _truth(case)
    want = [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]
    assert [t["text"] for t in _turns(case) if t["role"] == "user"] == want
    sh = meta_of(case)["shell"]
    prompt = sh["ps1"].split("\n")[-1].strip()
    for t in _turns(case):
        if t["role"] == "system":
            continue
        assert prompt not in t["text"], t
        for cmd in sh["typed_at_shell"]:
            if len(cmd) > 6:
                assert cmd not in t["text"], t


def test_wrapped_output_is_the_line_printed():
    """`printf '%s ' drift-01 … drift-40; echo` prints one line of 360 cells; at
    86 columns the terminal wrapped it over five rows, mid-word. The system
    turn holds it as one line, every word whole."""
    rows = next(r for r in _shell_turns(CC) if "printf" in r[1])
    cmd = meta_of(CC)["shell"]["typed_at_shell"][0]
    words = re.findall(r"drift-\d\d", cmd)
    assert len(words) == 40
    out = rows[2:]
    assert [r.strip() for r in out] == [" ".join(words)]


def test_wrapped_output_at_zsh_is_the_line_printed():
    """The same in an older zsh recording: an `echo` longer than the row."""
    rows = next(r for r in _shell_turns(CODEX_ZSH) if "echo '" in r[0])
    said = rows[0].split("echo '", 1)[1].rstrip("'")
    assert rows[1:] == [said]


def test_a_zsh_line_one_cell_short_of_the_edge_goes_on_below():
    """The typed line's first row ends one cell short of the width (the space
    at the edge trimmed) and zsh set no wrap flag: with the cursor typing on
    the row below, both rows are the command."""
    frames = _frames(ZSH)
    typing = [f for f in frames if not f.alternate and f.cursor[1] > 0 and f.reason != "accept"
              and len(f.lines[f.cursor[1] - 1]) == f.columns - 1
              and f.lines[f.cursor[1] - 1].startswith(meta_of(ZSH)["shell"]["ps1"])]
    assert typing
    assert not any(shell._continues(f, f.cursor[1] - 1) for f in typing)
    cmd = meta_of(ZSH)["shell"]["typed_at_shell"][4]
    assert len(cmd) + len(meta_of(ZSH)["shell"]["ps1"]) > _truth(ZSH)["cols"]
    runs = shell.find_runs(frames, None, shell.learn_prompt(frames))
    assert cmd in [r.command for r in runs]


def test_the_right_prompt_is_in_no_turn():
    """zsh's RPROMPT (`[HHh|status]`, grey, at the right edge) is drawing: no
    turn holds it, and each command row ends with what was typed."""
    for t in _turns(ZSH):
        assert not re.search(r"\[\d\dh\|\d+\]", t["text"]), t


def test_chrome_like_output_after_the_agent_stays_the_shells():
    """A rounded box, a `>` line, dash and star bullets, a heavy bar and a tree
    branch printed at zsh after OpenCode ended are shell turns, after the
    agent's last answer."""
    turns = _turns(ZSH)
    last = max(i for i, t in enumerate(turns) if t["role"] == "assistant")
    after = turns[last + 1:]
    assert after and all(t["role"] == "system" for t in after)
    rows = [r for t in after for r in t["text"].split("\n")]
    for head in ("╭", "│", "╰", ">", "- ", "* ", "┃", "  └"):
        assert any(r.startswith(head) for r in rows), head
