"""Finding the agents' own session stores under a home directory.

Each provider knows where its agent writes (`discover(home)`); this module
asks all of them (or one), tolerates unreadable folders, and fingerprints
what it found so a sync can pass over what it already read.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from archive.providers import all_providers, provider
from archive.providers.base import Provider


@dataclass
class Found:
    provider: Provider
    path: Path


def discover(home: Path, agent: str | None = None, problems: list[str] | None = None) -> list[Found]:
    """Every session store of every known agent (or of `agent`) under `home`."""
    provs = [provider(agent)] if agent else all_providers()
    found: list[Found] = []
    for p in provs:
        try:
            found.extend(Found(p, path) for path in p.discover(home))
        except OSError as e:
            if problems is not None:
                problems.append(f"{e.filename or home}: unreadable ({e.strerror})")
    return found


def agents_present(home: Path) -> dict[str, int]:
    """How many stores each agent has under `home`."""
    out: dict[str, int] = {}
    for f in discover(home):
        out[f.provider.name] = out.get(f.provider.name, 0) + 1
    return out


def fingerprint(path: Path) -> tuple[int, float]:
    """(size, mtime) of a file, or summed over a directory store (OpenCode's
    JSON tree, a Vibe or Kimi session folder)."""
    if path.is_file():
        st = path.stat()
        return st.st_size, st.st_mtime
    if not path.is_dir():
        path.stat()  # raises for a dangling link or a vanished path
    size, mtime = 0, 0.0
    for root, _dirs, files in os.walk(path):
        for f in files:
            try:
                st = os.stat(os.path.join(root, f))
            except OSError:
                continue
            size += st.st_size
            mtime = max(mtime, st.st_mtime)
    return size, mtime


ROOTS = (".claude/projects", ".codex/sessions", ".local/share/opencode", ".gemini/tmp", ".vibe/logs",
         ".kimi/sessions", ".kimi-code/sessions", ".local/share/amp")


def unreadable(home: Path, max_depth: int = 6) -> list[str]:
    """Folders under the agents' stores that cannot be listed, and links that
    lead nowhere: a sync names them instead of passing over them silently."""
    out: list[str] = []

    def walk(d: str, depth: int) -> None:
        try:
            entries = list(os.scandir(d))
        except OSError as e:
            out.append(f"{d}: unreadable directory ({e.strerror})")
            return
        for e in entries:
            if e.is_symlink():
                try:
                    os.stat(e.path)
                except OSError as err:
                    out.append(f"{e.path}: unreadable ({err.strerror})")
                    continue
            if depth < max_depth and e.is_dir(follow_symlinks=False):
                walk(e.path, depth + 1)

    for r in ROOTS:
        root = home / r
        if root.is_dir():
            walk(str(root), 0)
    return out
