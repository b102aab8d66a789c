"""Shells around agents, round h6 (h6-sh-* recordings): bash with a right-aligned
clock drawn by the prompt and Claude Code started through a wrapper script, then
killed (SIGKILL: bash prints its job message at the cursor the agent left, inside
its input box); Claude Code as the first command of a list (`claude; printf ...;
sleep 1; echo ...`); kimi left by Ctrl-D then vibe through a wrapper script in one
shell; gemini in dash with resizes at the prompt and mid-answer, left by Ctrl-D;
vibe under a two-row prompt, started through `env`, left by Ctrl-C.

Checked through the CLI, with the typed keys and without: the agents' prompts are
exactly the typed ones, every line typed at the prompt is one `system`/`shell`
turn, and nothing the shell drew (prompt rows, command output, a job message)
reaches an agent's turn."""
from __future__ import annotations

import json

import pytest

from agents_chrome import shell
from screen.cast import CastReader
from screen.frames import iter_frames
from tests.conftest import RECORDINGS, strip_inputs
from tests.test_shell_h5 import _meta, _replay, ids

CASES = sorted(RECORDINGS.glob("*/h6-sh-*/session.cast"))


def test_h6_cases_cover_four_agents():
    agents = {a for c in CASES for a in json.loads((c.parent / "meta.json").read_text())["agents"]}
    assert {"claude-code", "gemini", "kimi", "vibe"} <= agents


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-input", "screen-only"])
@pytest.mark.parametrize("cast", CASES, ids=ids)
def test_typed_lines_are_shell_turns_and_agent_turns_hold_no_shell(cast, screen_only, tmp_path):
    meta, prompts = _meta(cast)
    conv = _replay(strip_inputs(cast, tmp_path / "s.cast") if screen_only else cast)
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == prompts
    typed = meta["shell"]["typed_at_shell"]
    shell_rows = [r for t in conv["turns"] if t.get("name") == "shell" for r in t["text"].split("\n")]
    # each typed line is on a prompt row of a shell turn, in order (a right prompt is not
    # part of it). After the crash the tty is raw until `stty sane`: the next command,
    # typed ahead, shares that turn
    prompt_rows, j = set(), 0
    for cmd in typed:
        while j < len(shell_rows) and not shell_rows[j].endswith(" " + cmd):
            j += 1
        assert j < len(shell_rows), (cmd, shell_rows)
        prompt_rows.add(shell_rows[j])
    assert sum(1 for t in conv["turns"] if t.get("name") == "shell") >= len(typed) - 1
    for t in conv["turns"]:
        if t["role"] in ("user", "assistant", "tool_call", "tool_result"):
            assert not any(r in t["text"] for r in prompt_rows), t


def test_a_crashed_agents_job_message_is_no_prompt():
    """SIGKILL: bash writes its job message where the agent's cursor was (in
    Claude Code's input box, after `❯ `) and its prompt on the next row, in one
    frame. That text is the shell's, never a prompt of the agent: the frame the
    prompt came back in shows the agent its last screen, and the text is a shell turn."""
    cast = RECORDINGS / "claude-code" / "h6-sh-cc-rprompt-crash-150x44" / "session.cast"
    _, prompts = _meta(cast)
    conv = _replay(cast)
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == prompts
    last_answer = max(i for i, t in enumerate(conv["turns"]) if t["role"] == "assistant")
    assert all(t["role"] == "system" for t in conv["turns"][last_answer + 1:])
    with CastReader(cast) as r:
        frames = list(iter_frames(r))
    hist = shell._absolute(frames)
    runs = shell.find_runs(frames, hist, shell.learn_prompt(frames))
    shell.classify(frames, runs, hist)
    i = next(j for j, run in enumerate(runs) if run.agent == "claude-code")
    k0, k1, last, (x, y) = shell.after_exit(frames, runs, i, hist)
    # placed by the bytes: the frame bash took back the terminal in (bracketed paste on),
    # after `Killed` written at the agent's cursor, after `❯ ` in its input box
    assert frames[k1].reason == "resume" and k1 < runs[i].end
    assert frames[k1].lines[y][x:] == "Killed" and frames[k1].lines[y][:x].startswith("❯")
    assert "Killed" not in "\n".join(last.lines)
    kept = shell.agent_frames(frames, runs, i, hist)
    assert not any("Killed" in t for f in kept for t in f.lines)  # the agent's last screen, not the shell's text


def test_two_agents_in_one_shell_each_their_own_stretch():
    cast = RECORDINGS / "kimi" / "h6-sh-kimi-then-vibe-120x36" / "session.cast"
    with CastReader(cast) as r:
        header = r.header
        frames = list(iter_frames(r))
    stretches = shell.split(frames, header)
    assert stretches is not None
    assert shell.agents_in(stretches) == ["kimi", "vibe"]
    _, prompts = _meta(cast)
    got = [[t.text for t in s.turns if t.role == "user"] for s in stretches if s.kind == "agent"]
    assert got == [prompts[:1], prompts[1:]]
