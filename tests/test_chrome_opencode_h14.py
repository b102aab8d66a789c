"""OpenCode: content that looks like its chrome, `@` mentions, tokens wider
than the row (round h14).

h14-ropewalk-lookalike-93x28 (OpenCode 1.18.33) holds answers with box
diagrams, a `tree` drawing and a console session (`$ ls yard`) in code
blocks, lines opening with OpenCode's own markers (`→ ~ ⚙ ✱ ┃ │`), a prompt
opening with `┃`, an `@src/ut` mention completed from the popup with Enter,
a URL wider than the prompt box and a base64 payload wider than the answer
column. What was wrong before this round:

- the `@` mention's attachment row (` File ` in a badge of the bar's colour,
  then the path) was read as a line of the prompt;
- the URL, which the prompt box breaks after a slash or `?`, came back with
  a space at each break;
- the payload, cut by character at the row's edge, came back as two words;
- an answer row whose `│` stands at the answer column (a tree's branch, a
  blank branch row) was read as a tool panel's row: the branch lost its `│`
  and a lone `│` went; `$ ls yard` in a code block was read as a bash call.
A tool panel's bar stands in the margin (the prompt bar's column), never at
the answer column.
"""
from __future__ import annotations

import pytest

from agents_chrome.opencode import AnswerRow, unwrap_answer
from tests.conftest import RECORDINGS, cast_events, cli_replay, truth_turns

CASE = RECORDINGS / "opencode" / "h14-ropewalk-lookalike-93x28"


def _turns(screen_only: bool) -> list[dict]:
    return cli_replay(CASE, "opencode", screen_only)["turns"]


def _answer(turns: list[dict], word: str) -> str:
    return next(t["text"] for t in turns if t["role"] == "assistant" and word in t["text"])


def test_recording_holds_the_situations() -> None:
    shown = "".join(e[2] for e in cast_events(CASE) if e[1] == "o")
    keys = "".join(e[2] for e in cast_events(CASE) if e[1] == "i")
    assert "@src/ut" in keys and "@src/util.py" not in keys  # the popup completed the path
    assert " File " in shown
    assert "│   ├── manila.coil" in shown and "$ ls yard" in shown


@pytest.mark.parametrize("screen_only", [False, True])
def test_prompts_come_back_as_typed(screen_only: bool) -> None:
    typed = [t["text"] for t in truth_turns(CASE) if t["role"] == "user"]
    users = [t["text"] for t in _turns(screen_only) if t["role"] == "user"]
    assert users == typed  # exactly: no attachment row, no break inside the URL


@pytest.mark.parametrize("screen_only", [False, True])
def test_payload_cut_at_the_edge_is_one_token(screen_only: bool) -> None:
    served = next(t["text"] for t in truth_turns(CASE) if t["role"] == "assistant" and "payload" in t["text"])
    payload = served.split("\n\n")[3]
    assert payload in _answer(_turns(screen_only), "payload").split("\n")


@pytest.mark.parametrize("screen_only", [False, True])
def test_bars_at_the_answer_column_are_the_answer(screen_only: bool) -> None:
    turns = _turns(screen_only)
    yard = _answer(turns, "shelf tags").split("\n")
    for line in ("│   ├── manila.coil", "│   └── sisal.coil", "│", "$ ls yard", "$ du -sh yard",
                 "north-shed  tar-house"):
        assert line in yard
    assert not any(t["role"] == "tool_call" and t["text"] in ("ls yard", "du -sh yard") for t in turns)
    floor = _answer(turns, "three bays").split("\n")
    assert "      │" in floor  # the code block's lone branch under the box
    # the real bash panels are still calls, with their results
    assert [t["text"] for t in turns if t["role"] == "tool_call" and t.get("name") == "bash"][:1] == ["cat bays.txt"]


def test_unwrap_glues_only_a_full_row_of_one_token() -> None:
    token = "Q" * 30
    rows = [AnswerRow("     " + token, token, 30), AnswerRow("     rest==", "rest==", 30)]
    assert unwrap_answer(rows) == token + "rest=="
    # words up to the edge: the wrap broke at a space
    words = "aaaa bbbb cccc dddd eeee ffffff"
    rows = [AnswerRow("     " + words, words, 30), AnswerRow("     gggg", "gggg", 30)]
    assert unwrap_answer(rows) == words + " gggg"
    # a short row of one token: its own line
    rows = [AnswerRow("     short", "short", 30), AnswerRow("     next", "next", 30)]
    assert unwrap_answer(rows) == "short\nnext"


def _rule_of_first_row(case, start: str) -> tuple[str, str | None]:
    """The first drawn row opening with `start` as the rules read it."""
    from agents_chrome.opencode import PROFILE
    from tests.conftest import frames_of
    for f in frames_of(case):
        for y, ln in enumerate(f.lines):
            if ln.startswith(start):
                row = PROFILE._row(f, y, ln, None)
                return row, next((r.name for r in PROFILE.rules if r.match(row)), None)
    raise AssertionError(f"no row opens with {start!r}")


def test_a_bash_call_before_its_panel_is_still_a_call() -> None:
    """`$ cmd` at the answer column is a bash call not yet in its panel when
    the `$` and the command are two drawn pieces (tool colour, a page-coloured
    blank between), and the answer's own line when it is one run of text."""
    pending = RECORDINGS / "opencode" / "h10-cheesecave-small-60x20"
    assert _rule_of_first_row(pending, "     $ ls") == ("  │  $ ls", "bash")
    assert _rule_of_first_row(CASE, "     $ cat bays.txt") == ("  │  $ cat bays.txt", "bash")
    assert _rule_of_first_row(CASE, "     $ ls yard") == ("     $ ls yard", "answer")
