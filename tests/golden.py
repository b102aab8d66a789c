"""Golden conversations for the chrome profiles.

`python -m tests.golden AGENT...` writes recordings/<agent>/<case>/expected.json
from the current replay. Review the diff before committing: a changed
expectation is a reviewed change, never a blind regeneration.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.conftest import RECORDINGS, replay_json


def replay(cast: Path, agent: str) -> dict:
    return replay_json(cast, agent)


def golden_view(conv: dict) -> dict:
    return {"agent": conv["agent"],
            "turns": [{"role": t["role"], "text": t["text"], "name": t.get("name")} for t in conv["turns"]]}


def main(agents: list[str]) -> int:
    for agent in agents:
        for cast in sorted((RECORDINGS / agent).glob("*/session.cast")):
            view = golden_view(replay(cast, agent))
            (cast.parent / "expected.json").write_text(json.dumps(view, ensure_ascii=False, indent=1) + "\n")
            print(f"wrote {cast.parent / 'expected.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
