"""OpenCode: behaviour found by the h13 round of fresh recordings.

- h13-sh-oc-resume-kelp-92x26 (92x26): bash, OpenCode for two turns (a bash
  call), /exit, a shell command, then `opencode --continue`: the resumed
  session draws the earlier thread again above the new prompt, two more
  turns (a bash call), /exit, a shell command. The shell layer read the
  resumed stretch alone, so the two earlier turns came back a second time
  (asst_prec 0.79, turns_ok 0 both ways). OpenCodeProfile.resume_words names
  the launch words that resume a session (`--continue`, `-c`, `--session`,
  `-s`, as OpenCode's own exit summary prints `opencode -s <id>`), and the
  shell layer's resumed-launch rule drops the turns drawn again where they
  repeat the ones shown before.
"""
from __future__ import annotations

import json

import pytest

from tests.conftest import RECORDINGS, cli_replay

AGENT = "opencode"
CASE = RECORDINGS / AGENT / "h13-sh-oc-resume-kelp-92x26"


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_continued_session_gives_each_turn_once(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(CASE, AGENT, screen_only, tmp_path_factory)
    truth = json.loads((CASE / "truth.json").read_text())
    users = [t["text"] for t in conv["turns"] if t["role"] == "user"]
    assert users == [t["text"] for t in truth["turns"] if t["role"] == "user"]
    assert sum(t["role"] == "tool_call" for t in conv["turns"]) == 2
    answers = [t["text"] for t in conv["turns"] if t["role"] == "assistant"]
    assert len(answers) == len(set(answers)) == 4
    # the launch line stays a shell turn, between the two sessions' turns
    shell = [t["text"] for t in conv["turns"] if t["role"] == "system"]
    assert any(s.endswith("opencode --continue") for s in shell)
