"""The LMDB archive under `$CAPSULE_CAPTURE_HOME/archive/`.

A copy, not a cache: deleting an agent's files or the container loses
nothing archived. One environment, named databases:
  conv      id -> Conversation (MessagePack)
  by_time   started\\0id           (newest-first listing)
  by_agent  agent\\0started\\0id
  by_ws     workspace\\0started\\0id
  terms     term -> id            (dupsort: the keyword index)
  sources   path -> (size, mtime) (what a sync already read)
LMDB serialises writers across processes, so concurrent syncs and
imports are safe; the map grows when it fills.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import lmdb
import msgspec
import regex

from archive.record import Conversation, decode, encode

WORD = regex.compile(r"\w{2,40}")
MAP_SIZE = 1 << 32  # 4 GiB, sparse


def default_home() -> Path:
    env = os.environ.get("CAPSULE_CAPTURE_HOME")
    if env:
        return Path(env).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data) / "capsule-capture"


def terms_of(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


class Store:
    def __init__(self, path: Path | None = None, readonly: bool = False) -> None:
        self.path = Path(path) if path else default_home() / "archive"
        self.path.mkdir(parents=True, exist_ok=True)
        self.env = lmdb.open(str(self.path), map_size=MAP_SIZE, max_dbs=8, subdir=True, readonly=False,
                             metasync=True, sync=True, lock=True)
        self.conv = self.env.open_db(b"conv")
        self.by_time = self.env.open_db(b"by_time")
        self.by_agent = self.env.open_db(b"by_agent")
        self.by_ws = self.env.open_db(b"by_ws")
        self.terms = self.env.open_db(b"terms", dupsort=True)
        self.sources = self.env.open_db(b"sources")

    def close(self) -> None:
        self.env.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ------------------------------------------------------------
    def write(self, fn, *args):  # type: ignore[no-untyped-def]
        """Run fn(txn, *args) in a write transaction, growing the map if it fills."""
        while True:
            try:
                with self.env.begin(write=True) as txn:
                    return fn(txn, *args)
            except lmdb.MapFullError:
                self.env.set_mapsize(self.env.info()["map_size"] * 2)

    def put(self, txn: lmdb.Transaction, conv: Conversation, old: Conversation | None = None) -> None:
        cid = conv.id.encode()
        if old is not None:
            for db, key in self._index_keys(old):
                txn.delete(key, db=db)
        txn.put(cid, encode(conv), db=self.conv)
        for db, key in self._index_keys(conv):
            txn.put(key, b"", db=db)
        words: set[str] = set()
        for t in conv.turns:
            words |= terms_of(t.text)
        words |= terms_of(conv.title or "")
        for w in words:
            txn.put(w.encode(), cid, db=self.terms, dupdata=False)

    def _index_keys(self, conv: Conversation) -> list[tuple[object, bytes]]:
        started = (conv.started_at or "").encode()
        cid = conv.id.encode()
        return [(self.by_time, started + b"\0" + cid),
                (self.by_agent, conv.agent.encode() + b"\0" + started + b"\0" + cid),
                (self.by_ws, (conv.workspace or "").encode() + b"\0" + started + b"\0" + cid)]

    def delete(self, txn: lmdb.Transaction, conv: Conversation) -> None:
        for db, key in self._index_keys(conv):
            txn.delete(key, db=db)
        txn.delete(conv.id.encode(), db=self.conv)

    def get_in(self, txn: lmdb.Transaction, cid: str) -> Conversation | None:
        data = txn.get(cid.encode(), db=self.conv)
        return decode(data) if data else None

    def source_state(self, txn: lmdb.Transaction, path: str) -> tuple[int, float] | None:
        data = txn.get(path.encode(), db=self.sources)
        return tuple(msgspec.msgpack.decode(data)) if data else None  # type: ignore[return-value]

    def set_source_state(self, txn: lmdb.Transaction, path: str, size: int, mtime: float) -> None:
        txn.put(path.encode(), msgspec.msgpack.encode([size, mtime]), db=self.sources)

    # -- reading ------------------------------------------------------------
    def get(self, cid: str) -> Conversation | None:
        with self.env.begin() as txn:
            return self.get_in(txn, cid)

    def resolve(self, prefix: str) -> list[str]:
        """Ids starting with `prefix` (git-style short ids)."""
        out = []
        with self.env.begin() as txn:
            cur = txn.cursor(db=self.conv)
            if cur.set_range(prefix.encode()):
                for key in cur.iternext(values=False):
                    k = key.decode()
                    if not k.startswith(prefix):
                        break
                    out.append(k)
                    if len(out) > 1 and len(prefix) >= len(k):
                        break
        return out

    def iter_ids(self, agent: str | None = None, workspace: str | None = None, newest_first: bool = True) -> Iterator[str]:
        db, prefix = self.by_time, b""
        if agent:
            db, prefix = self.by_agent, agent.encode() + b"\0"
        elif workspace is not None:
            db, prefix = self.by_ws, workspace.encode() + b"\0"
        with self.env.begin() as txn:
            cur = txn.cursor(db=db)
            keys = []
            if cur.set_range(prefix):
                for key in cur.iternext(values=False):
                    if not key.startswith(prefix):
                        break
                    keys.append(key)
        for key in (reversed(keys) if newest_first else keys):
            yield key.rsplit(b"\0", 1)[1].decode()

    def count(self) -> int:
        with self.env.begin() as txn:
            return txn.stat(self.conv)["entries"]

    def postings(self, txn: lmdb.Transaction, term: str) -> set[bytes]:
        cur = txn.cursor(db=self.terms)
        if not cur.set_key(term.encode()):
            return set()
        return set(cur.iternext_dup())
