"""Codex replay: behaviours the h8 round of recordings found broken.

- Inline mode: `/status` prints a card that opens with the same header
  card as a reprint; taken for one, it cut the conversation into stretches
  whose prompts never matched, so a later resize reprint was kept beside
  the older copy (every turn twice). A tip in the header card wrapped onto a
  second row leaked that row into the answers.
- A prompt typed on several rows of CJK text (the agent's newline key) was
  joined into one line: every CJK paragraph counted as wrapped when its row
  was the widest, however far it ended from the terminal's edge.
- After Ctrl-T, Codex shows reasoning summaries in the history (`• text`,
  all in italics) and draws commands as `$ <cmd>` closed by `✓ • 0ms`: the
  summary was read as the answer, the command as nothing.
- A table header cell wrapped onto two rows left its first row as text
  above the table.
- Across a width change, the old layout's last words anchored on a row
  that quotes them (`✔ You approved codex to run <cmd> this time` above
  `$ <cmd>`), splicing the two rows.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from agents_chrome.relayout import _end_in, _words
from tests.conftest import RECORDINGS, meta_of
from tests.test_chrome_codex_r3 import WORD, by_prompt, conv, norm, truth

LONG_NA = RECORDINGS / "codex" / "h8-long-na-a-87x27"
THINK_ALT = RECORDINGS / "codex" / "h8-think-alt-b-184x54"
FAST_ALT = RECORDINGS / "codex" / "h8-fast-alt-c-67x21"
H8 = [LONG_NA, THINK_ALT, FAST_ALT]


def test_recordings_hold_the_situations() -> None:
    """The drawing each test below relies on is in the bytes (not a test that cannot fail)."""
    long_cast = (LONG_NA / "session.cast").read_text()
    assert "--no-alt-screen" in meta_of(LONG_NA)["command"]
    assert any(a.get("text") == "/status" for a in meta_of(LONG_NA)["timeline"] if a["action"] == "type_slash")
    assert len(meta_of(LONG_NA)["resizes"]) >= 3
    assert "\\u001b[3J" in long_cast or "\\u001b[2J" in long_cast  # the reprints' clears
    think_cast = (THINK_ALT / "session.cast").read_text()
    assert "\\u001b[3m" in think_cast or ";3m" in think_cast  # italics (the reasoning rows)
    assert any(a.get("label") == "Ctrl-T" for a in meta_of(THINK_ALT)["timeline"])


@pytest.mark.parametrize("case", H8, ids=lambda c: c.name)
def test_every_prompt_exactly_once(case: Path) -> None:
    want = [norm(t["text"]) for t in truth(case)["turns"] if t["role"] == "user"]
    got = [norm(t["text"]) for t in conv(case)["turns"] if t["role"] == "user"]
    assert got == want


def test_a_status_panel_then_a_resize_reprint_folds() -> None:
    """After `/status` and a later shrink mid-answer, each answer is there once."""
    segs = by_prompt(conv(LONG_NA)["turns"])
    for seg in segs:
        texts = [norm(a) for a in seg["assistant"]]
        assert len(texts) == len(set(texts)), seg["user"]
    assert len(segs) == sum(1 for t in truth(LONG_NA)["turns"] if t["role"] == "user")


def test_no_header_card_row_in_an_answer() -> None:
    """The header card (its wrapped tip included) is chrome wherever it is reprinted."""
    truth_words = set(WORD.findall(" ".join(t["text"] for t in truth(LONG_NA)["turns"]
                                            if t["role"] in ("assistant", "user"))))
    for t in conv(LONG_NA)["turns"]:
        if t["role"] == "assistant":
            extra = [w for w in WORD.findall(t["text"]) if w not in truth_words]
            assert len(extra) <= 2, (t["text"][:80], extra)


def test_a_multi_row_cjk_prompt_keeps_its_rows() -> None:
    typed = [t["text"] for t in truth(FAST_ALT)["turns"]
             if t["role"] == "user" and "\n" in t["text"] and not t["text"].isascii()]
    got = [t["text"] for t in conv(FAST_ALT)["turns"] if t["role"] == "user"]
    assert typed
    for p in typed:
        assert p in got


def test_reasoning_summaries_are_thinking_not_answer() -> None:
    shown = [t for t in truth(THINK_ALT)["turns"] if t["role"] == "thinking"]
    turns = conv(THINK_ALT)["turns"]
    thinking = [norm(t["text"]) for t in turns if t["role"] == "thinking"]
    answers = " ".join(norm(t["text"]) for t in turns if t["role"] == "assistant")
    assert thinking  # shown after Ctrl-T
    for th in thinking:
        assert any(th in norm(s["text"]) for s in shown)
        assert th not in answers


def test_an_expanded_command_is_a_call() -> None:
    want = [t["input"]["cmd"] for t in truth(THINK_ALT)["turns"] if t["role"] == "tool_call"]
    turns = conv(THINK_ALT)["turns"]
    calls = [t["text"] for t in turns if t["role"] == "tool_call"]
    assert calls == want
    assert not any("✓ •" in t["text"] for t in turns)


def test_a_wrapped_table_header_is_one_row() -> None:
    for t in conv(LONG_NA)["turns"]:
        rows = t["text"].split("\n") if t["role"] == "assistant" else []
        for k, r in enumerate(rows):
            if r.startswith("|---"):
                assert rows[k - 1].startswith("| ") and (k < 2 or not rows[k - 2].strip()), t["text"][:120]


def test_a_layout_join_anchors_on_the_row_that_opens_like_the_old_one() -> None:
    old = ["• Writing outside the workspace needs approval.", "", "$ uname -s > /tmp/h8-kernel.txt"]
    new = ["• Writing outside the workspace needs approval.", "",
           "✔ You approved codex to run uname -s > /tmp/h8-kernel.txt this time", "", "$ uname -s > /tmp/h8-kernel.txt",
           "✓ • 0ms"]
    wa, wb = _words(old, 0, len(old)), _words(new, 0, len(new))
    qa, qb = _end_in(wa, wb, old, new)
    assert wb[qb][1] == 4  # the `$` row, not the one quoting it
    # without the rows the first copy is taken (what the join did before)
    assert wb[_end_in(wa, wb)[1]][1] == 2
