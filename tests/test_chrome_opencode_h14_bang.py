"""OpenCode: a command typed in shell mode (`!` on an empty prompt) is the
user's turn, then its bash call and output (round h14, helper bang).

h14-oc-kiln-bang-107x29 (OpenCode 1.18.33) holds four prompts and two
shell-mode commands between them, the second with 34 rows of output that
OpenCode folds (`…`, `Click to expand`). OpenCode runs such a command
without asking the model: its database stores a user message holding only
its own synthetic text ("The following tool was executed by the user") and
an assistant message holding the bash call; prompt-history.jsonl stores the
command with `"mode": "shell"`. The screen draws the bash panel with no
prompt bar of its own, right under the footer (`▣`) of the answer before.

Before this round the screen and the native reader gave the command as a
bash call closing the turn before, with no user turn: turns_ok 0.
"""
from __future__ import annotations

import json

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns
from tests.test_providers import parse_home

CASE = RECORDINGS / "opencode" / "h14-oc-kiln-bang-107x29"
SHORT = "wc -l notes.txt README.md"
LONG = "seq -w 1 34 | sed 's/^/kiln shelf /; s/$/ cooled, pots stacked/'"


def test_recording_holds_shell_mode_commands() -> None:
    history = [json.loads(x) for x in
               (CASE / "native/.local/state/opencode/prompt-history.jsonl").read_text().splitlines()]
    assert [h["input"] for h in history if h["mode"] == "shell"] == [SHORT, LONG]
    assert b"Click to expand" in (CASE / "session.cast").read_bytes()


@pytest.mark.parametrize("screen_only", [False, True])
def test_shell_mode_command_is_the_users_turn(screen_only: bool) -> None:
    turns = cli_replay(CASE, "opencode", screen_only)["turns"]
    truth = truth_turns(CASE)
    assert [t["text"] for t in turns if t["role"] == "user"] == [t["text"] for t in truth if t["role"] == "user"]
    for cmd in (SHORT, LONG):
        n = next(i for i, t in enumerate(turns) if t["role"] == "user" and t["text"] == cmd)
        assert [t["role"] for t in turns[n:n + 3]] == ["user", "tool_call", "tool_result"]
        assert turns[n + 1]["name"] == "bash" and turns[n + 1]["text"] == cmd
        # the answer before keeps no call of the user's
        assert turns[n - 1]["role"] == "assistant"
    long_out = turns[[t["text"] for t in turns].index(LONG) + 2]["text"].splitlines()
    assert long_out[0] == "kiln shelf 01 cooled, pots stacked" and long_out[-1] == "kiln shelf 10 cooled, pots stacked"


def test_native_reader_gives_the_same_shape() -> None:
    turns = [t for c in parse_home(CASE / "native") for t in c.turns]
    users = [t.text for t in turns if t.role == "user"]
    assert users == [t["text"] for t in truth_turns(CASE) if t["role"] == "user"]
    for cmd in (SHORT, LONG):
        n = next(i for i, t in enumerate(turns) if t.role == "user" and t.text == cmd)
        assert [t.role for t in turns[n:n + 3]] == ["user", "tool_call", "tool_result"]
        assert turns[n + 1].name == "bash" and turns[n + 1].input["command"] == cmd
    assert turns[[t.text for t in turns].index(SHORT) + 2].text.split() == "2 notes.txt 7 README.md 9 total".split()
