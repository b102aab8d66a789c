"""Checking an LMDB data file before it is mapped.

LMDB maps `data.mdb` and trusts it: a file cut short makes the first read
past its end a SIGBUS (the process dies with no message), and an empty
file is taken for a new environment and initialised, silently replacing
whatever the user thought was there. So before any open we read the two
meta pages ourselves and refuse a file that is empty, shorter than two
pages, without LMDB's magic, of another format version, or shorter than
the last page its newest meta page says is in use.

The layout (lmdb's mdb.c, 64-bit builds): a page starts with a 16-byte
header (mp_pgno u64, mp_pad u16, mp_flags u16, lower u16, upper u16);
pages 0 and 1 are meta pages (flag P_META 0x08) holding MDB_meta:
mm_magic u32 (0xBEEFC0DE), mm_version u32 (1), mm_address ptr,
mm_mapsize u64, mm_dbs[2] (48-byte MDB_db each; the free DB's md_pad is
the page size), mm_last_pg u64, mm_txnid u64. LMDB uses the meta with
the larger txnid.
"""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

MAGIC = 0xBEEFC0DE
VERSION = 1
P_META = 0x08
PAGEHDR = 16
_HDR = struct.Struct("<QHHHH")
_META = struct.Struct("<IIQQ")  # magic, version, address, mapsize
_PSIZE_AT = PAGEHDR + 24  # mm_dbs[FREE_DBI].md_pad
_LAST_AT = PAGEHDR + 24 + 2 * 48  # mm_last_pg, then mm_txnid
_TAIL = struct.Struct("<QQ")


@dataclass
class Meta:
    psize: int
    mapsize: int
    last_pg: int
    txnid: int


class BadDataFile(Exception):
    """What is wrong with the file, in words."""


def _meta_at(buf: bytes, off: int) -> Meta | None:
    if len(buf) < off + _LAST_AT + _TAIL.size:
        return None
    _pgno, _pad, flags, _lo, _up = _HDR.unpack_from(buf, off)
    magic, version, _addr, mapsize = _META.unpack_from(buf, off + PAGEHDR)
    if magic != MAGIC or not flags & P_META:
        return None
    if version != VERSION:
        raise BadDataFile(f"LMDB data format version {version} (this build reads {VERSION})")
    psize = struct.unpack_from("<I", buf, off + _PSIZE_AT)[0]
    last_pg, txnid = _TAIL.unpack_from(buf, off + _LAST_AT)
    return Meta(psize, mapsize, last_pg, txnid)


def check(data_file: Path) -> Meta | None:
    """None when there is no data file yet (a new archive); the newest meta when the
    file is whole; BadDataFile when it is damaged. Reads 2 pages, maps nothing."""
    try:
        size = os.path.getsize(data_file)
    except FileNotFoundError:
        return None
    if size == 0:
        raise BadDataFile("the archive file is empty (0 bytes)")
    with open(data_file, "rb") as fh:
        head = fh.read(4096)
        first = _meta_at(head, 0)
        if first is None:
            raise BadDataFile("the archive file does not start with an LMDB meta page (bad magic)")
        if first.psize < 512 or first.psize > 65536 or first.psize & (first.psize - 1):
            raise BadDataFile(f"the archive's page size {first.psize} is not a power of two in 512..65536")
        if size < 2 * first.psize:
            raise BadDataFile(f"the archive file is cut short ({size} bytes, less than its two meta pages)")
        fh.seek(first.psize)
        second = _meta_at(fh.read(first.psize), 0)
        if second is None:
            raise BadDataFile("the archive's second meta page is damaged (bad magic)")
        # (sized again after the meta pages are read: another process may have
        # committed in between, growing the file before it wrote the newer meta,
        # so only a size taken after the metas can be held against them)
        size = os.fstat(fh.fileno()).st_size
    newest = max((first, second), key=lambda m: m.txnid)
    need = (newest.last_pg + 1) * first.psize
    if size < need:
        raise BadDataFile(f"the archive file is cut short ({size} bytes; its last page in use ends at {need})")
    return newest
