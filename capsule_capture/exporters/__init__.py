"""Export formats: one module per format, each exposing `export(store, ids, out) -> int`.

The `export` command lists what is here; a new format is a module plus one
line in `FORMATS`, so formats grow without touching the command or each other.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Iterator, Protocol, Sequence

# format name -> module exposing `export(store, ids, out) -> int` and `HELP`
FORMATS: dict[str, str] = {
    "markdown": "capsule_capture.exporters.documents",
    "json": "capsule_capture.exporters.documents",
    "cast": "capsule_capture.exporters.cast",
    "notes": "capsule_capture.exporters.notes",
    "jsonl": "capsule_capture.exporters.jsonl",
}


class Exporter(Protocol):
    def __call__(self, store: object, ids: Sequence[str], out: Path, fmt: str) -> int: ...


def available() -> list[str]:
    """Formats whose module is present (a format still being built is left out)."""
    out = []
    for name, mod in FORMATS.items():
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name != mod:
                raise
            continue
        out.append(name)
    return out


def conversations(store, ids: Sequence[str]) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    """The archived conversations of `ids`; one deleted since the ids were read is passed over."""
    for cid in ids:
        conv = store.get(cid, raw=False)
        if conv is not None:
            yield conv


def write_private(path: Path, text: str) -> None:
    """Write `path` as a 0600 file in 0700 folders: what we export is as private as the archive."""
    from archive.private import open_private, private_dir
    private_dir(path.parent)
    with open_private(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def exporter(fmt: str) -> Exporter:
    return importlib.import_module(FORMATS[fmt]).export  # type: ignore[no-any-return]
