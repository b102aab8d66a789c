"""Claude Code chrome on real recordings: what the h7 round of fresh
recordings found, asserted on every Claude Code recording that shows the
situation (never on one case by name), against its truth.json:

- Chinese and Japanese have no spaces: Claude Code breaks a run wherever
  the row is full, and the terminal splits its history's rows again when
  the window narrows. A run the model wrote in one piece comes back in
  one piece (no line break inside it);
- rows the terminal split on a shrink come back whole, also in English
  (no word cut in two: "l" + "ook");
- the full-screen start-up dialog ("Make auto mode your default
  permission mode?") and the header's animated mascot leave no trace that
  hides the first prompt and its answer.
"""
from __future__ import annotations

from pathlib import Path

import regex

from agents_chrome.claude_code import _dialog_rule
from tests.conftest import frames_of
from tests.test_chrome_claude_code_h5 import CASES, truth_of, turns_of

#: a run of Chinese/Japanese long enough that the width must have wrapped it
#: somewhere in a narrow terminal
CJK_RUN = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}ー、。，：]{24,}")
WORD = regex.compile(r"\w+")


def _answers(case: Path) -> list[str]:
    return [t.text for t in turns_of(case) if t.role == "assistant"]


def _truth_answers(case: Path) -> list[str]:
    return [t.get("text") or "" for t in truth_of(case)["turns"] if t["role"] == "assistant"]


def test_cjk_runs_come_back_unbroken() -> None:
    checked = 0
    for case in CASES:
        runs = [r for a in _truth_answers(case) for r in CJK_RUN.findall(a)]
        if not runs:
            continue
        got = "\n".join(_answers(case))
        for r in runs:
            checked += 1
            assert r in got, f"{case.name}: {r[:20]}… broken or lost"
    assert checked >= 6, "no recording has long Chinese/Japanese runs"


def test_rows_split_by_a_narrowing_terminal_come_back_whole() -> None:
    """Every word of a replayed answer is a word of the truth: a row the
    terminal re-wrapped in its history is joined where it was cut."""
    shown = [c for c in CASES if any(not f.alternate and any(f.wrapped or ()) for f in frames_of(c))]
    assert shown, "no recording has rows the terminal wrapped in its history"
    for case in shown:
        vocab = {w.lower() for a in _truth_answers(case) for w in WORD.findall(a)}
        got = [w.lower() for a in _answers(case) for w in WORD.findall(a)]
        foreign = [w for w in got if w not in vocab and w.isalpha() and w.isascii()]
        assert len(foreign) <= max(2, len(got) // 200), f"{case.name}: cut words {foreign[:8]}"


def test_startup_dialog_leaves_the_first_prompt() -> None:
    shown = [c for c in CASES if any(f.alternate and _dialog_rule(f.lines) is not None
                                     and any("default permission mode" in ln for ln in f.lines)
                                     for f in frames_of(c))]
    assert shown, "no full-screen recording shows the start-up dialog"
    for case in shown:
        want = [" ".join(t["text"].split()) for t in truth_of(case)["turns"]
                if t["role"] == "user" and not t.get("kind")]
        got = [" ".join(t.text.split()) for t in turns_of(case) if t.role == "user"]
        assert got == want, case.name
        assert not any("default permission mode" in a for a in _answers(case)), case.name


def test_a_box_table_record_with_wrapped_cells_reads_in_order() -> None:
    """A cell wrapped inside its column gives its record two or more rows;
    the record comes back as one row, each cell's words together, in the
    order the truth's markdown row has them."""
    checked = 0
    for case in CASES:
        got = [a for a in _answers(case) if "┌" in a]
        if not got:
            continue
        for ans in _truth_answers(case):
            for row in (ln for ln in ans.splitlines() if ln.strip().startswith("|") and "---" not in ln):
                want = WORD.findall(row)
                if len(want) < 3 or not any(set(want) <= set(WORD.findall(g)) for g in got):
                    continue
                checked += 1
                flat = [" ".join(WORD.findall(ln)) for g in got for ln in g.splitlines()]
                assert any(" ".join(want) in ln for ln in flat), f"{case.name}: {row[:60]!r} out of order"
    assert checked >= 10
