"""A token longer than the row (a URL, a digest, base64) comes back whole, on
every recording whose truth holds one, every agent (round h14).

Agents wrap prose at spaces; such a token has none, so the agent cuts it
where the row is full and it goes on on the next row. Read as two words it
lost the word and a prompt holding it no longer matched what was typed
(agents_chrome/wraps.py). The cases are found from truth.json and the width
the recording started at, never by name.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from tests.conftest import RECORDINGS, cli_replay, meta_of, truth_turns

WAYS = [False, True]  # as recorded, and with every input event removed


def _norm(s: str) -> str:
    return " ".join(s.split())


def _long_tokens(case: Path) -> list[tuple[int, str, str]]:
    """(turn index, role, token) of every prompt or answer token wider than the
    width the recording started at (no round narrowed a terminal to half)"""
    if not (case / "meta.json").exists() or not (case / "truth.json").exists():
        return []
    w = int(meta_of(case).get("cols") or 10 ** 6)
    return [(i, t["role"], tok) for i, t in enumerate(truth_turns(case))
            if t["role"] in ("user", "assistant") and not t.get("kind")
            for tok in t["text"].split() if len(tok) > w and tok.isascii() and regex.search(r"\w", tok)]


LONG = [c for c in sorted(RECORDINGS.glob("*/*")) if _long_tokens(c)]
TYPED = [c for c in LONG if any(role == "user" for _i, role, _t in _long_tokens(c))]


def test_there_are_cases():
    assert len({c.parent.name for c in LONG}) >= 5 and TYPED


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", LONG, ids=lambda c: f"{c.parent.name}/{c.name}")
def test_a_token_longer_than_the_row_comes_back_whole(case: Path, screen_only: bool):
    conv = cli_replay(case, case.parent.name, screen_only)
    for _i, role, tok in _long_tokens(case):
        texts = [t["text"] for t in conv["turns"] if t["role"] == role]
        assert any(tok in tx.split() for tx in texts), tok


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", TYPED, ids=lambda c: f"{c.parent.name}/{c.name}")
def test_prompts_holding_a_long_token_come_back_as_typed(case: Path, screen_only: bool):
    """whole, and the words a word wrap split at a full row keep their space"""
    conv = cli_replay(case, case.parent.name, screen_only)
    typed = [_norm(truth_turns(case)[i]["text"]) for i, role, _ in _long_tokens(case) if role == "user"]
    got = [_norm(t["text"]) for t in conv["turns"] if t["role"] == "user"]
    assert typed and all(p in got for p in typed)
