"""Shells around agents, round h11: an agent stopped with Ctrl+Z WHILE an
answer streams, the terminal resized while it is stopped, brought back with
`fg` (Claude Code inline from bash, Codex on the alternate screen from
bash). On the recordings' real bytes, through the real CLI and the real
replay functions, on every recording whose meta.json says it shows the
situation (never one case by name), as recorded and with the input events
stripped.

- The answer cut by the stop comes back ONE answer, whole, after the `fg`
  line, its prompt where it was asked (at 955e10b: the cut part and the whole
  answer again, with its prompt a second time; asst_prec 0.41 Codex, 0.38
  Claude Code; the rule is 6509a50's `_answer_resumed`, guarded here on
  Claude Code inline and Codex on the alternate screen).
- A taller terminal pulls rows back from the shell's history; when they leave
  the top again the screen does not record them twice, so the rows they
  moved were not counted: the `fg` prompt row came out one row higher than
  it was and was read as a second `fg` run (Claude Code's turns after it
  were lost: asst_recall 0.48). A frame now says how many such rows left.
- bash prints the job's command line under `fg`; for an agent drawing on the
  main screen it joins the `fg` shell turn (it was dropped with the agent's
  rows), as fish's `Send job 1 (codex) to foreground` already did for one on
  the alternate screen.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents_chrome import shell
from screen.frames import iter_frames
from screen.rawlog import open_recording
from tests.conftest import meta_of, recording_cases, replay_json


def _truth(case: Path) -> list[dict]:
    t = json.loads((case / "truth.json").read_text(encoding="utf-8"))
    return t["turns"] if isinstance(t, dict) else t


def _features(case: Path) -> list[str]:
    return meta_of(case).get("features", [])


MID = [c for c in recording_cases() if "suspend-mid-answer" in _features(c)]
#: bash brings back an agent that draws on the main screen (not fish, not the alternate screen)
INLINE_FG = [c for c in recording_cases() if "fg-resume" in _features(c) and meta_of(c).get("command") == "bash"
             and (meta_of(c).get("render_mode") == "inline" or "codex-no-alt-screen" in _features(c))]
GROWN = [c for c in recording_cases() if "resize-while-stopped" in _features(c)]


def _flat(text: str) -> str:
    """Text without line breaks, spaces or markdown marks (the screen draws none)."""
    return "".join(ch for ch in text if not ch.isspace() and ch not in "*`")


def _turns(case: Path, screen_only: bool) -> list[dict]:
    return replay_json(case / "session.cast", case.parent.name, screen_only)["turns"]


def test_cases_found():
    assert len(MID) >= 2 and {c.parent.name for c in MID} >= {"codex", "claude-code"}
    assert len(INLINE_FG) >= 3 and GROWN


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", MID, ids=lambda c: f"{c.parent.name}/{c.name}")
def test_answer_cut_by_stop_is_one_whole_answer(case: Path, screen_only: bool):
    turns = _turns(case, screen_only)
    truth = _truth(case)
    # a slash command (`/exit`) is no prompt the screen keeps
    users = [t["text"] for t in truth if t["role"] == "user" and not t["text"].startswith("/")]
    assert [t["text"] for t in turns if t["role"] == "user"] == users
    got = [_flat(t["text"]) for t in turns if t["role"] == "assistant"]
    want = [_flat(t["text"]) for t in truth if t["role"] == "assistant"]
    assert len(got) == len(want)
    # the answer the stop cut is the longest here: it comes once, whole (markdown
    # marks aside: an agent draws its own bullets), after the `fg` line when the
    # agent goes on with it, and its prompt stays where it was asked, before it
    longest = max(want, key=len)
    ats = [i for i, t in enumerate(turns) if t["role"] == "assistant" and _flat(t["text"]).startswith(longest[:40])]
    assert len(ats) == 1
    at = ats[0]
    assert len(_flat(turns[at]["text"])) >= 0.95 * len(longest)
    asked = max(i for i, t in enumerate(turns[:at]) if t["role"] == "user")
    if meta_of(case)["shell"].get("resumes_stream", True):
        fg = max(i for i, t in enumerate(turns[:at]) if t["role"] == "system" and t["text"].split("\n")[0].endswith(" fg"))
        assert asked < fg < at
    else:
        # an agent that never goes on with it (Gemini): it stays where it was drawn,
        # right after its prompt, before the stop
        assert asked == at - 1 and any(t["role"] == "system" and t["text"].split("\n")[0].endswith(" fg")
                                       for t in turns[at + 1:])


@pytest.mark.parametrize("case", INLINE_FG, ids=lambda c: f"{c.parent.name}/{c.name}")
def test_job_line_bash_prints_on_fg_joins_the_fg_turn(case: Path):
    turns = _turns(case, False)
    fgs = [t["text"] for t in turns if t["role"] == "system" and t["text"].split("\n")[0].endswith(" fg")]
    launch = meta_of(case)["shell"]["launches"][0]
    assert fgs and all(t.split("\n")[1:] == [launch] for t in fgs), fgs


@pytest.mark.parametrize("case", GROWN, ids=lambda c: f"{c.parent.name}/{c.name}")
def test_rows_a_taller_screen_brought_back_count_as_they_leave(case: Path):
    with open_recording(case / "session.cast") as r:
        frames = list(iter_frames(r))
    hist = shell._absolute(frames)
    runs = shell.find_runs(frames, hist, shell.learn_prompt(frames))
    typed = meta_of(case)["shell"]["typed_at_shell"]
    # every line typed at the shell opens one run (the launch, `jobs`, `fg` ...), none twice
    assert [r.command for r in runs if r.prompt_abs is not None] == typed


def test_text_the_shell_never_wrote_right_of_the_cursor_is_no_part_of_the_command():
    """An agent stopped inline leaves its footer on the rows bash then draws its
    prompt over: right of the cursor, unchanged since the prompt was drawn, is
    stale; a suggestion the shell draws there (fish) is new text, kept."""
    drawn = "q % tory)            sandbox"
    assert shell._stale_from("q % jobs)            sandbox", drawn, 8) == 8
    assert shell._stale_from("q % jobs", "q % ", 8) is None
    assert shell._stale_from("q % jobs -l", "q % ", 6) is None
