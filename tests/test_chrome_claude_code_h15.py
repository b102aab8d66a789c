"""Claude Code chrome on real recordings: what round h15's randomized probes
found, asserted on every Claude Code recording that shows the situation
(never on one case by name), against its truth.json, as recorded and with
the input events removed:

- `/clear` in the inline renderer goes home and erases the screen row by row,
  then draws the header and `❯ /clear`: the rows of the last answer still on
  screen (its tail, a collapsed tool group `Read 1 file · 1 failed`) were
  shown once and are drawn nowhere else. Replay lost them.
- a file permission dialog (`Create file`, a dashed rule `╌╌╌`, the file's
  rows) taller than the space left pushes its top rows into history; once
  answered, the renderer wipes and draws the call again. Replay kept the
  dialog's rows as the call's text (`Write(x.py)  Create file x.py ╌╌╌…`) and
  could not fold the older copy of the turn onto the reprint: every row of
  it twice.
- a table too wide for the screen is drawn as `key: value` records; a record
  with an empty cell (`Dour:`) ended the table there: the last record stayed
  as `key: value` rows (the header's words again as answer words).
- a collapsed group's closing row counts fewer calls than ran (`Read 1 file`
  for a Read and a `wc` run side by side); while they run, the group names
  each call under it (`⎿  $ wc -l …`, `⎿  notes.md`): each one named is a
  call replayed.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from agents_chrome.claude_code import _groups_as_run, _learn_groups, _record, _summary_turns
from agents_chrome.rules import Labeled
from agents_chrome.transcript import TLine
from tests.conftest import cli_replay, frames_of, meta_of, truth_turns
from tests.test_chrome_claude_code_h5 import CASES, recorded_as_records, table_of
from tests.selection import select

WAYS = [False, True]  # as recorded, and with every input event removed


def _segments(turns: list[dict]) -> list[dict]:
    """Per prompt (slash commands close a segment too): its tool calls and answer words."""
    segs: list[dict] = []
    for t in turns:
        if t["role"] in ("user", "system") or (t["role"] == "user" and t.get("kind")):
            segs.append({"head": t["text"], "slash": bool(t.get("kind")) or t["role"] == "system",
                         "tools": 0, "words": []})
        elif segs and t["role"] == "tool_call":
            segs[-1]["tools"] += 1
        elif segs and t["role"] == "assistant":
            segs[-1]["words"] += regex.findall(r"\w+", t["text"])
    return segs


def _before_clear(turns: list[dict]) -> list[dict]:
    """The segments right before each `/clear`"""
    segs = _segments(turns)
    return [segs[k - 1] for k, s in enumerate(segs)
            if k and s["slash"] and s["head"].strip() == "/clear" and not segs[k - 1]["slash"]]


CLEAR_CASES = [c for c in CASES if meta_of(c).get("render_mode") == "inline" and _before_clear(truth_turns(c))]


def test_there_are_inline_clear_cases():
    assert CLEAR_CASES


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", CLEAR_CASES, ids=lambda c: c.name)
def test_a_clear_keeps_the_end_of_the_answer_it_wiped(case, screen_only):
    """The turn before each `/clear` keeps every tool call and the answer's last words."""
    conv = cli_replay(case, "claude-code", screen_only)
    got, want = _before_clear(conv["turns"]), _before_clear(truth_turns(case))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g["tools"] >= w["tools"], (g["head"], g["tools"], w["tools"])
        tail = [x for x in w["words"][-8:] if x not in ("python", "bash", "json", "yaml", "rust")]
        assert " ".join(tail) in " ".join(g["words"]), (g["head"], tail)


def _dialog_shown(case: Path) -> bool:
    """Some inline frame draws a file permission dialog (`Create file` / `Edit file` under a
    full-width rule, a dashed rule under it). The frames are read only for a recording whose
    output holds those words (collection reads this for every Claude Code recording)."""
    raw = (case / "session.cast").read_text(encoding="utf-8")
    if "Create file" not in raw and "Edit file" not in raw:
        return False
    for f in frames_of(case):
        if f.alternate:
            continue
        for a, b in zip(f.lines, f.lines[1:]):
            if regex.match(r"^─{20,}$", a) and regex.match(r"^ (Create|Edit) file\s*$", b):
                return True
    return False


DIALOG_CASES = select("DIALOG_CASES", CASES, lambda c: _dialog_shown(c))


def test_there_are_inline_file_dialog_cases():
    assert DIALOG_CASES


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", DIALOG_CASES, ids=lambda c: c.name)
def test_a_file_dialog_is_no_conversation_and_no_second_copy(case, screen_only):
    conv = cli_replay(case, "claude-code", screen_only)
    text = "\n".join(t["text"] for t in conv["turns"])
    assert not regex.search(r"╌{10,}|(?m)^\s*(Create file|Edit file)\s*$|Create file \S+ ╌", text)
    # each call the model made at most once per prompt: no older copy of the turn left unfolded
    got = [s["tools"] for s in _segments(conv["turns"]) if not s["slash"]]
    want = [s["tools"] for s in _segments(truth_turns(case)) if not s["slash"]]
    assert len(got) == len(want)
    assert sum(max(0, g - w) for g, w in zip(got, want)) == 0, (got, want)


def _tables_with_an_empty_cell(case: Path) -> list[list[list[str]]]:
    out = []
    for t in truth_turns(case):
        if t["role"] == "assistant":
            cells = table_of(t["text"] or "")
            if cells and any(c == "" for row in cells[1:] for c in row):
                out.append(cells)
    return out


EMPTY_CELL_CASES = select("EMPTY_CELL_CASES", CASES, lambda c: _tables_with_an_empty_cell(c) and recorded_as_records(c))


def test_there_are_record_tables_with_an_empty_cell():
    assert EMPTY_CELL_CASES


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", EMPTY_CELL_CASES, ids=lambda c: c.name)
def test_a_record_with_an_empty_cell_is_a_table_row(case, screen_only):
    """No row of the answer reads `Header:` with a header of a table drawn as records."""
    conv = cli_replay(case, "claude-code", screen_only)
    answers = "\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant")
    for cells in _tables_with_an_empty_cell(case):
        keys = [k for k in cells[0] if k]
        left = [ln for ln in answers.splitlines() if any(regex.match(r"^\s*%s:" % regex.escape(k), ln) for k in keys)]
        assert left == [], left[:5]


def _lb(text: str, kind: str = "cont", rule: str = "unmatched") -> Labeled:
    return Labeled(TLine(text, 0.0, "history", 0), kind, rule, text)


def test_a_record_key_with_no_value_is_a_key_and_a_wrapped_value_ending_in_a_colon_is_not():
    rows = [_lb("  Woos: wumgu"), _lb("  Raisprea: yoth roortyais"), _lb("    tundbrax"),
            _lb("  Dour:"), _lb("  Gloony: 42348")]
    assert _record(rows) == [("Woos", "wumgu"), ("Raisprea", "yoth roortyais tundbrax"), ("Dour", ""),
                             ("Gloony", "42348")]
    wrapped = [_lb("  Woos: the list of"), _lb("    parts:"), _lb("  Dour: none")]
    assert _record(wrapped) == [("Woos", "the list of parts:"), ("Dour", "none")]


def test_each_call_a_running_group_named_is_a_call():
    """Rows as a 173x55 full-screen probe drew them (a Read and a `wc` side by side,
    closed as `Read 1 file`)."""
    groups: dict = {}
    anchor = "● Reading the notes now."
    for frame in (
        [anchor, "", "● Reading 1 file… (ctrl+o to expand)", "  ⎿  $ wc -l notes.md plan.txt"],
        [anchor, "", "● Reading 1 file… (ctrl+o to expand)", "  ⎿  plan.txt"],
        [anchor, "", "  Reading 1 file… (ctrl+o to expand)", "  ⎿  plan.txt"],
    ):
        _learn_groups(frame, groups)
    rows = [_lb(anchor, "assistant", "answer"), _lb("", "blank", "blank"),
            _lb("  Read 1 file (ctrl+o to expand)", "tool_call", "tool-summary")]
    rows[2].body = "Read 1 file (ctrl+o to expand)"
    _groups_as_run(rows, groups)
    assert [t.name for t in _summary_turns(rows[2].body)] == ["Read", "Bash"]
    # one call named once: the closing row stands as it is
    lone = [_lb("● Counting.", "assistant", "answer"), _lb("  Read 1 file", "tool_call", "tool-summary")]
    lone[1].body = "Read 1 file"
    _groups_as_run(lone, {"Counting.": {"$ wc -l notes.md"}})
    assert lone[1].body == "Read 1 file"
