"""Kimi CLI: behaviour found by the h20 round of seeded randomized probes.

h20-kimi-s2051-resize-112x47 is the seeded probe `gen20.py 2051` (harness
copy /tmp/h20-ampkimi/harness/kimi, gen18's generator with h20 seeds):
112x47, sixteen prompts; resizes between turns and in the middle of
answers (134x29; 113x58 then 162x60; 151x43 then 116x43; 67x34), /help
closed with `q`, an unknown slash command, Esc at the idle prompt, thinking
blocks, shell calls, tables with CJK cells, code blocks, links.

Kimi cuts a rendered row wider than the terminal to one cell short and puts
`…` in the last column (kimi-cli's `_truncate_to_display_width`). A
paragraph row comes out one cell too wide when its last word ends in the
last column and the space after it is still counted, so Kimi draws
`… Zer urida…` / `oxlo ☕ …` for `Zer uridar oxlo ☕`: the word's last letter
is never drawn (14 such rows in the six h20 Kimi probes; the letter cannot
come back), and the replay glued the halves into one word
(`urida…oxlo`). A full row ending in `…` that goes on at the block's hanging
indent now joins with a space (`urida… oxlo`).

Seen and left alone (agent side): in probe 2055 (103x37, not landed) Kimi
never drew the last paragraph of an answer that streamed while the terminal
was resized (the words are in no output event), asst_recall 0.92; a row
folded at the width with no mark (`mirgum` / `dovoxquil`) reads the same
as a word cut there, and made-up words defeat the session-lexicon guess in
both directions (`dov tor` for `dovtor`, `mirgumdovoxquil`).
"""
from __future__ import annotations

import pytest
from wcwidth import wcswidth

from tests.conftest import RECORDINGS, cli_replay, frames_of, recording_cases
from tests.selection import select

AGENT = "kimi"
S2051 = RECORDINGS / "kimi" / "h20-kimi-s2051-resize-112x47"
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])


def _ellipsis_cuts(case) -> set[tuple[str, str]]:
    """(the word Kimi cut with `…`, the word opening the next row) for every
    row drawn as wide as the terminal, ending in `…` at the last column, and
    going on at an indent on the next row with a letter."""
    out: set[tuple[str, str]] = set()
    for f in frames_of(case):
        lines = f.lines
        for y in range(len(lines) - 1):
            row, nxt = lines[y].rstrip(), lines[y + 1]
            if not row.endswith("…") or wcswidth(row) != f.columns or len(row) < 3 or not row[-2].isalpha():
                continue
            body = nxt.lstrip(" ")
            if not body[:1].isalpha() or len(nxt) - len(body) > 4 or not row.startswith(" " * (len(nxt) - len(body))):
                continue
            head = row[:-1].split()[-1] if row[:-1].split() else ""
            word = body.split()[0]
            out.add((head, word))
    return out


CUT = select("CUT", recording_cases(AGENT), lambda c: _ellipsis_cuts(c))


def test_the_probe_shows_rows_cut_with_an_ellipsis() -> None:
    assert S2051 in CUT and len(_ellipsis_cuts(S2051)) >= 3


@BOTH
@pytest.mark.parametrize("case", CUT, ids=lambda c: c.name)
def test_a_row_cut_with_an_ellipsis_ends_a_word(case, screen_only: bool) -> None:
    texts = [t["text"] for t in cli_replay(case, AGENT, screen_only)["turns"] if t["role"] == "assistant"]
    for head, word in _ellipsis_cuts(case):
        assert not any(f"{head}…{word}" in t for t in texts), (head, word)
    if case == S2051:
        # three of its four go on in their paragraph (`rishelbre… plegumtsu`); one
        # the replay keeps as a row of its own (`kazer…` / `Mirmo`)
        assert sum(any(f"{h}… {w}" in t for t in texts) for h, w in _ellipsis_cuts(case)) >= 3
