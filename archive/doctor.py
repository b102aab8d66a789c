"""Checking the archive, and rebuilding its indexes from its records.

`check` reads everything: the data file's meta pages (before mapping it),
every record (each must decompress and decode against the schema, its raw
lines must match its turns), and every index against the records, both
ways: each conversation has its summary row, its time/agent/workspace
keys, its document number and its postings; each index entry points at a
conversation that exists. It says what is wrong and what to do.

`rebuild_indexes` drops every index table and re-derives them from the
records that decode, in one transaction (all or nothing). Records that do
not decode are listed for the user to delete or to restore from a backup:
we never guess at their content.
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import lmdb
import msgspec

from archive import lmdbfile
from archive.errors import ArchiveError
from archive.record import Conversation, summary
from archive.store import POSTING, Store, _conv_dec, _raw_dec, term_freqs

INDEX_DBS = ("meta", "by_time", "by_agent", "by_ws", "screen", "docno", "docs", "terms")


@dataclass
class Report:
    conversations: int = 0
    bad_records: list[str] = field(default_factory=list)  # ids whose record does not decode
    index_problems: list[str] = field(default_factory=list)
    damaged: str | None = None  # the file itself (cannot be opened / read through)

    @property
    def ok(self) -> bool:
        return not (self.bad_records or self.index_problems or self.damaged)

    def note(self, text: str) -> None:
        if len(self.index_problems) < 1000:
            self.index_problems.append(text)


def check_file(path: Path) -> str | None:
    """What is wrong with the data file before it is opened, or None."""
    try:
        lmdbfile.check(path / "data.mdb")
    except lmdbfile.BadDataFile as e:
        return str(e)
    except OSError as e:
        return f"cannot read it ({e.strerror})"
    return None


def check(store: Store) -> Report:
    rep = Report()
    try:
        with store.env.begin() as txn:
            _check_in(store, txn, rep)
    except lmdb.Error as e:
        rep.damaged = f"reading it failed ({e})"
    return rep


def _decode(store: Store, txn: Any, cid: str, data: bytes, rep: Report) -> Conversation | None:
    try:
        conv = _conv_dec.decode(zlib.decompress(data))
        rdata = txn.get(cid.encode(), db=store.raw)
        if rdata is not None:
            raws = _raw_dec.decode(zlib.decompress(rdata))
            if len(raws) != len(conv.turns):
                rep.bad_records.append(f"{cid}: {len(raws)} raw lines for {len(conv.turns)} turns")
                return None
        if conv.id != cid:
            rep.bad_records.append(f"{cid}: the record says it is {conv.id}")
            return None
        return conv
    except (zlib.error, msgspec.DecodeError, msgspec.ValidationError) as e:
        rep.bad_records.append(f"{cid}: does not decode ({e})")
        return None


_DB_NAMES: dict[int, str] = {}


def _check_in(store: Store, txn: Any, rep: Report) -> None:
    _DB_NAMES.update({id(store.by_time): "time", id(store.by_agent): "agent", id(store.by_ws): "workspace"})
    convs: dict[str, Conversation | None] = {}
    for key, data in txn.cursor(db=store.conv):
        cid = key.decode("utf-8", "replace")
        convs[cid] = _decode(store, txn, cid, data, rep)
    rep.conversations = len(convs)
    # records -> indexes
    docnos: dict[int, str] = {}
    for cid, conv in convs.items():
        if conv is None:
            continue
        meta = txn.get(cid.encode(), db=store.meta)
        try:
            row = msgspec.msgpack.decode(meta) if meta is not None else None
        except msgspec.DecodeError:
            row = "undecodable"
        if row != summary(conv):
            rep.note(f"{cid}: its list row is {'missing' if meta is None else 'out of date'}")
        if not conv.turns:
            rep.note(f"{cid}: holds no turns (an older version archived a session without a conversation)")
        for db, k in store._index_keys(conv):
            if txn.get(k, db=db) is None:
                rep.note(f"{cid}: missing from the {_DB_NAMES.get(id(db), 'an')} index")
        if conv.native_id is None and txn.get(conv.agent.encode() + b"\0" + cid.encode(), db=store.screen) is None:
            rep.note(f"{cid}: a screen capture missing from the merge index")
        got = txn.get(cid.encode(), db=store.docno)
        if got is None:
            rep.note(f"{cid}: has no document number (search cannot find it)")
            continue
        no = struct.unpack(">I", got)[0]
        docnos[no] = cid
        if txn.get(got, db=store.docs) != cid.encode():
            rep.note(f"{cid}: document number {no} does not point back at it")
        cur = txn.cursor(db=store.terms)
        missing = sum(1 for w, n in term_freqs(conv).items()
                      if not cur.set_key_dup(w.encode(), POSTING.pack(no, min(n, 255))))
        if missing:
            rep.note(f"{cid}: {missing} search terms missing from the keyword index")
    # indexes -> records
    for name, db in (("by_time", store.by_time), ("by_agent", store.by_agent), ("by_ws", store.by_ws)):
        for k in txn.cursor(db=db).iternext(values=False):
            cid = k.rsplit(b"\0", 1)[-1].decode("utf-8", "replace")
            if cid not in convs:
                rep.note(f"{name} index names {cid}, which is not archived")
    for k in txn.cursor(db=store.meta).iternext(values=False):
        if k.decode("utf-8", "replace") not in convs:
            rep.note(f"a list row names {k.decode('utf-8', 'replace')}, which is not archived")
    for k, v in txn.cursor(db=store.docs):
        if v.decode("utf-8", "replace") not in convs:
            rep.note(f"document number {struct.unpack('>I', k)[0]} names {v.decode('utf-8', 'replace')}, "
                     "which is not archived")
    orphans = 0
    for v in txn.cursor(db=store.terms).iternext(values=True, keys=False):
        no = POSTING.unpack(v)[0]
        if no not in docnos and txn.get(struct.pack(">I", no), db=store.docs) is None:
            orphans += 1
    if orphans:
        rep.note(f"{orphans} keyword postings point at no conversation")


def rebuild_indexes(store: Store) -> tuple[int, list[str]]:
    """Re-derive every index from the records that decode; returns (conversations
    indexed, ids whose record does not decode and were left as they are)."""
    def fn(txn: Any) -> tuple[int, list[str]]:
        rep = Report()
        records = []
        for key, data in txn.cursor(db=store.conv):
            cid = key.decode("utf-8", "replace")
            conv = _decode(store, txn, cid, data, rep)
            if conv is not None:
                records.append(cid)
        for name in INDEX_DBS:
            txn.drop(getattr(store, name), delete=False)
        txn.delete(b"next_docno", db=store.info)
        for cid in records:
            conv = store.get_in(txn, cid, raw=True)
            if conv is not None and not store.put(txn, conv):  # no turns: not a conversation
                txn.delete(cid.encode(), db=store.conv)
                txn.delete(cid.encode(), db=store.raw)
        return len(records), [b.split(":", 1)[0] for b in rep.bad_records]

    if store.readonly:
        raise ArchiveError("the archive was opened read-only")
    return store.write(fn)
