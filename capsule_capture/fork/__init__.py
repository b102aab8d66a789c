"""Forking an archived conversation at a turn into a new native session the agent can resume.

The fork is built from the archived RAW native lines (each turn keeps the
source's own line verbatim), not regenerated from the normalized turns: the
agent reads back exactly what it wrote, minus what came after turn N. Each
agent's session-format knowledge lives in its own module here
(`claude_code.py`, `codex.py`), next to nothing else.

"Turn N" counts prompts: turns 1..N are the first N prompts and everything the
agent did for each (answers, tool calls, results, thinking), the Nth one
included; local commands typed after the Nth answer are left out.
"""
from __future__ import annotations

import importlib
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from archive.record import Conversation, Turn
from capsule_capture.errors import UserError

# agent -> module exposing `write(conv, lines, home) -> Forked`
WRITERS = {
    "claude-code": "capsule_capture.fork.claude_code",
    "codex": "capsule_capture.fork.codex",
}
AGENT_ROLES = frozenset(("assistant", "tool_call", "tool_result", "thinking"))


class ForkError(UserError):
    """A conversation that cannot be forked; the message says why in one line."""


@dataclass
class Forked:
    agent: str
    session_id: str
    path: str
    resume: str
    workspace: str | None = None

    def as_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("workspace")
        return d


def turn_numbers(turns: list[Any]) -> list[int]:
    """Per turn, the number of the prompt it belongs to (0 before the first).
    Consecutive user blocks with one timestamp are one prompt (one line of the
    agent's file holding several text blocks); the same rule numbers turns for
    `read_conversation`, search hits, the exporters and `fork --at`."""
    out, n, prev = [], 0, None
    for t in turns:
        if t.role == "user" and not (prev is not None and prev.role == "user" and t.ts is not None
                                     and prev.ts == t.ts):
            n += 1
        out.append(n)
        prev = t
    return out


def native_turns(conv: Conversation) -> list[Turn]:
    """The turns that came from the agent's own file, each with its raw line.
    Refuses a conversation the archive holds no native line for, with the reason."""
    native = [t for t in conv.turns if t.vector == "native"]
    if not native:
        raise ForkError(f"conversation {conv.id} has no native session file (captured from the screen only): "
                        "nothing the agent could resume")
    if any(t.raw is None for t in native):
        raise ForkError(f"conversation {conv.id} was archived without its native lines: re-run capsule-capture "
                        "sync while the agent's files exist")
    return native


def prompt_count(conv: Conversation) -> int:
    return max(turn_numbers(native_turns(conv)), default=0)


def cut_at(native: list[Turn], n: int) -> list[bytes]:
    """The raw lines of turns 1..n, in order, each once: up to the last agent
    turn after the nth prompt (or the nth prompt itself when the agent never
    answered it). A line that also holds the next prompt is left out."""
    nums = turn_numbers(native)
    total = max(nums, default=0)
    if n < 1:
        raise ForkError(f"--at {n}: turns are counted from 1")
    if n > total:
        raise ForkError(f"--at {n}: the conversation has {total} prompt{'s' if total != 1 else ''}")
    last = max(i for i, k in enumerate(nums) if k == n and native[i].role == "user")
    for i, k in enumerate(nums):
        if k == n and native[i].role in AGENT_ROLES:
            last = max(last, i)
    lines: list[bytes] = []
    for t in native[:last + 1]:
        assert t.raw is not None
        # (a turn a provider read from several records keeps them all, a line each)
        for line in t.raw.split(b"\n"):
            if not lines or lines[-1] != line:
                lines.append(line)
    after = native[last + 1].raw if last + 1 < len(native) else None
    if after is not None and after.split(b"\n")[0] == lines[-1]:
        lines.pop()
    return lines


def fork(conv: Conversation, n: int, home: Path | None = None) -> Forked:
    """Write a new native session holding turns 1..n of `conv` under `home`
    (the agent's own store there); the original is only read."""
    mod = WRITERS.get(conv.agent)
    if mod is None:
        known = ", ".join(WRITERS)
        raise ForkError(f"forking {conv.agent} sessions is not supported (supported: {known})")
    lines = cut_at(native_turns(conv), n)
    writer = importlib.import_module(mod)
    return writer.write(conv, lines, home)  # type: ignore[no-any-return]


def make_private_dirs(path: Path) -> None:
    """mkdir -p where every folder we create is 0700 (the team's one helper for it)."""
    from archive.private import private_dir
    private_dir(path)


def write_new_file(path: Path, data: bytes) -> None:
    """Create `path` (0600, never overwriting anything) and write it whole, fsynced."""
    make_private_dirs(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def replace_strings(obj: Any, mapping: dict[str, str]) -> Any:
    """`obj` with every string VALUE equal to a key of `mapping` replaced (ids
    appear as whole strings; text that merely mentions one is left alone)."""
    if isinstance(obj, str):
        return mapping.get(obj, obj)
    if isinstance(obj, list):
        return [replace_strings(v, mapping) for v in obj]
    if isinstance(obj, dict):
        return {k: replace_strings(v, mapping) for k, v in obj.items()}
    return obj
