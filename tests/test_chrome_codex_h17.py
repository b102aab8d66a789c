"""Codex: randomized mixed probes, further (round h17).

The probes come from the harness's seeded generator (gen_cases.py --seed N,
pools widened in round h17: screens 14 to 19 rows tall, a resize as the first
thing, three resizes in one answer, a resize late in an answer, prompts that
open like chrome, one-word answers, answers of only a table, code or list,
a token as wide as the view). The recordings landed keep some prompts of
probes 1703 and 1705, which lost on main:

h17-cx-rpt-alt-105x17 (alternate screen, 105x17, approvals, reasoning
summaries; four prompts of probe 1703): the first answer streams a wide table
while the window is resized three times (131, 161, 182 columns). Codex lays
the table out anew each time; the 17-row view shows no drawing whole, so the
table comes back as the older drawing's header, the middle drawing's first
body row and the newest drawing's rest. The third prompt repeats the first
word for word, and its first call reads the same file as the first prompt's.

h17-cx-mention-alt-139x14 (alternate screen, 139x14 resized to 148x18 as the
first prompt is sent; prompts of probe 1705): prompts opening like chrome
(`└ `, `⎿ `), a prompt naming `@README.md`, whose file popup is taller than
the room above the composer, and `/model` dismissed.

Before this round:
- the older drawings' rules went with the rows they dropped, the header's
  heavy rule too: the table was read as loose rows, wrapped cells out of
  order;
- the status row over the composer (`◦ Working (0s • esc to interrupt)`)
  entered the document under each prompt; the view taken a moment later laid
  the turn's first rows over it (a conflict), and the stitcher took an older
  copy of those rows (the repeated prompt's read of the same file, a `+ Show
  details` row) for the view's place: the repeated prompt's call was lost,
  and in probe 1705 a whole answer (recall .86, turns_ok 0);
- `• Exploring` turning into `• Explored` in a view whose prompt and reads
  repeat an earlier turn's sent the view to the end of the document as a new
  stretch: in probe 1703 the prompt came back twice (turns_ok 0);
- the `@` popup's rows (`Mentions`, its filter tabs, its key hint) came back
  as a user turn and an answer when the popup filled the view.
"""
from __future__ import annotations

import pytest
import regex

from agents_chrome.codex import CodexProfile
from tests.conftest import RECORDINGS, cli_replay, frames_of, recording_cases, truth_turns, typed_prompts
from tests.segments import by_prompt
from tests.selection import select

RPT = RECORDINGS / "codex" / "h17-cx-rpt-alt-105x17"
MENTION = RECORDINGS / "codex" / "h17-cx-mention-alt-139x14"


def _profile() -> CodexProfile:
    prof = CodexProfile()
    prof.transcript([])  # the per-replay state rows() reads
    return prof


# ---------------------------------------------------------------- the rows
#: the full-screen Codex recordings: the rows rules below hold on every frame of each
ALT_CASES = [c for c in recording_cases("codex") if "-alt-" in c.name]


def _alt_rows(pattern: str, case):
    """(frame, rows) for each alternate-screen frame of `case` with a row matching
    `pattern` and a conversation viewport (a frame in the middle of a
    resize's repaint, its composer not yet at the bottom, has none: rows()
    leaves it as drawn and the chrome rules pass over it)."""
    prof = _profile()
    for f in frames_of(case):
        if f.alternate and any(regex.match(pattern, ln) for ln in f.lines) and prof.viewport(f) is not None:
            yield f, prof.rows(f)


STATUS = r"^[•◦] \S.*\(\d+s • esc to"
EXPLORING = r"^[•◦] Exploring\s*$"


def _running_reads(case) -> list:
    """(frame, rows) of each frame with a running group of reads and a read under it."""
    out = []
    for f, rows in _alt_rows(EXPLORING, case):
        y = next(y for y, ln in enumerate(f.lines) if regex.match(EXPLORING, ln))
        if f.lines[y + 1].startswith("  └ "):
            out.append((f, rows))
    return out


STATUS_CASES = select("STATUS_CASES", ALT_CASES, lambda c: any(True for _ in _alt_rows(STATUS, c)))
RUNNING_CASES = select("RUNNING_CASES", ALT_CASES, lambda c: _running_reads(c))


def test_recordings_show_the_status_row_and_running_reads() -> None:
    assert len(STATUS_CASES) >= 5 and RUNNING_CASES


@pytest.mark.parametrize("case", STATUS_CASES, ids=lambda c: c.name)
def test_the_status_row_over_the_composer_never_enters_the_rows(case) -> None:
    seen = 0
    for _f, rows in _alt_rows(STATUS, case):
        seen += 1
        assert not any(regex.match(STATUS, r or "") for r in rows)
    assert seen


@pytest.mark.parametrize("case", RUNNING_CASES, ids=lambda c: c.name)
def test_a_running_group_of_reads_is_the_row_it_settles_to(case) -> None:
    running = _running_reads(case)
    assert running
    for _f, rows in running:
        assert not any(regex.match(r"^[•◦] Exploring", r or "") for r in rows)
        assert "• Explored" in rows


# ---------------------------------------------------------------- the replay
@pytest.mark.parametrize("screen_only", [False, True])
def test_each_prompt_keeps_its_calls_when_a_prompt_repeats_an_earlier_one(screen_only: bool) -> None:
    turns = cli_replay(RPT, "codex", screen_only)["turns"]
    truth = truth_turns(RPT)
    assert typed_prompts(turns) == typed_prompts(truth)
    ours = [[t["text"] for t in seg if t["role"] == "tool_call"] for seg in by_prompt(turns)]
    want = [sum(1 for t in seg if t["role"] == "tool_call") for seg in by_prompt(truth)]
    assert [len(c) for c in ours] == want
    # the repeated prompt's first call is its own read, drawn under it
    assert ours[2][0] == "Read README.md" and ours[0][1] == "Read README.md"


@pytest.mark.parametrize("screen_only", [False, True])
def test_a_table_relaid_by_three_resizes_comes_back_as_one_markdown_table(screen_only: bool) -> None:
    turns = cli_replay(RPT, "codex", screen_only)["turns"]
    served = [t["text"] for t in truth_turns(RPT) if t["role"] == "assistant" and "| Shast |" in t["text"]]
    table = [ln for ln in served[0].split("\n") if ln.startswith("| Shast |")][0]
    start = served[0].index(table)
    want = served[0][start:].split("\n")
    text = next(t["text"] for t in turns if t["role"] == "assistant" and "Shast" in t["text"])
    got = text[text.index("| Shast |"):].split("\n")
    # header, rule and the four body rows, each cell whole (wrapped parts joined in order)
    assert [" ".join(r.split()) for r in got[:6]] == [" ".join(r.split()) for r in want[:2]] + [
        " ".join(r.split()) for r in want[2:6]]


# ---------------------------------------------------------------- the @ popup
def test_the_view_ends_above_the_mention_popup() -> None:
    prof = _profile()
    popups = 0
    for f in frames_of(MENTION):
        if not f.alternate or not any("enter/tab insert · esc close" in ln for ln in f.lines):
            continue
        popups += 1
        vp = prof.viewport(f)
        if vp is None:  # the popup fills the view: no conversation row shows
            continue
        assert not any("Mentions" in ln or "enter/tab insert" in ln for ln in f.lines[vp[0]:vp[1]])
    assert popups > 0


@pytest.mark.parametrize("screen_only", [False, True])
def test_the_mention_popup_never_comes_back_as_a_turn(screen_only: bool) -> None:
    turns = cli_replay(MENTION, "codex", screen_only)["turns"]
    truth = truth_turns(MENTION)
    assert typed_prompts(turns) == typed_prompts(truth)
    for t in turns:
        if t["role"] in ("user", "assistant"):
            assert "enter/tab insert" not in t["text"] and "Filesystem Only" not in t["text"], t["text"]
