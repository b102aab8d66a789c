"""Claude Code chrome on real recordings: what the h13 round found, asserted
on every Claude Code recording that shows the situation (never on one case
by name), against its truth.json:

- a prompt sent as a bracketed paste of several lines is collapsed to
  `[Pasted text #N +K lines]` in the input box, and its echo renders its
  markdown: a fence row (```` ```toml ````) is drawn as nothing and a line
  under a list item is indented as the item's continuation. The recording's
  input events hold the paste itself (`ESC[200~ ... ESC[201~`): as recorded,
  the prompt comes back as pasted; with the input events stripped it comes
  back as the echo draws it (the fence rows cannot be told from the screen).
"""
from __future__ import annotations

import pytest
import regex

from agents_chrome.input_line import InputLine
from tests.conftest import cast_events, cli_replay
from tests.test_chrome_claude_code_h5 import CASES, truth_of
from tests.segments import headless_prompts

FENCE_ROW = regex.compile(r"(?m)^[ \t]*(?:```|~~~).*$")


def _norm(s: str) -> str:
    return " ".join(s.split())


def _inputs(case) -> list[str]:
    return [data for _t, code, data in cast_events(case) if code == "i"]


def _pasted_prompts(case) -> list[str]:
    """truth's prompts that the input events sent as a paste of several lines"""
    pastes = [p for ev in _inputs(case) for p in regex.findall(r"\x1b\[200~(.*?)\x1b\[201~", ev, flags=regex.S)
              if p.count("\n") >= 2]
    return [t["text"] for t in truth_of(case)["turns"]
            if t["role"] == "user" and not t.get("kind") and any(_norm(p) in _norm(t["text"]) for p in pastes)]


PASTE_CASES = [c for c in CASES if _pasted_prompts(c)]


def _users(conv: dict) -> list[str]:
    return [_norm(t["text"]) for t in conv["turns"] if t["role"] == "user"]


def test_there_are_pasted_prompt_cases():
    assert PASTE_CASES


@pytest.mark.parametrize("case", PASTE_CASES, ids=lambda c: c.name)
def test_input_events_give_the_sent_pastes(case):
    """The keys replayed onto a line give each prompt that held a paste, as truth has it, in order."""
    line = InputLine()
    sent = line.feed(_inputs(case))
    assert [_norm(s) for s in sent] == [_norm(p) for p in _pasted_prompts(case)]


@pytest.mark.parametrize("case", PASTE_CASES, ids=lambda c: c.name)
def test_pasted_prompt_comes_back_as_pasted(case):
    got = _users(cli_replay(case, "claude-code", False))
    for p in _pasted_prompts(case):
        assert _norm(p) in got


@pytest.mark.parametrize("case", PASTE_CASES, ids=lambda c: c.name)
def test_pasted_prompt_screen_only_is_the_echo(case):
    """Without input events the prompt is what the echo shows: every word, the fence rows left out
    (2.1.330 draws them as nothing), or the prompt as pasted (2.1.197 draws its fence rows)."""
    got = _users(cli_replay(case, "claude-code", True))
    # (a paste taller than the full-screen view whose echo's first rows no frame
    # showed: what the echo shows is its tail)
    never = {_norm(p) for p in headless_prompts(case)}
    for p in _pasted_prompts(case):
        if _norm(p) in never:
            assert any(u and _norm(p).endswith(u) for u in got), p
            continue
        assert _norm(FENCE_ROW.sub("", p)) in got or _norm(p) in got
