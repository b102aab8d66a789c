"""Kimi CLI: behaviour found by the h8 round of fresh recordings.

- Kimi cuts an answer's rows at the width it has while it streams and drops
  a space that falls on the cut, so a row that reaches that width ends
  either inside a word or at the end of one. A row is taken as cut at an
  earlier width only if that width is no narrower than the narrowest one
  since the row's prompt echo: a code comment 61 cells long first drawn at
  63 columns, in a turn that never had 61, is a row of its own and not the
  head of the next row (the terminal was 61 wide turns before).
- Where the session's words do not tell whether a cut ate a space (the
  right half is drawn nowhere else), a left half that is a word of the
  session and a right half of four letters or more that ends no word of
  the session were two words (`the|flame`, `it|appends`, `cable|winds`).
- Rich lays a quote out two columns short of the answer's width, so a quote
  row two cells short of a width was cut there and goes on in the next bar
  row (`fly-ball|s swing`, `smal|l cart`), also in an answer that opens
  with the quote (the bar under the bullet, `• ▌ `).
Checked on real recordings (recordings/kimi/h8-*, h6-kimi-reflow), with and
without input events, plus the rule on its own.
"""
from __future__ import annotations

import pytest

from agents_chrome.kimi import KLine, _cut_at, _lost_space
from tests.conftest import RECORDINGS, cli_replay

AGENT = "kimi"
LANTERN = RECORDINGS / AGENT / "h8-kimi-lantern-long-74x23"
ORCHID = RECORDINGS / AGENT / "h8-kimi-orchid-approve-186x54"
REFLOW = RECORDINGS / AGENT / "h6-kimi-reflow-93x27"


def answers(conv: dict) -> list[str]:
    return [t["text"] for t in conv["turns"] if t["role"] == "assistant"]


def answer_with(conv: dict, needle: str) -> str:
    hits = [a for a in answers(conv) if needle in a]
    assert len(hits) == 1, needle
    return hits[0]


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_row_as_long_as_an_old_width_is_not_joined(screen_only: bool, tmp_path_factory) -> None:
    """The code-first answer was drawn at 79 then 63 columns; its comment row
    is 61 cells, the width the terminal had seven turns before."""
    conv = cli_replay(LANTERN, AGENT, screen_only, tmp_path_factory)
    code = answer_with(conv, "rotate the keeper logs")
    rows = code.split("\n")
    assert rows[0] == "# rotate the keeper logs once a week and keep eight of them"
    assert rows[1] == "for n in 7 6 5 4 3 2 1; do"
    steps = answer_with(conv, "Wipe the brass frame").split("\n")
    assert "4. Wipe the brass frame with a dry chamois, not the prism cloth." in steps
    assert "5. Draw the canvas curtains so the sun cannot focus through the lens." in steps


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_space_eaten_by_the_cut_comes_back(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(LANTERN, AGENT, screen_only, tmp_path_factory)
    assert "focal distance from the flame to the glass" in answer_with(conv, "Fresnel lenses")
    assert "expects when it appends its hourly readings" in answer_with(conv, "rotate the keeper logs")
    reflow = cli_replay(REFLOW, AGENT, screen_only, tmp_path_factory)
    assert "its cable winds round a drum" in answer_with(reflow, "rotation clockwork")


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_approvals_thinking_and_cjk(screen_only: bool, tmp_path_factory) -> None:
    """No --yolo: the approval dialogs never reach a turn; the rejected call
    ends its turn with no answer; thinking rows are thinking turns."""
    conv = cli_replay(ORCHID, AGENT, screen_only, tmp_path_factory)
    turns = conv["turns"]
    users = [t["text"] for t in turns if t["role"] == "user"]
    assert users[0] == "温室项目里有哪些文件？"
    assert users[2] == "watering plan:\n- phalaenopsis\n- cattleya\n- dendrobium\nhow often for each one?"
    assert not any("requesting approval" in t["text"] or "Approve once" in t["text"] for t in turns)
    k = next(i for i, t in enumerate(turns) if t["role"] == "user" and t["text"].startswith("remove notes"))
    nxt = next(i for i in range(k + 1, len(turns)) if turns[i]["role"] == "user")
    assert [t["role"] for t in turns[k + 1:nxt]] == ["thinking", "tool_call", "tool_result"]
    assert sum(t["role"] == "thinking" for t in turns) == 7


def test_cut_at_an_old_width_needs_the_row_drawn_no_wider() -> None:
    def row(n: int, width: int, seen: set[int], drawn: int) -> KLine:
        return KLine("x" * n, 0.0, "history", 0, width, False, frozenset(seen), drawn=drawn)
    assert _cut_at(63, row(63, 79, {61, 63, 79}, 63))
    assert not _cut_at(61, row(61, 79, {61, 63, 79}, 63))
    assert _cut_at(88, row(88, 81, {66, 81, 88}, 66))  # drawn at 88, reflowed by a shrink
    assert _cut_at(61, row(61, 79, {61, 63, 79}, 0))  # not known: any width seen


def test_lost_space_from_the_sessions_words() -> None:
    lexicon = {"the": 9, "it": 4, "mi": 1, "and": 3, "station": 2, "ends": 1}
    assert _lost_space("distance from the", "flame to the glass", lexicon)
    assert _lost_space("expects when it", "appends its hourly", lexicon)
    assert not _lost_space("in the mi", "ddle of the tower", lexicon)  # a two-letter word seen once
    assert not _lost_space("exposed headl", "and", lexicon)  # `headl` is no word of the session
    assert not _lost_space("the", "tion of", lexicon)  # `tion` ends `station`
    assert not _lost_space("the", "ends", lexicon | {"theends": 1})  # the join itself is drawn


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
@pytest.mark.parametrize("case,joined", [
    ("h6-kimi-reflow-93x27", "two fly-balls swing out as the speed rises"),
    ("kimi-r3-resize-b-90x28", "weighed as much as a small cart."),
])
def test_quote_rows_cut_two_columns_short_are_joined(case: str, joined: str, screen_only: bool,
                                                      tmp_path_factory) -> None:
    """Rich lays a quote out two columns short of the answer's width: a quote
    row that long was cut by character and goes on in the next bar row."""
    conv = cli_replay(RECORDINGS / AGENT / case, AGENT, screen_only, tmp_path_factory)
    assert joined in answer_with(conv, joined)


def test_quote_opening_an_answer_joins_its_cut_rows() -> None:
    """An answer that opens with a quote: the bar under the bullet (`• ▌ `);
    a 64-cell row drawn at 66 columns goes on in the next bar row."""
    from agents_chrome.kimi import join_wrapped

    def row(text: str) -> KLine:
        return KLine(text, 0.0, "history", 0, 66, False, frozenset({66}), drawn=66)
    got = join_wrapped([row("• ▌ The sea does not reward those who are too anxious, too greed"),
                        row("  ▌ y, or too impatient."), row("")])
    assert got[0].text == "• ▌ The sea does not reward those who are too anxious, too greedy, or too impatient."
