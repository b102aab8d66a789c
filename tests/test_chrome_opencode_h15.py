"""OpenCode 1.18.33: randomized probes (round h15).

h15-oc-probe13-69x27 comes from the harness's seeded generator
(`H15_MAXTURNS=5 gen_cases.py --seed 13`): five turns of made-up words at
69x27, the first prompt a short phrase and a base64 token wider than the
prompt box, then a code answer, PageUp/PageDown while an answer streams,
tools (grep, bash, write, read), thinking, a box table streamed taller than
the screen, /help between two turns. What was wrong before this round:

- the token, cut by character where the prompt box's row is full, came
  back with a line break inside it;
- any prompt the box wrapped at a space came back with line breaks where
  the rows broke (r3-shell-prompts-100x28, a sidebar-narrowed box); the
  user typed none (a line the user ended with the newline key leaves room
  on its row for the next word, a wrapped row does not);
- a tool's one-row title drawn with its spinner (`⠋ Read notes.md`) whose
  settled row (`→ Read notes.md`) never replaced it in the stitched
  transcript was dropped as chrome, losing the call (seen on a 171x49 probe,
  a failing read right before a long bash call).
"""
from __future__ import annotations

import pytest

from agents_chrome.opencode import PROFILE
from agents_chrome.transcript import TLine
from tests.conftest import RECORDINGS, cli_replay, truth_turns

CASE = RECORDINGS / "opencode" / "h15-oc-probe13-69x27"
PROMPTS = RECORDINGS / "opencode" / "r3-shell-prompts-100x28"


def _users(case, screen_only: bool) -> list[str]:
    return [t["text"] for t in cli_replay(case, "opencode", screen_only)["turns"] if t["role"] == "user"]


@pytest.mark.parametrize("screen_only", [False, True])
def test_token_cut_at_the_row_edge_is_one_token(screen_only: bool) -> None:
    typed = [t["text"] for t in truth_turns(CASE) if t["role"] == "user"]
    token = typed[0].split()[-1]
    assert len(token) > 69  # wider than the screen: the box cuts it by character
    assert _users(CASE, screen_only)[0] == typed[0]


@pytest.mark.parametrize("screen_only", [False, True])
def test_prompts_wrapped_at_a_space_come_back_as_typed(screen_only: bool) -> None:
    typed = [t["text"] for t in truth_turns(PROMPTS) if t["role"] == "user" and "\n" not in t["text"]]
    long = [t for t in typed if len(t) > 100]
    assert long  # wider than the box: wrapped at spaces
    users = _users(PROMPTS, screen_only)
    for t in long:
        assert t in users


@pytest.mark.parametrize("screen_only", [False, True])
def test_every_prompt_of_the_probe_exactly(screen_only: bool) -> None:
    typed = [t["text"] for t in truth_turns(CASE) if t["role"] == "user"]
    assert _users(CASE, screen_only) == typed


def _rows(*texts: str) -> list[TLine]:
    return [TLine(t, float(n), "alt", 0, width=171) for n, t in enumerate(texts)]


# rows of a 171x49 probe's stitched transcript (h15-ocgen-s35), as drawn
PROMPT_ROWS = ("  ┃", "  ┃  kyskoux simwe @src/util.py flearsat shiemous gundshusk", "  ┃", "")
BASH_ROWS = ("", "  │", '  │  $ for i in $(seq 1 69); do echo "$i thock tairtquout feck"; done', "  │",
             "  │  1 thock tairtquout feck")


def test_running_tool_row_left_alone_is_the_call() -> None:
    labeled = PROFILE.label(_rows(*PROMPT_ROWS, "     ⠋ Read vundsouskai/tailsoot.md", *BASH_ROWS))
    calls = [(t.name, t.text) for t in PROFILE.turns(labeled) if t.role == "tool_call"]
    assert calls[0] == ("read", "vundsouskai/tailsoot.md")
    assert [c[0] for c in calls] == ["read", "bash"]


def test_running_tool_row_that_settled_is_not_a_second_call() -> None:
    labeled = PROFILE.label(_rows(*PROMPT_ROWS, "     ⠋ Read vundsouskai/tailsoot.md", "",
                                  "     → Read vundsouskai/tailsoot.md", *BASH_ROWS))
    calls = [(t.name, t.text) for t in PROFILE.turns(labeled) if t.role == "tool_call"]
    assert [c[0] for c in calls] == ["read", "bash"]
