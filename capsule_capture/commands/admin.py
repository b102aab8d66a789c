"""Looking after the archive: `doctor`, `backup`, `delete`.

- `doctor` checks the data file before opening it, then every record and
  every index against the records; it says what is wrong and what to do,
  and `--repair` rebuilds the indexes from the records (never the records).
- `backup DIR` writes a compacted copy with LMDB's own copy (a consistent
  snapshot taken inside a read transaction: syncs may run meanwhile).
- `delete ID...` removes conversations and leaves a tombstone, so a sync
  of the same unchanged source does not bring them back; it asks first,
  and without a terminal to ask on it needs --yes.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from capsule_capture.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("doctor", help="check the archive (records and indexes) and say what to do")
    p.add_argument("--archive", metavar="DIR", help="the archive folder to check (default: the data home's)")
    p.add_argument("--repair", action="store_true", help="rebuild the indexes from the records")
    p.set_defaults(func=run_doctor)

    p = sub.add_parser("backup", help="write a compacted copy of the archive into DIR")
    p.add_argument("dir", metavar="DIR", help="a new or empty folder")
    p.set_defaults(func=run_backup)

    p = sub.add_parser("delete", help="remove conversations from the archive")
    p.add_argument("ids", nargs="+", metavar="ID", help="conversation ids or unique prefixes")
    p.add_argument("--yes", action="store_true", help="do not ask (needed without a terminal)")
    p.set_defaults(func=run_delete)


def _archive_dir(arg: str | None) -> Path:
    from archive.store import default_home
    return Path(arg).expanduser() if arg else default_home() / "archive"


RESTORE = "restore a backup (README: Backup and restore)"


def run_doctor(args: argparse.Namespace) -> int:
    from archive import doctor
    from archive.errors import DamagedArchive
    from archive.store import Store
    path = _archive_dir(args.archive)
    if not (path / "data.mdb").exists():
        print(f"no archive at {path} yet: nothing to check")
        return 0
    bad = doctor.check_file(path)
    if bad:
        print(f"{path / 'data.mdb'}: {bad}")
        print(f"what to do: {RESTORE}; or move {path} aside to start a new archive "
              "(`capsule-capture sync` then reads the agents' files again). The file was left as it is.")
        return 1
    try:
        store = Store(path, readonly=not args.repair)
    except DamagedArchive as e:
        print(f"{path / 'data.mdb'}: damaged: {str(e).split('; ')[0].split(': ', 1)[-1]}")
        print(f"what to do: {RESTORE}; or move {path} aside to start a new archive. The file was left as it is.")
        return 1
    with store:
        if args.repair:
            n, skipped = doctor.rebuild_indexes(store)
            print(f"rebuilt the indexes of {n} conversations")
        rep = doctor.check(store)
    if rep.damaged:
        print(f"{path / 'data.mdb'}: damaged: {rep.damaged}")
        print(f"what to do: {RESTORE}; before that, `capsule-capture export --all --format json -o DIR` "
              "may still copy out what reads.")
        return 1
    if rep.ok:
        print(f"{path}: {rep.conversations} conversations, every record decodes and the indexes agree")
        return 0
    print(f"{path}: {rep.conversations} conversations")
    for line in rep.bad_records[:20]:
        print(f"  record: {line}")
    if len(rep.bad_records) > 20:
        print(f"  ... and {len(rep.bad_records) - 20} more damaged records")
    for line in rep.index_problems[:20]:
        print(f"  index: {line}")
    if len(rep.index_problems) > 20:
        print(f"  ... and {len(rep.index_problems) - 20} more index problems")
    if rep.index_problems:
        print("what to do: `capsule-capture doctor --repair` rebuilds the indexes from the records")
    if rep.bad_records:
        print(f"what to do: {RESTORE}, or remove the damaged records with `capsule-capture delete ID...` "
              "(the next sync reads the agents' files again and restores those that still exist)")
    return 1


def run_backup(args: argparse.Namespace) -> int:
    import lmdb

    from archive import lmdbfile
    from archive.private import private_dir, private_file
    from archive.store import Store
    out = Path(args.dir).expanduser()
    if (out / "data.mdb").exists():
        raise UserError(f"{out} already holds a backup (data.mdb): give a new or empty folder")
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} is not a folder")
    with Store(readonly=True) as store:
        n = store.count()
        private_dir(out)
        old = os.umask(0o077)  # the copy is created 0600 from its first byte
        try:
            store.env.copy(str(out), compact=True)
        finally:
            os.umask(old)
    private_file(out / "data.mdb")
    try:
        lmdbfile.check(out / "data.mdb")
        env = lmdb.open(str(out), readonly=True, lock=False, max_dbs=16, subdir=True)
        try:
            with env.begin() as txn:
                got = txn.stat(env.open_db(b"conv", txn=txn, create=False))["entries"]
        finally:
            env.close()
    except (lmdbfile.BadDataFile, lmdb.Error) as e:
        raise UserError(f"the backup in {out} does not read back ({e}); keep the archive as it is", code=1)
    if got != n:
        raise UserError(f"the backup in {out} holds {got} conversations, the archive {n}", code=1)
    size = (out / "data.mdb").stat().st_size
    print(f"backed up {n} conversation{'s' if n != 1 else ''} to {out / 'data.mdb'} ({size:,} bytes)")
    return 0


def run_delete(args: argparse.Namespace) -> int:
    from archive.store import Store
    with Store() as store:
        ids: list[str] = []
        for ident in args.ids:
            found = store.resolve(ident)
            if not found:
                raise UserError(f"no conversation with id {ident!r}")
            if len(found) > 1:
                raise UserError(f"id prefix {ident!r} is ambiguous; give more characters")
            if found[0] not in ids:
                ids.append(found[0])
        with store.env.begin() as txn:
            rows = [store.row(txn, cid) or {"id": cid} for cid in ids]
        if not args.yes:
            if not sys.stdin.isatty():
                raise UserError("refusing to delete without asking: no terminal to ask on (add --yes)")
            for r in rows:
                print(f"  {r['id']}  {r.get('agent') or ''}  {(r.get('started_at') or '')[:19]}  "
                      f"{r.get('turns', '?')} turns  {r.get('title') or ''}")
            answer = input(f"Delete {len(rows)} conversation{'s' if len(rows) != 1 else ''} from the archive? "
                           "[y/N] ").strip().lower()
            if answer not in ("y", "yes"):
                print("nothing deleted")
                return 1
        gone = store.write(lambda txn: [cid for cid in ids if store.forget(txn, cid) is not None])
    print(f"deleted {len(gone)} conversation{'s' if len(gone) != 1 else ''} "
          "(a sync of their unchanged sources will not bring them back)")
    return 0
