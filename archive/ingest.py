"""Getting conversations into the archive: `sync` (native files) and
`store_screen` (a recording's screen capture, its turns made by
`capsule_capture.pipeline`), both merging structured-first.

Sync is idempotent: each source's size, mtime and the offset read so far
are kept, an unchanged source is passed over, and a re-read source adds
only the turns whose keys the archive lacks (turns already archived stay,
even when the file was cut or deleted since). Writes go in batches, one
LMDB transaction each, so that many small sessions sync fast and other
processes get the write lock between batches.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Callable

import msgspec

from archive import merge as merging
from archive.discovery import Found, discover, fingerprint, unreadable
from archive.record import Conversation, Source, Turn, instant
from archive.store import Store

BATCH_CONVERSATIONS = 256
BATCH_TURNS = 20000


@dataclass
class SyncStats:
    files: int = 0
    unchanged: int = 0
    new: int = 0
    updated: int = 0
    turns_added: int = 0
    skipped_lines: int = 0
    skipped_files: int = 0
    problems: list[str] = field(default_factory=list)
    conversations_read: int = 0

    def problem(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)


def _native_union(parsed: Conversation, old: Conversation) -> list[Turn]:
    """The parsed turns; when the source lost turns the archive has (cut,
    rotated), the archived native turns first and the parsed new ones after."""
    have = {t.key for t in parsed.turns}
    old_native = [t for t in old.turns if t.vector != "screen"]
    if all(t.key in have for t in old_native):
        return list(parsed.turns)
    known = {t.key for t in old_native}
    return old_native + [t for t in parsed.turns if t.key not in known]


def upsert_native_in(store: Store, txn, conv: Conversation) -> tuple[bool, int]:  # type: ignore[no-untyped-def]
    """Put a native conversation inside `txn`, keeping the screen turns already
    merged into it and absorbing a matching screen-only capture.
    Returns (new, turns added)."""
    old = store.get_in(txn, conv.id)
    screen_turns: list[Turn] = []
    screen_sources: list[Source] = []
    if old is not None:
        screen_turns = [t for t in old.turns if t.vector == "screen"]
        screen_sources = [s for s in old.sources if s.vector == "screen"]
        native = msgspec.structs.replace(
            conv, turns=_native_union(conv, old),
            sources=_union_sources([s for s in old.sources if s.vector != "screen"], conv.sources),
            title=conv.title or old.title, workspace=conv.workspace or old.workspace,
            started_at=min(filter(None, [conv.started_at, old.started_at]), default=None),
            ended_at=max(filter(None, [conv.ended_at, old.ended_at]), default=None))
    else:
        native = conv
        for sid in store.screen_ids(txn, conv.agent):
            other = store.get_in(txn, sid)
            if other is not None and merging.match_score(conv, other) > 0:
                screen_turns += other.turns
                screen_sources += other.sources
                native = _fill(native, other)
                store.delete(txn, other)
                store.set_alias(txn, other.id, native.id)  # `show <recording id>` still finds it
    merged = merging.merge(native, screen_turns, screen_sources) if screen_turns else native
    before = {t.key for t in old.turns} if old else set()
    added = sum(1 for t in merged.turns if t.key not in before or not t.key)
    if old is not None and added == 0 and len(merged.turns) == len(old.turns) and _same(old, merged):
        return False, 0
    store.put(txn, merged, old)
    return old is None, added


def _fill(conv: Conversation, screen: Conversation) -> Conversation:
    """What the native record lacks (times, workspace, title), from the screen capture."""
    return msgspec.structs.replace(conv, started_at=conv.started_at or screen.started_at,
                                   ended_at=conv.ended_at or screen.ended_at,
                                   workspace=conv.workspace or screen.workspace, title=conv.title or screen.title)


def _same(a: Conversation, b: Conversation) -> bool:
    return [(t.key, t.text) for t in a.turns] == [(t.key, t.text) for t in b.turns] and a.title == b.title


def _union_sources(a: list[Source], b: list[Source]) -> list[Source]:
    seen = {s.path for s in a}
    return list(a) + [s for s in b if s.path not in seen]


def sync(home: Path, agent: str | None = None, store: Store | None = None,
         progress: Callable[[int, int], None] | None = None, found: list[Found] | None = None) -> SyncStats:
    stats = SyncStats()
    home = Path(home).absolute()
    own = store is None
    store = store or Store()
    pending: list[tuple[str, tuple[int, float], list[Conversation]]] = []

    def flush() -> None:
        if not pending:
            return

        def txn_fn(txn):  # type: ignore[no-untyped-def]
            out = []
            for key, fp, convs in pending:
                for conv in convs:
                    out.append(upsert_native_in(store, txn, conv))
                store.set_source_state(txn, key, fp[0], fp[1], fp[0])
            return out

        for new, added in store.write(txn_fn):
            if new:
                stats.new += 1
            elif added:
                stats.updated += 1
            stats.turns_added += added
        pending.clear()

    try:
        problems: list[str] = []
        found = found if found is not None else discover(home, agent, problems)
        for p in problems + unreadable(home):
            stats.problem(p)
        n_convs = n_turns = 0
        with store.env.begin() as txn:
            states = {str(f.path.absolute()): store.source_state(txn, str(f.path.absolute())) for f in found}
        for i, f in enumerate(found):
            stats.files += 1
            if progress:
                progress(i, len(found))
            key = str(f.path.absolute())
            try:
                fp = fingerprint(f.path)
            except OSError as e:
                stats.skipped_files += 1
                stats.problem(f"{f.path}: unreadable ({e.strerror})")
                continue
            st = states.get(key)
            if st is not None and (st[0], st[1]) == fp:
                stats.unchanged += 1
                continue
            try:
                result = f.provider.parse(f.path)
            except (OSError, UnicodeDecodeError, ValueError) as e:
                stats.skipped_files += 1
                stats.problem(f"{f.path}: unreadable ({e})")
                continue
            stats.skipped_lines += result.skipped
            for p in result.problems:
                stats.problem(p)
            stats.conversations_read += len(result.conversations)
            pending.append((key, fp, result.conversations))
            n_convs += len(result.conversations)
            n_turns += sum(len(c.turns) for c in result.conversations)
            if n_convs >= BATCH_CONVERSATIONS or n_turns >= BATCH_TURNS:
                flush()
                n_convs = n_turns = 0
        flush()
        if progress:
            progress(len(found), len(found))
    finally:
        if own:
            store.close()
    return stats


def store_screen(store: Store, screen: Conversation, source: str, offset: int) -> str | None:
    """Store a recording's screen capture (turns made above the archive, by
    `capsule_capture.pipeline`); returns the conversation id it landed in (a
    native conversation's when it matches one).

    None when nothing was archived: a recording without turns, one the user
    deleted, or a read shorter than the one archived.

    `offset` is how many bytes of the recording `screen` reflects. Several
    processes may write the same recording at once (a live companion,
    `watch`, `sync`, `import`); the write of a shorter read than the one
    already stored is dropped, so a late writer never rolls the archive
    back, and writing the same read twice changes nothing.
    """
    return store.write(_store_screen_in, store, screen, source, offset)


def _store_screen_in(txn, store: Store, screen: Conversation, source: str, offset: int) -> str | None:  # type: ignore[no-untyped-def]
    st = store.source_state(txn, source)
    if st is not None and st[2] > offset:
        return None  # a longer read of this recording is archived already
    cid = _import_in(txn, store, screen)
    try:
        mtime = Path(source).stat().st_mtime
    except OSError:
        mtime = 0.0
    store.set_source_state(txn, source, offset, mtime, offset)
    return cid


def _import_in(txn, store: Store, screen: Conversation) -> str | None:  # type: ignore[no-untyped-def]
    lo = hi = None
    t0, t1 = instant(screen.started_at), instant(screen.ended_at or screen.started_at)
    if t0 and t1:  # only natives that started near the recording (ISO strings sort by time)
        lo = (t0 - merging.WINDOW - timedelta(days=1)).isoformat()[:10]
        hi = (t1 + merging.WINDOW + timedelta(days=1)).isoformat()[:10] + "\xff"
    best, score = None, 0
    merged_into = store.alias(txn, screen.id)  # merged once: always the same conversation
    if merged_into is not None and store.get_in(txn, merged_into, raw=False) is not None:
        best, score = store.get_in(txn, merged_into, raw=False), 1
    for cid in ([] if best is not None else store.agent_ids_between(txn, screen.agent, lo, hi)):
        native = store.get_in(txn, cid, raw=False)
        if native is None or native.native_id is None:
            continue
        s = merging.match_score(native, screen)
        if s > score:
            best, score = native, s
    if best is not None:
        best = store.get_in(txn, best.id)
        kept = [t for t in best.turns if t.vector != "screen"]
        others = [s for s in best.sources if s.vector == "screen" and s.path not in {x.path for x in screen.sources}]
        merged = merging.merge(msgspec.structs.replace(best, turns=kept, sources=[s for s in best.sources
                                                                                   if s.vector != "screen"] + others),
                               screen.turns, screen.sources)
        merged = _fill(merged, screen)
        if not store.put(txn, merged, best):
            return None  # the user deleted it and the recording brings nothing new
        stale = store.get_in(txn, screen.id, raw=False)
        if stale is not None and stale.id != merged.id:  # a capture stored before the native matched
            store.delete(txn, stale)
        store.set_alias(txn, screen.id, merged.id)
        return merged.id
    old = store.get_in(txn, screen.id)
    if not store.put(txn, screen, old):
        return None  # no turns (a shell, `cat`), or deleted by the user
    return screen.id
