"""Shells around agents, round h17: randomized probes of the shell situation
with pools widened again (fish with a right prompt, zsh two-line prompt with
a right prompt, a two-line bash prompt with a clock; `script -qc agent
/dev/null`, `VAR=x agent`, `command agent`, `nice agent`; a resize as the
first thing; prompts that look like chrome; tool output that looks like a
shell prompt). On the recordings' real bytes, through the real CLI, chosen by
what their meta.json shows (never one case by name), as recorded and with the
input events stripped.

- Claude Code inline narrowed while it answers: its input box's rules wrap,
  a full-width rule leaving a short run of `─` on the next row. With that
  tail right above `❯ ` (the bottom rule not drawn yet) the box's row read
  as a shell prompt: a run of its own opened there and everything after it
  (3 prompts and their answers) was lost (asst_recall 0.789, turns_ok 0).
  A wrapped rule's tail counts as the rule.
- Codex inline from fish: fish marks no accepted line (no bracketed paste),
  so the check that a run only printed started at its first frame, a resize
  at the prompt: `cat` of a file showing a Codex banner became a Codex run.
  And the first accept found was Codex's own composer's (it turns bracketed
  paste on and off): `codex resume --last` was read as a command that only
  printed, its session lost. The accept must be of the run's own line (its
  prompt opens it); without one the frames still at the prompt are skipped.
- fish's `⏎` (output that did not end its line) above the next prompt joined
  the agent's last answer, so the resumed session's redraw no longer matched
  what was shown and came back a second time; it is the prompt's now.
- A prompt typed `• item` (a chrome-like prompt) came back `- item`: Codex's
  card draws a list row typed `- ` with `•`; the composer shows it as typed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from agents_chrome import shell
from tests.conftest import RECORDINGS, frames_of, meta_of, recording_cases, replay_json, truth_turns, typed_prompts

SHELL_CASES = [c for c in recording_cases() if (meta_of(c).get("shell") or {}).get("typed_at_shell")]


def _narrowed_streaming(c: Path) -> bool:
    """The window got narrower while an answer streamed."""
    m = meta_of(c)
    cols = m.get("cols") or 0
    for r in m.get("resizes") or []:
        if "streaming" in (r.get("where") or ""):
            w = int(str(r["size"]).split("x")[0])
            if w < cols:
                return True
            cols = w
        elif r.get("size"):
            cols = int(str(r["size"]).split("x")[0])
    return False


#: Claude Code inline from a shell, narrowed while it answered
CC_NARROWED = [c for c in SHELL_CASES if c.parent.name == "claude-code" and meta_of(c).get("render_mode") == "inline"
               and _narrowed_streaming(c) and "randomized-probe" in meta_of(c).get("features", [])]
#: an inline agent started from fish, run again later with a resume command
FISH_RESUMED = [c for c in SHELL_CASES if (meta_of(c)["shell"].get("program") or meta_of(c).get("command")) == "fish"
                and "launch:resume" in meta_of(c).get("features", []) and "inline" in meta_of(c).get("features", [])]


def _ids(cases: list[Path]) -> list[str]:
    return [f"{c.parent.name}/{c.name}" for c in cases]


def _shell_lines(out: dict) -> list[str]:
    return [" ".join(t["text"].splitlines()[0].split()) for t in out["turns"]
            if t["role"] == "system" and t.get("name") == "shell" and t["text"].strip()]


def test_cases_exist():
    assert CC_NARROWED and FISH_RESUMED


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", CC_NARROWED, ids=_ids(CC_NARROWED))
def test_box_row_under_a_wrapped_rule_is_no_shell_prompt(case: Path, screen_only: bool):
    """Every prompt comes back, in order, in the one agent run: none is lost to
    a shell run opened at the input box's `❯ ` (a Tab typed in the box is a key,
    never drawn)."""
    out = replay_json(case / "session.cast", case.parent.name, screen_only)
    want = typed_prompts([dict(t, text=t["text"].replace("\t", "")) if t["role"] == "user" else t
                          for t in truth_turns(case)])
    assert typed_prompts(out["turns"]) == want
    assert not any(ln.startswith("❯") for ln in _shell_lines(out))
    launches = meta_of(case)["shell"].get("launches") or []
    assert sum(1 for ln in _shell_lines(out) if any(ln.endswith(x) for x in launches)) == len(launches)


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", FISH_RESUMED, ids=_ids(FISH_RESUMED))
def test_fish_runs_each_once_and_answers_clean(case: Path, screen_only: bool):
    """Every line typed at fish is a shell turn of its own, once (`cat` of a file
    showing an agent's banner too); every prompt comes back once, in order (the
    resumed session's redraw dropped); no answer holds fish's `⏎`."""
    out = replay_json(case / "session.cast", case.parent.name, screen_only)
    lines = _shell_lines(out)
    typed = [" ".join(x.split()) for x in meta_of(case)["shell"]["typed_at_shell"] if not x.endswith("^C")]
    for cmd in set(typed):
        assert sum(1 for ln in lines if ln.endswith(cmd)) == typed.count(cmd), (cmd, lines)
    assert typed_prompts(out["turns"]) == typed_prompts(truth_turns(case))
    for t in out["turns"]:
        if t["role"] == "assistant":
            assert "⏎" not in t["text"]


def _gemini_band_frame():
    """A frame of a Gemini recording whose input row sits in a painted band:
    a row of `▄` above it, a row of `▀` under it."""
    for case in sorted((RECORDINGS / "gemini").glob("*/session.cast")):
        if "▄▄▄▄▄▄▄▄▄▄" not in case.read_text(encoding="utf-8"):
            continue
        for f in frames_of(case.parent):
            if f.alternate:
                continue
            ls = f.lines
            for y in range(1, len(ls) - 1):
                if set(ls[y - 1].strip()) == {"▄"} and set(ls[y + 1].strip()) == {"▀"} and ls[y].strip():
                    return f, y
    return None


def test_input_row_in_a_half_block_band_is_no_shell_prompt():
    """Gemini's input row between half-block edges: the edges count as rules, so
    a prompt typed there that opens like a shell's (`$ `) is no shell prompt."""
    got = _gemini_band_frame()
    assert got is not None
    f, y = got
    assert shell._ruled(f.lines, y - 1) and shell._ruled(f.lines, y + 1)
    assert not shell._ruled(f.lines, y)
    # a wrapped rule's tail counts only under a rule
    assert shell._ruled(["─" * 40, "──────"], 1)
    assert not shell._ruled(["some output", "──────"], 1)
