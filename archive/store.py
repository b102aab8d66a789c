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

import contextlib
import fcntl
import os
import struct
import zlib
from pathlib import Path
from typing import Any, Callable, Iterator

import lmdb
import msgspec

from archive import lmdbfile
from archive.errors import ArchiveError, DamagedArchive, describe_oserror
from archive.private import private_dir, private_file
from archive.record import Conversation, checked, summary
from archive.tokens import terms, tokens

MAP_SIZE = 1 << 32  # 4 GiB, sparse
ALIAS = b"alias\0"  # info key prefix: merged-away id -> the conversation holding it now
POSTING = struct.Struct(">IB")  # docno, term frequency (capped at 255)
STOP = frozenset("""a an and are as at be but by can do for from has have he her his i if in into is it its
me my no not of on or our she so than that the their them then there these they this to too up us was we
were what when which who will with you your""".split())

_enc = msgspec.msgpack.Encoder()
_conv_dec = msgspec.msgpack.Decoder(Conversation)
_raw_dec = msgspec.msgpack.Decoder(list[bytes | None])


class Tombstone(msgspec.Struct):
    keys: list[str]  # the deleted conversation's turn keys
    sources: list[list[Any]]  # [path, size, mtime] of each of its sources when it was deleted


_tomb_dec = msgspec.msgpack.Decoder(Tombstone)


def _fingerprint(path: str) -> tuple[int, float]:
    try:
        st = os.stat(path)
        return st.st_size, st.st_mtime
    except OSError:
        return -1, 0.0


def default_home() -> Path:
    """$CAPSULE_CAPTURE_HOME, else capsule-capture in the XDG data dir (the same rule as
    capsule_capture/home.py, restated here: the archive does not import the CLI's package)."""
    env = os.environ.get("CAPSULE_CAPTURE_HOME")
    if env:
        return Path(env).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data) / "capsule-capture"


def _lmdb_reason(e: Exception) -> str:
    """lmdb's message without the C function name it starts with."""
    text = str(e)
    return text.split(": ", 1)[1] if text.startswith("mdb_") and ": " in text else text


def terms_of(text: str) -> set[str]:
    return terms(text)  # archive/tokens.py: words, CJK runs as bigrams


def term_freqs(conv: Conversation) -> dict[str, int]:
    tf: dict[str, int] = {}
    for text in [conv.title or ""] + [t.text for t in conv.turns]:
        for w in tokens(text):
            tf[w] = tf.get(w, 0) + 1
    return tf


DBS = ("conv", "raw", "meta", "by_time", "by_agent", "by_ws", "screen", "docno", "docs", "sources", "info",
       "tombs")
DAMAGED_HINT = ("nothing was changed; run `capsule-capture doctor` for details, and restore a backup "
                "(README: Backup and restore) or move the folder aside to start a new archive")


@contextlib.contextmanager
def _opening(folder: Path, exclusive: bool) -> Iterator[None]:
    """Serialise opening the archive between processes.

    LMDB creates `data.mdb` empty and writes its meta pages during the first
    open, so a second process checking the file at that instant would take a
    new archive for a damaged one. Writers open under an exclusive lock on
    `open.lock`, readers under a shared one; where the folder cannot hold the
    lock file (read-only media) no writer can be creating anything.
    """
    try:
        fd = os.open(folder / "open.lock", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)


class Store:
    """The archive. `readonly=True` for commands that only read: the
    environment is opened MDB_RDONLY (no write can happen, and a read-only
    mount works), without the lock file when the folder cannot hold one.

    The data file is checked before it is mapped (archive/lmdbfile.py): a
    damaged, cut or empty file raises DamagedArchive and is never touched.
    """

    def __init__(self, path: Path | None = None, readonly: bool = False) -> None:
        default = path is None
        self.path = Path(path) if path else default_home() / "archive"
        self.readonly = readonly
        data = self.path / "data.mdb"
        if not readonly or not data.exists():
            self._create(default)
        with _opening(self.path, exclusive=not readonly or not data.exists()):
            self._open_checked(data, readonly)

    def _open_checked(self, data: Path, readonly: bool) -> None:
        try:
            lmdbfile.check(data)
        except lmdbfile.BadDataFile as e:
            raise DamagedArchive(f"{data}: {e}; {DAMAGED_HINT}") from None
        except OSError as e:
            raise ArchiveError(describe_oserror(e)) from None
        if readonly and not data.exists():  # an empty archive to read (what `list` shows before any sync)
            try:
                self._open(False).close()
            except ArchiveError:
                raise ArchiveError(f"{self.path}: no archive there yet, and it cannot be created "
                                   "(run capsule-capture sync or import where it can)") from None
        self.env = self._open(readonly)
        for name in ("data.mdb", "lock.mdb"):
            private_file(self.path / name)
        try:
            for name in DBS:
                setattr(self, name, self._db(name.encode()))
            self.terms = self._db(b"terms", dupsort=True, dupfixed=True)
        except lmdb.Error as e:
            self.env.close()
            raise DamagedArchive(f"{data}: {e}; {DAMAGED_HINT}") from None

    def _create(self, default: bool) -> None:
        """The archive folder (and the data home when it is ours to make), 0700."""
        try:
            if default:
                private_dir(self.path.parent)
            private_dir(self.path)
        except OSError as e:
            raise ArchiveError(f"cannot create the archive folder: {describe_oserror(e)}") from None

    def _open(self, readonly: bool) -> "lmdb.Environment":
        kw = dict(map_size=MAP_SIZE, max_dbs=16, subdir=True, metasync=True, sync=True, max_readers=256,
                  mode=0o600, create=not readonly)
        try:
            if readonly:
                try:
                    return lmdb.open(str(self.path), readonly=True, lock=True, **kw)
                except lmdb.Error as e:
                    if "ermission" not in str(e) and "ead-only" not in str(e):
                        raise
                    # a folder we may read but not write (backup media, another user's share):
                    # read without the lock file; no writer can be running there
                    return lmdb.open(str(self.path), readonly=True, lock=False, **kw)
            if self.path.exists() and not os.access(self.path, os.W_OK):
                raise ArchiveError(f"{self.path}: the archive folder is not writable "
                                   "(read commands still work: list, show, search, export)")
            return lmdb.open(str(self.path), lock=True, **kw)
        except lmdb.Error as e:
            raise ArchiveError(f"{self.path}: cannot open the archive ({_lmdb_reason(e)})") from None

    def _db(self, name: bytes, **kw: Any) -> Any:
        if self.readonly:
            try:
                return self.env.open_db(name, create=False, **kw)
            except lmdb.NotFoundError:
                return None  # an archive written before this table existed
        return self.env.open_db(name, **kw)

    def close(self) -> None:
        self.env.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ------------------------------------------------------------
    def write(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run fn(txn, *args) in one write transaction, doubling the map if it fills.

        Any exception (Ctrl-C, SIGTERM raised as an exception by the CLI, a full
        disk) aborts the transaction: the archive stays as it was before it."""
        if self.readonly:
            raise ArchiveError("the archive was opened read-only")
        while True:
            try:
                with self.env.begin(write=True) as txn:
                    return fn(txn, *args)
            except lmdb.MapFullError:
                self.env.set_mapsize(self.env.info()["map_size"] * 2)

    def put(self, txn: lmdb.Transaction, conv: Conversation, old: Conversation | None = None) -> bool:
        """Write `conv` (replacing `old`, its archived version). Returns False, writing
        nothing, for a conversation without turns (a shell, vim, cat recorded: the
        recording stays, the archive holds conversations) and for one the user deleted
        that brings no turn it did not already have (its tombstone).

        A record that does not fit the schema (a provider let a number through
        where text belongs) is repaired or its bad turns dropped here, so that
        nothing written can fail to decode later."""
        raws = [t.raw for t in conv.turns]
        bare = msgspec.structs.replace(conv, turns=[msgspec.structs.replace(t, raw=None) for t in conv.turns])
        try:
            packed = _enc.encode(bare)
            _conv_dec.decode(packed)
            if not all(r is None or isinstance(r, bytes) for r in raws):
                raise TypeError("raw")
        except (msgspec.ValidationError, TypeError, ValueError, OverflowError):
            conv, _ = checked(conv)
            raws = [t.raw for t in conv.turns]
            bare = msgspec.structs.replace(conv, turns=[msgspec.structs.replace(t, raw=None) for t in conv.turns])
            packed = _enc.encode(bare)
        if not conv.turns:
            return False
        cid = conv.id.encode()
        if self.tombs is not None:
            tomb = txn.get(cid, db=self.tombs)
            if tomb is not None:
                if {t.key for t in conv.turns} <= set(_tomb_dec.decode(tomb).keys):
                    return False
                txn.delete(cid, db=self.tombs)  # it has grown since: new content comes back
        if old is not None:
            self._unindex(txn, old)
        txn.put(cid, zlib.compress(packed, 6), db=self.conv)
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
        return True

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
        """Remove `conv` from the records and every index (a screen capture merged into a
        native one, or a conversation the user deletes)."""
        self._unindex(txn, conv)
        cid = conv.id.encode()
        for db in (self.conv, self.raw, self.meta):
            txn.delete(cid, db=db)
        got = txn.get(cid, db=self.docno)
        if got:
            txn.delete(got, db=self.docs)
            txn.delete(cid, db=self.docno)

    def forget(self, txn: lmdb.Transaction, cid: str) -> Conversation | None:
        """The user's delete: remove the conversation and leave a tombstone so a sync of
        the same, unchanged source does not bring it back. The tombstone holds the turn
        keys and the sources with their size and mtime at deletion."""
        try:
            conv = self.get_in(txn, cid, raw=False)
        except (zlib.error, msgspec.DecodeError, msgspec.ValidationError):
            # a damaged record (see doctor): drop it and what is keyed by its id; the
            # postings it had are left for `doctor --repair` (they cannot be derived)
            key = cid.encode()
            for db in (self.conv, self.raw, self.meta, self.docno):
                txn.delete(key, db=db)
            txn.drop(self.sources, delete=False)  # its sources are unknown: the next sync reads all again
            return Conversation(id=cid, agent="?")
        if conv is None:
            return None
        self.delete(txn, conv)
        tomb = Tombstone(keys=sorted({t.key for t in conv.turns}),
                         sources=[[s.path] + list(_fingerprint(s.path)) for s in conv.sources])
        txn.put(cid.encode(), _enc.encode(tomb), db=self.tombs)
        return conv

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
            if not out:  # a recording's id after its capture merged into a native conversation
                to = txn.get(ALIAS + prefix.encode(), db=self.info)
                if to and txn.get(to, db=self.conv):
                    return [to.decode()]
        return out

    def set_alias(self, txn: lmdb.Transaction, old: str, new: str) -> None:
        """`old` (a recording's id, printed by `record`) now lives in conversation `new`."""
        if old != new:
            txn.put(ALIAS + old.encode(), new.encode(), db=self.info)

    def alias(self, txn: lmdb.Transaction, old: str) -> str | None:
        to = txn.get(ALIAS + old.encode(), db=self.info)
        return to.decode() if to else None

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
