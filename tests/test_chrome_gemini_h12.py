"""Gemini chrome found by the h12 round of fresh recordings.

Shell mode. `!` on an empty prompt switches the input to shell mode; a
command typed there runs without the model, and Gemini echoes it in the
prompt band as it echoes a prompt, with `$` where a prompt has `>`, then
draws the command's `Shell Command` box. Gemini's own log holds the command
as a user message. The `$` row was read as the end of the answer above it
(`Hello there.\\n$ ls -1 src`) or as an answer of its own, and the command's
box joined the previous turn. A `$` row that opens the prompt band is now
the user's turn; its box follows it.

Bold set between ideographs. Gemini draws an answer's `**bold**` as bold
cells, without the markers. In Chinese or Japanese prose (`**检查轨道**：`,
`台湾なら**東方美人**と`) no blank separates the bold words from the rest, so
the markers are the only word boundary and the clause read from the screen
was one word. A bold run glued to an ideograph now gets its `**` back (the
shared agents_chrome.cjk_bold helper); bold with a blank or a box edge beside
it stays as drawn. The 99x29 Japanese probe that found it was not landed
(one new recording per agent); two older Chinese recordings show it.

h12-gem-luthier-bang-144x40: two shell-mode commands (one before, one after
`/clear`), an answer opening with a code block, a prompt pasted with a fenced
block (bracketed paste), a failing tool call, a table.
"""
from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns

LUTHIER = RECORDINGS / "gemini" / "h12-gem-luthier-bang-144x40"
OBSERVATORY = RECORDINGS / "gemini" / "h8-gem-observatory-wide-190x55"
BINDERY = RECORDINGS / "gemini" / "h9-gem-bindery-think-80x24"


def _segments(turns: list[dict]) -> list[tuple[str, list[dict]]]:
    """Each user turn with the turns after it (slash and exit commands left out)."""
    out: list[tuple[str, list[dict]]] = []
    for t in turns:
        if t["role"] == "user" and not t.get("kind"):
            out.append((" ".join(t["text"].split()), []))
        elif out and t["role"] in ("assistant", "tool_call"):
            out[-1][1].append(t)
    return out


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_shell_mode_command_is_a_user_turn_with_its_box(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(LUTHIER, "gemini", screen_only, tmp_path_factory)["turns"]
    truth = _segments(truth_turns(LUTHIER))
    got = _segments(turns)
    assert [u for u, _ in got] == [u for u, _ in truth]
    commands = [t["input"]["command"] for t in truth_turns(LUTHIER) if t["role"] == "tool_call" and t["name"] == "shell"]
    assert len(commands) == 2
    for (user, after), (_, want) in zip(got, truth):
        if user in commands:
            # the command's own box, and nothing the model said
            assert [t["role"] for t in after] == ["tool_call"]
            assert " ".join(after[0]["text"].split()) == user
        else:
            assert not any("$ " + c in t["text"] for t in after for c in commands)
            assert [t["role"] == "tool_call" for t in after].count(True) == \
                [t["role"] == "tool_call" for t in want].count(True)


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_pasted_fenced_prompt_and_code_first_answer(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(LUTHIER, "gemini", screen_only, tmp_path_factory)["turns"]
    pasted = next(t["text"] for t in truth_turns(LUTHIER) if t["role"] == "user" and "```" in t["text"])
    assert pasted in [t["text"] for t in turns if t["role"] == "user"]
    # the answer that opens with a code block (its fence's language is not drawn)
    answers = [t["text"] for t in turns if t["role"] == "assistant"]
    assert answers[1].startswith('RECIPE = {"mastic": 12')
    assert answers[1].rstrip().endswith("a full day of UV between each.")


@pytest.mark.parametrize("case,heads", [
    (OBSERVATORY, ("检查轨道", "润滑齿轮", "测试天窗", "校准方位")),
    (BINDERY, ("折页", "锁线", "上胶", "贴纱布")),
], ids=["observatory", "bindery"])
def test_bold_heads_glued_to_ideographs_keep_their_markers(case, heads) -> None:
    turns = cli_replay(case, "gemini", False)["turns"]
    answer = next(t["text"] for t in turns if t["role"] == "assistant" and heads[0] in t["text"])
    served = next(t["text"] for t in truth_turns(case) if t["role"] == "assistant" and heads[0] in t["text"])
    for head in heads:
        assert f"**{head}**：" in served
        assert f"**{head}**：" in answer
    # the list's heading is bold too, with nothing beside it: left as drawn
    assert not answer.startswith("**")
