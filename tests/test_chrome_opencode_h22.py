"""OpenCode: what round h22's randomized probes found.

h22-opencode-s2245-94x46 is the seeded probe `gen22.py 2245` (harness copy
/tmp/h22-ocamp/harness/opencode): nine prompts at 94x46, two pasted, /help
closed with Esc, eleven resizes (64x26 to 191x34), most while an answer
streams or a bash call runs, tables with CJK cells, code blocks with empty
lines, long wrapped lines, links. Before: prompts 1.00, recall 1.00,
precision 0.99, tools 0.88; after: 1.00, 1.00, 1.00, 0.88 (both ways).

The terminal went to 84x24 while `seq 1 36` ran, then to 73x60. The 24 rows
showed the bash panel's output rows and never its `$ seq 1 36` title (above
the top by then); the 73x60 layout shows the title, but the layouts are
joined on the last words both hold, and the rows of the new layout above
that join (the title) give way to the old layout's (the `~ Writing
command…` row drawn before the call). The panel's output rows then came
under the answer's first sentence and read as its text (`1 2 … 10`). A
panel's output rows are never an answer's text: under an answer they are a
result whose call was lost (OpenCodeProfile.label). The call itself was
lost too until round h23: the 73x60 layout reprints the old one's end with
the title where the old copy had its `~ Writing command…` row, and
relayout._reprint_join now takes a reprint whose few new words stand where
the old copy drew a whole row in another state (relayout._replaced_row).
"""
from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS, cli_replay, recording_cases, truth_turns
from tests.segments import per_prompt

S2245 = RECORDINGS / "opencode" / "h22-opencode-s2245-94x46"
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])


def _runs(text: str, n: int = 3) -> set[str]:
    """Every run of `n` consecutive non-blank lines of a text, stripped."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return {"\n".join(lines[i:i + n]) for i in range(len(lines) - n + 1)}


def _with_output() -> list:
    """Recordings with a served tool result of three lines or more (raw
    truth.json, read at collection: no replay)."""
    out = []
    for case in recording_cases("opencode"):
        if '"tool_result"' not in (case / "truth.json").read_text(encoding="utf-8"):
            continue
        if any(t["role"] == "tool_result" and _runs(t.get("text") or "") for t in truth_turns(case)):
            out.append(case)
    return out


OUTPUT = _with_output()


def test_the_probe_runs_a_tool_through_a_resize() -> None:
    assert S2245 in OUTPUT


@BOTH
@pytest.mark.parametrize("case", OUTPUT, ids=lambda c: c.name)
def test_tool_output_rows_are_never_answer_text(case, screen_only: bool) -> None:
    by_prompt = dict(per_prompt(cli_replay(case, "opencode", screen_only)["turns"]))
    for prompt, served in per_prompt(truth_turns(case)):
        output = set().union(*(_runs(t.get("text") or "") for t in served if t["role"] == "tool_result"))
        said = set().union(*(_runs(t.get("text") or "", 1) for t in served if t["role"] == "assistant"))
        for t in by_prompt.get(prompt, []):
            if t["role"] != "assistant":
                continue
            leaked = [r for r in _runs(t["text"]) & output if not set(r.split("\n")) <= said]
            assert not leaked, (prompt[:40], leaked[:2])


@BOTH
def test_a_panel_title_drawn_only_after_the_next_resize_is_its_call(screen_only: bool) -> None:
    turns = cli_replay(S2245, "opencode", screen_only)["turns"]
    assert any(t["role"] == "tool_call" and "seq 1 36" in (t.get("text") or "") for t in turns)
