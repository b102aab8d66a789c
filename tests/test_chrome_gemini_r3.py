"""Gemini CLI: behaviour found by the r3 round of fresh recordings.

- typed while Ink is busy redrawing, a prompt can reach the history cut
  short (`run the ledger smoke ch`): the input band drew it whole just
  before it was emptied, and the prompt is completed from there;
- inline, history rows drawn at one width are reflowed by the terminal when
  it narrows or widens: a reflowed row and the one it runs into are one
  line again (a word the wrap cut in two is one word).
Checked on every recording in recordings/gemini/ (as recorded and with the
input events removed), plus small synthetic cases for each rule.
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
def replay(case: Path, screen_only: bool, tmp_path_factory) -> dict:
    return cli_replay(case, AGENT, screen_only, tmp_path_factory)


def segments(turns: list[dict]) -> list[dict]:
    out: list[dict] = []
    for t in turns:
        if t["role"] == "user" and not t.get("kind"):
            out.append({"user": t["text"], "assistant": []})
        elif out and t["role"] == "assistant":
            out[-1]["assistant"].append(t["text"])
    return out


def norm(s: str) -> str:
    return " ".join(s.split())


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_prompt_whole_and_in_order(case: Path, screen_only: bool, tmp_path_factory) -> None:
    truth = json.loads((case / "truth.json").read_text())
    conv = replay(case, screen_only, tmp_path_factory)
    assert [norm(s["user"]) for s in segments(conv["turns"])] == [norm(s["user"]) for s in segments(truth["turns"])]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_no_answer_word_that_was_not_served(case: Path, tmp_path_factory) -> None:
    """Every word of an answer is a word the model served in that turn: a word
    cut by a reflowed row (`thr` + `ough`) or chrome would not be."""
    truth = json.loads((case / "truth.json").read_text())
    conv = replay(case, True, tmp_path_factory)
    for ts, ps in zip(segments(truth["turns"]), segments(conv["turns"])):
        served = set(WORD.findall(" ".join(ts["assistant"])))
        extra = [w for w in WORD.findall(" ".join(ps["assistant"])) if w not in served]
        assert not extra, (ts["user"], extra[:10])


def _rows(band: list[str], footer: bool) -> list[str]:
    return (["✦ an answer", "", "▄" * 40, *band, "▀" * 40]
            + ([" workspace (/directory)        sandbox      /model"] if footer else ["", ""]))


def test_input_band_is_the_one_above_the_footer() -> None:
    from agents_chrome.gemini import _input_text
    assert _input_text(_rows([" * run the checks"], True)) == "run the checks"
    assert _input_text(_rows([" > a long prompt that", "   wraps on to a second row"], True)) == \
        "a long prompt that\nwraps on to a second row"
    # a prompt band in the history (no footer under it) is not the input
    assert _input_text(_rows([" > run the checks"], False)) is None
    assert _input_text(_rows([" *   Type your message or @path/to/file"], True)) is None


def test_prompt_completed_only_from_one_longer_submission() -> None:
    from agents_chrome.gemini import PROFILE
    PROFILE._inputs = [(1.0, "run the ledger smoke check"), (2.0, "thanks")]
    assert PROFILE._complete_prompt("run the ledger smoke ch") == "run the ledger smoke check"
    assert PROFILE._complete_prompt("thanks") == "thanks"  # drawn whole: left alone
    PROFILE._inputs = [(1.0, "run it"), (2.0, "run it again"), (3.0, "run it twice")]
    assert PROFILE._complete_prompt("run it ag") == "run it again"
    assert PROFILE._complete_prompt("run it") == "run it"
    PROFILE._inputs = [(1.0, "run it again"), (2.0, "run it twice")]
    assert PROFILE._complete_prompt("run it") == "run it"  # two could extend it: none is chosen
    PROFILE._inputs = []


def test_reflowed_rows_are_one_line() -> None:
    from agents_chrome.gemini import _rejoin_wrapped
    from agents_chrome.rules import Labeled
    from agents_chrome.transcript import TLine

    def lb(text: str, kind: str, wrapped: bool, body: str | None = None) -> Labeled:
        return Labeled(TLine(text, 0.0, "history", 1, width=20, wrapped=wrapped), kind, "r",
                       text if body is None else body)

    rows = [lb("✦ without digging thr", "assistant", True, "without digging thr"),
            lb("ough raw logs and", "cont", True), lb("then some.", "cont", False),
            lb("  next line", "cont", False)]
    text = "without digging thr\nough raw logs and\nthen some.\n  next line"
    assert _rejoin_wrapped(text, rows) == "without digging through raw logs and then some.\nnext line"
    plain = [lb("✦ one", "assistant", False, "one"), lb("  two", "cont", False)]
    assert _rejoin_wrapped("one\ntwo", plain) == "one\ntwo"
