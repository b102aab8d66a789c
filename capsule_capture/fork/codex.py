"""Codex fork writer: `<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<time>-<new id>.jsonl`.

What Codex 0.169.0 needs to resume a session by id (checked against the real
CLI: `codex exec resume ID` with nothing else in CODEX_HOME): a rollout file
whose name ends in the id and whose first line is a `session_meta` carrying
that id and the working directory; the history it sends the model is rebuilt
from the `response_item` lines. The state databases (`state_5.sqlite`,
`thread_history_1.sqlite`) are back-filled by Codex itself from the rollout,
so they are not written. The archive keeps the turn lines, not the
`session_meta` line, so that one line is made from the archived conversation's
own fields (id, cwd, CLI version); so are the `event_msg` lines Codex draws a
resumed session's messages from and lists sessions by (`user_message`,
`agent_message`: see `_display_event`). Every other line is the archived raw line,
with `ordinal` renumbered when the rollout numbers its lines, and bare
(pre-envelope) items wrapped in the current envelope. The fork is named in
`session_index.jsonl` (appended, as Codex does) so `codex resume`'s picker
shows where it came from.
"""
from __future__ import annotations

import json
import os
import secrets
import shlex
import time
from datetime import datetime, timezone
from pathlib import Path

from archive.record import Conversation
from capsule_capture.fork import ForkError, Forked, make_private_dirs, replace_strings, write_new_file

ORIGINATOR = "codex_cli_rs"


def codex_home(home: Path | None) -> Path:
    """`--home DIR` -> DIR/.codex; else $CODEX_HOME; else ~/.codex."""
    if home is not None:
        return Path(home) / ".codex"
    env = os.environ.get("CODEX_HOME")
    return Path(env).expanduser() if env else Path.home() / ".codex"


def uuid7() -> str:
    """A UUIDv7 (time-ordered), the kind Codex gives its threads."""
    ms = int(time.time() * 1000)
    rand = int.from_bytes(secrets.token_bytes(10), "big")
    n = (ms << 80) | (0x7 << 76) | ((rand >> 64) & 0xFFF) << 64 | (0b10 << 62) | (rand & ((1 << 62) - 1))
    h = f"{n:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _stamp(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def rewrite(conv: Conversation, lines: list[bytes], new: str, now: datetime) -> list[bytes]:
    objs = []
    for raw in lines:
        try:
            d = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ForkError("an archived Codex line is not JSON: the archive is damaged")
        if not isinstance(d, dict):
            raise ForkError("an archived Codex line is not a JSON object: the archive is damaged")
        if "payload" not in d:  # the bare, pre-envelope format
            d = {"timestamp": d.get("timestamp") or _stamp(now), "type": "response_item", "payload": d}
        objs.append(d)
    mapping = {conv.native_id: new} if conv.native_id else {}
    objs = [replace_strings(d, mapping) for d in objs]
    meta: dict[str, object] = {"timestamp": _stamp(now)}
    numbered = any("ordinal" in d for d in objs)
    if numbered:
        meta["ordinal"] = 0
    meta["type"] = "session_meta"
    meta["payload"] = {"session_id": new, "id": new, "timestamp": _stamp(now), "cwd": conv.workspace or "",
                       "originator": ORIGINATOR, "cli_version": conv.agent_version or "", "source": "cli"}
    out: list[dict[str, object]] = [meta]
    for d in objs:
        out.append(d)
        shown = _display_event(d)
        if shown is not None:
            out.append(shown)
    if numbered:
        for i, d in enumerate(out):
            d["ordinal"] = i
    return [json.dumps(d, ensure_ascii=False, separators=(",", ":")).encode("utf-8") for d in out]


def _display_event(d: dict[str, object]) -> dict[str, object] | None:
    """The `event_msg` Codex shows a message from (and lists a session by), for a message line.

    Codex sends the model the `response_item` lines but draws the resumed
    screen, and finds sessions for `codex resume`'s picker and `--last`, from
    `event_msg` lines (`user_message`, `agent_message`); the archive keeps no
    event lines, so one is made from each archived message's own text."""
    p = d.get("payload")
    if d.get("type") != "response_item" or not isinstance(p, dict) or p.get("type") != "message":
        return None
    role = p.get("role")
    if role not in ("user", "assistant"):
        return None
    content = p.get("content")
    parts = content if isinstance(content, list) else [{"text": content}] if isinstance(content, str) else []
    text = "".join(x["text"] for x in parts if isinstance(x, dict) and isinstance(x.get("text"), str))
    body: dict[str, object] = ({"type": "user_message", "message": text, "images": []} if role == "user"
                               else {"type": "agent_message", "message": text})
    return {"timestamp": d.get("timestamp"), "type": "event_msg", "payload": body}


def write(conv: Conversation, lines: list[bytes], home: Path | None) -> Forked:
    if not conv.workspace:
        raise ForkError(f"conversation {conv.id} names no working directory: Codex needs one to resume")
    new = uuid7()
    now = datetime.now(timezone.utc)
    out = rewrite(conv, lines, new, now)
    root = codex_home(home)
    local = now.astimezone()
    path = root / "sessions" / local.strftime("%Y/%m/%d") / f"rollout-{local.strftime('%Y-%m-%dT%H-%M-%S')}-{new}.jsonl"
    write_new_file(path, b"".join(line + b"\n" for line in out))
    _name_in_index(root, new, f"fork of {conv.title or conv.native_id or conv.id}"[:120], now)
    return Forked("codex", new, str(path), f"cd {shlex.quote(conv.workspace)} && codex resume {new}", conv.workspace)


def _name_in_index(root: Path, new: str, name: str, now: datetime) -> None:
    """Append the fork's name to session_index.jsonl (one O_APPEND write: safe next to a running Codex)."""
    path = root / "session_index.jsonl"
    make_private_dirs(root)
    line = json.dumps({"id": new, "thread_name": name,
                       "updated_at": now.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}, ensure_ascii=False) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)
