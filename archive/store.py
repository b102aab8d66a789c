"""The LMDB archive under `$CAPSULE_CAPTURE_HOME/archive/`.

A copy, not a cache: deleting an agent's files or the container loses
nothing archived. One LMDB environment, named databases:

  conv      id -> zlib(MessagePack Conversation, turns without `raw`)
  raw       id -> zlib(MessagePack list of each turn's verbatim source record)
  meta      id -> MessagePack summary row (what `list` prints, no decoding of turns)
  by_time   started\\0id             (newest-first listing, --since/--until ranges)
  by_agent  agent\\0started\\0id
  by_ws     workspace\\0started\\0id
  screen    agent\\0id               (screen-only captures waiting for a native match)
  docno     id -> uint32, docs: uint32 -> id   (compact document numbers)
  terms     term -> docno(4) tf(1)  (dupsort, dupfixed: the keyword index)
  sources   path -> [size, mtime, offset]   (what a sync already read)

LMDB serialises writers across processes with its lock, so concurrent
syncs and imports lose nothing; the map (4 GiB, sparse) doubles when full.
"""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

from capsule_capture.home import data_home
from typing import Any, Callable, Iterator

import lmdb
import msgspec
import regex

from archive.record import Conversation, Turn, summary
from archive.tokens import terms, tokens

WORD = regex.compile(r"\w{2,40}")
MAP_SIZE = 1 << 32  # 4 GiB, sparse
POSTING = struct.Struct(">IB")  # docno, term frequency (capped at 255)
STOP = frozenset("""a an and are as at be but by can do for from has have he her his i if in into is it its
me my no not of on or our she so than that the their them then there these they this to too up us was we
were what when which who will with you your""".split())

_enc = msgspec.msgpack.Encoder()
_conv_dec = msgspec.msgpack.Decoder(Conversation)
_raw_dec = msgspec.msgpack.Decoder(list[bytes | None])


def default_home() -> Path:
    return data_home()


def terms_of(text: str) -> set[str]:
    return terms(text)  # archive/tokens.py: words, CJK runs as bigrams


def term_freqs(conv: Conversation) -> dict[str, int]:
    tf: dict[str, int] = {}
    for text in [conv.title or ""] + [t.text for t in conv.turns]:
        for w in tokens(text):
            tf[w] = tf.get(w, 0) + 1
    return tf


class Store:
    def __init__(self, path: Path | None = None, readonly: bool = False) -> None:
        self.path = Path(path) if path else default_home() / "archive"
        self.path.mkdir(parents=True, exist_ok=True)
        self.env = lmdb.open(str(self.path), map_size=MAP_SIZE, max_dbs=16, subdir=True,
                             metasync=True, sync=True, lock=True, max_readers=256)
        self.conv = self.env.open_db(b"conv")
        self.raw = self.env.open_db(b"raw")
        self.meta = self.env.open_db(b"meta")
        self.by_time = self.env.open_db(b"by_time")
        self.by_agent = self.env.open_db(b"by_agent")
        self.by_ws = self.env.open_db(b"by_ws")
        self.screen = self.env.open_db(b"screen")
        self.docno = self.env.open_db(b"docno")
        self.docs = self.env.open_db(b"docs")
        self.terms = self.env.open_db(b"terms", dupsort=True, dupfixed=True)
        self.sources = self.env.open_db(b"sources")
        self.info = self.env.open_db(b"info")

    def close(self) -> None:
        self.env.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ------------------------------------------------------------
    def write(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run fn(txn, *args) in one write transaction, doubling the map if it fills."""
        while True:
            try:
                with self.env.begin(write=True) as txn:
                    return fn(txn, *args)
            except lmdb.MapFullError:
                self.env.set_mapsize(self.env.info()["map_size"] * 2)

    def put(self, txn: lmdb.Transaction, conv: Conversation, old: Conversation | None = None) -> None:
        cid = conv.id.encode()
        if old is not None:
            self._unindex(txn, old)
        raws = [t.raw for t in conv.turns]
        bare = msgspec.structs.replace(conv, turns=[msgspec.structs.replace(t, raw=None) for t in conv.turns])
        txn.put(cid, zlib.compress(_enc.encode(bare), 6), db=self.conv)
        if any(r is not None for r in raws):
            txn.put(cid, zlib.compress(_enc.encode(raws), 6), db=self.raw)
        else:
            txn.delete(cid, db=self.raw)
        txn.put(cid, _enc.encode(summary(conv)), db=self.meta)
        for db, key in self._index_keys(conv):
            txn.put(key, b"", db=db)
        if conv.native_id is None:
            txn.put(conv.agent.encode() + b"\0" + cid, b"", db=self.screen)
        no = self._docno(txn, cid)
        cur = txn.cursor(db=self.terms)
        cur.putmulti([(w.encode(), POSTING.pack(no, min(n, 255))) for w, n in term_freqs(conv).items()],
                     dupdata=True, overwrite=True)

    def _docno(self, txn: lmdb.Transaction, cid: bytes) -> int:
        got = txn.get(cid, db=self.docno)
        if got:
            return struct.unpack(">I", got)[0]
        last = txn.get(b"next_docno", db=self.info)
        no = struct.unpack(">I", last)[0] if last else 1
        txn.put(b"next_docno", struct.pack(">I", no + 1), db=self.info)
        txn.put(cid, struct.pack(">I", no), db=self.docno)
        txn.put(struct.pack(">I", no), cid, db=self.docs)
        return no

    def _unindex(self, txn: lmdb.Transaction, conv: Conversation) -> None:
        cid = conv.id.encode()
        for db, key in self._index_keys(conv):
            txn.delete(key, db=db)
        txn.delete(conv.agent.encode() + b"\0" + cid, db=self.screen)
        got = txn.get(cid, db=self.docno)
        if got:
            no = struct.unpack(">I", got)[0]
            for w, n in term_freqs(conv).items():
                txn.delete(w.encode(), POSTING.pack(no, min(n, 255)), db=self.terms)

    def _index_keys(self, conv: Conversation) -> list[tuple[Any, bytes]]:
        started = (conv.started_at or "").encode()
        cid = conv.id.encode()
        return [(self.by_time, started + b"\0" + cid),
                (self.by_agent, conv.agent.encode() + b"\0" + started + b"\0" + cid),
                (self.by_ws, (conv.workspace or "").encode() + b"\0" + started + b"\0" + cid)]

    def delete(self, txn: lmdb.Transaction, conv: Conversation) -> None:
        self._unindex(txn, conv)
        cid = conv.id.encode()
        for db in (self.conv, self.raw, self.meta):
            txn.delete(cid, db=db)

    def get_in(self, txn: lmdb.Transaction, cid: str, raw: bool = True) -> Conversation | None:
        data = txn.get(cid.encode(), db=self.conv)
        if not data:
            return None
        conv = _conv_dec.decode(zlib.decompress(data))
        if raw:
            rdata = txn.get(cid.encode(), db=self.raw)
            if rdata:
                for t, r in zip(conv.turns, _raw_dec.decode(zlib.decompress(rdata))):
                    t.raw = r
        return conv

    def source_state(self, txn: lmdb.Transaction, path: str) -> tuple[int, float, int] | None:
        data = txn.get(path.encode(), db=self.sources)
        if not data:
            return None
        v = msgspec.msgpack.decode(data)
        return (v[0], v[1], v[2] if len(v) > 2 else v[0])

    def set_source_state(self, txn: lmdb.Transaction, path: str, size: int, mtime: float, offset: int) -> None:
        txn.put(path.encode(), _enc.encode([size, mtime, offset]), db=self.sources)

    def screen_ids(self, txn: lmdb.Transaction, agent: str) -> list[str]:
        prefix = agent.encode() + b"\0"
        cur = txn.cursor(db=self.screen)
        out = []
        if cur.set_range(prefix):
            for key in cur.iternext(values=False):
                if not key.startswith(prefix):
                    break
                out.append(key[len(prefix):].decode())
        return out

    def agent_ids_between(self, txn: lmdb.Transaction, agent: str, lo: str | None, hi: str | None) -> list[str]:
        """Ids of `agent` started in [lo, hi] (ISO strings compare in time order); all when unbounded."""
        prefix = agent.encode() + b"\0"
        cur = txn.cursor(db=self.by_agent)
        out = []
        if lo and cur.set_range(prefix + b"\0"):  # undated ones (a prompt history) always qualify
            for key in cur.iternext(values=False):
                if not key.startswith(prefix + b"\0"):
                    break
                out.append(key[len(prefix) + 1:].decode())
        if cur.set_range(prefix + (lo or "").encode()):
            for key in cur.iternext(values=False):
                if not key.startswith(prefix):
                    break
                started, cid = key[len(prefix):].rsplit(b"\0", 1)
                if hi and started and started.decode() > hi:
                    break
                out.append(cid.decode())
        return out

    # -- reading ------------------------------------------------------------
    def get(self, cid: str, raw: bool = True) -> Conversation | None:
        with self.env.begin() as txn:
            return self.get_in(txn, cid, raw)

    def row(self, txn: lmdb.Transaction, cid: str) -> dict[str, Any] | None:
        data = txn.get(cid.encode(), db=self.meta)
        return msgspec.msgpack.decode(data) if data else None

    def resolve(self, prefix: str) -> list[str]:
        """Ids starting with `prefix` (git-style short ids); stops at two."""
        out = []
        with self.env.begin() as txn:
            cur = txn.cursor(db=self.conv)
            if cur.set_range(prefix.encode()):
                for key in cur.iternext(values=False):
                    k = key.decode()
                    if not k.startswith(prefix):
                        break
                    if k == prefix:
                        return [k]
                    out.append(k)
                    if len(out) > 1:
                        break
        return out

    def iter_rows(self, agent: str | None = None, workspace: str | None = None, since: str | None = None,
                  until: str | None = None) -> Iterator[dict[str, Any]]:
        """Summary rows, newest first, filtered on the index before anything is decoded."""
        db, prefix = self.by_time, b""
        if agent:
            db, prefix = self.by_agent, agent.encode() + b"\0"
        elif workspace is not None:
            db, prefix = self.by_ws, workspace.encode() + b"\0"
        with self.env.begin() as txn:
            cur = txn.cursor(db=db)
            # newest first: from the last key below the upper bound, walking back
            hi = prefix + (until.encode() if until else b"\xff")
            ok = cur.prev() if cur.set_range(hi) else cur.last()
            while ok:
                key = cur.key()
                if not key.startswith(prefix):
                    break
                started, cid = key[len(prefix):].rsplit(b"\0", 1)
                if since and started < since.encode():
                    break
                r = self.row(txn, cid.decode())
                if r is not None and (workspace is None or r.get("workspace") == workspace):
                    yield r
                ok = cur.prev()

    def iter_ids(self, agent: str | None = None, workspace: str | None = None) -> Iterator[str]:
        for r in self.iter_rows(agent, workspace):
            yield r["id"]

    def count(self) -> int:
        with self.env.begin() as txn:
            return txn.stat(self.conv)["entries"]

    def bytes_used(self) -> int:
        """Bytes of the archive's pages in use (the file itself is sparse)."""
        info = self.env.info()
        return (info["last_pgno"] + 1) * self.env.stat()["psize"]
