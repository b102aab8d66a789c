"""Mistral Vibe 3.0.2: a randomized probe (round h15).

h15-vibe-probe12-79x23 comes from the harness's seeded generator
(`gen_cases.py --seed 12`): six turns of made-up words at 79x23 with
--auto-approve, answers built from random blocks (lists, quotes, code, box
tables with long cells, a token wider than the row), several tools a turn
(bash with long output, edit, todo; read_file/write_file calls the CLI
refused for their arguments and never drew), a /help dialog between two
turns and an answer interrupted with Esc. What was wrong before this round:

- a table taller than the view streamed in while Vibe laid it out again at
  every row: the answer held one grid per layout (later ones without their
  top rows, earlier ones without their last cells, words that filled their
  column glued to the next), so every row came back two to four times;
- a later layout that lost its header (scrolled away) dropped the header its
  draft had, when the draft's first row was that layout's first row;
- the todo list's progress row (`▶ 1/4 · step … plan`) sits between the
  conversation and the input box: it and the /help completion popup above it
  were read as the end of the answer;
- `Updated 2 todos` (one todo call) was read as two write_file calls, and a
  summary `Ran 2 commands, updated todos 1 time` lost its todo part (and so
  all three calls); an edit was named `search_replace`, a tool 3.0.2 does not
  offer (its edit tool is `edit`).
"""
from __future__ import annotations

import json
import re

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns
from tests.segments import by_prompt as _segments

CASE = RECORDINGS / "vibe" / "h15-vibe-probe12-79x23"
WORD = re.compile(r"\w+")


def _turns(screen_only: bool) -> list[dict]:
    return cli_replay(CASE, "vibe", screen_only)["turns"]


def _served_table(header: str) -> list[list[str]]:
    text = next(t["text"] for t in truth_turns(CASE) if t["role"] == "assistant" and header in t["text"])
    rows = [ln for ln in text.split("\n") if ln.startswith("|") and header in text]
    start = next(n for n, ln in enumerate(rows) if header in ln)
    out = []
    for ln in rows[start:]:
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if all(set(c) <= set("-") for c in cells):
            continue
        out.append(cells)
        if len(out) > 1 and not ln.strip():
            break
    return out


@pytest.mark.parametrize("screen_only", [False, True])
def test_streamed_table_comes_back_once(screen_only: bool) -> None:
    answer = next(t["text"] for t in _turns(screen_only) if t["role"] == "assistant" and "Hoocoofol" in t["text"])
    grid = [ln for ln in answer.split("\n") if ln.startswith("│")]
    # the header and the two rows the mock served, each on one row of its own
    assert len(grid) == 3
    served = _served_table("Hoocoofol")[:3]
    for row, cells in zip(grid, served):
        drawn = [" ".join(c.split()) for c in row.strip()[1:-1].split("│")]
        assert [c.replace(" ", "") for c in drawn] == [c.replace(" ", "") for c in cells]
    # a word that filled its column in one layout keeps its blank from another
    assert "weandkin rambror" in answer and "joji piheand traifytru" in answer


@pytest.mark.parametrize("screen_only", [False, True])
def test_header_of_a_layout_that_lost_it(screen_only: bool) -> None:
    answer = next(t["text"] for t in _turns(screen_only) if t["role"] == "assistant" and "2267" in t["text"])
    assert re.search(r"│ Weandkin\s+│ Souciker\s+│ Tryndsku\s+│", answer)
    assert answer.count("2267") == 1


@pytest.mark.parametrize("screen_only", [False, True])
def test_plan_row_and_popup_stay_out(screen_only: bool) -> None:
    for t in _turns(screen_only):
        if t["role"] in ("assistant", "user"):
            assert "Cmd/Alt" not in t["text"] and not re.search(r"\d+/\d+ · ", t["text"])
            assert "Show help message" not in t["text"]


@pytest.mark.parametrize("screen_only", [False, True])
def test_todo_and_edit_calls_are_named(screen_only: bool) -> None:
    segs = _segments(_turns(screen_only))
    # `Ran 2 commands, updated todos 1 time`: two bash calls and one todo call
    assert sorted(t["name"] for t in segs[1] if t["role"] == "tool_call") == ["bash", "bash", "todo"]
    # `Updated 2 todos` is one todo call; `Edited notes.txt` an edit
    calls = [(t["name"], t["text"]) for t in segs[5] if t["role"] == "tool_call"]
    assert calls == [("todo", "2 todos"), ("edit", "notes.txt")]
    names = {t["name"] for t in _turns(screen_only) if t["role"] == "tool_call"}
    assert "search_replace" not in names and "write_file" not in names


def test_recording_holds_the_situations() -> None:
    truth = json.loads((CASE / "truth.json").read_text())
    names = {t["name"] for t in truth["turns"] if t["role"] == "tool_call"}
    assert {"bash", "edit", "todo"} <= names
    refused = [t for t in truth["turns"] if t["role"] == "tool_result" and "InvalidToolCall" in t["text"]]
    assert refused  # calls the CLI refused: never drawn, left out of the truth comparison
    assert any(t.get("interrupted") for t in truth["turns"] if t["role"] == "assistant")


def test_search_row_is_the_bash_call_that_ran_grep() -> None:
    """Vibe 3.0.2 offers no grep tool (its tool list: bash, read_file,
    write_file, edit, todo, ...): `grep -rn 'todo' .` run with bash is drawn
    `⏵ Searched todo (1 match)`. Rows of a 171x25 probe (seed 24), as drawn."""
    from agents_chrome.transcript import TLine
    from agents_chrome.vibe import PROFILE
    rows = ["> /hiertpound/leavyxwoun rondplam massturt fleaniex huskmar?",
            "─" * 48, "",
            "  Pooxchi thytzyrt chooskzean chooskzean kumflysksol bat kumflysksol_donsiex() 🪴?", "",
            "⏵ Searched todo (1 match)", "",
            "  Siefisk kiertdy feat trixgeat sies vyrthyskru trebreack staissiem coo flas."]
    lines = [TLine(r, float(n), "alt", 0, width=171) for n, r in enumerate(rows)]
    calls = [(t.name, t.text) for t in PROFILE.turns(PROFILE.label(lines)) if t.role == "tool_call"]
    assert calls == [("bash", "todo (1 match)")]
