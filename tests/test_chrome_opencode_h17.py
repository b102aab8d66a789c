"""OpenCode 1.18.33: randomized probes (round h17).

The probes come from the harness's seeded generator (`gen_cases.py --seed N`,
h17 pools: prompts shaped like chrome (`│ …`, `┃ …`, `* …`), tool outputs
shaped like prompts and footers, unbroken tokens about the screen's width,
answers of one block only, a resize as the first thing, right after the
prompt is sent, during thinking, near an answer's end, three events in one
turn). What was wrong before this round:

- a bash call whose command is longer than its row: while it runs, OpenCode
  draws its title with a spinner where `$` settles and the command's rest
  under it at the command's own column (`│    …`), two cells right of the
  settled panel's rows, so the rows break at other places. The view that
  settled the title laid its rows over other text at every offset, and the
  stitcher went on with it as a second copy of the turn: the prompt came
  twice and every turn after it was off by one;
- a `!cmd` whose output fills the view at once: the first view of its panel
  shows only the folded bottom (`10 brortquea`, `…`, `Click to expand`),
  anchored on the turn's footer; its bare `│` rows were read as the trimmed
  state of the title row above them and took it over: the shell command was
  lost and its output joined the answer before;
- while the model writes its next call, `~ Reading file…` sits over a blank
  row and the footer: the view that drew the call's row there laid one row
  over other text (the pending row, the third row from the document's end,
  outside the two rows the stitcher lets settle), and was stitched as a
  second copy of the panel above it.

h17-oc-probe1706t5-109x21 is seed 1706 cut to its first five turns at
109x21 (three events in the first turn: a resize, PageUp, the resize back;
a prompt opening with `│`; a 105-character token echoed by bash; a prompt
opening with `*`; a `!seq 1 36 | sed …` in shell mode).
"""
from __future__ import annotations

import pytest

from agents_chrome.opencode import _settle_running_bash
from tests.conftest import RECORDINGS, cli_replay, truth_turns
from tests.segments import by_prompt as _segments

CASE = RECORDINGS / "opencode" / "h17-oc-probe1706t5-109x21"


def _prompts(turns: list[dict]) -> list[str]:
    return [" ".join(t["text"].split()) for t in turns if t["role"] == "user" and not t.get("kind")]


@pytest.mark.parametrize("screen_only", [False, True])
def test_running_bash_title_with_a_wrapped_command_is_one_call(screen_only: bool) -> None:
    """The turn whose bash call echoes a token wider than its row: one copy
    of the prompt, the calls truth.json has, the token whole in the call."""
    conv = cli_replay(CASE, "opencode", screen_only)
    truth = truth_turns(CASE)
    assert _prompts(conv["turns"]) == _prompts(truth)
    got, want = _segments(conv["turns"]), _segments(truth)
    assert [t["name"] for t in got[1] if t["role"] == "tool_call"] == \
        [t["name"] for t in want[1] if t["role"] == "tool_call"] == ["bash", "read", "write"]
    token = want[1][0]["input"]["command"].split()[1]
    call = next(t for t in got[1] if t["role"] == "tool_call")
    assert "".join(call["text"].split()) == "echo" + token
    result = next(t for t in got[1] if t["role"] == "tool_result")
    assert "".join(result["text"].split()) == token


@pytest.mark.parametrize("screen_only", [False, True])
def test_shell_command_whose_panel_opens_past_the_view(screen_only: bool) -> None:
    """`!seq 1 36 | sed …`: its first panel view shows the folded bottom only;
    the command stays the user's turn and the bash call, the output its
    result, and the answer before it holds none of it."""
    conv = cli_replay(CASE, "opencode", screen_only)
    cmd = "seq 1 36 | sed 's/$/ brortquea/'"
    assert cmd in _prompts(conv["turns"])
    segs = _segments(conv["turns"])
    k = _prompts(conv["turns"]).index(cmd)
    calls = [t for t in segs[k] if t["role"] == "tool_call"]
    assert [(t["name"], t["text"]) for t in calls] == [("bash", cmd)]
    result = next(t["text"] for t in segs[k] if t["role"] == "tool_result")
    assert result.split("\n")[-1] == "10 brortquea"
    before = " ".join(t["text"] for t in segs[k - 1] if t["role"] == "assistant")
    assert "brortquea" not in before


@pytest.mark.parametrize("screen_only", [False, True])
def test_no_answer_or_call_comes_twice(screen_only: bool) -> None:
    """Every stitched copy of a view is gone: no answer row nor call twice in a turn."""
    conv = cli_replay(CASE, "opencode", screen_only)
    for seg in _segments(conv["turns"]):
        calls = [(t["name"], t["text"]) for t in seg if t["role"] == "tool_call"]
        assert len(calls) == len(set(calls))
        rows = [r for t in seg if t["role"] == "assistant" for r in t["text"].split("\n") if len(r) > 20]
        assert len(rows) == len(set(rows))


def test_running_title_reads_as_the_settled_one() -> None:
    """The rows a running bash panel drew in this recording (the spinner, the
    command's rest at its own column), read as the settled title reads: `$`
    and the whole command on the title row (the settled title's first row is
    a start of it), the wrapped rows and a spinner drawn alone as the bare
    bar; the output under the empty bar row is left as it is."""
    token = "29987d832a68854ef116be753cf2b0333ed6ddcd0711b9dca6fff60ae0a913f9c937683458b577139239a00c6b1d3f9354aa"
    rows = ["  │", "  │  ⠼ echo", "  │    " + token, "  │    814", "  │",
            "  │  " + token + "81", "  │  4", "  │"]
    _settle_running_bash(rows)
    assert rows == ["  │", "  │  $ echo " + token + " 814", "  │", "  │", "  │", "  │  " + token + "81", "  │  4", "  │"]
    assert rows[1].startswith("  │  $ echo")
    alone = ["  │  ⠹", "  │  total 16"]
    _settle_running_bash(alone)
    assert alone == ["  │", "  │  total 16"]
    # a settled title and its output are no running title
    settled = ["  │  $ echo", "  │  " + token + "81", "  │  4", "  │", "  │    indented output"]
    before = list(settled)
    _settle_running_bash(settled)
    assert settled == before
