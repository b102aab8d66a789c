"""Gemini CLI: behaviour found by the h5 round of fresh recordings.

- tools other than the shell are drawn without a box, one row
  (`  ✓  ReadFile  README.md`, `  ✓  WriteFile  a.py → Accepted (+5, -0)`
  with the written file's numbered lines under it): each is a call, never
  answer text;
- an answer opening with a code block (drawn without the `✦` marker)
  right after a tool's box is the answer, not more of the tool's output;
- a tool box drawn at one width and reflowed by the terminal when the
  window narrowed later is still a call (its rows are read whole again).
Found by the same round and checked by the r3 tests on these recordings
(every prompt once and in order; no answer word that was not served):
- the slash menu taller than a 20-row screen makes Ink reprint the whole
  history; a tip row the terminal wrapped when the window narrowed no
  longer keeps the older copy from being folded away (h5-gem-cjk-wrap);
- Chinese text wrapped inside a run of wide characters (by Gemini, or by
  the terminal one cell short of the width) is one word again;
- a code row too long for the width goes on under the code column with a
  blank gutter: the numbers after it are still gutter, not code.
Checked on every recording in recordings/gemini/, as recorded and with the
input events removed.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import cli_replay, recording_cases

AGENT = "gemini"
CASES = recording_cases(AGENT)
WORD = re.compile(r"\w+", re.UNICODE)
AT_PATH = re.compile(r"(?:^|\s)@[\w./-]+")
#: a tool's status row, boxed or not, as it would read if it leaked into an answer
STATUS_ROW = re.compile(r"^\s*│?\s*[✓x?⊶⊷]\s{2}(Shell|[A-Z][a-z]+(?:[A-Z][a-z]+)+)\b", re.M)


def segments(turns: list[dict]) -> list[dict]:
    out: list[dict] = []
    for t in turns:
        if t["role"] == "user" and not t.get("kind"):
            out.append({"user": t["text"], "assistant": [], "calls": [], "results": []})
        elif out and t["role"] == "assistant":
            out[-1]["assistant"].append(t["text"])
        elif out and t["role"] == "tool_call":
            out[-1]["calls"].append(t)
        elif out and t["role"] == "tool_result":
            out[-1]["results"].append(t)
    return out


def drawn_calls(seg: dict) -> int:
    """Calls Gemini draws: all but a read-only tool that failed (`read_file`
    of a missing file returns an error and is never drawn)."""
    failed = {r.get("name") for r in seg["results"]
              if r.get("name") != "run_shell_command" and (r.get("text") or "").startswith('{"error"')}
    n = sum(1 for c in seg["calls"] if c.get("name") == "run_shell_command" or c.get("name") not in failed)
    # a prompt naming `@a/path` makes the CLI read it itself before asking
    # the model: one more drawn call (ReadManyFiles) the model never made
    return n + (1 if AT_PATH.search(seg["user"]) else 0)


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_drawn_tool_is_one_call_and_no_answer_text(case: Path, screen_only: bool, tmp_path_factory) -> None:
    truth = segments(json.loads((case / "truth.json").read_text())["turns"])
    conv = segments(cli_replay(case, AGENT, screen_only, tmp_path_factory)["turns"])
    assert len(conv) == len(truth)
    for ts, ps in zip(truth, conv):
        assert len(ps["calls"]) == drawn_calls(ts), (ts["user"], [c.get("text") for c in ps["calls"]])
        leaked = [m.group(0) for a in ps["assistant"] for m in STATUS_ROW.finditer(a)]
        assert not leaked, (ts["user"], leaked)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_an_answer_opening_with_code_after_a_tool_is_the_answer(case: Path, tmp_path_factory) -> None:
    """The first code line of an answer that opens with a fenced block, in a
    turn with a tool call, is in that turn's answer and in no tool output
    (the first line with a word: a box's top border has none, and its
    words are matched whole, so `kis` is not found inside `plirtskir`)."""
    truth = segments(json.loads((case / "truth.json").read_text())["turns"])
    conv = segments(cli_replay(case, AGENT, True, tmp_path_factory)["turns"])
    checked = 0
    for ts, ps in zip(truth, conv):
        last = ts["assistant"][-1] if ts["assistant"] else ""
        if not (ts["calls"] and last.startswith("```")):
            continue
        # the block's first row with a word: a row of box glyphs (`┌────┐`)
        # has none, and an empty word run is "in" any text (it proves nothing)
        block = last.split("\n", 1)[1].split("```", 1)[0]
        first = next((ln for ln in block.splitlines() if WORD.search(ln)), None)
        if first is None:
            continue
        words = " " + " ".join(WORD.findall(first)) + " "
        assert words in " " + " ".join(WORD.findall(" ".join(ps["assistant"]))) + " ", (ts["user"], first)
        assert not any(words in " " + " ".join(WORD.findall(r.get("text") or "")) + " " for r in ps["results"]), (ts["user"], first)
        checked += 1
    if not checked:
        pytest.skip("no code-first answer after a tool in this recording")
