"""Getting conversations into the archive: `sync` (native files) and
`import_cast` (a recording's screen capture), both merging structured-first."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from archive import merge as merging
from archive.providers import all_providers, provider
from archive.providers.base import Provider
from archive.record import Conversation, Source, Turn
from archive.store import Store


@dataclass
class SyncStats:
    files: int = 0
    unchanged: int = 0
    new: int = 0
    updated: int = 0
    turns_added: int = 0
    skipped_lines: int = 0
    problems: list[str] = field(default_factory=list)
    conversations_read: int = 0


def fingerprint(path: Path) -> tuple[int, float]:
    """(size, mtime) of a file, or summed over a directory store."""
    if path.is_file():
        st = path.stat()
        return st.st_size, st.st_mtime
    size, mtime = 0, 0.0
    for root, _dirs, files in os.walk(path):
        for f in files:
            try:
                st = os.stat(os.path.join(root, f))
            except OSError:
                continue
            size += st.st_size
            mtime = max(mtime, st.st_mtime)
    return size, mtime


def discover(home: Path, agent: str | None = None) -> list[tuple[Provider, Path]]:
    provs = [provider(agent)] if agent else all_providers()
    found = []
    for p in provs:
        try:
            found.extend((p, path) for path in p.discover(home))
        except OSError:
            continue
    return found


def upsert_native(store: Store, conv: Conversation) -> tuple[bool, int]:
    """Put a native conversation, keeping the screen turns already merged into
    it and absorbing a matching screen-only capture. Returns (new, turns added)."""
    def txn_fn(txn):  # type: ignore[no-untyped-def]
        old = store.get_in(txn, conv.id)
        screen_turns: list[Turn] = []
        screen_sources: list[Source] = []
        if old is not None:
            screen_turns = [t for t in old.turns if t.vector == "screen"]
            screen_sources = [s for s in old.sources if s.vector == "screen"]
        else:
            for other in _candidates(store, txn, conv.agent, native=False):
                if merging.match_score(conv, other) > 0:
                    screen_turns += other.turns
                    screen_sources += other.sources
                    store.delete(txn, other)
        merged = merging.merge(conv, screen_turns, screen_sources) if screen_turns else conv
        store.put(txn, merged, old)
        return old is None, len(merged.turns) - (len(old.turns) if old else 0)
    return store.write(txn_fn)


def _candidates(store: Store, txn, agent: str, native: bool) -> Iterable[Conversation]:  # type: ignore[no-untyped-def]
    cur = txn.cursor(db=store.by_agent)
    prefix = agent.encode() + b"\0"
    ids = []
    if cur.set_range(prefix):
        for key in cur.iternext(values=False):
            if not key.startswith(prefix):
                break
            ids.append(key.rsplit(b"\0", 1)[1].decode())
    for cid in ids:
        c = store.get_in(txn, cid)
        if c is not None and (c.native_id is not None) == native:
            yield c


def sync(home: Path, agent: str | None = None, store: Store | None = None,
         progress: Callable[[int, int], None] | None = None) -> SyncStats:
    stats = SyncStats()
    own = store is None
    store = store or Store()
    try:
        found = discover(home, agent)
        for i, (prov, path) in enumerate(found):
            stats.files += 1
            if progress:
                progress(i, len(found))
            try:
                fp = fingerprint(path)
            except OSError as e:
                stats.problems.append(f"{path}: unreadable ({e.strerror})")
                continue
            key = str(path.resolve())
            with store.env.begin() as txn:
                if store.source_state(txn, key) == (fp[0], fp[1]):
                    stats.unchanged += 1
                    continue
            try:
                result = prov.parse(path)
            except (OSError, UnicodeDecodeError) as e:
                stats.problems.append(f"{path}: unreadable ({e})")
                continue
            stats.skipped_lines += result.skipped
            stats.problems += result.problems
            for conv in result.conversations:
                stats.conversations_read += 1
                new, added = upsert_native(store, conv)
                if new:
                    stats.new += 1
                elif added:
                    stats.updated += 1
                stats.turns_added += max(0, added)
            store.write(lambda txn: store.set_source_state(txn, key, fp[0], fp[1]))
    finally:
        if own:
            store.close()
    return stats


def screen_conversation(path: str, agent: str | None = None) -> Conversation:
    """A recording's turns as a screen-vector conversation."""
    from agents_chrome.replay import replay_cast
    data = replay_cast(path, agent)
    turns = [Turn(t["role"], t.get("text") or "", name=t.get("name"), input=t.get("input"), ts=t.get("ts"),
                  vector="screen", key=f"screen:{i}") for i, t in enumerate(data["turns"])]
    return Conversation(id=data["id"], agent=data["agent"], title=data.get("title")
                        or next((t.text[:80] for t in turns if t.role == "user"), None),
                        workspace=data.get("workspace"), started_at=data.get("started_at"),
                        ended_at=data.get("ended_at"), sources=[Source("screen", str(Path(path).resolve()))],
                        turns=turns)


def import_cast(path: str, agent: str | None = None, store: Store | None = None) -> str:
    """Archive a recording's screen capture; returns the conversation id it landed in."""
    screen = screen_conversation(path, agent)
    own = store is None
    store = store or Store()
    try:
        def txn_fn(txn):  # type: ignore[no-untyped-def]
            best, score = None, 0
            for native in _candidates(store, txn, screen.agent, native=True):
                s = merging.match_score(native, screen)
                if s > score:
                    best, score = native, s
            if best is not None:
                kept = [t for t in best.turns if t.vector != "screen"]
                merged = merging.merge(Conversation(**{**_fields(best), "turns": kept}), screen.turns, screen.sources)
                store.put(txn, merged, best)
                return merged.id
            old = store.get_in(txn, screen.id)
            store.put(txn, screen, old)
            return screen.id
        return store.write(txn_fn)
    finally:
        if own:
            store.close()


def _fields(conv: Conversation) -> dict:
    return {f: getattr(conv, f) for f in conv.__struct_fields__}
