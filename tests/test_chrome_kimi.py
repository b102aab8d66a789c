"""Kimi CLI chrome: golden files and behaviour against truth.json.

Each case in recordings/kimi/<case>/ holds session.cast, truth.json (what
was typed and served) and expected.json (the reviewed conversation). The
real CLI is run as a subprocess, with and without the input events.
"""
from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

import pytest

from tests.conftest import cli_replay, recording_cases
from tests.segments import norm, pred_segments, truth_segments

AGENT = "kimi"
CASES = recording_cases(AGENT)
WORD = re.compile(r"\w+", re.UNICODE)
# chrome that must never reach a turn (the moon spinner is a row of its own: an
# answer may list the moon's phases)
LEAKS = re.compile(r"── input ─|context: [\d.]+%|yolo\s+agent|ctrl-x: toggle|Welcome to Kimi Code CLI|"
                   r"Send /help for help|^Bye!$|To resume this session|kimi -r [0-9a-f-]{8}|"
                   r"press h for help or q to quit|Loading configuration|^[🌑🌒🌓🌔🌕🌖🌗🌘]\s*$", re.M)
# prompts the agent never received whole: a key typed while the /help pager was
# closing was swallowed by the pager (the screen shows the prompt without it)
SWALLOWED = {("kimi-04-slash-unicode-wide", 0): 1}
# (case, conversation turn): the share of words Kimi's own drawing leaves, below the
# usual bounds. Answers streamed while the terminal shrank are laid out wider than
# the terminal: characters past the edge are never drawn, and the drawn halves of
# the words cut (`sho|rk` drawn `rk`) are no served words (tests.drawn_recall); a
# numbered list after another goes on with its numbers (`5.`-`8.` drawn for `1.`-`4.`).
# h17: after a width change Kimi lays a nested list out too wide and crops its rows
# (`ski haix` / `ol kuplung` for `haixshol`; `slat` drawn `at`, `greaxbux` drawn `gxbux`).
KIMI_SIDE = {("h16-kimi-repeat-slash-70x23", 2): 0.9, ("h16-kimi-repeat-slash-70x23", 8): 0.9,
             ("h16-kimi-toolresize-66x22", 4): 0.85, ("h17-sh-kimi-continue-crop-61x40", 0): 0.85,
             ("h17-kimi-toolwrap-link-91x58", 5): 0.9,
             # h18: after the shrink to 64 columns Kimi crops list rows (`wixpekbo` drawn `wixpek`)
             # and paragraph rows (`nathple` drawn `nathpl…`)
             ("h18-kimi-s1853-slash-121x46", 9): 0.9,
             # h20: after the shrink to 67 columns Kimi leaves characters out at a list
             # row's fold (`plewixshel` drawn `ple` / `xshel`, `boox tsudarri` drawn `boo` / `tsudarri`)
             ("h20-kimi-s2051-resize-112x47", 9): 0.9}

def replay(case: Path, screen_only: bool, tmp_path_factory) -> dict:
    return cli_replay(case, AGENT, screen_only, tmp_path_factory)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path, tmp_path_factory) -> None:
    expected = json.loads((case / "expected.json").read_text())
    conv = replay(case, False, tmp_path_factory)
    got = [{"role": t["role"], "text": t["text"], "name": t["name"]} for t in conv["turns"]]
    assert conv["agent"] == AGENT
    assert got == expected["turns"]


def unglue(got: list[str], served: list[str]) -> list[str]:
    """`got` with a word that is two served words run together split back:
    Kimi drops a space that falls on its fold at the width (`never|saved`),
    and a row ending at the edge looks the same whether it ended in a word
    or inside one. The replay joins by the session's own words; where they
    do not tell, the glued pair is the screen's ambiguity, not a miss."""
    pairs = {a + b: (a, b) for a, b in zip(served, served[1:])}
    out: list[str] = []
    for w in got:
        out.extend(pairs.get(w, (w,)))
    return out


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_against_truth(case: Path, screen_only: bool, tmp_path_factory) -> None:
    truth = json.loads((case / "truth.json").read_text())
    conv = replay(case, screen_only, tmp_path_factory)
    tsegs, psegs = truth_segments(truth), pred_segments(conv)
    # every typed prompt, exactly (whitespace-normalised), in order; slash commands are not user turns
    want = [norm(s["user"])[SWALLOWED.get((case.name, i), 0):] for i, s in enumerate(tsegs)]
    assert [norm(s["user"]) for s in psegs] == want
    for k, (ts, ps) in enumerate(zip(tsegs, psegs)):
        tw = WORD.findall(" ".join(ts["assistant"]))
        pw = unglue(WORD.findall(" ".join(ps["assistant"])), tw)
        sm = difflib.SequenceMatcher(None, tw, pw, autojunk=False)
        common = sum(m.size for m in sm.get_matching_blocks())
        least = KIMI_SIDE.get((case.name, k), 1.0)
        if tw:
            assert common / len(tw) >= min(0.9, least), (ts["user"], len(tw), common)
        if pw:
            assert common / len(pw) >= min(0.95, least), (ts["user"], len(pw), common)
        # one shown call per truth call, named after the tool
        assert len(ps["tools"]) == len(ts["tools"])
        for tc, pc in zip(ts["tools"], ps["tools"]):
            command = str(tc["input"].get("command", "")).split()
            if command[:1] == [pc["name"]] != [tc["name"]] or (command[:1] == ["grep"] and pc["name"] == tc["name"]):
                # a shell call drawn as what its command does (Vibe, run in the
                # same shell after Kimi, shows `grep -rn 'add' src` as `Searched add`,
                # named after the tool that ran it since 4f75713)
                assert pc["text"].split()[0].strip("'\"") in " ".join(command), (pc, tc["input"])
                continue
            assert pc["name"] == tc["name"]
            if pc["text"]:
                # the header shows the call's main argument (Shell's command, a file's
                # path), long ones elided in the middle: `head...tail`
                args = [v for v in tc["input"].values() if isinstance(v, str)]
                head, _, tail = pc["text"].partition("...")
                # (a space at either end of the argument, `(def )`, is not told from the brackets')
                assert any(a.strip() == pc["text"] or (tail and a.startswith(head) and a.endswith(tail))
                           for a in args), (pc["text"], tc["input"])


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_no_chrome_leaks(case: Path, tmp_path_factory) -> None:
    for screen_only in (False, True):
        conv = replay(case, screen_only, tmp_path_factory)
        for t in conv["turns"]:
            assert not LEAKS.search(t["text"]), (t["role"], t["text"][:200])


def test_wrap_joining() -> None:
    from agents_chrome.kimi import KLine, join_wrapped

    def rows(width: int, *texts: str) -> list[KLine]:
        return [KLine(t, 0.0, "history", 0, width) for t in texts]

    a = "  Below is a walkthrough. It is deliberately lo"
    lines = rows(len(a), a, "  ng so that it scrolls.", "  next paragraph")
    p = "✨ a prompt that wraps exactly at the edge o"  # ✨ is two columns wide
    lines += rows(len(p) + 1, p, "f the terminal", "")
    b = "  • a list item that fills the row up to the l"
    lines += rows(len(b), b, "    ast column", "  ends here")
    c = "  a row that ends at the edge with a full word"
    lines += rows(len(c), c, "   next word after a blank")
    out = [ln.text for ln in join_wrapped(lines)]
    assert out[0] == "  Below is a walkthrough. It is deliberately long so that it scrolls."
    assert out[1] == "  next paragraph"
    assert out[2] == "✨ a prompt that wraps exactly at the edge of the terminal"
    assert "  • a list item that fills the row up to the last column" in out
    assert "  ends here" in out
    assert "  a row that ends at the edge with a full word next word after a blank" in out


def test_rules() -> None:
    from agents_chrome.kimi import PROFILE
    kinds = {r.name: r for r in PROFILE.rules}
    assert kinds["tool"].match("• Used Shell (ls -la)")
    assert kinds["tool"].match("• Using ReadFile (src/a.py)")
    assert kinds["prompt"].match("✨ hello")
    assert kinds["slash-echo"].match("✨ /skill:kimi-cli-help how do I log in")
    assert kinds["status-bar"].match("yolo  agent (mock-model ○)  …02-long-answer-small/demo-app  ctrl-x: toggle mode")
