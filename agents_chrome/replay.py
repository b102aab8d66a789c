"""Recording -> conversation: the screen half of the pipeline, end to end."""
from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from agents_chrome import registry
from agents_chrome.rules import Labeled
from agents_chrome.turns import Turn
from screen.cast import CastReader
from screen.frames import DEFAULT_GAP, Frame, iter_frames

DETECT_FRAMES = 40  # frames of screen text looked at to recognise an agent


def recording_id(path: str | Path) -> str:
    """Stable id: a hash of the recording's header line and first events."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        h.update(fh.read(64 * 1024))
    return "rec-" + h.hexdigest()[:16]


def _iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    try:
        return datetime.fromtimestamp(float(ts), tz=timezone.utc).isoformat()
    except (OverflowError, OSError, ValueError, TypeError):
        return None


def replay(path: str | Path, agent: str | None = None, gap: float = DEFAULT_GAP
           ) -> tuple[dict[str, Any], list[Turn], list[Labeled]]:
    """Replay a recording: (conversation header fields, turns, labeled transcript)."""
    with CastReader(path) as reader:
        header = reader.header
        frames: list[Frame] = list(iter_frames(reader, gap=gap))
    name = registry.canonical(agent) if agent else None
    if name is None:
        early = [f.text() for f in frames[:DETECT_FRAMES]]
        name = registry.detect(header, early)
    profile = registry.load(name)
    turns, labeled = profile.reconstruct(frames, header)
    start = header.timestamp
    end_t = frames[-1].time if frames else 0.0
    for t in turns:
        if t.ts is None and start is not None and t.time is not None:
            t.ts = _iso(float(start) + t.time)
    meta = {
        "id": recording_id(path),
        "agent": name,
        "title": header.title,
        "workspace": header.raw.get("cwd"),
        "started_at": _iso(start),
        "ended_at": _iso(float(start) + end_t) if start is not None else None,
        "sources": [{"vector": "screen", "path": str(path)}],
    }
    return meta, turns, labeled


def replay_cast(path: str, agent: str | None = None) -> dict[str, Any]:
    """The conversation JSON (docs/conversation-json.md) of a recording."""
    meta, turns, _ = replay(path, agent)
    return {**meta, "turns": [t.to_json() for t in turns]}
