"""Codex: a command run with `!` in the composer is the user's turn, then its
shell call and output (round h14, helper bang).

h14-cx-loom-bang-97x31 (Codex CLI 0.169.0) holds three prompts and two
`!` commands between them, the second printing 30 rows, more than the
screen holds. Codex runs such a command without asking the model, draws it
as `• You ran <cmd>` with its output under `└`, keeps `!cmd` in
history.jsonl and sends the model, with the next prompt, a user message
`<user_shell_command><command>…</command><result>…Output:…</result>`.

Before this round the screen gave `• You ran wc …` as a call named `You`
closing the answer before (no user turn), the long command's orphaned
output rows as more of the next answer, and the native reader dropped the
command altogether (an injected `<…>` block).
"""
from __future__ import annotations

import pytest

from archive.providers.codex import USER_SHELL
from tests.conftest import RECORDINGS, cli_replay, truth_turns
from tests.test_providers import parse_home

CASE = RECORDINGS / "codex" / "h14-cx-loom-bang-97x31"
SHORT = "wc -l notes.txt README.md"
LONG = "seq -w 1 30 | sed 's/^/loom heddle /; s/$/ threaded, tension even/'"


def test_recording_holds_bang_commands() -> None:
    history = (CASE / "native/.codex/history.jsonl").read_text()
    assert f'"!{SHORT}"' in history and "!seq -w 1 30" in history
    assert b"You ran" in (CASE / "session.cast").read_bytes()


@pytest.mark.parametrize("screen_only", [False, True])
def test_you_ran_is_the_users_turn_and_its_call(screen_only: bool) -> None:
    turns = cli_replay(CASE, "codex", screen_only)["turns"]
    n = next(i for i, t in enumerate(turns) if t["role"] == "user" and t["text"] == "!" + SHORT)
    assert [t["role"] for t in turns[n - 1:n + 3]] == ["assistant", "user", "tool_call", "tool_result"]
    assert turns[n + 1]["name"] == "shell" and turns[n + 1]["text"] == SHORT
    assert turns[n + 2]["text"].split() == "2 notes.txt 7 README.md 9 total".split()


@pytest.mark.parametrize("screen_only", [False, True])
def test_output_whose_head_scrolled_off_is_no_answer_text(screen_only: bool) -> None:
    turns = cli_replay(CASE, "codex", screen_only)["turns"]
    answers = [t["text"] for t in turns if t["role"] == "assistant"]
    assert not any("loom heddle" in a for a in answers)
    out = next(t["text"] for t in turns if t["role"] == "tool_result" and "loom heddle" in t["text"])
    assert out.splitlines()[-1] == "loom heddle 30 threaded, tension even"


@pytest.mark.parametrize("screen_only", [False, True])
def test_long_command_is_the_users_turn(screen_only: bool) -> None:
    # the 30 rows of output are drawn in one frame with their `• You ran seq …`
    # head above the screen's top: the command is read from the composer
    # (`! seq …` in shell mode) before it was sent (round h15)
    turns = cli_replay(CASE, "codex", screen_only)["turns"]
    assert [t["text"] for t in turns if t["role"] == "user"] == \
        [t["text"] for t in truth_turns(CASE) if t["role"] == "user"]
    n = next(i for i, t in enumerate(turns) if t["role"] == "user" and t["text"] == "!" + LONG)
    assert [t["role"] for t in turns[n:n + 3]] == ["user", "tool_call", "tool_result"]
    assert turns[n + 1]["name"] == "shell" and turns[n + 1]["text"] == LONG


def test_native_reader_gives_the_same_shape() -> None:
    turns = [t for c in parse_home(CASE / "native") for t in c.turns]
    assert [t.text for t in turns if t.role == "user"] == \
        [t["text"] for t in truth_turns(CASE) if t["role"] == "user"]
    for cmd in (SHORT, LONG):
        n = next(i for i, t in enumerate(turns) if t.role == "user" and t.text == "!" + cmd)
        assert [t.role for t in turns[n:n + 3]] == ["user", "tool_call", "tool_result"]
        assert turns[n + 1].input == {"command": cmd}
    long_out = turns[[t.text for t in turns].index("!" + LONG) + 2].text.splitlines()
    assert len(long_out) == 30 and long_out[0] == "loom heddle 01 threaded, tension even"


def test_user_shell_block_without_output() -> None:
    m = USER_SHELL.match("<user_shell_command>\n<command>\ntrue\n</command>\n<result>\nExit code: 0\n"
                         "Duration: 0.01 seconds\nOutput:\n\n</result>\n</user_shell_command>")
    assert m and m.group("cmd") == "true" and not (m.group("out") or "").strip()
    assert USER_SHELL.match("<user_shell_command>\n<command>\ntrue\n</command>") is None
