"""Shells around agents, round h14: content that looks like the shell. On the
recordings' real bytes, through the real CLI and the real replay functions,
on every recording whose meta.json says it shows the situation (never one
case by name), as recorded and with the input events stripped.

- Codex (inline) told the user how to come back (`codex resume --last` on
  its own line of an answer): the row was dropped as Codex's exit hint
  (asst_recall 0.987). The exit hint is three rows in a fixed order (`To
  continue this session, run:`, `  codex resume <id>`, `Or run codex resume
  …`); a `codex resume` row without the row before it above is the answer's.
- `cat` of a saved zsh session after the agent exited printed rows that open
  with the very prompt of the shell around it (`pier proj % codex
  --no-alt-screen`, `pier proj % exit`): each was read as a prompt no frame
  waited at, cutting the command's output into four shell turns, the first
  (`cat pier.log`) with nothing printed. bash and zsh turn bracketed paste
  off as they accept a line, which gives a frame at every accepted line
  whatever the pauses; when the last run's own line shows one, a row the
  shell drew as a prompt shows one too, and a row that opens with the prompt
  but whose line no accept came from is printed output.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from agents_chrome import shell
from screen.frames import iter_frames
from screen.rawlog import open_recording
from tests.conftest import cast_events, frames_of, meta_of, recording_cases, replay_json, strip_inputs, truth_turns

RESUME_IN_ANSWER = [c for c in recording_cases("codex") if "resume-line-in-answer" in meta_of(c).get("features", [])]
AGENT_PASTE_OFF = [c for c in recording_cases() if "agent-bracketed-paste-off" in meta_of(c).get("features", [])]
PROMPT_IN_OUTPUT = [c for c in recording_cases() if "prompt-line-in-shell-output" in meta_of(c).get("features", [])]


def _ids(cases: list[Path]) -> list[str]:
    return [f"{c.parent.name}/{c.name}" for c in cases]


def test_cases_exist():
    assert RESUME_IN_ANSWER and PROMPT_IN_OUTPUT and AGENT_PASTE_OFF


def _rows(text: str) -> list[str]:
    return [r.strip() for r in text.split("\n") if r.strip()]


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", RESUME_IN_ANSWER, ids=_ids(RESUME_IN_ANSWER))
def test_resume_line_in_answer_stays(case: Path, screen_only: bool):
    """Every `codex resume …` line the model wrote comes back in its answer, and
    the exit hint's own rows (its session id) stay out of every answer."""
    conv = replay_json(case / "session.cast", "codex", screen_only=screen_only)
    got = [r for t in conv["turns"] if t["role"] == "assistant" for r in _rows(t["text"])]
    written = [r for t in truth_turns(case) if t["role"] == "assistant" for r in _rows(t["text"])
               if "codex resume" in r]
    assert written
    for r in written:
        assert r in got, r
    drawn = "".join(e[2] for e in cast_events(case) if e[1] == "o")
    ids = re.findall(r"codex resume (?:\x1b\[[0-9;]*m)?([0-9a-f]{8}-[0-9a-f-]{27})", drawn)
    assert ids  # the recording shows the exit hint
    assert not any("To continue this session" in r or any(i in r for i in ids) for r in got)


def _frames(case: Path, screen_only: bool) -> list:
    if not screen_only:
        return list(frames_of(case))
    with tempfile.TemporaryDirectory(prefix="capcap-h14-") as tmp:
        src = strip_inputs(case / "session.cast", Path(tmp) / "session.cast")
        with open_recording(src) as reader:
            return list(iter_frames(reader))


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", PROMPT_IN_OUTPUT, ids=_ids(PROMPT_IN_OUTPUT))
def test_printed_prompt_rows_open_no_run(case: Path, screen_only: bool):
    """The runs are the lines typed at the shell, once each and in order: a
    printed row that opens with the shell's prompt opens none."""
    frames = _frames(case, screen_only)
    hist = shell._absolute(frames)
    runs = shell.find_runs(frames, hist, shell.learn_prompt(frames))
    typed = meta_of(case)["shell"]["typed_at_shell"]
    assert [r.command for r in runs if r.prompt_abs is not None] == typed
    # the recording shows the situation: some printed row opens with the prompt
    prompt = next(r.prompt for r in runs if r.prompt_abs is not None)
    assert any(row.startswith(prompt) and row[len(prompt):].strip() not in typed
               for f in frames for row in f.lines)


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", PROMPT_IN_OUTPUT, ids=_ids(PROMPT_IN_OUTPUT))
def test_printed_prompt_rows_stay_in_the_command_output(case: Path, screen_only: bool):
    """The shell turn of each command typed holds every row it printed, those
    that open with the prompt included; no shell turn opens with a line nobody
    typed."""
    conv = replay_json(case / "session.cast", case.parent.name, screen_only=screen_only)
    shell_turns = [t["text"] for t in conv["turns"] if t["role"] == "system" and t.get("name") == "shell"]
    typed = meta_of(case)["shell"]["typed_at_shell"]
    assert len(shell_turns) == len(typed)
    for turn, cmd in zip(shell_turns, typed):
        assert turn.split("\n")[0].endswith(cmd), (turn, cmd)
    printed = meta_of(case)["printed"]  # command typed -> what it prints
    assert printed
    for turn, cmd in zip(shell_turns, typed):
        if cmd in printed:
            assert _rows(turn)[1:] == _rows(printed[cmd])


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", AGENT_PASTE_OFF, ids=_ids(AGENT_PASTE_OFF))
def test_agent_paste_off_opens_no_shell_run(case: Path, screen_only: bool):
    """The agent's own bracketed-paste-off (Kimi running a Shell call), its
    cursor below a row holding `… ~/kiosk$ exit …`, is no line the shell
    accepted: the call comes back as a call, and no shell turn sits between
    the first and the last prompt."""
    conv = replay_json(case / "session.cast", case.parent.name, screen_only=screen_only)
    turns = conv["turns"]
    users = [i for i, t in enumerate(turns) if t["role"] == "user"]
    assert not [t for t in turns[users[0]:users[-1]] if t["role"] == "system"]
    calls = [t for t in turns if t["role"] == "tool_call"]
    assert len(calls) == len([t for t in truth_turns(case) if t["role"] == "tool_call"])
    # the recording shows the situation: an accept with the cursor under a row PROMPT reads as a prompt
    frames = _frames(case, screen_only)
    assert any(f.reason == "accept" and not f.alternate and f.cursor[1] > 0 and f.cursor[0] == 0
               and shell.PROMPT.match(f.lines[f.cursor[1] - 1]) and f.lines[f.cursor[1] - 1].startswith("•")
               for f in frames)
