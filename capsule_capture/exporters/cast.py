"""The conversation's recording, with a marker at the start of each turn.

asciicast marker events (`[t, "m", "label"]`) are chapter points: `asciinema
play` pauses on them with `--pause-on-markers` and `]` jumps to the next
one; asciinema-player shows them on its timeline. Each turn whose time
falls inside the recording gets one, labelled with its first words, so a
long session can be walked prompt by prompt. The recording itself is
copied event by event (streamed, any length); lines a killed recorder cut
short are left out so the export always plays.
"""
from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Any, Iterator, Sequence

from archive.record import instant

HELP = "the recording (asciicast v2/v3) with a marker at each turn's start (its prompt)"
LABEL_WORDS = 8
LABEL_CHARS = 60
ROLE_MARK = {"user": "›", "assistant": "●", "tool_call": "⚙", "tool_result": "⎿", "thinking": "∴",
             "system": "·"}


def label(role: str, text: str, name: str | None = None) -> str:
    words = " ".join((text or name or "").split()[:LABEL_WORDS])
    if len(words) > LABEL_CHARS:
        words = words[:LABEL_CHARS - 1] + "…"
    if role == "tool_call" and name and not words.startswith(name):
        words = f"{name}: {words}" if words else name
    return words if role == "user" else f"{ROLE_MARK.get(role, role)} {words}".strip()


def markers(turns: Sequence[Any], start: float | None, duration: float) -> list[tuple[float, str]]:
    """(seconds into the recording, label) for each turn seen inside it, in time order.

    A turn starts with the user's prompt: each prompt gets a marker (the
    answer and tool calls are what the chapter holds). A conversation with
    no prompt on record gets one at its first turn."""
    if start is None:
        return []
    out = []
    prompts = [t for t in turns if t.role == "user"]
    for t in prompts or list(turns)[:1]:
        when = instant(t.ts)
        at = when.timestamp() if when else None
        if at is None:
            continue
        rel = at - start
        if -1.0 <= rel <= duration + 1.0:
            out.append((min(max(rel, 0.0), duration), label(t.role, t.text, t.name)))
    out.sort(key=lambda m: m[0])
    return out


def _events(lines: Iterator[str], relative: bool) -> Iterator[tuple[float, list[Any]]]:
    """(absolute time, event) for each well-formed event line."""
    now = 0.0
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        try:
            ev = json.loads(line)
            if not isinstance(ev, list) or len(ev) < 3 or not isinstance(ev[1], str) or isinstance(ev[0], bool):
                continue
            t = float(ev[0])
        except (ValueError, TypeError, IndexError, KeyError, RecursionError):
            continue
        if not math.isfinite(t) or t < 0:
            continue
        now = now + t if relative else t
        yield now, ev


def _duration(path: Path, relative: bool) -> float:
    with path.open(encoding="utf-8", errors="replace") as fh:
        fh.readline()
        end = 0.0
        for t, _ in _events(fh, relative):
            end = t
    return end


def write_with_markers(src: Path, dst: Path, turns: Sequence[Any]) -> int:
    """Copy the recording `src` to `dst` with turn markers; returns how many."""
    with src.open(encoding="utf-8", errors="replace") as fh:
        head_line = fh.readline()
    try:
        header = json.loads(head_line)
    except RecursionError:
        raise ValueError(f"{src}: not an asciicast v2/v3 recording") from None
    if not isinstance(header, dict) or header.get("version") not in (2, 3):
        raise ValueError(f"{src}: not an asciicast v2/v3 recording")
    relative = header.get("version") == 3
    start = header.get("timestamp")
    start = float(start) if isinstance(start, (int, float)) and not isinstance(start, bool) else None
    if start is not None and not math.isfinite(start):
        start = None
    marks = markers(turns, start, _duration(src, relative))
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out, src.open(encoding="utf-8", errors="replace") as fh:
        out.write(head_line if head_line.endswith("\n") else head_line + "\n")
        fh.readline()
        last = 0.0
        pending = list(marks)

        def emit(t: float, code: str, data: Any) -> None:
            nonlocal last
            stamp = round(t - last, 6) if relative else round(t, 6)
            out.write(json.dumps([stamp, code, data], ensure_ascii=False) + "\n")
            last = t

        for t, ev in _events(fh, relative):
            while pending and pending[0][0] <= t:
                mt, text = pending.pop(0)
                emit(mt, "m", text)
            emit(t, ev[1], ev[2])
        for mt, text in pending:
            emit(max(mt, last), "m", text)
    return len(marks)


def export(store, ids: Sequence[str], out: Path, fmt: str) -> int:  # type: ignore[no-untyped-def]
    """One `<id>.cast` per conversation that has a recording (`<id>-2.cast`... for more)."""
    from capsule_capture.exporters import conversations
    n = 0
    for conv in conversations(store, ids):
        cid = conv.id
        srcs = [Path(s.path) for s in conv.sources if s.vector == "screen"]
        ok = [p for p in srcs if p.is_file()]
        if not ok:
            why = "its recording is gone: " + ", ".join(map(str, srcs)) if srcs else "no recording (native files only)"
            print(f"capsule-capture: {cid}: skipped, {why}", file=sys.stderr)
            continue
        for k, src in enumerate(ok):
            dst = out / (f"{cid}.cast" if k == 0 else f"{cid}-{k + 1}.cast")
            try:
                write_with_markers(src, dst, conv.turns)
            except (OSError, ValueError) as e:
                print(f"capsule-capture: {cid}: skipped {src} ({e})", file=sys.stderr)
                continue
            n += 1
    return n
