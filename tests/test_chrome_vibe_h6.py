"""Mistral Vibe: behaviour found by the h6 round of fresh recordings.

- an approval dialog (`┌ Permission for … ┐`) takes the input box's place;
  while it comes up the spinner row can carry a note after its parenthesis
  (`… (0s Esc/Ctrl+C to interrupt) typing detected, waiting…`): still the
  spinner, never a conversation row (it used to end the view and repeat the
  prompt above it as new user turns);
- paged back with the wheel and then resized, Vibe keeps the view where it
  was: a view at the new width that ends in text the document already holds
  (the same words wrapped at another width), or on a rule, adds nothing
  (it used to lay the previous answer into the current one and repeat the
  prompt at the end). What is streamed out of sight and never scrolled to
  is never drawn: the screen cannot give it (the native session file has it);
- a table streaming while the terminal narrows is laid out again at the new
  width, its header scrolled away: the layouts drawn before are drafts of it
  (compared without blanks, a cell wraps differently at each width), the
  draft's header is kept over it, and the drawn rows between two rules are
  one table row.
Checked on real recordings (recordings/vibe/h6-*), with and without input
events, plus the two rules on synthetic rows.
"""
from __future__ import annotations

import json

import pytest

from agents_chrome.vibe import SPINNER, _ends_past
from tests.conftest import RECORDINGS, cli_replay

AGENT = "vibe"


def prompts(turns: list[dict]) -> list[str]:
    return [" ".join(t["text"].split()) for t in turns if t["role"] == "user" and not t.get("kind")]


def test_spinner_with_a_note_after_it() -> None:
    assert SPINNER.match(" ⠸ Running command… (0s Esc/Ctrl+C to interrupt) typing detected, waiting…")
    assert SPINNER.match("⠸⠁ Running command… (0s Esc/Ctrl+C to interrupt)")
    assert not SPINNER.match("  Keep the boat back (see the note…) and wait")


def test_paged_back_view_at_another_width_is_not_past_the_end() -> None:
    doc = ["  Going up, the boat enters an empty chamber, the bottom", "  gates close behind it.", "─" * 20]
    assert not _ends_past(["  chamber, the bottom gates close behind it.", "─" * 30], doc, rewrapped=True)
    assert _ends_past(["  gates close behind it.", "  Filling the chamber"], doc, rewrapped=True)
    assert _ends_past(["  chamber, the bottom gates close behind it."], doc)  # same width: rows, not words


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_approval_dialog_prompts_once_each(screen_only: bool, tmp_path_factory) -> None:
    """h6-vibe-approve: approved once, rejected with Esc, approved for the
    session; each prompt is one user turn, in order, with its own answer."""
    case = RECORDINGS / AGENT / "h6-vibe-approve-157x47"
    truth = json.loads((case / "truth.json").read_text())
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    assert prompts(conv["turns"]) == prompts(truth["turns"])
    after_first = []
    for t in conv["turns"][1:]:
        if t["role"] == "user":
            break
        after_first.append(t)
    assert [t["text"] for t in after_first if t["role"] == "assistant"] == ["Created ribbons/."]


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_paged_back_and_resized(screen_only: bool, tmp_path_factory) -> None:
    """h6-vibe-scrollstream: wheel-up while the second answer streams, then a
    resize while paged back, and the view stays there to the end: every
    prompt once, in order, and the second answer holds none of the first."""
    case = RECORDINGS / AGENT / "h6-vibe-scrollstream-86x26"
    truth = json.loads((case / "truth.json").read_text())
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    assert prompts(conv["turns"]) == prompts(truth["turns"])
    segs: list[list[dict]] = []
    for t in conv["turns"]:
        if t["role"] == "user":
            segs.append([])
        elif segs:
            segs[-1].append(t)
    second = " ".join(t["text"] for t in segs[1] if t["role"] == "assistant")
    assert "canal lock going uphill" in second and "scion" not in second


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_table_relaid_out_after_a_resize_comes_back_once(screen_only: bool, tmp_path_factory) -> None:
    """h6-vibe-resize: the table streams, the terminal narrows mid-table and
    Vibe lays the grid out again, its header scrolled away: one grid, with a
    header, every served row once (the drafts at the other widths go, and a
    row wrapped over several drawn rows is one row)."""
    case = RECORDINGS / AGENT / "h6-vibe-resize-71x21"
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    answer = [t["text"] for t in conv["turns"] if t["role"] == "assistant"][-1]
    rows = [r for r in answer.split("\n") if r.lstrip().startswith("│")]
    assert rows[0].split("│")[1].strip() == "model" and sum("model" in r for r in rows) == 1
    firsts = [r.split("│")[1].replace(" ", "") for r in rows[1:]]
    assert firsts == ["OlympiaSM3", "Hermes3000", "Smith-CoronaSilent", "OlivettiLettera32", "RoyalQuietDeLuxe"]
    assert sum(r.lstrip().startswith("└") for r in answer.split("\n")) == 1
