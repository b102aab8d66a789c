"""Private by default: folders we create are 0700, files 0600.

The archive holds every prompt and answer a user typed, often with paths,
secrets pasted by mistake and tool output: nothing of it should be readable
by other accounts on the machine. This is the bottom-layer helper every
writer uses (archive, recorder, exporters), so it imports nothing of ours.

Existing folders and files that are looser are tightened when they are
ours; anything we cannot change (a read-only mount, a file owned by someone
else) is left as it is: privacy is best effort there, never a crash.
"""
from __future__ import annotations

import os
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def tighten(path: str | os.PathLike[str], mode: int) -> None:
    """chmod `path` to `mode` when it is looser and ours; silently leave it otherwise."""
    try:
        st = os.stat(path)
        if st.st_uid == os.getuid() and (st.st_mode & 0o777) & ~mode:
            os.chmod(path, (st.st_mode & 0o777) & mode)
    except OSError:
        pass


def private_dir(path: str | os.PathLike[str]) -> Path:
    """Create `path` (and missing parents) as 0700 folders; tighten it if it exists.

    Only the folders this call creates, and `path` itself, are touched: a
    parent that already existed (a home, /tmp) keeps its mode.
    """
    p = Path(path)
    missing = []
    q = p
    while not q.exists():
        missing.append(q)
        if q.parent == q:
            break
        q = q.parent
    for d in reversed(missing):
        try:
            d.mkdir(mode=DIR_MODE)
        except FileExistsError:
            pass
        tighten(d, DIR_MODE)  # mkdir's mode is filtered by the umask; say it exactly
    tighten(p, DIR_MODE)
    return p


def private_file(path: str | os.PathLike[str]) -> Path:
    """Tighten an existing file we write to 0600 (after another library created it)."""
    tighten(path, FILE_MODE)
    return Path(path)


def open_private(path: str | os.PathLike[str], mode: str = "w", **kw):  # type: ignore[no-untyped-def]
    """open() for writing a new file created 0600 from the start (no window where it is 0644)."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if "a" in mode else os.O_TRUNC)
    fd = os.open(path, flags, FILE_MODE)
    tighten(path, FILE_MODE)
    return os.fdopen(fd, mode, **kw)
