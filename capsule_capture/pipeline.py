"""Recording -> screen -> chrome -> turns -> archive: the wiring, above both halves.

`archive/` stores turns and never makes them; `agents_chrome/` makes turns and
never stores them. This module joins them, in two ways that share one code
path so a live capture and an offline import of the same file agree:

- `Follower` reads a recording incrementally (as a recorder appends to it),
  keeps the virtual screen and the frames taken so far, and rebuilds the
  conversation from those frames on demand (only the chrome step re-runs;
  the terminal emulation never replays from the start);
- `screen_conversation` / `import_recording` read a whole file with the same
  follower.

Every archive write carries the byte offset of the recording it reflects,
and the archive refuses an older offset than the one it has (see
`archive.ingest.store_screen`): a live companion, `watch`, `sync` and
`import` may write the same recording at once and the newest read wins.
"""
from __future__ import annotations

import fcntl
import io
import json
import os
import stat
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

from agents_chrome.replay import iso_time, reconstruct, recording_id
from archive.record import Conversation, Source, Turn
from screen.cast import CastError, CastHeader, CastReader
from screen.frames import DEFAULT_GAP, Frame, FrameBuilder

#: header field `capsule-capture record` writes: the recording's own id, stable
#: while the file grows (a hash of its first bytes is not)
ID_FIELD = "capsule_capture_id"
#: header field written by `record --no-archive`: sync and watch leave the file alone
NO_ARCHIVE_FIELD = "capsule_capture_archive"
#: wall seconds without growth after which the recorder's last output is a quiet point
QUIET_WALL = 0.5
READ_CHUNK = 1 << 20


class _Lines:
    """The complete lines read so far, as the text stream `CastReader` iterates.

    Iterating hands over (and forgets) the pending lines; a line still being
    written (no newline yet) stays in the byte buffer until it is whole.
    """

    def __init__(self) -> None:
        self.pending: deque[str] = deque()

    def readline(self) -> str:
        return self.pending.popleft() if self.pending else ""

    def __iter__(self) -> Iterator[str]:
        while self.pending:
            yield self.pending.popleft()

    def close(self) -> None:
        self.pending.clear()


@dataclass
class Follower:
    """A recording read as it grows: screen state and frames are kept between reads."""

    path: str
    agent: str | None = None
    gap: float = DEFAULT_GAP
    offset: int = 0  # bytes of the file consumed (complete lines only)
    frames: list[Frame] = field(default_factory=list)
    header: CastHeader | None = None
    finished: bool = False
    skipped: int = 0
    _buf: bytes = b""
    _lines: _Lines = field(default_factory=_Lines)
    _reader: CastReader | None = None
    _fb: FrameBuilder | None = None
    _last_time: float = 0.0  # recording time of the last event fed
    _grew_at: float = field(default_factory=time.monotonic)
    _probed: bool = True

    def poll(self, fh: io.BufferedReader | None = None) -> int:
        """Read what was appended since the last call; returns new frames taken."""
        own = fh is None
        fh = fh or open(self.path, "rb")
        try:
            fh.seek(self.offset + len(self._buf))
            data = fh.read(READ_CHUNK)
            got = 0
            while data:
                got += self._feed_bytes(data)
                data = fh.read(READ_CHUNK)
        finally:
            if own:
                fh.close()
        return got

    def _feed_bytes(self, data: bytes) -> int:
        self._grew_at = time.monotonic()
        self._probed = False
        buf = self._buf + data
        cut = buf.rfind(b"\n")
        if cut < 0:
            self._buf = buf
            return 0
        whole, self._buf = buf[:cut + 1], buf[cut + 1:]
        self.offset += len(whole)
        # split on "\n" only: U+2028, U+0085 and friends may stand unescaped inside a JSON string
        self._lines.pending.extend(ln + "\n" for ln in whole.decode("utf-8", "replace").split("\n")[:-1])
        if self._reader is None:
            self._open()
        return self._drain_events()

    def _open(self) -> None:
        self._reader = CastReader(self.path, stream=self._lines)  # type: ignore[arg-type]
        self.header = self._reader.header
        self._fb = FrameBuilder(self.header.width, self.header.height, gap=self.gap)

    def _drain_events(self) -> int:
        assert self._reader is not None and self._fb is not None
        before = len(self.frames)
        relative = self._reader.header.version == 3
        base = self._last_time if relative else 0.0
        for ev in self._reader.events(warn=False):
            t = base + ev.time
            self._last_time = t
            self.frames.extend(self._fb.feed_event(t, ev.code, ev.data))
        self.skipped = self._reader.skipped
        return len(self.frames) - before

    def probe_quiet(self, quiet: float = QUIET_WALL) -> int:
        """Take the frame a later event would take, once the file has been still.

        Offline, the frame at a pause is taken when the next event arrives
        after the gap. A recorder writes within 50 ms, so a file unchanged
        for `quiet` wall seconds means the next event (if any) comes after
        the gap: taking the frame now gives the very frames a replay of the
        finished file gives, only sooner. A prompt waiting for the user
        reaches the archive without waiting for the user.
        """
        if self._fb is None or self._probed or time.monotonic() - self._grew_at < quiet:
            return 0
        self._probed = True
        before = len(self.frames)
        self.frames.extend(self._fb.feed_event(self._last_time + self.gap, "_", ""))
        return len(self.frames) - before

    def finish(self) -> None:
        """The recording is complete: take the closing frame."""
        if self.finished:
            return
        tail, self._buf = self._buf, b""
        self.offset += len(tail)  # read to the last byte, even a blank tail
        if tail.strip():  # a last line without its newline (a killed recorder)
            self._lines.pending.append(tail.decode("utf-8", "replace"))
            if self._reader is None:
                self._open()
            self._drain_events()
        if self._reader is None:
            raise CastError(f"{self.path}: empty file, not an asciicast recording")
        assert self._fb is not None
        self.frames.extend(self._fb.finish())
        self.finished = True

    # -- the conversation ---------------------------------------------------
    def conversation_id(self) -> str:
        assert self.header is not None
        own = self.header.raw.get(ID_FIELD)
        if isinstance(own, str) and own.startswith("rec-") and 4 < len(own) <= 64:
            return own
        return recording_id(self.path)

    def conversation(self) -> Conversation:
        """The conversation the frames so far show (screen vector)."""
        if self.header is None:
            raise CastError(f"{self.path}: empty file, not an asciicast recording")
        # the one place that decides which profile reads which frames (shell stretches too)
        name, made, _ = reconstruct(list(self.frames), self.header, self.agent)
        return build_conversation(self.conversation_id(), name, self.header, made,
                                  self.frames[-1].time if self.frames else 0.0, self.path)


def build_conversation(cid: str, agent: str, header: CastHeader, made: list[Any], end_t: float,
                       path: str | Path) -> Conversation:
    """Screen turns (agents_chrome) -> the archive's record."""
    start = header.timestamp
    turns = []
    for i, t in enumerate(made):
        ts = t.ts
        if ts is None and start is not None and t.time is not None:
            ts = iso_time(float(start) + t.time)
        turns.append(Turn(t.role, t.text or "", name=t.name, input=t.input, ts=ts, vector="screen",
                          key=f"screen:{i}", partial=bool(getattr(t, "partial", False))))
    title = header.title if isinstance(header.title, str) and header.title else \
        next((t.text[:80] for t in turns if t.role == "user"), None)
    cwd = header.raw.get("cwd")
    return Conversation(id=cid, agent=agent, title=title, workspace=cwd if isinstance(cwd, str) else None,
                        started_at=iso_time(start), ended_at=iso_time(float(start) + end_t) if start is not None else None,
                        sources=[Source("screen", str(Path(path).resolve()))], turns=turns)


def read_whole(path: str | Path, agent: str | None = None) -> Follower:
    f = Follower(str(path), agent)
    try:
        f.poll()
    except OSError as e:
        raise CastError(f"{path}: cannot open ({e.strerror})") from None
    f.finish()
    return f


def screen_conversation(path: str | Path, agent: str | None = None) -> Conversation:
    """A recording's turns as a screen-vector conversation."""
    return read_whole(path, agent).conversation()


def store_follower(store: Any, follower: Follower) -> str | None:
    """Write what the follower has so far; None when it shows no turn yet.
    Once finished, the read is recorded even without turns, so `sync` does
    not read the file again."""
    from archive.ingest import store_screen
    conv = follower.conversation()
    if not conv.turns and not follower.finished:
        return None
    return store_screen(store, conv, conv.sources[0].path, follower.offset)


def _is_asciicast(path: str | Path) -> bool:
    try:
        with open(path, "rb") as fh:
            head = json.loads(fh.readline(1 << 16))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(head, dict) and "version" in head


def import_recording(path: str | Path, agent: str | None = None, store: Any = None,
                     size: tuple[int, int] | None = None, timing: str | Path | None = None) -> str | None:
    """Archive a whole recording (idempotent); returns the conversation id it landed in,
    None when it holds no conversation (a shell, `cat`: the recording stays, the
    archive keeps conversations) or the archive already has a longer read of it.

    An asciicast goes through the same `Follower` as a live capture; another
    kind of recording (a typescript, a raw log: `size`/`timing` say how to
    read it) through `agents_chrome.replay`."""
    from archive.ingest import store_screen
    from archive.store import Store
    if size is None and timing is None and _is_asciicast(path):
        f = read_whole(path, agent)
        conv, offset = f.conversation(), f.offset
    else:
        conv, offset = _replayed(path, agent, size, timing)
    own = store is None
    store = store or Store(archive_path())
    try:
        return store_screen(store, conv, conv.sources[0].path, offset)
    finally:
        if own:
            store.close()


def _replayed(path: str | Path, agent: str | None, size: tuple[int, int] | None,
              timing: str | Path | None) -> tuple[Conversation, int]:
    from agents_chrome.replay import replay
    try:
        nbytes = os.stat(path).st_size
    except OSError as e:
        raise CastError(f"{path}: cannot open ({e.strerror})") from None
    kw: dict[str, Any] = {}
    if size is not None:
        kw["size"] = size
    if timing is not None:
        kw["timing"] = timing
    meta, made, _ = replay(path, agent, **kw)
    start = meta.get("started_at")
    header = CastHeader(version=2, width=80, height=24, raw={"cwd": meta.get("workspace")},
                        title=meta.get("title"),
                        timestamp=datetime.fromisoformat(start).timestamp() if start else None)
    end = meta.get("ended_at")
    end_t = (datetime.fromisoformat(end).timestamp() - header.timestamp) if end and header.timestamp else 0.0
    return build_conversation(meta["id"], meta["agent"], header, made, end_t, path), nbytes


# -- the data home ----------------------------------------------------------
def data_home() -> Path:
    from capsule_capture.home import data_home as home
    return home()


def archive_path(home: Path | None = None) -> Path:
    return (home or data_home()) / "archive"


def recordings_dir(home: Path | None = None) -> Path:
    return (home or data_home()) / "recordings"


def private_dir(path: Path, top: Path | None = None) -> None:
    """Create `path` (and parents) 0700; tighten `path` and its parents up to `top`."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    stop = (top or path).resolve()
    p = path.resolve()
    while True:
        tighten(p, 0o700)
        if p == stop or p.parent == p or stop not in p.parents:
            break
        p = p.parent


def tighten(path: Path, mode: int) -> None:
    """chmod down to `mode` when the file or folder is looser (never loosens)."""
    try:
        st = os.stat(path)
        if stat.S_IMODE(st.st_mode) & ~mode & 0o777:
            os.chmod(path, stat.S_IMODE(st.st_mode) & mode)
    except OSError:
        pass


# -- recordings not archived (killed recorder, crash, reboot) ------------------
@dataclass
class RecordingStats:
    found: int = 0
    imported: int = 0
    empty: int = 0  # read, but no conversation in them (a shell, `cat`)
    current: int = 0  # archived up to their last byte already
    live: int = 0  # a companion is capturing them now
    opted_out: int = 0  # recorded with --no-archive
    problems: list[str] = field(default_factory=list)


def is_live(path: Path) -> bool:
    """A live companion holds a lock on the recording while it captures it."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def opted_out(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            head = json.loads(fh.readline(1 << 16) or b"{}")
    except (OSError, ValueError):
        return False
    return isinstance(head, dict) and head.get(NO_ARCHIVE_FIELD) is False


def archived_to_end(store: Any, path: Path) -> bool:
    """Whether the archive already holds `path` up to its last byte."""
    try:
        size = path.stat().st_size
    except OSError:
        return True
    with store.env.begin() as txn:
        st = store.source_state(txn, str(path.resolve()))
    return st is not None and st[2] >= size


def pending_recordings(store: Any, home: Path | None = None) -> tuple[list[Path], RecordingStats]:
    """Recordings under the data home that the archive lacks or holds only in part."""
    stats = RecordingStats()
    root = recordings_dir(home)
    if not root.is_dir():
        return [], stats
    tighten(root, 0o700)
    todo: list[Path] = []
    with store.env.begin() as txn:
        for dirpath, dirnames, files in os.walk(root):
            for d in dirnames:
                tighten(Path(dirpath) / d, 0o700)
            for name in sorted(files):
                if not name.endswith(".cast"):
                    continue
                p = Path(dirpath) / name
                tighten(p, 0o600)
                stats.found += 1
                try:
                    size = p.stat().st_size
                except OSError as e:
                    stats.problems.append(f"{p}: unreadable ({e.strerror})")
                    continue
                st = store.source_state(txn, str(p.resolve()))
                if st is not None and st[2] >= size:
                    stats.current += 1
                elif opted_out(p):
                    stats.opted_out += 1
                elif is_live(p):
                    stats.live += 1
                else:
                    todo.append(p)
    return todo, stats


def import_pending(store: Any, home: Path | None = None) -> RecordingStats:
    """Archive every recording under the data home not archived to its end (idempotent)."""
    todo, stats = pending_recordings(store, home)
    for p in todo:
        try:
            if import_recording(p, None, store) is None:
                stats.empty += 1
            else:
                stats.imported += 1
        except Exception as e:  # noqa: BLE001 - one recording that fails never stops a sync
            stats.problems.append(f"{p}: not imported ({e})")
    return stats
