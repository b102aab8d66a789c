"""A record of an unexpected shape costs that record only.

On real session files: one line that gave turns has its message object
replaced by a number, a list, a string or null. The parse counts exactly
one skipped record, and every turn of every other line is kept exactly
(same text, same key, same raw line), in order."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from archive.discovery import discover
from tests.conftest import RECORDINGS

CASES = {
    "claude-code": (RECORDINGS / "claude-code" / "cc-bash-tools-100x30", "message"),
    "codex": (RECORDINGS / "codex" / "s3-tool-chain-120x40", "payload"),
    "amp-stream": (RECORDINGS / "amp-stream" / "amp-s02-stream-tool", "message"),
}
WRONG = [5, [1, "x"], "text", None, True]


def _parse(home: Path):  # type: ignore[no-untyped-def]
    found = discover(home)
    assert len(found) == 1
    return found[0].path, found[0].provider.parse(found[0].path)


@pytest.mark.parametrize("wrong", WRONG, ids=lambda w: type(w).__name__)
@pytest.mark.parametrize("agent", sorted(CASES))
def test_one_bad_record_costs_only_itself(tmp_path, agent, wrong):
    case, field = CASES[agent]
    home = tmp_path / "home"
    shutil.copytree(case / "native", home)
    path, before = _parse(home)
    assert before.conversations and before.skipped == 0
    turns = before.conversations[0].turns
    # a line in the middle of the session that gave turns and carries the field
    lines = path.read_bytes().splitlines(keepends=True)
    raws = [t.raw for t in turns]
    candidates = [i for i, line in enumerate(lines) if line.strip() in raws and field in json.loads(line)]
    i = candidates[len(candidates) // 2]
    bad = lines[i].strip()
    d = json.loads(bad)
    d[field] = wrong
    lines[i] = json.dumps(d).encode() + b"\n"
    path.write_bytes(b"".join(lines))
    _, after = _parse(home)
    assert after.skipped == 1, after.problems
    kept = [(t.role, t.text, t.key, t.raw) for t in after.conversations[0].turns]
    # tool results are named after their call: a lost call may leave its result unnamed
    want = [(t.role, t.text, t.key, t.raw) for t in turns if t.raw != bad]
    assert kept == want
