"""Kimi CLI: behaviour found by the h10 round of fresh recordings.

- Rich folds an answer's row at the width by character and skips a space
  that falls on the fold. The drawing of `…in the project|is the todo` (a
  space skipped) and of `…the bra|ss frame` (a word cut) is the same: Kimi
  writes the row to the last column itself and goes on after `\\r\\n` and
  the hanging indent, with the same cell attributes, and writes no space
  anywhere. The session's words decide; a left half that is drawn nowhere
  but at the fold used to keep the halves glued (`projectis`, `samehere`,
  `keepsso`). An answer row now also takes the space back when the left
  half (four letters or more) is no word of the session and starts none,
  and the right half is a word the session draws at least twice. A table
  cell's fold keeps the old rule (a narrow column cuts words far more often:
  `exposed headl|and`).
- When the space falls in the last column Rich drops it and the row ends
  one short of the width (`…tune it to the fork, then set` at 59 of 60
  columns): such a row ending in a letter, followed by a row that opens
  with a letter at the block's hanging indent, goes on with a space (it
  came back as two lines of the answer).
- h10-kimi-quill-interrupt-60x20 (60x20, no --yolo): served thinking,
  approvals (approve, reject, for the session) and an answer interrupted
  with Ctrl-C while it streamed, then a new prompt. Kimi keeps no message
  for the interrupted turn in context.jsonl (only in wire.jsonl).
Checked on recordings/kimi/kimi-h1-long-d-150x45 and h7-kimi-dairy-long-60x20
(as recorded and screen only) and on a round-h9 probe (`projectis`).
"""
from __future__ import annotations

import pytest

from agents_chrome.kimi import KLine, _lost_space, _lost_space_in_row, join_soft_wrapped
from tests.conftest import RECORDINGS, cli_replay
from tests.segments import answer_with

AGENT = "kimi"


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
@pytest.mark.parametrize("case,needle,whole", [
    ("kimi-h1-long-d-150x45", "build agents", "will behave the same here as on the build agents"),
    ("h7-kimi-dairy-long-60x20", "cut the smallest", "which is why it keeps so long."),
])
def test_word_drawn_only_at_a_fold_keeps_its_space(case: str, needle: str, whole: str, screen_only: bool,
                                                    tmp_path_factory) -> None:
    conv = cli_replay(RECORDINGS / AGENT / case, AGENT, screen_only, tmp_path_factory)
    assert whole in " ".join(answer_with(conv, needle).split())


def test_fold_of_an_answer_row_and_of_a_table_cell() -> None:
    lexicon = {"the": 9, "is": 3, "and": 4, "in": 5, "todo": 1, "headland": 1, "land": 2, "by": 1}
    # `project` is drawn only at the fold, `is` twice or more: two words
    assert _lost_space_in_row("only mention of tests in the project", "is the todo", lexicon)
    # the left half starts a word of the session: a word cut in two
    assert not _lost_space_in_row("the head", "land is low", lexicon)
    # a right half drawn as a word once only, or a left half under four letters, says nothing
    assert not _lost_space_in_row("a little pinch", "by hand", lexicon)
    assert not _lost_space_in_row("the tuning pin", "is set", lexicon)
    # a table cell's fold keeps to the session's words on both sides
    assert not _lost_space("exposed headl", "and", lexicon)


QUILL = RECORDINGS / AGENT / "h10-kimi-quill-interrupt-60x20"


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_row_one_short_after_a_word_goes_on_with_a_space(screen_only: bool, tmp_path_factory) -> None:
    """At 60 columns Rich cut `…and tune it to the fork, then set |` with
    the space in the last column and dropped it: the row is 59 cells and
    the paragraph goes on in the next row (it came back as two lines)."""
    conv = cli_replay(QUILL, AGENT, screen_only, tmp_path_factory)
    temperament = answer_with(conv, "Setting a temperament")
    assert "tune it to the fork, then set the fifths around" in temperament
    assert "sound together, count the beats against" in temperament
    assert "an octave means a fifth further back" in temperament
    assert "felt damper settles on the string to stop it." in answer_with(conv, "wooden jack")


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_answer_interrupted_with_ctrl_c_then_a_new_prompt(screen_only: bool, tmp_path_factory) -> None:
    """Ctrl-C while the third answer streams: Kimi prints what had come (the
    paragraph in progress cut mid-word) and `Interrupted by user`; the next
    prompt opens a turn of its own. Approvals at 60x20: approved, rejected,
    approved for the session."""
    conv = cli_replay(QUILL, AGENT, screen_only, tmp_path_factory)
    turns = conv["turns"]
    assert [t["text"] for t in turns if t["role"] == "user"] == [
        "which files hold the tuning notes?", "how does a quill pluck the string?",
        "walk me through setting a temperament", "shorter please: just the first step", "delete notes.txt",
        "log the A string tuning in tuning.txt", "beat rate of a fifth in python", "show tuning.txt"]
    k = next(i for i, t in enumerate(turns) if t["text"].startswith("walk me through"))
    assert [t["role"] for t in turns[k:k + 5]] == ["user", "thinking", "assistant", "system", "user"]
    assert turns[k + 2]["text"].endswith("copied out by octaves, ba")
    assert turns[k + 3]["text"] == "Interrupted by user"
    assert sum(t["role"] == "thinking" for t in turns) == 8
    assert [t["text"] for t in turns if t["role"] == "tool_result"] == ["Rejected by user"]
    assert not any("requesting approval" in t["text"] for t in turns)


def test_tail_wrapped_again_at_a_narrower_width_drops_the_cells_read_twice() -> None:
    """A window edge dragged 60 -> 41 while a list streams (probe
    x10-kimi-kelp-narrow-60x20, not landed): the 57-cell item was wrapped by
    the terminal at 45 and its head scrolled off there (`…on the blades in`,
    flagged wrapped); at 41 the terminal wrapped the whole row again, so the
    tail that scrolled off later starts 45 - 41 = 4 cells before the head's
    end (`s in warm spells`). It read `blades ins in warm spells`."""
    def row(text: str, width: int, wrapped: bool = False) -> KLine:
        return KLine(text, 0.0, "history", 0, width, wrapped, frozenset({41, 45, 60}))
    head = "  • watch for bryozoan crust on the blades in"
    assert len(head) == 45
    out = join_soft_wrapped([row(head, 45, True), row("s in warm spells", 41)])
    assert [ln.text for ln in out] == ["  • watch for bryozoan crust on the blades in warm spells"]
    # the same widths with a tail that does not repeat the head's end: kept whole
    out = join_soft_wrapped([row(head, 45, True), row(" warm spells", 41)])
    assert [ln.text for ln in out] == [head + " warm spells"]
    # a tail read at the head's own width continues it as drawn
    out = join_soft_wrapped([row(head, 45, True), row("s in the bay", 45)])
    assert [ln.text for ln in out] == [head + "s in the bay"]
