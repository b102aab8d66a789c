"""Raw terminal logs as recordings: script(1) typescripts and tmux pipe-pane logs.

People already have terminal logs that are not asciicast: `script` (with or
without its timing file, classic `-t` or advanced `--log-timing`) and
`tmux pipe-pane -o 'cat >> FILE'`. This reader turns them into the same
`header` + `events()` a `CastReader` gives, so the screen and the chrome
rules never know the difference.

Format is decided by content, never by file name: a first line that is a
JSON object is an asciicast header; `Script started on ` opens a
typescript; anything else is a raw byte log (tmux, or `script -q` output
cut of its header).

Times: from the timing file when there is one; otherwise the log is cut at
structural points (the end of a synchronized update, a line feed once a
chunk has grown) and given a constant step longer than the frame builder's
quiet gap, so every chunk ends in a frame. Replay never depends on timing,
only frame boundaries do.

Size: from `--size`, else the typescript header's COLUMNS/LINES (or the
advanced timing file's), else 80x24 with a warning.
"""
from __future__ import annotations

import codecs
import math
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import IO, Iterator

from screen.cast import MAX_COLS, MAX_ROWS, CastError, CastHeader, CastReader, Event, parse_size

DEFAULT_SIZE = (80, 24)
STEP = 0.25  # seconds after a structural chunk end in a log without timing (> the frame builder's gap)
TICK = 0.001  # seconds after a chunk cut for size only (< the gap: not a pause)
CHUNK = 2048  # bytes a chunk grows to before it is cut at the next line feed
MAX_CHUNK = 65536
MAX_DELAY = 86400.0 * 365  # a timing delay beyond a year is not a delay

_SCRIPT_START = b"Script started on "
_SCRIPT_DONE = re.compile(rb"\r?\n?Script done on [^\n]*\n?\Z")
_HEADER_FIELD = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
_SYNC_END = b"\x1b[?2026l"
_PASTE_OFF = b"\x1b[?2004l"


def parse_size_arg(text: str) -> tuple[int, int]:
    """`--size COLSxROWS` -> (cols, rows); CastError when it is not one."""
    size = parse_size(text.strip())
    if size is None:
        raise CastError(f"bad size {text!r}: expected COLSxROWS, e.g. 120x40 "
                        f"(at most {MAX_COLS}x{MAX_ROWS})")
    return size


def sniff(path: str | Path) -> str:
    """'cast', 'typescript' or 'raw', from the first bytes of the file."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError as e:
        raise CastError(f"{path}: cannot open ({e.strerror})") from None
    if head.startswith(_SCRIPT_START):
        return "typescript"
    first = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if first.startswith(b"{"):
        return "cast"
    return "raw"


def open_recording(path: str | Path, size: tuple[int, int] | None = None,
                   timing: str | Path | None = None) -> "CastReader | RawLogReader":
    """A reader for any recording we take: asciicast, typescript or raw log.

    `size` overrides the terminal size of a log (an asciicast keeps its own
    header's unless `size` is given, then it is overridden too).
    """
    kind = sniff(path)
    if kind == "cast":
        if timing is not None:
            raise CastError(f"{path}: an asciicast recording has its own times; --timing is for script(1) logs")
        reader = CastReader(path)
        if size is not None:
            reader.header.width, reader.header.height = size
        return reader
    return RawLogReader(path, size=size, timing=timing, kind=kind)


class _Timing:
    """A script(1) timing file, read line by line.

    Classic (`-t`): `DELAY BYTES` per line. Advanced (`--log-timing`):
    `O|I DELAY BYTES`, `S DELAY SIGWINCH ROWS=R COLS=C`, `H DELAY NAME VALUE`.
    Delays are relative to the previous entry.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._fh: IO[str] = open(path, encoding="utf-8", errors="replace")
        except OSError as e:
            raise CastError(f"{path}: cannot open timing file ({e.strerror})") from None
        self.info: dict[str, str] = {}
        self._pending: list[tuple[str, float, str]] = []
        # advanced headers come first: read them now so the size is known
        for entry in self._read():
            if entry[0] == "H":
                name, _, value = entry[2].partition(" ")
                self.info.setdefault(name, value)
                continue
            self._pending.append(entry)
            break

    def close(self) -> None:
        self._fh.close()

    def _read(self) -> Iterator[tuple[str, float, str]]:
        for lineno, line in enumerate(self._fh, 1):
            line = line.strip()
            if not line:
                continue
            parts = line.split(None, 2)
            if parts[0] in ("O", "I", "S", "H"):
                kind, rest = parts[0], parts[1:]
            else:
                kind, rest = "O", parts
            if len(rest) < 2:
                raise CastError(f"{self.path}:{lineno}: not a timing line: {line[:60]!r}")
            try:
                delay = float(rest[0])
            except ValueError:
                raise CastError(f"{self.path}:{lineno}: bad delay {rest[0][:30]!r}") from None
            if not math.isfinite(delay) or delay < 0 or delay > MAX_DELAY:
                raise CastError(f"{self.path}:{lineno}: delay out of range: {rest[0][:30]!r}")
            if kind in ("O", "I"):
                try:
                    n = int(rest[1])
                except ValueError:
                    raise CastError(f"{self.path}:{lineno}: bad byte count {rest[1][:30]!r}") from None
                if n < 0:
                    raise CastError(f"{self.path}:{lineno}: negative byte count")
            yield kind, delay, rest[1]

    def entries(self) -> Iterator[tuple[str, float, str]]:
        yield from self._pending
        self._pending = []
        yield from self._read()


def _parse_started(line: str) -> tuple[float | None, dict[str, str]]:
    """`Script started on DATE [FIELD="..." ...]` -> (timestamp, fields)."""
    rest = line[len("Script started on "):].strip()
    fields = {k: v for k, v in _HEADER_FIELD.findall(rest)}
    date = rest.split("[", 1)[0].strip()
    ts = None
    try:
        ts = datetime.fromisoformat(date).timestamp()
    except ValueError:
        for fmt in ("%a %d %b %Y %I:%M:%S %p %Z", "%a %b %d %H:%M:%S %Y", "%a %d %b %Y %H:%M:%S %Z"):
            try:
                ts = datetime.strptime(date, fmt).timestamp()
                break
            except ValueError:
                continue
    except (OverflowError, OSError):
        ts = None
    return ts, fields


def _int_field(value: str | None) -> int | None:
    try:
        n = int(value) if value is not None else None
    except ValueError:
        return None
    return n if n is not None and n > 0 else None


class RawLogReader:
    """A typescript or raw log, read as a recording (see the module doc).

    The log itself is read whole-file-free: bytes are taken in chunks as the
    timing file (or the chunking rule) asks for them.
    """

    def __init__(self, path: str | Path, size: tuple[int, int] | None = None,
                 timing: str | Path | None = None, kind: str | None = None) -> None:
        self.path = str(path)
        self.kind = kind or sniff(path)
        self.skipped = 0
        self.warnings: list[str] = []
        try:
            self._fh = open(path, "rb")
        except OSError as e:
            raise CastError(f"{path}: cannot open ({e.strerror})") from None
        self._timing: _Timing | None = None
        try:
            self._setup(size, timing)
        except BaseException:
            self.close()
            raise

    def _setup(self, size: tuple[int, int] | None, timing: str | Path | None) -> None:
        fields: dict[str, str] = {}
        ts: float | None = None
        head = self._fh.read(4096)
        self._fh.seek(0)
        if not head.strip():
            raise CastError(f"{self.path}: empty file, not a recording or terminal log")
        if head.count(b"\0") > len(head) // 10:
            raise CastError(f"{self.path}: binary data, not a terminal log or recording")
        if self.kind == "typescript":
            first = self._fh.readline(8192).decode("utf-8", errors="replace")
            ts, fields = _parse_started(first)
        self._start = self._fh.tell()
        self._fh.seek(0, 2)
        end = self._fh.tell()
        self._end = end
        if self.kind == "typescript":
            # the footer `\nScript done on ...` is not output
            tail_at = max(self._start, end - 512)
            self._fh.seek(tail_at)
            m = _SCRIPT_DONE.search(self._fh.read())
            if m:
                self._end = tail_at + m.start()
        self._fh.seek(self._start)
        if timing is not None:
            self._timing = _Timing(timing)
            info = self._timing.info
            fields = {**{k: v for k, v in info.items()}, **fields}
            if ts is None and info.get("START_TIME"):
                ts, _ = _parse_started("Script started on " + info["START_TIME"])
        cols, rows = _int_field(fields.get("COLUMNS")), _int_field(fields.get("LINES"))
        if size is None and cols and rows and cols <= MAX_COLS and rows <= MAX_ROWS:
            size = (cols, rows)
        if size is None:
            size = DEFAULT_SIZE
            self.warn(f"{self.path}: no terminal size in the log; assuming {size[0]}x{size[1]} "
                      f"(give --size COLSxROWS)")
        raw = {"format": self.kind}
        if self._timing is not None:
            raw["timing"] = str(timing)
        env = {"TERM": fields["TERM"]} if fields.get("TERM") else {}
        self.header = CastHeader(version=2, width=size[0], height=size[1], timestamp=ts,
                                 command=fields.get("COMMAND") or None, title=None, env=env, raw=raw)
        # separate input log (script -I): its bytes are not in this file
        self._inputs_here = bool(self._timing and self._timing.info.get("INPUT_LOG")
                                 and self._timing.info.get("INPUT_LOG") == self._timing.info.get("OUTPUT_LOG"))

    def warn(self, msg: str) -> None:
        self.warnings.append(msg)
        print(f"warning: {msg}", file=sys.stderr)

    def __enter__(self) -> "RawLogReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._fh.close()
        if self._timing is not None:
            self._timing.close()

    def _take(self, n: int) -> bytes:
        left = self._end - self._fh.tell()
        return self._fh.read(max(0, min(n, left)))

    def events(self, warn: bool = True) -> Iterator[Event]:
        dec_out = codecs.getincrementaldecoder("utf-8")(errors="replace")
        dec_in = codecs.getincrementaldecoder("utf-8")(errors="replace")
        if self._timing is None:
            yield from self._untimed(dec_out)
            return
        now = 0.0
        entries = self._timing.entries()
        while True:
            try:
                kind, delay, arg = next(entries)
            except StopIteration:
                break
            except CastError as e:
                # the rest of the log is still output: show it untimed after what was timed
                self.skipped += 1
                self.warnings.append(f"{e}; the rest of the log is read without timing")
                if warn:
                    print(f"warning: {e}; the rest of the log is read without timing", file=sys.stderr)
                for ev in self._untimed(dec_out):
                    yield Event(now + STEP + ev.time, ev.code, ev.data)
                return
            now += delay
            if kind == "H":
                continue
            if kind == "S":
                m = re.search(r"ROWS=(\d+)\s+COLS=(\d+)", arg)
                if m:
                    yield Event(now, "r", f"{m.group(2)}x{m.group(1)}")
                continue
            if kind == "I" and not self._inputs_here:
                continue
            data = self._take(int(arg))
            text = (dec_in if kind == "I" else dec_out).decode(data)
            if text:
                yield Event(now, "o" if kind == "O" else "i", text)
        rest = self._take(self._end)
        if rest:
            self.skipped += 1
            msg = f"{self.path}: {len(rest)} bytes after the last timing entry, shown at its time"
            self.warnings.append(msg)
            if warn:
                print(f"warning: {msg}", file=sys.stderr)
        tail = dec_out.decode(rest, final=True)
        if tail:
            yield Event(now, "o", tail)

    def _untimed(self, dec: "codecs.IncrementalDecoder") -> Iterator[Event]:
        buf = b""
        now = 0.0
        while True:
            block = self._take(MAX_CHUNK)
            buf += block
            while buf:
                found = _cut(buf, final=not block)
                if found is None:
                    break
                cut, structural = found
                text = dec.decode(buf[:cut])
                buf = buf[cut:]
                if text:
                    yield Event(now, "o", text)
                    # only a structural end is a pause: a cut made for size is not
                    # a moment anyone saw, so no frame is taken there
                    now += STEP if structural else TICK
            if not block:
                break
        tail = dec.decode(buf, final=True)
        if tail:
            yield Event(now, "o", tail)


def _cut(buf: bytes, final: bool) -> tuple[int, bool] | None:
    """Where the next chunk of an untimed log ends, and whether that end is
    structural (a state the program finished), or None to read more.

    After a synchronized update (the program's own frame boundary); before
    bracketed paste is turned off (a line editor accepting its line: the
    line as typed is a state of its own, then the program's output starts);
    else at the first line feed past CHUNK bytes; else at MAX_CHUNK.
    """
    cuts = []
    s = buf.find(_SYNC_END)
    if s != -1:
        cuts.append(s + len(_SYNC_END))
    p = buf.find(_PASTE_OFF, 1)
    while p != -1:
        # readline echoes the Enter (CR LF) before it turns paste off: cut before that
        q = p - 2 if buf[max(0, p - 2):p] == b"\r\n" else p - 1 if buf[max(0, p - 1):p] == b"\n" else p
        if q > 0:
            cuts.append(q)
            break
        p = buf.find(_PASTE_OFF, p + 1)
    cuts = [c for c in cuts if c <= MAX_CHUNK]
    if cuts:
        return min(cuts), True
    if len(buf) > CHUNK:
        nl = buf.find(b"\n", CHUNK)
        if nl != -1 and nl < MAX_CHUNK:
            return nl + 1, False
    if len(buf) >= MAX_CHUNK:
        return MAX_CHUNK, False
    return (len(buf), True) if final else None


def describe(path: str | Path) -> str:
    """A short name of the format, for messages."""
    return {"cast": "asciicast", "typescript": "script(1) typescript", "raw": "raw terminal log"}[sniff(path)]


__all__ = ["RawLogReader", "open_recording", "parse_size_arg", "sniff", "describe"]
