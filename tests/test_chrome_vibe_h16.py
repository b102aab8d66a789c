"""Mistral Vibe 3.0.2: randomized probes (round h16).

The probes come from the harness's seeded generator (`gen_cases.py --seed N`,
h16 pools: very narrow / very tall / very wide sizes, 12-18 turns, two
events close together, answers that end with a table, code or a list,
tool-only turns, repeated prompts, empty-output tools and tools whose output
holds Vibe's own glyphs). What was wrong before this round:

- a summary row counting two kinds of call under one verb, `Ran 1 search
  and 1 command, thought` or `Read 1 file, ran 1 search and 1 command,
  edited 1 file`, matched no summary pattern: the whole row was one call
  named after its first verb (the other calls lost);
- an answer that opens with a box table taller than the view, right under a
  tool row, is laid out again while it streams and each layout's view shows
  the tool row above the table: stitched, the tool row came back between two
  layouts of the table, so the call counted twice and the table came back
  once per layout (the two layouts were in two answers, so the grid rules
  never saw them together).

h16-vibe-probe1615t2-173x43 is seed 1615 cut to its first two turns (a CJK
prompt answered with two reads and a write under approvals, then the turn
whose calls fold into `Ran 1 search and 1 command, thought`).
"""
from __future__ import annotations

import pytest

from agents_chrome.transcript import TLine
from agents_chrome.vibe import PROFILE
from tests.conftest import RECORDINGS, cli_replay, truth_turns
from tests.segments import by_prompt as _segments

CASE = RECORDINGS / "vibe" / "h16-vibe-probe1615t2-173x43"


def _calls(rows: list[str], width: int = 80) -> list[tuple[str, str]]:
    lines = [TLine(r, float(n), "alt", 0, width=width) for n, r in enumerate(rows)]
    return [(t.name, t.text) for t in PROFILE.turns(PROFILE.label(lines)) if t.role == "tool_call"]


@pytest.mark.parametrize("screen_only", [False, True])
def test_search_and_command_summary_is_two_bash_calls(screen_only: bool) -> None:
    """`⏵ Ran 1 search and 1 command, thought`: the grep and the `true` run
    with bash (an empty output each), as truth.json has them."""
    segs = _segments(cli_replay(CASE, "vibe", screen_only)["turns"])
    truth = _segments(truth_turns(CASE))
    got = [t["name"] for t in segs[1] if t["role"] == "tool_call"]
    want = [t["name"] for t in truth[1] if t["role"] == "tool_call"]
    assert got == want == ["bash", "bash"]
    # the thought folded into the same row stays out of the calls and the answer
    answers = [t["text"] for t in segs[1] if t["role"] == "assistant"]
    assert answers and not any("search" in a for a in answers)


def test_and_inside_a_later_part_of_a_summary() -> None:
    """A row of a 68x20 probe (seed 1614), as drawn: the `and` sits in the
    second part, under that part's verb."""
    rows = ["> 条鱼却百摇奥。", "─" * 60, "",
            "⏵ Read 1 file, ran 1 search and 1 command, edited 1 file", "",
            "  Wergoosk sto dat skandthas niertmiex brel sultoond wus!"]
    assert [name for name, _ in _calls(rows, 68)] == ["read_file", "bash", "bash", "edit"]


#: rows an 81x25 probe (h15 seed 19) stitched: a table opening the answer
#: under `⏵ Ran cat …`, laid out again while it streamed; the later view
#: shows the tool row again right under the earlier layout's bottom edge
RELAID = [
    "> plytceand thu thalbu mooskzoun skamdack pouskche?",
    "─" * 80, "",
    "⏵ Ran cat plemplier/boocktrort.txt", "",
    "  ┌──────────────────────┬───────────┬──────────────────────────┬────────────┐",
    "  │ Byx                  │ Thyndfiet │ Skain                    │ Grendques  │",
    "  ├──────────────────────┼───────────┼──────────────────────────┼────────────┤",
    "  │ kou zigrerreart      │ 7659      │ 3474                     │ 2357       │",
    "  │ chethond             │           │                          │            │",
    "  ├──────────────────────┼───────────┼──────────────────────────┼────────────┤",
    "  │ 8558                 │ 9371      │ 9568                     │            │",
    "  ├──────────────────────┼───────────┼──────────────────────────┼────────────┤",
    "  │                      │           │ sajartgi dritmeat        │ pousk      │",
    "  │                      │           │ jynchea                  │            │",
    "  └──────────────────────┴───────────┴──────────────────────────┴────────────┘",
    "⏵ Ran cat plemplier/boocktrort.txt", "",
    "  ┌─────────────────┬───────────┬────────────────────┬───────────────────────┐",
    "  │ Byx             │ Thyndfiet │ Skain              │ Grendques             │",
    "  ├─────────────────┼───────────┼────────────────────┼───────────────────────┤",
    "  │ kou zigrerreart │ 7659      │ 3474               │ 2357                  │",
    "  │ chethond        │           │                    │                       │",
    "  ├─────────────────┼───────────┼────────────────────┼───────────────────────┤",
    "  │ 8558            │ 9371      │ 9568               │                       │",
    "  ├─────────────────┼───────────┼────────────────────┼───────────────────────┤",
    "  │                 │           │ sajartgi dritmeat  │ pouskche flaifeck     │",
    "  │                 │           │ jynchea            │ gyndflosin            │",
    "  ├─────────────────┼───────────┼────────────────────┼───────────────────────┤",
    "  │ 9255            │           │ 1910               │ 2721                  │",
    "  └─────────────────┴───────────┴────────────────────┴───────────────────────┘",
    "", "  The key, as one token:",
]


def test_tool_row_drawn_again_between_two_layouts_of_a_table() -> None:
    lines = [TLine(r, float(n), "alt", 0, width=81) for n, r in enumerate(RELAID)]
    turns = PROFILE.turns(PROFILE.label(lines))
    assert [(t.role, t.name) for t in turns if t.role == "tool_call"] == [("tool_call", "bash")]
    answers = [t.text for t in turns if t.role == "assistant"]
    assert len(answers) == 1
    grid = [ln for ln in answers[0].split("\n") if ln.startswith("│")]
    # the header and the four rows these views show, once each, the last
    # layout's cells whole
    assert len(grid) == 5 and answers[0].count("Byx") == 1
    assert "pouskche flaifeck gyndflosin" in answers[0] and "9255" in answers[0]


def test_the_same_call_again_after_a_table_is_a_call() -> None:
    """The rule needs the grid under the row to open with the earlier grid's
    header: a second call of the same command whose answer is no layout of
    the table stays a call."""
    rows = RELAID[:16] + ["⏵ Ran cat plemplier/boocktrort.txt", "",
                          "  Mawear vund poondquat pyr grextoux hat grienquaind."]
    assert [name for name, _ in _calls(rows, 81)] == ["bash", "bash"]


#: the document a 68x20 probe (seed 1614, turn 11) had stitched when the user
#: sent a prompt word for word the same as turn 3's, cut to the older copy
#: and the tail; then the views that came (the answer's last row, two blank
#: rows, the prompt; then the prompt alone with a call starting under it)
PROMPT = ["> hainshoox trandboul sto viegrair citrack stertzou quynd jieshoux",
          "  drait thixdou pliemytwe jir sor meartple bookuck byzouci cartpil",
          "  voxzu lyjiem brou gaxgysk zealzoos cylthertrer plertthoux chas",
          "  drond trou windwun kirbourt cyquen chinple drimlort quynd niedru",
          "  trandboul sumounkot sto naicktrim churflound skondbrot jaixques",
          "  shiesthy?",
          "─" * 67]
LAST = "  Wergoosk sto dat skandthas niertmiex brel sultoond wus!"
DOC = ["  /wergoosk/zealzoos/stotplom/wasdyl/drimlort/fiwie/shyjea/stun/k",
       "  irbourt/laiskasmen/brou/plock/chas/zenbraick.log", "", ""] + PROMPT + [
       "", "  Wieruck brou seaxthus brou shaickdeal 🧲.", "", "⏵ Read 6 lines from src/main.py", "",
       "  Sundshym zousjeat zear jochittoun tyr thousk drim voxzu", "  kirbourt cyquen tielfoum vack!", "",
       "⏵ Read 1 file, ran 1 search and 1 command, edited 1 file", "", LAST]


def test_a_prompt_sent_again_goes_on_from_the_tail() -> None:
    """Its rows voted for the older copy; the answer's last row was the
    view's only tie to the tail. The older copy lays that row over other
    text, the tail lays none: the prompt is new rows after the answer."""
    from agents_chrome.stitch import Stitcher
    st = Stitcher(first_drawn=True, reach="view")
    st.add(DOC, 0.0)
    for n, view in enumerate([[LAST, "", ""] + PROMPT] * 2 + [PROMPT + ["", "■ Reading churflound.txt"]] * 2):
        st.add(view, float(n + 1))
    at = len(DOC) - 1
    assert st.doc[at] == LAST and st.doc[at + 3:at + 3 + len(PROMPT)] == PROMPT
    assert st.doc.count(PROMPT[0]) == 2


def test_a_token_broken_at_the_width_its_row_was_laid_out_at() -> None:
    """A 166x57 probe (seed 1622) answered while the window went to 147 and
    119 columns and back: the answer's rows come from three layouts, and a
    hex token filled its row at 119 columns. Each row is weighed at its own
    width (the answer's first row was laid out at 166)."""
    from agents_chrome.vibe import ANSWER_MARGIN, _join_broken_tokens
    token = ("7c8a142a99af5adf47f1ba667dea7e13192a353fa045e9c9e3d0d9830329fcb13a7bbda1785aef3ccf13f7f8ed32d6"
             "3935b694badb75d71ae1")
    rows = ["  Plir noor ryxstert flooskvoux roumjoox droombook.", "", "  The key, as one token:", "",
            "  " + token, "  15f874ffe781f4983817", ""]
    widths = [w - 1 - ANSWER_MARGIN for w in (166, 166, 147, 147, 119, 119, 119)]
    assert "  " + token + "15f874ffe781f4983817" in _join_broken_tokens(rows, widths)
    # weighed at the first row's width, the token's row stops short: two rows
    assert "  " + token in _join_broken_tokens(rows, widths[0])
