"""Errors the archive raises for the CLI to print as one line.

The archive layer cannot import the CLI's UserError (layering), so it has
its own: `ArchiveError` carries a message meant for a person and an exit
code; `describe()` turns the errors that come from below us (lmdb, the
filesystem) into the same kind of one line.
"""
from __future__ import annotations

import errno
import os


class ArchiveError(Exception):
    """A problem with the archive itself, told in one line (exit code `code`)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


class DamagedArchive(ArchiveError):
    """The archive file is not a whole LMDB environment: never opened, never rewritten."""


def describe_oserror(e: OSError) -> str:
    """`path: reason` (the reason as the OS words it), plus a hint for the common cases."""
    where = e.filename if e.filename is not None else ""
    reason = e.strerror or str(e)
    hint = ""
    if e.errno in (errno.EROFS,):
        hint = " (read-only file system)" if "read-only" not in reason.lower() else ""
    elif e.errno == errno.ENOSPC:
        hint = " (free some space and run the command again; nothing archived was lost)"
    elif e.errno in (errno.EACCES, errno.EPERM) and where:
        hint = f" (check the permissions of {os.path.dirname(os.fspath(where)) or where})"
    return f"{where}: {reason}{hint}" if where else f"{reason}{hint}"


class Terminated(BaseException):
    """SIGTERM, raised where Python code runs so open transactions abort (like Ctrl-C)."""


def raise_on_sigterm() -> None:
    """Make SIGTERM raise Terminated in the main thread (no-op elsewhere)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def handler(signum: int, frame: object) -> None:
        raise Terminated()

    signal.signal(signal.SIGTERM, handler)


def one_line(e: BaseException) -> tuple[str, int] | None:
    """(message, exit code) for the errors a command may meet in the archive or on
    disk; None for anything else (a bug, which should show its traceback)."""
    if isinstance(e, ArchiveError):
        return str(e), e.code
    if isinstance(e, OSError):
        return describe_oserror(e), 1
    import sys
    lmdb = sys.modules.get("lmdb")
    if lmdb is not None and isinstance(e, lmdb.Error):
        text = str(e)
        text = text.split(": ", 1)[1] if text.startswith("mdb_") and ": " in text else text
        if isinstance(e, (lmdb.CorruptedError, lmdb.PageNotFoundError, lmdb.InvalidError, lmdb.BadValsizeError, lmdb.BadTxnError,
                          lmdb.PanicError)):
            return f"the archive is damaged ({text}); run `capsule-capture doctor`", 1
        return f"archive error: {text}", 1
    import zlib
    msgspec = sys.modules.get("msgspec")
    if isinstance(e, zlib.error) or (msgspec is not None and isinstance(e, (msgspec.DecodeError,
                                                                          msgspec.ValidationError))):
        return f"an archived record does not decode ({e}); run `capsule-capture doctor`", 1
    return None
