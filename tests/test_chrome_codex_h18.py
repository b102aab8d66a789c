"""Codex: randomized long-session probes (round h18).

The probes come from a seeded generator (seeds 1831-1845: sessions of 8 to 14
prompts, sizes 60x20 to 200x60, both screen modes, resizes in the middle of
answers, approvals granted and refused, `/status`, `/model`, `/diff`, an
unknown command, CJK and emoji prompts, tables with wide cells, code blocks
with empty lines, commands whose output is only empty lines). Two landed:

h18-cx-s1845-alt-162x44 (alternate screen, approvals, thirteen prompts, eight
resizes): the prompt pinned at the top of the view (the sticky header, cut
with `…`) is drawn by diffing its cells over the previous prompt's row; where
a wide character of the new text covers the left half of an old one, the
terminal blanks the old one's right half in the default colours (tmux does)
and Codex, whose own buffer holds a space there, never draws it again. The
row's background had a one-cell hole: it was no longer a card row, the view
started on it, and the pinned copy came back as a prompt of its own (twice),
every later answer under the wrong prompt (turns_ok 0, asst_recall .85).

h18-cx-s1835-na-84x36 (`--no-alt-screen`, twelve prompts, `/status` twice,
resizes mid-answer): the first prompt is typed while Codex is still drawing
its header card at start-up; it clears the screen and draws the card again,
and the composer holding the words typed so far (`› Our`) goes into the
history with the header above it. That stretch came back as a prompt `Our`
(turns_ok 0).

Both (and seven probes more) run commands whose output is only empty lines:
Codex draws the call as `• Ran <cmd>` over a bare `  └` row, which the
output rule (`└` and a space) missed: the call came back as answer text
(`Ran sleep 2; printf …`), tool_recall .63-.92.

A prompt whose card wraps between a CJK word and an emoji set off by spaces
(`… 配置` / `📂 bruquo …`, probe 1843, the case left open in h17 from h16's
probe 1620) lost that space: an emoji is drawn two cells wide like a CJK
letter, and wraps inside CJK runs are joined without one.
"""
from __future__ import annotations

import json
from itertools import islice
from pathlib import Path

import pytest
import regex
from wcwidth import wcwidth

from agents_chrome.codex import CodexProfile, _join_wide_wraps, full_bg
from screen.frames import iter_frames
from screen.rawlog import open_recording
from tests.conftest import cli_replay, frames_of, meta_of, recording_cases, truth_turns, typed_prompts
from tests.segments import by_prompt

CODEX = recording_cases("codex")


def _truth(case: Path) -> dict:
    return json.loads((case / "truth.json").read_text(encoding="utf-8"))


def _inline(case: Path) -> bool:
    cmd = meta_of(case).get("command")
    return "--no-alt-screen" in (" ".join(cmd) if isinstance(cmd, list) else str(cmd))


def _blank_first_output(t: dict) -> bool:
    """A command result whose output opens with an empty line (Codex draws its `└` row bare)."""
    text = t.get("text")
    if t["role"] != "tool_result" or not isinstance(text, str) or "Output:\n" not in text:
        return False
    out = text.split("Output:\n", 1)[1]
    return out.startswith("\n")


# every recording one of whose commands printed an empty first line
BLANK_OUT = [c for c in CODEX if any(_blank_first_output(t) for t in _truth(c)["turns"])]
# alternate-screen recordings whose prompts hold wide characters (the pinned
# prompt may then be drawn over another's wide characters)
WIDE_ALT = [c for c in CODEX if not _inline(c) and (c / "meta.json").exists() and any(
    t["role"] == "user" and any(wcwidth(ch) == 2 for ch in t["text"]) for t in _truth(c)["turns"])]


def _profile() -> CodexProfile:
    prof = CodexProfile()
    prof.transcript([])  # the per-replay state rows() reads
    return prof


# ---------------------------------------------------------------- a bare `└` row
def test_recordings_show_commands_with_an_empty_first_output_line() -> None:
    assert len(BLANK_OUT) >= 1


@pytest.mark.parametrize("screen_only", [False, True])
@pytest.mark.parametrize("case", BLANK_OUT, ids=lambda c: c.name)
def test_a_call_over_a_bare_output_row_is_a_call(case: Path, screen_only: bool) -> None:
    turns = cli_replay(case, "codex", screen_only)["turns"]
    truth = truth_turns(case)
    assert typed_prompts(turns) == typed_prompts(truth)
    ours = by_prompt(turns)
    want = by_prompt(truth)
    for seg, tseg in zip(ours, want):
        # every command the model ran is a call, none of them answer text
        calls = [t["input"]["cmd"] for t in tseg if t["role"] == "tool_call" and "cmd" in (t.get("input") or {})]
        shown = [t["text"] for t in seg if t["role"] == "tool_call"]
        for cmd in calls:
            if cmd.startswith(("cat ", "ls ")):
                continue  # drawn folded as `Read` / `List`
            assert any(s.startswith(" ".join(cmd.split())[:30]) for s in shown), (cmd, shown)
        for t in seg:
            if t["role"] == "assistant":
                assert not regex.search(r"(?m)^(Ran|Exited \(status \d+\)) ", t["text"]), t["text"][:200]


# ---------------------------------------------------------------- the pinned prompt's hole
def _holed_pins(case: Path) -> list:
    """Frames whose top row is a prompt pinned at the top of the view (`› `,
    a background across the row) but for one blank cell in the default colours."""
    out = []
    for f in frames_of(case):
        if not f.alternate or not f.lines or not f.lines[0].startswith("› ") or not f.cells:
            continue
        spans = f.styles[0]
        if not spans or spans[0][0] != 0 or spans[-1][1] < f.columns - 1 or len({s[3] for s in spans}) != 1:
            continue
        gaps = [(a[1], b[0]) for a, b in zip(spans, spans[1:]) if a[1] != b[0]]
        # pinned: the row under it is no row of its card (a card keeps its colour down to a blank row)
        under = {s[3] for s in f.styles[1]} if len(f.styles) > 1 else set()
        if (gaps and all(hi - lo == 1 and f.cells[0][lo].data == " " for lo, hi in gaps)
                and under != {spans[0][3]}):
            out.append(f)
    return out


def test_some_recording_shows_a_pinned_prompt_with_a_hole() -> None:
    assert sum(len(_holed_pins(c)) for c in WIDE_ALT) >= 1


@pytest.mark.parametrize("case", WIDE_ALT, ids=lambda c: c.name)
def test_a_pinned_prompt_with_a_blanked_half_cell_stays_out_of_the_view(case: Path) -> None:
    prof = _profile()
    for f in _holed_pins(case):
        assert full_bg(f, 0) is not None
        vp = prof.viewport(f)
        assert vp is None or vp[0] == 1, (f.time, f.lines[0][:60])


@pytest.mark.parametrize("case", CODEX, ids=lambda c: c.name)
def test_a_pinned_prompt_cut_short_never_comes_back_as_a_prompt(case: Path) -> None:
    """The pinned copy of a long prompt ends in `…` where the width cut it.
    (As recorded: the replay the golden test reads; the landed probes are
    checked with their input events stripped too, below.)"""
    typed = set(typed_prompts(truth_turns(case)))
    for p in typed_prompts(cli_replay(case, "codex", False)["turns"]):
        assert not (p.endswith("…") and p not in typed), p


# ---------------------------------------------------------------- start-up: a prompt half typed
@pytest.mark.parametrize("case", [c for c in CODEX if _inline(c)], ids=lambda c: c.name)
def test_a_prompt_never_comes_back_as_the_words_typed_before_a_redraw(case: Path) -> None:
    """Inline mode: Codex clears and redraws its header card at start-up;
    the composer under it, holding what was typed so far, is no prompt."""
    typed = typed_prompts(truth_turns(case))
    ours = typed_prompts(cli_replay(case, "codex", False)["turns"])
    for i, p in enumerate(ours):
        later = ours[i + 1:]
        if p not in typed and any(q.startswith(p) and q != p for q in later):
            pytest.fail(f"{p!r} is a prompt typed further later: {[q for q in later if q.startswith(p)][:1]}")


def test_the_start_up_redraw_caught_the_composer_holding_typed_words() -> None:
    """The situation above is on a recording: a header card redrawn over a
    composer that holds the first words of the first prompt."""
    shown = 0
    for case in (c for c in CODEX if _inline(c)):
        first = next(iter(typed_prompts(truth_turns(case))), "")
        with open_recording(case / "session.cast") as reader:
            start = list(islice(iter_frames(reader), 60))  # the start-up only
        for f in start:
            if any(ln.lstrip().startswith(">_ OpenAI Codex") for ln in f.lines):
                rows = [ln[2:].strip() for ln in f.lines if ln.startswith("› ")]
                if rows and rows[-1] and first.startswith(rows[-1]) and rows[-1] != first:
                    shown += 1
                    break
    assert shown >= 1


# ---------------------------------------------------------------- an emoji at a card's wrap
def test_a_wrap_beside_an_emoji_the_text_spaces_off_keeps_its_space() -> None:
    rows = "› 🌏 before fen 中文 and pra zelwim 配置\n  📂 bruquo 🧪 🌏 yogle 검사 dunquoplo"
    assert _join_wide_wraps(rows).split("\n") == [
        "› 🌏 before fen 中文 and pra zelwim 配置 📂 bruquo 🧪 🌏 yogle 검사 dunquoplo"]


def test_a_wrap_inside_a_cjk_run_still_joins_without_a_space() -> None:
    rows = "› 这是一个很长的中文句子，用来测试终端的换行是否正确处理配置\n  文件和目录的名字以及其他内容"
    assert _join_wide_wraps(rows) == "› 这是一个很长的中文句子，用来测试终端的换行是否正确处理配置文件和目录的名字以及其他内容"


def test_a_wrap_beside_an_emoji_the_text_runs_into_words_has_none() -> None:
    rows = "› 好的📂文件已经准备好了，请检查一下这个目录里面的所有内容谢谢👍\n  🎉大家辛苦了"
    assert _join_wide_wraps(rows) == "› 好的📂文件已经准备好了，请检查一下这个目录里面的所有内容谢谢👍🎉大家辛苦了"


def _direct(case: Path) -> bool:
    """Codex started by the recorder itself (no shell around it, whose
    prompts and commands the shell tests check)."""
    cmd = meta_of(case).get("command")
    return (cmd[0] if isinstance(cmd, list) else str(cmd).split()[0]) == "codex"


@pytest.mark.parametrize("case", [c for c in CODEX if (c in BLANK_OUT or c in WIDE_ALT) and _direct(c)],
                         ids=lambda c: c.name)
def test_without_input_events_too(case: Path) -> None:
    """The recordings that show these situations give the typed prompts with
    their input events stripped as well."""
    assert typed_prompts(cli_replay(case, "codex", True)["turns"]) == typed_prompts(truth_turns(case))
