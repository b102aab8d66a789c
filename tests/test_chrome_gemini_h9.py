"""Gemini CLI: behaviour found by the h9 round of fresh recordings.

- started without `--yolo`, a shell tool asks for approval in a box under
  the tool's header (`Allow execution of [Shell]?`, `1. Allow once` …);
  refused with Esc, the CLI draws its notice `ℹ Request cancelled.` at
  column 0 in the warning colour, where an answer has its `✦`. That notice
  is the CLI's status chrome (as its `ℹ Initializing...` at start-up always
  was): before, it came back as an assistant answer;
- allowed, the tool's call and result come back once, and none of the
  dialog's rows is in any turn;
- an answer that opens with a table (after inline thinking) keeps its grid.
"""
from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns

BINDERY = RECORDINGS / "gemini" / "h9-gem-bindery-think-80x24"


def words(text: str) -> list[str]:
    plain = text.translate(str.maketrans("", "", "`*#|│─┌┐└┘├┤┬┴┼"))
    return plain.split()


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_refused_tool_notice_is_chrome_not_an_answer(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(BINDERY, "gemini", screen_only, tmp_path_factory)["turns"]
    refused = next(t["input"]["command"] for t in truth_turns(BINDERY) if t["role"] == "tool_call"
                   and t["input"]["command"].startswith("rm "))
    i = next(i for i, t in enumerate(turns) if t["role"] == "tool_call" and t["text"] == refused)
    # the refused call ends its turn: the user's next prompt follows
    assert turns[i + 1]["role"] == "user"
    assert not any("ℹ" in t["text"] or "Request cancelled" in t["text"] for t in turns)
    served = " ".join(t["text"] for t in truth_turns(BINDERY) if t["role"] == "assistant")
    served = served.replace("*", "").replace("`", "")
    for t in turns:
        if t["role"] == "assistant":
            assert "ℹ" not in t["text"] and "Request cancelled" not in t["text"]
            # every answer's words were served (CJK answers: whole rows)
            assert all(w in served for w in words(t["text"])), t["text"]


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_allowed_tool_comes_back_once_without_the_dialog(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(BINDERY, "gemini", screen_only, tmp_path_factory)["turns"]
    calls = [t for t in turns if t["role"] == "tool_call"]
    served = [t["input"]["command"] for t in truth_turns(BINDERY) if t["role"] == "tool_call"]
    assert [t["text"] for t in calls] == served
    results = [t for t in turns if t["role"] == "tool_result"]
    assert len(results) == 1 and results[0]["text"].split() == ["README.md", "notes.txt", "press.log", "src"]
    for t in turns:
        assert not any(k in t["text"] for k in ("Allow once", "Allow execution", "suggest changes",
                                                "Allow for this session"))


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_table_first_answers_keep_their_grid(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(BINDERY, "gemini", screen_only, tmp_path_factory)["turns"]
    tables = [t["text"] for t in truth_turns(BINDERY) if t["role"] == "assistant" and t["text"].startswith("|")]
    answers = [t["text"] for t in turns if t["role"] == "assistant" and t["text"].startswith("┌")]
    assert len(tables) == len(answers) == 2
    for served, got in zip(tables, answers):
        header = [c.strip() for c in served.split("\n")[0].strip("|").split("|")]
        assert [c.strip() for c in got.split("\n")[1].strip("│").split("│")] == header
        assert words(served.split("\n\n")[-1]) == words(got.split("\n\n")[-1])
