"""Codex: randomized mixed probes, further (round h16).

The probes come from the harness's seeded generator (gen_cases.py --seed N,
round h16's pools: very narrow, very tall and very wide screens, 12-18 turns,
two events close together, answers ending with a table, code or list, nested
quotes, empty-output tools, outputs holding Codex's own glyphs, a prompt
typed twice). The two recordings landed keep the turns of two probes that
lost, with their content:

h16-cx-reprint-cjk-na-70x33 (inline, 7 prompts): a prompt typed twice, a
width shrink while an answer streams (a table with Chinese and Korean cells
is then drawn as records, one row per column), a prompt of Chinese
characters that the card wraps, an Esc interrupt with a resize right after
it. On that resize Codex clears the screen and prints the conversation again
at the new width; the Chinese prompt's first row holds other characters at
68 columns than at 70. Before this round the older copy stayed: every prompt
came back twice (user turns 24 for 13 in the probe, asst_prec 0.571).

h16-cx-approve-resize-alt-106x30 (alternate screen, 3 prompts, approvals,
reasoning summaries): an approval asked beside two other calls (they run
while it waits): its `• Running <cmd>` row stays in the history above the
approval's decision and the calls, and the call is drawn again further down
as `• Ran <cmd>`; before this round the stale row came back as an answer.
Then the window is resized while a second approval waits. The rows before
the resize end with `• Running <cmd>`; after it the approval is left as
`✔ You approved codex to run <cmd> this time` and the call settles to `• Ran
<cmd>`. Before this round the layouts were joined on the approval row (it
quotes the command): the call came back as an answer `Running <cmd> this
time`. An answer opening with a table also holds a nested quote.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import regex

from agents_chrome.codex import _quote_wraps
from agents_chrome.replay import replay, replay_cast
from tests.conftest import RECORDINGS, cast_events, cli_replay, truth_turns, typed_prompts

REPRINT = RECORDINGS / "codex" / "h16-cx-reprint-cjk-na-70x33"
APPROVE = RECORDINGS / "codex" / "h16-cx-approve-resize-alt-106x30"
HAN = regex.compile(r"[\p{Han}\p{Hangul}]")


def _answers(turns: list[dict]) -> str:
    return "\n".join(t["text"] for t in turns if t["role"] == "assistant")


# ---------------------------------------------------------------- the reprint
@pytest.mark.parametrize("screen_only", [False, True])
def test_each_prompt_comes_back_once_after_the_reprint(screen_only: bool) -> None:
    turns = cli_replay(REPRINT, "codex", screen_only)["turns"]
    truth = truth_turns(REPRINT)
    assert typed_prompts(turns) == typed_prompts(truth)  # the prompt typed twice: twice, no more
    # the answer cut by Esc is the last one: nothing after it came back again
    assert sum(1 for t in turns if t["role"] == "user") == sum(1 for t in truth if t["role"] == "user")


def test_the_chinese_prompt_wraps_elsewhere_in_the_reprint() -> None:
    # what made the copies differ: the card's first row of the Chinese
    # prompt holds other words at the two widths (a run of ideographs wraps
    # anywhere); the older copy is the reprinted one, the newer the prompt
    prompt = next(t["text"] for t in truth_turns(REPRINT) if t["role"] == "user" and HAN.search(t["text"]))
    _meta, _turns, labeled = replay(REPRINT / "session.cast", agent="codex")
    rows = [lb for lb in labeled if lb.line.text.startswith("› " + prompt[:4])]
    assert len(rows) == 2 and rows[0].line.text.rstrip() != rows[1].line.text.rstrip()
    assert rows[0].rule == "reprinted" and rows[1].kind == "user"


def test_a_table_drawn_as_records_keeps_its_wide_cells_whole(tmp_path: Path) -> None:
    # before the reprint (the recording cut at its last resize) the table
    # the shrink drew as records is the only copy: its Chinese and Korean
    # cells come back as served, not a character and a space each
    events = cast_events(REPRINT)
    last_resize = max(i for i, e in enumerate(events) if e[1] == "r")
    with (REPRINT / "session.cast").open(encoding="utf-8") as fh:
        header = fh.readline()
    cut = tmp_path / "session.cast"
    cut.write_text(header + "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events[:last_resize]),
                   encoding="utf-8")
    got = _answers(replay_cast(str(cut), agent="codex")["turns"])
    served = [t["text"] for t in truth_turns(REPRINT) if t["role"] == "assistant"]
    table = next(a for a in served if a.startswith("|") or "\n|" in a)
    cells = [c.strip() for row in table.splitlines() if row.startswith("|") for c in row.strip("|").split("|")]
    wide = [c for c in cells if len(HAN.findall(c)) >= 2]
    assert wide
    for c in wide:
        assert c in got
        assert " ".join(c) not in got


# ---------------------------------------------------------------- approval + resize
@pytest.mark.parametrize("screen_only", [False, True])
def test_the_approved_call_is_a_call_after_a_resize_at_the_approval(screen_only: bool) -> None:
    # each approved command is a call, once; no `Running <cmd>` status row
    # (stale, or joined to the approval row) comes back as an answer
    turns = cli_replay(APPROVE, "codex", screen_only)["turns"]
    truth = truth_turns(APPROVE)
    approved = [t["input"]["cmd"] for t in truth if t["role"] == "tool_call"
                and (t.get("input") or {}).get("sandbox_permissions") == "require_escalated"]
    assert len(approved) == 2
    calls = [t["text"] for t in turns if t["role"] == "tool_call"]
    for cmd in approved:
        assert calls.count(cmd) == 1
    text = _answers(turns)
    assert "this time" not in text and "Running" not in text
    assert typed_prompts(turns) == typed_prompts(truth)


# a nested quote as Codex drew it at 68 columns (round h16's probe seed 1607,
# inline, not landed: its cast is 1 MB), rows copied from its screen
NESTED_DRAWN = """> Lylkarvond which under to is vaisttree plantree drisseend!
>
> > Zuxreelglond thal zouth before thom thai poath to in glurk
> > broulnith after.
> > Droarrux our plerkmux zeest of karkchom fousnu and which our
> > is tusplus for fynbous gork?
>
> Stymstem zeerktroar is thyschychend thosrys each which."""


def test_a_nested_quote_joins_its_wraps_at_its_own_level() -> None:
    # the inner quote's wrapped rows join their row, `> > ` and all; the
    # outer rows keep theirs (before: `which our > is tusplus`, `glurk` and
    # `broulnith after.` left on two rows)
    assert _quote_wraps(NESTED_DRAWN).splitlines() == [
        "> Lylkarvond which under to is vaisttree plantree drisseend!",
        ">",
        "> > Zuxreelglond thal zouth before thom thai poath to in glurk broulnith after.",
        "> > Droarrux our plerkmux zeest of karkchom fousnu and which our is tusplus for fynbous gork?",
        ">",
        "> Stymstem zeerktroar is thyschychend thosrys each which."]


@pytest.mark.parametrize("screen_only", [False, True])
def test_a_nested_quote_keeps_its_levels(screen_only: bool) -> None:
    served = _answers(truth_turns(APPROVE))
    nested = [ln for ln in served.splitlines() if ln.startswith("> > ")]
    assert nested
    got = _answers(cli_replay(APPROVE, "codex", screen_only)["turns"])
    for ln in nested:  # each served row of the inner quote, whole, on a row of its own
        assert ln in got.splitlines()


@pytest.mark.parametrize("screen_only", [False, True])
def test_a_command_codex_wrapped_under_its_gutter_is_the_command(screen_only: bool) -> None:
    # a `• Ran` command longer than its row goes on under `│ `: the call is
    # the command as served, without the gutter (its output holds Codex's
    # own glyphs: `└`, `⋮`, `• Ran`)
    served = [t["input"]["cmd"] for t in truth_turns(REPRINT) if t["role"] == "tool_call"]
    long = [c for c in served if len(c) + 8 > 70]
    assert long
    calls = [t["text"] for t in cli_replay(REPRINT, "codex", screen_only)["turns"] if t["role"] == "tool_call"]
    for c in long:
        assert c in calls
