"""Vibe: a long paste drawn as `[Pasted N characters]` comes back as pasted
when the recording holds the keys (round h13).

Vibe 3.0.2 collapses a paste of more than 10 lines or 1000 characters to a
placeholder in the input box and keeps that placeholder in the history, so
the screen never shows the text. The recording's input events do: the
paste's bracketed text, N characters long. Without input events
(`--screen-only`) the placeholder stays: nothing drawn holds the text.
"""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from agents_chrome.input_line import InputLine
from agents_chrome.vibe import _with_pastes
from tests.conftest import RECORDINGS, cast_events, cli_replay, truth_turns

CASE = RECORDINGS / "vibe" / "h13-sh-vibe-multiline-107x31"


def _users(screen_only: bool) -> list[str]:
    return [t["text"] for t in cli_replay(CASE, "vibe", screen_only)["turns"] if t["role"] == "user"]


def test_recording_holds_a_collapsed_paste() -> None:
    """The situation is in the bytes: a paste in the keys, its placeholder on screen."""
    events = cast_events(CASE)
    keys = "".join(e[2] for e in events if e[1] == "i")
    shown = "".join(e[2] for e in events if e[1] == "o")
    assert "\x1b[200~" in keys
    assert "[Pasted 239 characters]" in shown


def test_pasted_prompt_comes_back_as_pasted() -> None:
    typed = [t["text"] for t in truth_turns(CASE) if t["role"] == "user" and not t["text"].startswith("/")]
    assert _users(False) == typed


def test_screen_only_keeps_the_placeholder() -> None:
    users = _users(True)
    assert users[0] == "he[Pasted 239 characters]"
    assert users[1:] == _users(False)[1:]


def test_input_line_keeps_every_paste_split_over_events() -> None:
    line = InputLine()
    line.feed(["ab\x1b[20", "0~one\ntwo\x1b[2", "01~\r", "\x1b[200~three\x1b[201~"])
    assert line.pastes == ["one\ntwo", "three"]


def test_placeholder_takes_the_first_unused_paste_of_its_length() -> None:
    unused = ["xy", "abc", "def"]
    assert _with_pastes("[Pasted 3 characters] then [Pasted 3 characters]", unused) == "abc then def"
    assert unused == ["xy"]
    # no paste of that length: the placeholder stays as drawn
    assert _with_pastes("[Pasted 9 characters]", unused) == "[Pasted 9 characters]"


@given(st.lists(st.text(min_size=0, max_size=30), max_size=4), st.text(max_size=40))
def test_with_pastes_never_invents_text(pastes: list[str], text: str) -> None:
    """Whatever the keys held, text without a placeholder is left alone, and
    a placeholder is only ever replaced by a paste of its stated length."""
    unused = list(pastes)
    assert _with_pastes(text, unused) == text or "[Pasted " in text
    n = len(pastes[0]) if pastes else 0
    got = _with_pastes(f"[Pasted {n} characters]", list(pastes))
    assert got == f"[Pasted {n} characters]" or got in pastes and len(got) == n


@pytest.mark.parametrize("chunks", [["\x1b[200~", "abc", "\x1b[201~"], ["\x1b[200~abc\x1b", "[201~"]])
def test_paste_closing_cut_anywhere(chunks: list[str]) -> None:
    line = InputLine()
    line.feed(chunks)
    assert line.pastes == ["abc"]
