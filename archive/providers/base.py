"""What every provider shares: streaming JSONL with skip counting, the
shape of a parse result, and the one boundary where outside data of an
unexpected shape is contained.

Agents' files are outside data: valid JSON may hold a number where an
object was, a list where text was, a null anywhere. Providers read the
documented shape directly, and three layers keep a surprise from
aborting a sync:
- `ParseResult.line(where, turns)`: each record (a JSONL line, a message
  of a JSON document, a database row) is read inside this guard; a record
  whose shape makes the reading code fail (TypeError, AttributeError, ...)
  is skipped and counted like a malformed line, the turns it had begun to
  add are taken back, and the rest of the session is read;
- `obj`/`arr`/`text` accessors for the metadata read outside any record
  (a session header, a state file), where a wrong type must not lose the
  session;
- `BaseProvider.parse`: whatever still escapes loses only that file (named
  and counted), and every conversation is checked against the record's
  schema (`archive.record.checked`) so nothing written can fail to decode.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Protocol

from archive.record import Conversation, checked

# what reading a record of an unexpected shape raises
SHAPE_ERRORS = (TypeError, AttributeError, KeyError, IndexError, ValueError, RecursionError, OverflowError)


@dataclass
class ParseResult:
    conversations: list[Conversation] = field(default_factory=list)
    skipped: int = 0  # malformed lines / records passed over
    problems: list[str] = field(default_factory=list)

    def skip(self, where: str, why: str) -> None:
        self.skipped += 1
        if len(self.problems) < 20:
            self.problems.append(f"{where}: {why}")

    def line(self, where: str, turns: list[Any] | None = None) -> "_Guard":
        """Guard for reading one record: `with res.line(f"{path}:{n}", turns): ...`."""
        return _Guard(self, where, turns)


class _Guard:
    __slots__ = ("res", "where", "turns", "n0")

    def __init__(self, res: ParseResult, where: str, turns: list[Any] | None) -> None:
        self.res, self.where, self.turns = res, where, turns
        self.n0 = 0

    def __enter__(self) -> None:
        self.n0 = len(self.turns) if self.turns is not None else 0

    def __exit__(self, et: Any, e: Any, tb: Any) -> bool:
        if et is None or not issubclass(et, SHAPE_ERRORS):
            return False
        if self.turns is not None:
            del self.turns[self.n0:]
        self.res.skip(self.where, f"unexpected shape ({et.__name__}: {str(e)[:80]})")
        return True


def obj(v: Any) -> dict[str, Any]:
    """`v` when it is a JSON object, else an empty one."""
    return v if isinstance(v, dict) else {}


def arr(v: Any) -> list[Any]:
    """`v` when it is a JSON array, else an empty one."""
    return v if isinstance(v, list) else []


def need_obj(v: Any, what: str) -> dict[str, Any]:
    """`v`, which the format says is an object; anything else makes the record one of an
    unexpected shape (raised inside `ParseResult.line`, so it is skipped and counted)."""
    if not isinstance(v, dict):
        raise TypeError(f"{what} is {type(v).__name__}, not an object")
    return v


def text(v: Any) -> str | None:
    """`v` when it is a string (non-empty), else None."""
    return v if isinstance(v, str) and v else None


class BaseProvider:
    """Providers implement `_parse`; `parse` is the boundary described above."""

    name = "base"

    def _parse(self, path: Path) -> "ParseResult":
        raise NotImplementedError

    def parse(self, path: Path) -> "ParseResult":
        try:
            res = self._parse(path)
        except SHAPE_ERRORS as e:
            res = ParseResult()
            res.skip(str(path), f"unexpected shape, file passed over ({type(e).__name__}: {str(e)[:80]})")
            return res
        convs = []
        for conv in res.conversations:
            conv, dropped = checked(conv)
            for _ in range(dropped):
                res.skip(str(path), "a record of an unexpected shape")
            if conv.turns:
                convs.append(conv)
        res.conversations = convs
        return res


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
                d = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
                result.skip(f"{path}:{n}", "malformed JSON line")
                continue
            if not isinstance(d, dict):
                result.skip(f"{path}:{n}", "not a JSON object")
                continue
            yield n, line, d


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
    except (OverflowError, OSError, ValueError, TypeError):
        return None


def text_of(content: Any) -> str:
    """Text of a message content that is a string or a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        out: list[str] = []
        for part in content:
            if isinstance(part, str):
                out.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                out.append(part["text"])
        return "\n".join(out)
    return ""
