"""OpenCode 1.18.33: randomized probes (round h16).

The probes come from the harness's seeded generator (`gen_cases.py --seed N`,
h16 pools: very narrow / very tall / very wide sizes, 12-18 turns, two
events close together, a resize while a tool runs, answers that end with a
table, code or a list, tool-only turns, repeated prompts, empty-output tools
and tools whose output holds OpenCode's own glyphs). What was wrong before
this round:

- a bash call whose output printed a `$ word` row (here `printf` echoing the
  agent's glyphs: `→ Read x.md`, `┃ …`, `$ tho --funddroos`, `✱ Glob …`) was
  read as a second bash call from that row on: a panel has one title, its
  first row (a `$` row run straight on from another panel's output is still
  a title when it is drawn as one: its empty bar row under it, after the
  rows its command wrapped onto);
- while the model writes a tool call the answer ends in `~ Writing
  command…` over the turn's footer: the row was answer text, and the view
  that replaced it with the tool's panel, starting on the answer's last row,
  was stitched under the footer, so that row came back twice;
- a box table streamed taller than a narrow screen was stitched from views
  that caught its last row at other points: the row once as a draft (its
  last cell cut), a rule, the row whole; and the table's bottom rows again
  as a second grid under the first (the layouts join as Vibe's do: the
  grid rules moved from vibe.py to grids.py).

h16-oc-probe1613t3-61x26 is seed 1613 cut to its first three turns at 61x26
(a grep and a glyph-printing bash call; ls, the glyph call again, a failing
read, a failing cat and a write; thinking; a table at an answer's end).
"""
from __future__ import annotations

import pytest

from agents_chrome.grids import drop_row_drafts, merge_grid_layouts
from agents_chrome.opencode import PROFILE
from agents_chrome.transcript import TLine
from tests.conftest import RECORDINGS, cli_replay, truth_turns
from tests.segments import by_prompt as _segments

CASE = RECORDINGS / "opencode" / "h16-oc-probe1613t3-61x26"


@pytest.mark.parametrize("screen_only", [False, True])
def test_output_row_with_a_dollar_is_no_second_call(screen_only: bool) -> None:
    got = _segments(cli_replay(CASE, "opencode", screen_only)["turns"])
    truth = _segments(truth_turns(CASE))
    for g, t in zip(got, truth):
        assert [x["name"] for x in g if x["role"] == "tool_call"] == \
            [x["name"] for x in t if x["role"] == "tool_call"]
    glyph_results = [r["text"] for seg in got for r in seg
                     if r["role"] == "tool_result" and r["text"].startswith("→ Read")]
    assert len(glyph_results) == 2
    for text in glyph_results:
        rows = text.split("\n")
        assert any(r.startswith("$ ") for r in rows) and rows[-1].startswith("[ ] ")


@pytest.mark.parametrize("screen_only", [False, True])
def test_pending_tool_row_and_the_row_drawn_again(screen_only: bool) -> None:
    got = _segments(cli_replay(CASE, "opencode", screen_only)["turns"])
    truth = _segments(truth_turns(CASE))
    for seg in got:
        for x in seg:
            assert "Writing command" not in x["text"]
    answers = [x["text"] for x in got[2] if x["role"] == "assistant"]
    want = [x["text"] for x in truth[2] if x["role"] == "assistant"]
    assert answers[0] == want[0]


def _rows(texts: list[str], width: int = 69) -> list[TLine]:
    return [TLine(r, float(n), "alt", 0, width=width) for n, r in enumerate(texts)]


def test_title_run_on_from_another_panels_output_is_a_call() -> None:
    """Rows a 69x27 probe (h15 seed 13) stitched with the blank between two
    bash panels lost: the second title, wrapped, with its empty bar row under
    it, is the next call; a short `$` row inside output is not."""
    panel = ["  │", '  │  $ for i in $(seq 1 45); do echo "$i founseck floumnynd pynoux',
             '  │  stimcha skosbrouck grixjo"; done', "  │"]
    panel += ["  │  %d founseck floumnynd pynoux stimcha skosbrouck grixjo" % n for n in range(1, 4)]
    second = ['  │  $ for i in $(seq 1 74); do echo "$i jolse hooskiend',
              '  │  fachemplosk sasjam weack vasklieck"; done', "  │",
              "  │  1 jolse hooskiend fachemplosk sasjam weack vasklieck", "  │", ""]
    labeled = PROFILE.label(_rows(["  ┃  go on", ""] + panel + second))
    calls = [t.text for t in PROFILE.turns(labeled) if t.role == "tool_call"]
    assert len(calls) == 2 and "seq 1 74" in calls[1]
    echoed = ["  │  $ tho --funddroos", "  │  ✱ Glob \"**/*.py\"", "  │  # Todos", "  │", ""]
    labeled = PROFILE.label(_rows(["  ┃  go on", ""] + panel + echoed))
    assert len([t for t in PROFILE.turns(labeled) if t.role == "tool_call"]) == 1


#: a 4-column table streamed taller than a 61x26 screen (seed 1613, turn 6),
#: as the answer's rows were stitched (cells squeezed)
STREAMED = """┌┐
│ Jeanun │ Dunsear │ Nartthand │ Cou │
├┤
│ quysgiel bescouskget │ lym tos │ 2349 │ sheskfund neack │
├┤
│ viskboodan maimlea │ tertfysk veat │ 1040 │ skydand quearfies larcymba shi │
├┤
│ viskboodan maimlea │ tertfysk veat │ 1040 │ skydand quearfies larcymba shisses │
├┤
│ zacksheand geamneafour │ vosk thyx │ flulqueat tourtdesk │ costuck visktrou flulquea │
└┘

├┤
│ zacksheand geamneafour │ vosk thyx │ flulqueat tourtdesk │ costuck visktrou flulqueat │
└┘

Shym liswou funddroos wex."""


def test_streamed_table_rows_come_back_once() -> None:
    text = merge_grid_layouts(drop_row_drafts(STREAMED))
    rows = [ln for ln in text.split("\n") if ln.startswith("│")]
    assert len(rows) == 4
    assert rows[2].endswith("larcymba shisses │") and rows[3].endswith("visktrou flulqueat │")
    assert text.endswith("Shym liswou funddroos wex.")


def test_rows_that_only_share_a_start_stay() -> None:
    """A row is a draft only when every cell before the cut one is the same
    and every cell after it empty: two rows that merely start alike stay."""
    text = """┌┐
│ a │ 1 │ kite │
├┤
│ a │ 12 │ kiteflyer │
└┘"""
    assert drop_row_drafts(text) == text


def test_a_call_under_the_footer_of_a_running_turn_is_the_models() -> None:
    """Rows a 99x23 probe (seed 1609) stitched: the footer OpenCode draws
    while the turn runs (no time yet) kept above the turn's next bash call.
    Only a finished answer's footer (`· 7.0s`) has a `!cmd` of the user's
    under it."""
    panel = ["  │", "  │  $ ls -la", "  │", "  │  total 20", "  │"]
    running = ["  ┃  go on", "", "     ▣  Build · Mock Model", ""] + panel + [""]
    turns = PROFILE.turns(PROFILE.label(_rows(running, 99)))
    assert [t.role for t in turns] == ["user", "tool_call", "tool_result"]
    done = ["  ┃  go on", "", "     Fine.", "", "     ▣  Build · Mock Model · 7.0s", ""] + panel + [""]
    turns = PROFILE.turns(PROFILE.label(_rows(done, 99)))
    assert [t.role for t in turns][:4] == ["user", "assistant", "user", "tool_call"]
