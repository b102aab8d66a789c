"""Durable asciicast v2 writer.

The PTY loop hands events over and returns at once; a small flusher
thread writes them out at least every `FLUSH_INTERVAL`, so a crash (even
SIGKILL) loses at most that much, and the terminal never waits on disk.
Each event is one complete JSON line, so a killed recorder leaves a file
whose complete lines all replay.
"""
from __future__ import annotations

import codecs
import json
import os
import threading
import time
from typing import Any, BinaryIO

FLUSH_INTERVAL = 0.05  # seconds


class AsciicastWriter:
    def __init__(self, path: str, header: dict[str, Any]) -> None:
        self.path = path
        self._fh: BinaryIO = open(path, "wb")
        self._fh.write((json.dumps(header, ensure_ascii=False) + "\n").encode("utf-8"))
        self._fh.flush()
        self._start = time.monotonic()
        self._pending: list[bytes] = []
        self._lock = threading.Lock()
        self._decoders = {code: codecs.getincrementaldecoder("utf-8")("replace") for code in "oi"}
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._flusher, name="asciicast-flusher", daemon=True)
        self._thread.start()

    def elapsed(self) -> float:
        return time.monotonic() - self._start

    def write(self, code: str, data: bytes | str) -> None:
        """Queue one event; bytes are decoded incrementally (split UTF-8 stays whole)."""
        if isinstance(data, bytes):
            dec = self._decoders.get(code)
            text = dec.decode(data) if dec else data.decode("utf-8", "replace")
            if not text:
                return
        else:
            text = data
        line = json.dumps([round(self.elapsed(), 6), code, text], ensure_ascii=False) + "\n"
        with self._lock:
            self._pending.append(line.encode("utf-8"))

    def _drain(self) -> None:
        with self._lock:
            chunk, self._pending = self._pending, []
        if chunk:
            self._fh.write(b"".join(chunk))
            self._fh.flush()

    def _flusher(self) -> None:
        while not self._closed.wait(FLUSH_INTERVAL):
            try:
                self._drain()
            except (OSError, ValueError):
                return

    def close(self) -> None:
        """Flush what is left (and any half-decoded bytes) and fsync."""
        if self._closed.is_set():
            return
        for code, dec in self._decoders.items():
            tail = dec.decode(b"", final=True)
            if tail:
                self.write(code, tail)
        self._closed.set()
        self._thread.join(timeout=1)
        self._drain()
        try:
            os.fsync(self._fh.fileno())
        except OSError:
            pass
        self._fh.close()
