"""The generic profile, for agents we have no rules for, must beat leaving
the screen raw. A raw screen has no turns: no prompt is recovered and no
answer word lands under its prompt (score.py gives it 0 on every figure).
On every real recording the generic profile recovers prompts exactly and
puts answer words under them, and drops the obvious chrome."""
from __future__ import annotations

import difflib
import json
import re

import pytest

from tests.conftest import RECORDINGS
from tests.golden import replay

#: every second recording of each agent (sorted, so each agent's rounds and
#: situations are all in): the generic profile is a fallback, and a replay
#: per recording for it cost CI more than its agents' own profiles did
CASES = [p for agent in sorted({q.parent.parent for q in RECORDINGS.glob("*/*/session.cast")})
         for p in sorted(agent.glob("*/session.cast"))[::2] if (p.parent / "truth.json").exists()]
WORD = re.compile(r"\w+")
CHROME = re.compile(r"(esc to interrupt|\? for shortcuts|^\s*[⠀-⣿]\s)", re.M)


def segments(turns: list[dict], user_key: str = "text") -> list[tuple[str, str]]:
    segs: list[tuple[str, list[str]]] = []
    for t in turns:
        if t["role"] == "user" and not t.get("kind"):
            segs.append((" ".join(t[user_key].split()), []))
        elif t["role"] == "assistant" and segs:
            segs[-1][1].append(t["text"])
    return [(u, " ".join(a)) for u, a in segs]


@pytest.mark.parametrize("cast", CASES, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_generic_beats_the_raw_screen(cast):
    truth = segments(json.loads((cast.parent / "truth.json").read_text())["turns"])
    conv = replay(cast, "generic")
    got = dict(segments(conv["turns"]))
    found = [(u, a) for u, a in truth if u in got]
    assert found, "no prompt recovered"
    common = 0
    for u, answer in found:
        want, have = WORD.findall(answer), WORD.findall(got[u])
        common += sum(b.size for b in difflib.SequenceMatcher(None, want, have, autojunk=False).get_matching_blocks())
    assert common > 0, "no answer word under its prompt"
    for t in conv["turns"]:
        assert not CHROME.search(t["text"]), t["text"][:200]


def test_a_braille_spinner_inside_a_bar_is_chrome():
    from agents_chrome.generic import PROFILE as GENERIC
    from agents_chrome.transcript import TLine

    rows = ["┃  list the files", "┃", "┃  ⠼ ls src", "┃", "┃  $ ls src", "┃  app.py", "", "● Two files."]
    labeled = GENERIC.label([TLine(r, 0.0, "alt", 1) for r in rows])
    kinds = {lb.line.text: lb.kind for lb in labeled}
    assert kinds["┃  ⠼ ls src"] == "chrome"
    assert kinds["┃  $ ls src"] == "tool_call"
    assert kinds["┃  list the files"] == "user"
