"""Merge logic alone. The screen-vector turns here are built from truth.json,
NOT from a replay: this unit test checks only the structured-first rules
(the end-to-end tests in test_merge.py use the real replay)."""
from __future__ import annotations

import json

import msgspec

from archive.discovery import discover
from archive.merge import match_score, merge
from archive.record import Conversation, Source, Turn
from tests.conftest import RECORDINGS

CASE = RECORDINGS / "claude-code" / "cc-sql-joins-120x40"


def native() -> Conversation:
    f = discover(CASE / "native")[0]
    return f.provider.parse(f.path).conversations[0]


def screen_from_truth() -> Conversation:
    truth = json.loads((CASE / "truth.json").read_text())
    turns = [Turn(t["role"], t.get("text") or "", name=t.get("name"), input=t.get("input"), vector="screen",
                  key=f"screen:{i}") for i, t in enumerate(truth["turns"]) if not t.get("kind")]
    n = native()
    return Conversation(id="rec-x", agent="claude-code", workspace=n.workspace, started_at=n.started_at,
                        ended_at=n.ended_at, sources=[Source("screen", "x.cast")], turns=turns)


def test_native_wins_everywhere_it_has_the_turn():
    n, s = native(), screen_from_truth()
    assert match_score(n, s) >= 1
    m = merge(n, s.turns, s.sources)
    assert [t.vector for t in m.turns] == ["native"] * len(n.turns)
    assert {x.vector for x in m.sources} == {"native", "screen"}


def test_screen_fills_what_a_cut_native_record_lacks():
    n, s = native(), screen_from_truth()
    second = [i for i, t in enumerate(n.turns) if t.role == "user"][1]
    cut = msgspec.structs.replace(n, turns=n.turns[:second + 1])
    m = merge(cut, s.turns, s.sources)
    users = [t for t in m.turns if t.role == "user"]
    assert [t.text for t in users] == [t.text for t in s.turns if t.role == "user"]
    assert users[1].vector == "native" and all(t.vector == "screen" for t in users[2:])
    # the second prompt has no answer in the cut record: the screen's answer follows it
    assert m.turns[m.turns.index(users[1]) + 1].vector == "screen"


def test_other_agent_or_far_time_does_not_match():
    n, s = native(), screen_from_truth()
    assert match_score(n, msgspec.structs.replace(s, agent="codex")) == 0
    far = msgspec.structs.replace(s, started_at="2001-01-01T00:00:00+00:00", ended_at="2001-01-01T01:00:00+00:00")
    assert match_score(n, far) == 0
    elsewhere = msgspec.structs.replace(s, workspace="/somewhere/else")
    assert match_score(n, elsewhere) == 0
