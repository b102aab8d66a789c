"""Claude Code fork writer: `<config>/projects/<encoded cwd>/<new session id>.jsonl`.

Claude Code rebuilds a conversation by walking `parentUuid` back from the
last line, so the chain must stay whole: every `uuid` gets a new one (mapped
consistently wherever the old one appears as a value), and a `parentUuid`
pointing at a line the archive did not keep (attachments, `system` lines,
snapshots: none of them turns) is re-linked to the previous kept line, which
is where the agent's own chain would have led through them. `sessionId`
becomes the new id on every line; message and request ids from the API stay.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import uuid
from pathlib import Path

from archive.record import Conversation
from capsule_capture.fork import ForkError, Forked, replace_strings, write_new_file

_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")
CHAIN_KEYS = ("parentUuid", "logicalParentUuid")


def config_dir(home: Path | None) -> Path:
    """`--home DIR` -> DIR/.claude; else $CLAUDE_CONFIG_DIR; else ~/.claude."""
    if home is not None:
        return Path(home) / ".claude"
    env = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(env).expanduser() if env else Path.home() / ".claude"


def project_folder(cwd: str) -> str:
    """Claude Code's folder name for a working directory: every non-alphanumeric character a dash."""
    return _NOT_ALNUM.sub("-", cwd)


def rewrite(lines: list[bytes], new_session: str) -> tuple[list[bytes], str | None]:
    """New uuids throughout, the chain re-linked over lines the archive left out.
    Returns the lines and the working directory they name."""
    objs = []
    for raw in lines:
        try:
            d = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ForkError("an archived Claude Code line is not JSON: the archive is damaged")
        if not isinstance(d, dict):
            raise ForkError("an archived Claude Code line is not a JSON object: the archive is damaged")
        objs.append(d)
    mapping: dict[str, str] = {}
    for d in objs:
        for key in ("uuid", "promptId"):
            old = d.get(key)
            if isinstance(old, str) and old and old not in mapping:
                mapping[old] = str(uuid.uuid4())
        sid = d.get("sessionId")
        if isinstance(sid, str) and sid:
            mapping[sid] = new_session
    out: list[bytes] = []
    prev: str | None = None
    cwd = None
    for d in objs:
        old_parent = {k: d.get(k) for k in CHAIN_KEYS}
        d = replace_strings(d, mapping)
        d["sessionId"] = new_session
        for k, v in old_parent.items():
            if k in d and v is not None:
                # a parent the archive kept, else the line before (attachments, system lines are not kept)
                d[k] = mapping[v] if isinstance(v, str) and v in mapping else prev
        if isinstance(d.get("uuid"), str):
            prev = d["uuid"]
        cwd = d.get("cwd") if isinstance(d.get("cwd"), str) else cwd
        out.append(json.dumps(d, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    return out, cwd


def write(conv: Conversation, lines: list[bytes], home: Path | None) -> Forked:
    new = str(uuid.uuid4())
    out, cwd = rewrite(lines, new)
    cwd = conv.workspace or cwd
    if not cwd:
        raise ForkError(f"conversation {conv.id} names no working directory: Claude Code files sessions by it")
    path = config_dir(home) / "projects" / project_folder(cwd) / f"{new}.jsonl"
    write_new_file(path, b"".join(line + b"\n" for line in out))
    return Forked("claude-code", new, str(path), f"cd {shlex.quote(cwd)} && claude -r {new}", cwd)
