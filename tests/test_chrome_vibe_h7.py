"""Mistral Vibe: behaviour found by the h7 round of fresh recordings.

- a call's row blinks `□`/`■` while it runs; a resize while a command's
  output prints can leave the `■ Running …` row in the screen's history:
  it is the call (settled as `Ran`), never answer text;
- a table far wider than a 60x20 screen streams past while Vibe lays it out
  again at each chunk: what was never drawn cannot come back (measured by
  drawn recall, not asserted here).
Checked on real recordings (recordings/vibe/h7-*), with and without input
events.
"""
from __future__ import annotations

import json

import pytest

from agents_chrome.vibe import TOOL_LINE
from tests.conftest import RECORDINGS, cli_replay

AGENT = "vibe"
H7 = sorted(p.parent for p in RECORDINGS.glob(f"{AGENT}/h7-*/session.cast"))


def prompts(turns: list[dict]) -> list[str]:
    return [" ".join(t["text"].split()) for t in turns if t["role"] == "user" and not t.get("kind")]


def test_h7_cases_exist() -> None:
    assert len(H7) >= 3


def test_running_row_in_either_blink_state_is_a_call() -> None:
    for icon in "□■":
        m = TOOL_LINE.match(f"{icon} Running for i in $(seq 1 40); do echo $i; done")
        assert m and m.group("verb") == "Running"


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", H7, ids=[c.name for c in H7])
def test_prompts_and_tool_calls(case, screen_only: bool, tmp_path_factory) -> None:
    """Every typed prompt once, in order (h7-vibe-marbling: Vibe runs `ls`
    unasked, so the harness's approval key went into the next prompt, as
    the native history shows); every served bash call once, never as text."""
    truth = json.loads((case / "truth.json").read_text())
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    assert prompts(conv["turns"]) == prompts(truth["turns"])
    calls = lambda turns: sum(t["role"] == "tool_call" for t in turns)  # noqa: E731
    assert calls(conv["turns"]) == calls(truth["turns"])
    assert not any("Running" in t["text"] and t["role"] == "assistant" for t in conv["turns"])
