"""Streaming reader for asciicast v2 and v3 recordings.

A recording can be hours long, so it is read line by line and never loaded
whole. A recorder killed mid-write leaves a truncated last line: that line is
skipped with a warning rather than failing the whole replay, because every
complete line before it is still good history.
"""
from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterator


class CastError(ValueError):
    """The file is not an asciicast recording we can read."""


# Larger than any real terminal; a header asking for more is damaged, and
# honouring it would allocate a screen the size of the number.
MAX_COLS = 4000
MAX_ROWS = 2000

# The JSON scanner `json.loads` ends in: an event line as written (`[t, "o",
# "..."]` and its newline, nothing around it) is read with one call to it, the
# rest through `json.loads` (its errors and whitespace rules, unchanged).
_SCAN_JSON = json.decoder.JSONDecoder().scan_once


def _event_json(line: str) -> object:
    if line[:1] == "[" and line[-2:] == "]\n":
        try:
            obj, end = _SCAN_JSON(line, 0)
        except (StopIteration, ValueError, RecursionError):
            return json.loads(line)
        if end == len(line) - 1:
            return obj
    return json.loads(line)


@dataclass(frozen=True, slots=True)
class Event:
    time: float  # seconds since the start of the recording
    code: str  # "o" output, "i" input, "r" resize, "m" marker, "x" exit
    data: str


@dataclass
class CastHeader:
    version: int
    width: int
    height: int
    timestamp: float | None = None
    command: str | None = None
    title: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    raw: dict = field(default_factory=dict)

    @property
    def agent(self) -> str | None:
        """Our own header field, written by `capsule-capture record`."""
        a = self.raw.get("agent")
        return a if isinstance(a, str) else None


def _parse_header(line: str, path: str) -> CastHeader:
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        raise CastError(f"{path}: not an asciicast recording (first line is not a JSON header)") from None
    if not isinstance(obj, dict) or "version" not in obj:
        raise CastError(f"{path}: not an asciicast recording (no version in the header)")
    version = obj.get("version")
    if version not in (2, 3) or isinstance(version, bool):
        raise CastError(f"{path}: unsupported asciicast version {version!r} (2 and 3 are read)")
    env_obj = obj.get("env")
    env = {str(k): str(v) for k, v in env_obj.items()} if isinstance(env_obj, dict) else {}
    if version == 3:
        term = obj.get("term")
        term = term if isinstance(term, dict) else {}
        width, height = term.get("cols"), term.get("rows")
        if isinstance(term.get("type"), str):
            env.setdefault("TERM", term["type"])
    else:
        width, height = obj.get("width"), obj.get("height")
    if (not isinstance(width, int) or not isinstance(height, int) or isinstance(width, bool)
            or isinstance(height, bool) or width <= 0 or height <= 0):
        raise CastError(f"{path}: asciicast header has no valid terminal size")
    if width > MAX_COLS or height > MAX_ROWS:
        raise CastError(f"{path}: asciicast header size {width}x{height} is beyond any terminal "
                        f"(at most {MAX_COLS}x{MAX_ROWS})")
    ts = obj.get("timestamp")
    ts = ts if isinstance(ts, (int, float)) and not isinstance(ts, bool) and math.isfinite(ts) else None

    def text(key: str) -> str | None:
        v = obj.get(key)
        return v if isinstance(v, str) else None
    return CastHeader(version=version, width=width, height=height, timestamp=ts,
                      command=text("command"), title=text("title"), env=env, raw=obj)


class CastReader:
    """Open a recording; iterate `events()` to stream it.

    `skipped` counts lines that could not be parsed (a truncated tail, or
    garbage); `warnings` says which.
    """

    def __init__(self, path: str | Path, stream: IO[str] | None = None) -> None:
        self.path = str(path)
        try:
            self._fh: IO[str] = stream or open(path, encoding="utf-8", errors="replace", newline="\n")
        except OSError as e:
            raise CastError(f"{path}: cannot open ({e.strerror})") from None
        first = self._fh.readline()
        if not first.strip():
            self._fh.close()
            raise CastError(f"{path}: empty file, not an asciicast recording")
        try:
            self.header = _parse_header(first, self.path)
        except CastError:
            self._fh.close()
            raise
        self.skipped = 0
        self.warnings: list[str] = []

    def __enter__(self) -> "CastReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._fh.close()

    def events(self, warn: bool = True) -> Iterator[Event]:
        relative = self.header.version == 3
        now = 0.0
        lineno = 1
        for line in self._fh:
            lineno += 1
            if not line.strip() or line.startswith("#"):
                continue
            try:
                ev = _event_json(line)
                if not isinstance(ev, list):
                    raise ValueError("not an event")
                t, code, data = ev
                if isinstance(t, bool):
                    raise ValueError("not a time")
                t = float(t)
                if not math.isfinite(t):
                    raise ValueError("not a time")
            except (json.JSONDecodeError, ValueError, TypeError, RecursionError):
                self.skipped += 1
                what = "truncated last line" if not line.endswith("\n") else "malformed line"
                msg = f"{self.path}:{lineno}: skipped {what}"
                self.warnings.append(msg)
                if warn:
                    print(f"warning: {msg}", file=sys.stderr)
                continue
            if relative:
                now += t
            else:
                now = t
            if not isinstance(data, str):
                data = str(data)
            yield Event(now, str(code), data)


def parse_size(data: str) -> tuple[int, int] | None:
    """Resize event payload "COLSxROWS" -> (cols, rows)."""
    try:
        c, r = data.lower().split("x", 1)
        cols, rows = int(c), int(r)
    except ValueError:
        return None
    if cols <= 0 or rows <= 0 or cols > MAX_COLS or rows > MAX_ROWS:
        return None
    return cols, rows
