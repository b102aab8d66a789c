"""Export formats: one module per format, each exposing `export(store, ids, out) -> int`.

The `export` command lists what is here; a new format is a module plus one
line in `FORMATS`, so formats grow without touching the command or each other.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Protocol, Sequence

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


def exporter(fmt: str) -> Exporter:
    return importlib.import_module(FORMATS[fmt]).export  # type: ignore[no-any-return]
