"""Every corpus case's and recording's replay in one JSON file, to compare two versions.

A change to a shared layer (screen/, stitch, transcript, wraps...) can move
the turns of recordings nobody was looking at. Dump before and after, then
compare: every output that moved must be one the change meant to move.

    python -m tests.replay_dump OUT.json [AGENT...]       (default: every agent)
    python -m tests.replay_dump --compare BEFORE.json AFTER.json

Replays go through the real CLI (`conftest.replay_json`), from this checkout.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.conftest import CORPUS, RECORDINGS, replay_json

USAGE = "usage: python -m tests.replay_dump OUT.json [AGENT...] | --compare BEFORE.json AFTER.json"


def dump(agents: list[str]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for root in (CORPUS, RECORDINGS):
        for cast in sorted(root.glob("*/*/session.cast")):
            agent = cast.parent.parent.name
            if agents and agent not in agents:
                continue
            key = f"{root.name}/{cast.parent.parent.name}/{cast.parent.name}"
            try:
                out[key] = {"turns": replay_json(cast, agent)["turns"]}
            except (AssertionError, ValueError, KeyError) as e:  # a failed replay is a result too
                out[key] = {"error": f"{type(e).__name__}: {e}"[:500]}
    return out


def compare(before: dict[str, dict], after: dict[str, dict]) -> list[str]:
    """The keys whose replay moved, was added or is gone."""
    lines = [f"moved   {k}" for k in sorted(before.keys() & after.keys()) if before[k] != after[k]]
    lines += [f"new     {k}" for k in sorted(after.keys() - before.keys())]
    lines += [f"gone    {k}" for k in sorted(before.keys() - after.keys())]
    return lines


def main(argv: list[str]) -> int:
    if argv[:1] == ["--compare"] and len(argv) == 3:
        before, after = (json.loads(Path(p).read_text(encoding="utf-8")) for p in argv[1:])
        lines = compare(before, after)
        print("\n".join(lines) if lines else f"identical: {len(after)} replays")
        return 1 if any(ln.startswith(("moved", "gone")) for ln in lines) else 0
    if not argv or argv[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    out = dump(argv[1:])
    Path(argv[0]).write_text(json.dumps(out, ensure_ascii=False, indent=0, sort_keys=True), encoding="utf-8")
    print(f"wrote {len(out)} replays to {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
