"""Claude Code chrome on real recordings: what the h9 round of fresh
recordings found, asserted on every Claude Code recording that shows the
situation (never on one case by name), against its truth.json:

- a prompt typed with a heading of level two or deeper (`## h`, `### h`)
  is echoed as a bold row either way: the echo cannot tell the levels
  apart. The input box showed the text raw while it was typed (each
  keystroke is a repaint), so the prompt comes back as typed, as recorded
  and with the input events stripped;
- an answer whose paragraphs differ only in a word or two (the same
  routine at every station) keeps every paragraph through the full-screen
  stitch, also when a view shares only those repeated rows with what came
  before (a fast stream on a short screen, right after a resize): such a
  view continues the document, it is not one paragraph back.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import regex

from agents_chrome.stitch import Stitcher
from tests.conftest import cli_replay
from tests.test_chrome_claude_code_h5 import CASES, truth_of

#: a prompt line opening with a heading of level two or deeper
DEEP_HEADING = regex.compile(r"(?m)^#{2,6}\s\S")
WORD = regex.compile(r"\w+")


def _norm(s: str) -> str:
    return " ".join(s.split())


def _typed_with_deep_headings(case: Path) -> list[str]:
    return [t["text"] for t in truth_of(case)["turns"]
            if t["role"] == "user" and not t.get("kind") and DEEP_HEADING.search(t["text"])]


HEADING_CASES = [c for c in CASES if _typed_with_deep_headings(c)]


def _paragraphs(text: str) -> list[str]:
    return [p for p in (_norm(p) for p in regex.split(r"\n\s*\n", text)) if len(WORD.findall(p)) >= 12]


def _near_twins(paras: list[str]) -> list[str]:
    """Paragraphs with another in the same answer that has the same words
    but for at most two."""
    out = []
    for i, p in enumerate(paras):
        wp = WORD.findall(p)
        for j, q in enumerate(paras):
            wq = WORD.findall(q)
            if i != j and len(wp) == len(wq) and sum(a != b for a, b in zip(wp, wq)) <= 2:
                out.append(p)
                break
    return out


def _answers_with_twins(case: Path) -> list[tuple[int, list[str]]]:
    """(prompt index, near-twin paragraphs) of each served answer that has them."""
    out, k = [], -1
    for t in truth_of(case)["turns"]:
        if t["role"] == "user" and not t.get("kind"):
            k += 1
        elif t["role"] == "assistant" and k >= 0:
            twins = _near_twins(_paragraphs(t["text"]))
            if len(twins) >= 4:
                out.append((k, twins))
    return out


def _fullscreen(case: Path) -> bool:
    meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
    return meta.get("env", {}).get("CLAUDE_CODE_NO_FLICKER") == "1"


TWIN_CASES = [c for c in CASES if _fullscreen(c) and _answers_with_twins(c)]


def test_some_recording_has_a_prompt_with_a_deep_heading() -> None:
    assert HEADING_CASES, "no Claude Code recording has a prompt typed with ## or ###"


def test_some_full_screen_recording_has_near_twin_paragraphs() -> None:
    assert TWIN_CASES, "no full-screen Claude Code recording has an answer of near-identical paragraphs"


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", HEADING_CASES, ids=lambda p: p.name)
def test_heading_levels_of_prompts_come_back_as_typed(case: Path, screen_only: bool, tmp_path_factory) -> None:
    got = [t["text"] for t in cli_replay(case, "claude-code", screen_only, tmp_path_factory)["turns"]
           if t["role"] == "user"]
    for typed in _typed_with_deep_headings(case):
        assert typed in got, f"{case.name}: {typed!r} not among the replayed prompts {got}"


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", TWIN_CASES, ids=lambda p: p.name)
def test_every_near_twin_paragraph_is_kept(case: Path, screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(case, "claude-code", screen_only, tmp_path_factory)["turns"]
    answers: list[str] = []
    for t in turns:
        if t["role"] == "user":
            answers.append("")
        elif t["role"] == "assistant" and answers:
            answers[-1] += "\n\n" + t["text"]
    for k, twins in _answers_with_twins(case):
        got = _norm(answers[k])
        for p in twins:
            assert p in got, f"{case.name}: answer {k} lost the paragraph {p[:60]!r}"


def test_view_sharing_only_repeated_rows_continues_the_document() -> None:
    """Rows the way a 54-column screen drew them: the document holds stakes
    A and B; the next view (a fast stream scrolled past B's end) shows C, D
    and the top of E. Its body rows are B's and A's too, and vote for laying
    C over A or B; C is new, so it follows B."""
    body = ["  redrilled, the firn cover measured with a probe, the",
            "  density pit logged in the notebook, and the reading",
            "  radioed to the hut before noon."]

    def stake(c: str) -> list[str]:
        return ["  Stake %s on the tongue: the ablation stake was" % c] + body + [""]

    st = Stitcher()
    st.add(["● Stake readings this week", ""] + stake("A") + stake("B"))
    st.add(stake("C") + stake("D") + stake("E")[:2])
    heads = [ln.strip()[:7] for ln in st.doc if ln.strip().startswith("Stake ")]
    assert heads == ["Stake A", "Stake B", "Stake C", "Stake D", "Stake E"]


def test_view_one_paragraph_off_by_votes_is_placed_on_its_unique_rows() -> None:
    """Rows the way a 50-column screen drew them: the document holds
    paragraphs 2 to 6 and the first row of 7; the view shows the end of 5,
    all of 6 and 7. Laid one paragraph back its rows meet more repeated rows
    (its last rows then sit inside the document, not past its end) than laid
    where paragraph 6's first row has its only copy."""
    body = ["  angle of attack, the tail adds drag low down,",
            "  and the spar takes the load when the gusts",
            "  arrive over the ridge."]

    def para(k: int) -> list[str]:
        return ["  Paragraph %d about kites: the bridle sets the" % k] + body + [""]

    st = Stitcher()
    st.add(sum((para(k) for k in range(2, 7)), []) + para(7)[:1])
    st.add(body[1:] + [""] + para(6) + para(7))
    heads = [ln.strip()[:11] for ln in st.doc if ln.strip().startswith("Paragraph ")]
    assert heads == ["Paragraph %d" % k for k in range(2, 8)]
