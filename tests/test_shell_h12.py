"""Shells around agents, round h12: commands whose output looks like an
agent. On the recordings' real bytes, through the real CLI and the real
replay functions, on every recording whose meta.json says it shows the
situation (never one case by name), as recorded and with the input events
stripped.

- `cat` of a file holding a saved agent session (its prompt, tool and answer
  rows, its banner box) printed an agent's screen signature, and the run was
  read as that agent: the file's rows came out as a second conversation
  before the real one (Codex inline: asst_prec 0.92, turns_ok 0). A run that
  only printed (every frame wrote at or after the cursor the frame before
  left, as plain output does) is a shell command's, whatever it shows.
- The same for a command line naming the agent that only printed
  (`codex --help | head`): a shell turn with the usage it printed, not an
  agent run.
- A background job started at the shell printed over Claude Code (inline)
  while it waited at its input box: the text landed on the input row, after
  its `❯` and no-break space, and Claude Code, its cursor moved, drew the box
  and the rest lower, leaving `❯\xa0● proofing timer done` above the next
  prompt's echo, read as a prompt (turns_ok 0). The input row's `❯` is
  followed by a no-break space, an echoed prompt's by a plain space: such a
  row is chrome.
- bash's `[1]+  Done  sleep 12` notice, printed after Codex's exit text and
  before PROMPT_COMMAND's window title (OSC 0), joined Codex's last answer
  (asst_prec 0.975): the title cut the run of plain output, so the shell's
  return (bracketed paste on after plain text) was not seen. An OSC string
  draws nothing and moves no cursor: plain output now runs through it, as
  through colours, and the notice is the shell's output after the agent.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from agents_chrome import registry, shell
from tests.conftest import frames_of, meta_of, recording_cases, replay_json, truth_turns


LOOKALIKE = [c for c in recording_cases() if "chrome-like-shell-output" in meta_of(c).get("features", [])]
BACKGROUND = [c for c in recording_cases() if "background-job-output-over-agent" in meta_of(c).get("features", [])]
JOB_DONE = [c for c in recording_cases()
            if {"job-done-notice-after-exit", "job-done-notice"} & set(meta_of(c).get("features", []))]
HELP = [c for c in recording_cases() if "agent-help-output" in meta_of(c).get("features", [])]


def _ids(cases: list[Path]) -> list[str]:
    return [f"{c.parent.name}/{c.name}" for c in cases]


def test_cases_exist():
    assert LOOKALIKE and HELP and BACKGROUND and JOB_DONE


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", LOOKALIKE, ids=_ids(LOOKALIKE))
def test_printed_lookalike_is_no_conversation(case: Path, screen_only: bool):
    """The prompts are the ones typed to the agent, once each and in order: none
    comes from a command's output that copies the agent's rows."""
    conv = replay_json(case / "session.cast", case.parent.name, screen_only=screen_only)
    got = [t["text"] for t in conv["turns"] if t["role"] == "user"]
    want = [t["text"] for t in truth_turns(case) if t["role"] == "user" and not t.get("kind")]
    assert got == want
    typed = [c for c in meta_of(case)["shell"]["typed_at_shell"] if c not in meta_of(case)["shell"]["launches"]]
    shell_turns = [t["text"] for t in conv["turns"] if t["role"] == "system" and t.get("name") == "shell"]
    for cmd in typed:
        if cmd == "exit":
            continue
        turn = next((t for t in shell_turns if t.split("\n")[0].endswith(cmd)), None)
        assert turn is not None, cmd
        assert len([r for r in turn.split("\n")[1:] if r.strip()]) >= 1, (cmd, turn)  # what it printed is kept


@pytest.mark.parametrize("case", LOOKALIKE + HELP, ids=_ids(LOOKALIKE + HELP))
def test_only_launches_are_agent_runs(case: Path):
    """classify() gives an agent to the runs of the lines that launched one, and
    to no other (the runs that printed a signature or named the agent included)."""
    frames = frames_of(case)
    hist = shell._absolute(frames)
    runs = shell.find_runs(frames, hist, shell.learn_prompt(frames))
    shell.classify(frames, runs, hist)
    launches = set(meta_of(case)["shell"]["launches"])
    for r in runs:
        if r.prompt_abs is None:
            continue
        assert (r.agent is not None) == (r.command in launches), (r.command, r.agent)
        if r.command not in launches:
            assert shell._printed(frames, r) or not registry.from_screen(shell._new_text(frames, hist, r)), r.command


@pytest.mark.parametrize("case", HELP, ids=_ids(HELP))
def test_agent_named_but_only_printed(case: Path):
    """A line naming the agent that printed its usage and returned is a shell turn
    with that usage, not an agent run."""
    conv = replay_json(case / "session.cast", case.parent.name, screen_only=True)
    launches = meta_of(case)["shell"]["launches"]
    named = [c for c in meta_of(case)["shell"]["typed_at_shell"]
             if c not in launches and shell.typed_agent(c) == case.parent.name]
    assert named
    for cmd in named:
        turn = next(t for t in conv["turns"] if t["role"] == "system" and t["text"].split("\n")[0].endswith(cmd))
        assert len([r for r in turn["text"].split("\n")[1:] if r.strip()]) >= 3, turn["text"]


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", BACKGROUND, ids=_ids(BACKGROUND))
def test_background_output_over_input_row_is_no_prompt(case: Path, screen_only: bool):
    """What a background job wrote over the agent's input row stays out of the
    prompts, which are the ones typed, once each, in order; the answers come
    whole."""
    conv = replay_json(case / "session.cast", case.parent.name, screen_only=screen_only)
    got = [t["text"] for t in conv["turns"] if t["role"] == "user"]
    want = [t["text"] for t in truth_turns(case) if t["role"] == "user" and not t.get("kind")]
    assert got == want
    answers = [t["text"] for t in conv["turns"] if t["role"] == "assistant"]
    assert len(answers) == len([t for t in truth_turns(case) if t["role"] == "assistant"])


@pytest.mark.parametrize("case", [c for c in BACKGROUND if c.parent.name == "claude-code"],
                         ids=_ids([c for c in BACKGROUND if c.parent.name == "claude-code"]))
def test_input_row_left_above_the_box_is_chrome(case: Path):
    """The recording shows the situation (a `❯` + no-break space row with text,
    above the input box), and the profile labels such a row chrome, an echoed
    prompt's row (`❯ ` on its background) a prompt."""
    profile = registry.load("claude-code")
    left = []
    for f in frames_of(case):
        top = profile._input_box_top(f.lines)
        if top is None:
            continue
        left += [ln for ln in f.lines[:top] if ln.startswith("❯\xa0") and ln[2:].strip()]
    assert left
    rule = next(r for r in profile.rules if r.match(left[0]))  # the first rule that matches labels a row
    assert (rule.name, rule.kind) == ("input-row", "chrome")
    want = next(t["text"] for t in truth_turns(case) if t["role"] == "user")
    echo = next(r for r in profile.rules if r.match("❯ " + want))
    assert echo.kind == "user"


DONE_ROW = re.compile(r"^\[\d+\][+-]?\s+Done\b")


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", JOB_DONE, ids=_ids(JOB_DONE))
def test_job_done_notice_after_exit_is_shell_output(case: Path, screen_only: bool):
    """The shell's job notice printed as the agent ended is the shell's output
    after it, never a row of an answer."""
    conv = replay_json(case / "session.cast", case.parent.name, screen_only=screen_only)
    for t in conv["turns"]:
        if t["role"] != "system":
            assert not any(DONE_ROW.match(row) for row in t["text"].split("\n")), t["text"]
    assert any(t["role"] == "system" and t.get("name") == shell.AFTER_EXIT and DONE_ROW.match(t["text"])
               for t in conv["turns"])
