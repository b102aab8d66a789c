"""Recording -> conversation: the screen half of the pipeline, end to end."""
from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from itertools import chain, islice
from pathlib import Path
from typing import Any, Iterator

from agents_chrome import registry, shell
from agents_chrome.rules import Labeled
from agents_chrome.turns import Turn
from screen.cast import CastHeader
from screen.rawlog import open_recording
from screen.frames import DEFAULT_GAP, Frame, iter_frames

DETECT_FRAMES = 40  # frames of screen text looked at to recognise an agent


def recording_id(path: str | Path) -> str:
    """Stable id: a hash of the recording's header line and first events."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        h.update(fh.read(64 * 1024))
    return "rec-" + h.hexdigest()[:16]


def iso_time(ts: float | None) -> str | None:
    """A recording time (epoch seconds) as ISO 8601 UTC; None for no or an impossible time."""
    if ts is None:
        return None
    try:
        return datetime.fromtimestamp(float(ts), tz=timezone.utc).isoformat()
    except (OverflowError, OSError, ValueError, TypeError):
        return None


def reconstruct(frames: list[Frame], header: CastHeader, agent: str | None = None
                ) -> tuple[str, list[Turn], list[Labeled]]:
    """Frames -> (agent name, turns, labeled transcript): the one place that
    decides which profile reads which frames.

    A shell that ran agents is cut into stretches (`shell.py`); otherwise
    the whole recording goes to one profile: `agent`, else the header's,
    else the one the screen shows.
    """
    name = registry.canonical(agent) if agent else None
    stretches = shell.split(frames, header, forced=name)
    if stretches is not None:
        agents = shell.agents_in(stretches)
        turns: list[Turn] = []
        labeled: list[Labeled] = []
        for s in stretches:
            if len(agents) > 1 and s.agent:
                for t in s.turns:
                    t.extra.setdefault("agent", s.agent)
            turns.extend(s.turns)
            labeled.extend(s.labeled)
        return name or agents[0], turns, labeled
    if name is None:
        early = [f.text() for f in frames[:DETECT_FRAMES]]
        name = registry.detect(header, early)
    turns, labeled = registry.load(name).reconstruct(frames, header)
    return name, turns, labeled


def _reconstruct_stream(stream: Iterator[Frame], header: CastHeader, agent: str | None
                        ) -> tuple[str, list[Turn], list[Labeled], float]:
    """`reconstruct` of a recording that is not a shell session, reading its
    frames as they are made: a profile reads them once, in order, so a long
    recording's frames are never all held at once (a 100 MB recording has
    tens of thousands). Also returns the last frame's time."""
    name = registry.canonical(agent) if agent else None
    early: list[Frame] = []
    if name is None:
        early = list(islice(stream, DETECT_FRAMES))
        name = registry.detect(header, [f.text() for f in early])
    source = chain(early, stream)
    del early
    last: list[float] = [0.0]

    def frames() -> Iterator[Frame]:
        for f in source:
            last[0] = f.time
            yield f

    turns, labeled = registry.load(name).reconstruct(frames(), header)
    for _ in frames():  # frames a profile left unread still end the recording
        pass
    return name, turns, labeled, last[0]


def replay(path: str | Path, agent: str | None = None, gap: float = DEFAULT_GAP,
           size: tuple[int, int] | None = None, timing: str | Path | None = None
           ) -> tuple[dict[str, Any], list[Turn], list[Labeled]]:
    """Replay a recording: (conversation header fields, turns, labeled transcript).

    The recording may be an asciicast, a script(1) typescript (with its
    `timing` file or without) or a raw terminal log; `size` gives the
    terminal size where the file has none. A shell that ran agents is cut
    into stretches (`shell.py`): each agent's turns come from its own
    profile, the shell's commands become `system` turns.
    """
    with open_recording(path, size=size, timing=timing) as reader:
        header = reader.header
        stream: Iterator[Frame] = iter_frames(reader, gap=gap)  # type: ignore[arg-type]
        if shell.is_shell_command(header.command):
            # a shell session is cut into runs by looking back and forth
            frames: list[Frame] = list(stream)
            name, turns, labeled = reconstruct(frames, header, agent)
            end_t = frames[-1].time if frames else 0.0
        else:
            name, turns, labeled, end_t = _reconstruct_stream(stream, header, agent)
    start = header.timestamp
    for t in turns:
        if t.ts is None and start is not None and t.time is not None:
            t.ts = iso_time(float(start) + t.time)
    meta = {
        "id": recording_id(path),
        "agent": name,
        "title": header.title,
        "workspace": header.raw.get("cwd"),
        "started_at": iso_time(start),
        "ended_at": iso_time(float(start) + end_t) if start is not None else None,
        "sources": [{"vector": "screen", "path": str(path)}],
    }
    return meta, turns, labeled


def replay_cast(path: str, agent: str | None = None, size: tuple[int, int] | None = None,
                timing: str | Path | None = None) -> dict[str, Any]:
    """The conversation JSON (docs/conversation-json.md) of a recording."""
    meta, turns, _ = replay(path, agent, size=size, timing=timing)
    return {**meta, "turns": [t.to_json() for t in turns]}
