"""What every provider shares: streaming JSONL with skip counting, and the
shape of a parse result."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Protocol

from archive.record import Conversation


@dataclass
class ParseResult:
    conversations: list[Conversation] = field(default_factory=list)
    skipped: int = 0  # malformed lines / records passed over
    problems: list[str] = field(default_factory=list)

    def skip(self, where: str, why: str) -> None:
        self.skipped += 1
        if len(self.problems) < 20:
            self.problems.append(f"{where}: {why}")


class Provider(Protocol):
    name: str

    def discover(self, home: Path) -> Iterator[Path]: ...

    def parse(self, path: Path) -> ParseResult: ...


def iter_jsonl(path: Path, result: ParseResult) -> Iterator[tuple[int, bytes, Any]]:
    """(line number, raw line, parsed object) for each good line; bad lines are
    counted in `result` and skipped. Streams: never reads the file whole."""
    with open(path, "rb") as fh:
        for n, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError):
                result.skip(f"{path}:{n}", "malformed JSON line")
                continue
            if not isinstance(obj, dict):
                result.skip(f"{path}:{n}", "not a JSON object")
                continue
            yield n, line, obj


def iso(ts: Any) -> str | None:
    """ISO-8601 from epoch seconds/milliseconds or an ISO string."""
    if ts is None or ts == "":
        return None
    if isinstance(ts, str):
        try:
            float(ts)
        except ValueError:
            return ts
        ts = float(ts)
    try:
        v = float(ts)
        if v > 1e11:
            v /= 1000.0
        return datetime.fromtimestamp(v, tz=timezone.utc).isoformat()
    except (OverflowError, OSError, ValueError):
        return None


def text_of(content: Any) -> str:
    """Text of a message content that is a string or a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        out = []
        for part in content:
            if isinstance(part, str):
                out.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                out.append(part["text"])
        return "\n".join(out)
    return ""
