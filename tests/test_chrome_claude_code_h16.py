"""Claude Code chrome on real recordings: what round h16's randomized probes
found, asserted on every Claude Code recording that shows the situation
(never on one case by name), against its truth.json, as recorded and with
the input events removed:

- a full-screen render reaches the terminal in two writes a pause apart (a
  busy machine; Claude Code draws without synchronized updates): the frame
  taken in between holds rows half rewritten (a table's rows drawn twice, the
  rows below not moved yet), its cursor up in the conversation where every
  finished render leaves it in or below the input box. Stitched as a view,
  it added a copy of the conversation: a prompt and its answer twice.
- a full-screen `/clear` starts a new layout, joined to the conversation
  before it on the words both hold: a status row (`✻ Worked for 1s · done
  12:39 PM` after `✻ Cogitated for 1s · done 12:39 PM`) put the turns after
  the clear in place of the turn that followed it: the prompt and the answer
  right after the clear were lost.
- the inline renderer reprinting after a second resize: the old copy's
  table border that scrolled up after the mark stayed between a prompt and
  the row under it (the prompt came back with the border as a second line).
- a running group shows, while a shell command runs, that command's
  description with the command under it (`● Scan notes` / `⎿  $ head -n 1
  a.txt`) instead of its counts: each command named so is a call.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from agents_chrome.claude_code import ClaudeCodeProfile, _groups_as_run, _learn_groups, _summary_turns
from agents_chrome.rules import Labeled
from agents_chrome.transcript import TLine, fold_redraws
from tests.conftest import cli_replay, frames_of, meta_of, truth_turns, typed_prompts
from tests.test_chrome_claude_code_h5 import CASES

WAYS = [False, True]  # as recorded, and with every input event removed
FULL = [c for c in CASES if meta_of(c).get("render_mode") == "fullscreen"
        and meta_of(c).get("agent_version") == "2.1.330"]


def _half_drawn(case: Path) -> int:
    """Full-screen frames taken while a render was half drawn: the cursor
    above the input box's top rule."""
    prof = ClaudeCodeProfile()
    n = 0
    for f in frames_of(case):
        if f.alternate:
            top = prof._frame_box_top(f)
            n += top is not None and f.cursor[1] < top
    return n


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
def test_a_half_drawn_frame_adds_no_copy_of_the_conversation(screen_only):
    """Full-screen recordings with a frame taken while a render was half
    drawn: each prompt comes back as often as it was typed, and no answer's
    opening comes back more often than truth answered it. (One test over the
    recordings: their frames are read once, as other tests read them.)"""
    seen = 0
    for case in FULL:
        if not _half_drawn(case):
            continue
        seen += 1
        conv = cli_replay(case, "claude-code", screen_only)
        truth = truth_turns(case)
        assert Counter(typed_prompts(conv["turns"])) == Counter(typed_prompts(truth)), case.name
        heads = Counter(" ".join(t["text"].split())[:40] for t in truth
                        if t["role"] == "assistant" and t["text"].strip())
        got = Counter(" ".join(t["text"].split())[:40] for t in conv["turns"] if t["role"] == "assistant")
        assert {h: n for h, n in got.items() if h in heads and n > max(1, heads[h])} == {}, case.name
    assert seen


def _after_clear(turns: list[dict]) -> list[str]:
    """The prompts typed right after each `/clear`."""
    out = []
    for k, t in enumerate(turns):
        if t["role"] in ("user", "system") and t["text"].strip() == "/clear":
            nxt = next((u for u in turns[k + 1:] if u["role"] == "user" and not u.get("kind")), None)
            if nxt is not None:
                out.append(" ".join(nxt["text"].split()))
    return out


CLEAR_CASES = [c for c in FULL if _after_clear(truth_turns(c))]


def test_there_are_full_screen_clear_cases():
    assert CLEAR_CASES


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", CLEAR_CASES, ids=lambda c: c.name)
def test_a_full_screen_clear_keeps_the_turns_after_it(case, screen_only):
    """Every prompt comes back in order, and the prompt typed right after a
    `/clear` keeps its answer's last words."""
    conv = cli_replay(case, "claude-code", screen_only)
    truth = truth_turns(case)
    assert typed_prompts(conv["turns"]) == typed_prompts(truth)
    for head in _after_clear(truth):
        want = _answer_after(truth, head).split()[-3:]
        assert " ".join(want) in _answer_after(conv["turns"], head), (head, want)


def _answer_after(turns: list[dict], head: str) -> str:
    """The answer words of the first turn whose prompt is `head`, markdown marks left out."""
    k = next(i for i, t in enumerate(turns) if t["role"] == "user" and " ".join(t["text"].split()) == head)
    out = []
    for t in turns[k + 1:]:
        if t["role"] in ("user", "system"):
            break
        if t["role"] == "assistant":
            out.append(t["text"])
    return " ".join(" ".join(out).replace("**", "").replace("`", "").split())


def _tl(rows: list[str]) -> list[TLine]:
    return [TLine(r, 0.0, "history", 0) for r in rows]


def test_a_reprint_drops_the_old_copys_border_that_scrolled_up_after_the_mark():
    """History rows as a 113x29 inline probe left them: the answer's table,
    a second resize's mark, the table's closing border and a blank scrolled up
    after it, then the reprint at the new width from the table's top."""
    table = ["● ┌──────────┬───────────┐", "  │  Fudrol  │ Wourweasp │", "  ├──────────┼───────────┤",
             "  │ 50379    │ tyftrouck │", "  ├──────────┼───────────┤", "  │ dus      │ pleirt    │"]
    before = ["● Skox glio skeandtear plounba beiskaszeil quan zadys shiosprack chaiha.", "",
              "✻ Churned for 3s · done 12:36 PM", "", "❯ Plaipimnoth pleirt rorvu", ""]
    wide = ["● ┌──────────────┬───────────────┐", "  │    Fudrol    │   Wourweasp   │",
            "  ├──────────────┼───────────────┤", "  │ 50379        │ tyftrouck     │",
            "  ├──────────────┼───────────────┤", "  │ dus          │ pleirt        │",
            "  └──────────────┴───────────────┘", "", "  Glartfly triothbru snoortpla gylsti plethum."]
    lines = _tl(before + table + ["  └──────────┴───────────┘", ""] + wide)
    mark = len(before) + len(table)
    out = [ln.text for ln in fold_redraws(lines, [(mark, 20)])]
    k = out.index("❯ Plaipimnoth pleirt rorvu")
    assert out[k + 1] == "" and out[k + 2] == wide[0]
    assert not any("└──────────┴" in r for r in out)
    # a blank after the mark with nothing drawn is left where it is, as before
    lines = _tl(before + table + [""] + wide)
    out = [ln.text for ln in fold_redraws(lines, [(mark, 20)])]
    assert out[out.index("❯ Plaipimnoth pleirt rorvu") + 1:][:2] == ["", wide[0]]


def _lb(text: str, kind: str = "cont", rule: str = "unmatched") -> Labeled:
    return Labeled(TLine(text, 0.0, "history", 0), kind, rule, text)


def test_a_running_group_naming_a_command_by_its_description_names_a_call():
    """Rows as a 199x39 full-screen probe drew them: a Read and two `head`
    runs in one group, each `head` shown under its description while it ran
    (the bullet blinking), closed as `Thought for 1s, read 1 file`."""
    groups: dict = {}
    anchor = "● Keimveavai lirt dryndthol."
    for frame in (
        [anchor, "● Reading 1 file…", "✽ Forming… (0s · ↓ 5 tokens)"],
        [anchor, "● Weirtstio yiwior", "  ⎿  $ head -n 1 queam.txt", "✽ Forming… (0s · ↓ 5 tokens)"],
        [anchor, "  Weirtstio yiwior", "  ⎿  $ head -n 1 queam.txt", "✶ Forming… (1s · ↓ 32 tokens)"],
        [anchor, "  Choockzooth lir zeamythstis", "  ⎿  $ head -n 20 sax.py", "✢ Forming… (2s · ↓ 58 tokens)"],
    ):
        _learn_groups(frame, groups)
    rows = [_lb(anchor, "assistant", "answer"), _lb("  Thought for 1s, read 1 file", "tool_call", "tool-summary")]
    rows[1].body = "Thought for 1s, read 1 file"
    _groups_as_run(rows, groups)
    assert [t.name for t in _summary_turns(rows[1].body)] == ["Read", "Bash"]
    # a finished call's output that opens with `$ ` under its `Name(…)` row names nothing
    groups = {}
    _learn_groups([anchor, "● Bash(head -n 1 queam.txt)", "  ⎿  $ zousvim 356"], groups)
    assert groups == {}


def test_a_running_group_left_as_last_drawn_is_its_command():
    """Rows as a 109x20 full-screen probe left them when a permission dialog
    taller than the screen covered the rest of the turn: the group's
    description row over its command is a Bash call, not an answer."""
    prof = ClaudeCodeProfile()
    rows = ["❯ Chymhoul feadrus siock kouxfespzum waith thendmei", "", "● Kikraft yomwacktri synd skioldrys",
            "  ⎿  $ head -n 1 yeiskift.py", "", "● Girtgle pootraift shoorke boosnand."]
    labeled = prof.label([TLine(r, 0.0, "alt", 1) for r in rows])
    assert [lb.kind for lb in labeled][2:4] == ["tool_call", "chrome"]
    turn = prof.make_turn("tool_call", labeled[2].body, [labeled[2]])
    assert (turn.name, turn.text) == ("Bash", "head -n 1 yeiskift.py")
    assert labeled[5].kind == "assistant"
