"""Durable asciicast v2 writer.

Events are queued with only a timestamp taken; the queue is encoded and
written in batches, at the latest `FLUSH_INTERVAL` after the oldest
queued event (the PTY loop calls `flush_due()` and bounds its `select`
timeout with `next_deadline()`), so a crash (even SIGKILL) loses at most
that much while the terminal never waits on a write per event. Each event
is one complete JSON line, so a killed recorder leaves a file whose
complete lines all replay.
"""
from __future__ import annotations

import codecs
import json
import os
import time
from typing import Any, BinaryIO

import msgspec

FLUSH_INTERVAL = 0.05  # seconds
_JSON = msgspec.json.Encoder()  # several times faster than json.dumps on escape-heavy terminal output
MAX_PENDING = 1 << 20  # bytes queued before a flush regardless of time


class AsciicastWriter:
    def __init__(self, path: str, header: dict[str, Any]) -> None:
        self.path = path
        # private from the first byte: 0600, whatever the umask
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            os.fchmod(fd, 0o600)
        except OSError:
            pass
        self._fh: BinaryIO = os.fdopen(fd, "wb")
        self._fh.write((json.dumps(header, ensure_ascii=False) + "\n").encode("utf-8"))
        self._fh.flush()
        self._start = time.monotonic()
        self._pending: list[tuple[float, str, bytes | str]] = []
        self._pending_bytes = 0
        self._oldest: float | None = None
        self._decoders = {code: codecs.getincrementaldecoder("utf-8")("replace") for code in "oi"}
        self._closed = False

    def elapsed(self) -> float:
        return time.monotonic() - self._start

    def write(self, code: str, data: bytes | str) -> None:
        now = time.monotonic()
        self._pending.append((now - self._start, code, data))
        self._pending_bytes += len(data)
        if self._oldest is None:
            self._oldest = now
        if self._pending_bytes >= MAX_PENDING:
            self.flush()

    def next_deadline(self) -> float | None:
        """Seconds until queued events must reach the file (None: nothing queued)."""
        if self._oldest is None:
            return None
        return max(0.0, self._oldest + FLUSH_INTERVAL - time.monotonic())

    def flush_due(self) -> None:
        if self._oldest is not None and time.monotonic() - self._oldest >= FLUSH_INTERVAL:
            self.flush()

    def _encode(self, batch: list[tuple[float, str, bytes | str]]) -> bytes:
        encode = _JSON.encode
        lines = []
        for t, code, data in batch:
            if isinstance(data, bytes):
                dec = self._decoders.get(code)
                # incremental: a multi-byte character split across reads stays whole
                text = dec.decode(data) if dec else data.decode("utf-8", "replace")
                if not text:
                    continue
            else:
                text = data
            lines.append(encode((round(t, 6), code, text)))
        return b"\n".join(lines) + b"\n" if lines else b""

    def flush(self) -> None:
        batch, self._pending = self._pending, []
        self._pending_bytes, self._oldest = 0, None
        if batch:
            self._fh.write(self._encode(batch))
            self._fh.flush()

    def close(self, fsync: bool = True) -> None:
        """Write what is left (and any half-decoded bytes) and fsync (unless the
        caller hands the fsync to someone off the user's path: the live companion)."""
        if self._closed:
            return
        self._closed = True
        self.flush()
        tails = [(self.elapsed(), code, dec.decode(b"", final=True)) for code, dec in self._decoders.items()]
        tail = self._encode([x for x in tails if x[2]])
        if tail:
            self._fh.write(tail)
        self._fh.flush()
        if fsync:
            try:
                os.fsync(self._fh.fileno())
            except OSError:
                pass
        self._fh.close()
