"""Codex: randomized mixed probes (round h15).

The recordings come from a seeded generator (the harness's gen_cases.py
--seed N): sizes, turns, prompt shapes, answer blocks, tool calls and events
drawn at random, in a vocabulary the generator invents.

h15-cx-g315-na-123x33 (inline, 6 prompts, reasoning summaries): a prompt
with markdown typed in (`**bold**`, `- ` items, inline code, `1. `) on
Ctrl-J rows, cut by Esc while the answer streams; a `!seq` command printing
59 rows (more than the screen); a paste; a width shrink mid-answer.
Before this round the typed markdown prompt came back as its card renders
it: the list indented two under a blank row and the inline code without
backticks; the composer before Enter is its only drawing as typed, and in
inline mode it sits right under the history, not at the screen's bottom.

h15-cx-g582-alt-85x29 (alternate screen, 4 prompts, reasoning): the
session opens with a `!seq` printing 63 rows: drawn first as `• Running
seq …` under the header card, then its last 20 rows in one frame that pushed
that row off the top; the `• You ran` row it becomes is never drawn. Before
this round the `Running` row and the output came out as an answer with no
user turn (user_exact 0.667, asst_prec 0.472, turns_ok 0). Then a short `!`
command, a markdown prompt, a paste and an answer opening with code.
"""
from __future__ import annotations

import pytest
import regex

from agents_chrome.codex import _composer
from tests.conftest import RECORDINGS, cli_replay, frames_of, truth_turns

INLINE = RECORDINGS / "codex" / "h15-cx-g315-na-123x33"
ALT = RECORDINGS / "codex" / "h15-cx-g582-alt-85x29"
CASES = [c for c in (INLINE, ALT) if c.exists()]


def _prompts(case) -> list[str]:
    return [t["text"] for t in truth_turns(case) if t["role"] == "user"]


def _markdown_prompt(case) -> str:
    return next(p for p in _prompts(case) if p.startswith("**") and "\n- `" in p)


@pytest.mark.parametrize("screen_only", [False, True])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_prompts_come_back_as_typed(case, screen_only: bool) -> None:
    # (a long prompt Codex's card wrapped keeps the row break as a newline:
    # whitespace is compared folded, the markdown prompt exactly)
    turns = cli_replay(case, "codex", screen_only)["turns"]
    users = [t["text"] for t in turns if t["role"] == "user"]
    assert [" ".join(u.split()) for u in users] == [" ".join(p.split()) for p in _prompts(case)]
    assert _markdown_prompt(case) in users


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_markdown_prompt_is_drawn_as_typed_only_in_the_composer(case) -> None:
    # the card draws the list as bullets and the code without backticks: the
    # typed rows (`- `kirk``) are on screen only before Enter, in the composer
    typed = _markdown_prompt(case)
    item = next(r for r in typed.splitlines() if r.startswith("- `"))
    seen_in_composer = seen_elsewhere = False
    for f in frames_of(case):
        box = _composer(f)
        for y, ln in enumerate(f.lines):
            if ln[2:].rstrip() == item:
                if box and box[0] <= y < box[1]:
                    seen_in_composer = True
                else:
                    seen_elsewhere = True
    assert seen_in_composer and not seen_elsewhere


def test_composer_is_found_under_the_history_in_inline_mode() -> None:
    # inline: the live area follows the history with blank rows under it
    # until the screen fills, so the composer is not within the bottom rows
    first = _prompts(INLINE)[0]
    early = next(f for f in frames_of(INLINE) if any(ln.startswith("› " + first) for ln in f.lines))
    box = _composer(early)
    assert box is not None
    assert any(ln.startswith("› " + first) for ln in early.lines[box[0]:box[1]])
    assert len(early.lines) - box[1] > 8


@pytest.mark.skipif(not ALT.exists(), reason="alt recording not present")
@pytest.mark.parametrize("screen_only", [False, True])
def test_bang_command_whose_head_never_showed(screen_only: bool) -> None:
    truth = truth_turns(ALT)
    cmd = next(t["text"] for t in truth if t["role"] == "user" and t["text"].startswith("!seq"))[1:]
    # never drawn as `• You ran seq …` on any frame: `• Running seq …`, then the
    # output's tail; the composer (`! seq …`) held it as typed
    rows = [ln for f in frames_of(ALT) for ln in f.lines]
    assert not any(f"You ran {cmd[:20]}" in ln for ln in rows)
    assert any(ln.startswith(f"• Running {cmd[:20]}") for ln in rows)
    assert any(ln.startswith(f"! {cmd[:20]}") for ln in rows)
    turns = cli_replay(ALT, "codex", screen_only)["turns"]
    n = next(i for i, t in enumerate(turns) if t["role"] == "user" and t["text"] == "!" + cmd)
    assert [t["role"] for t in turns[n:n + 3]] == ["user", "tool_call", "tool_result"]
    assert turns[n + 1]["name"] == "shell" and turns[n + 1]["text"] == cmd
    # its output's last row: `seq -w 1 N` numbers up to N
    last = regex.search(r"seq -w 1 (\d+)", cmd).group(1)
    assert turns[n + 2]["text"].splitlines()[-1].endswith(" " + last)
    assert not any(t["role"] == "assistant" and " " + last in t["text"] for t in turns[:n + 3])
