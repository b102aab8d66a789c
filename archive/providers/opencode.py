"""OpenCode: the SQLite `~/.local/share/opencode/opencode.db` (tables
session, message, part) and the older JSON tree (`storage/session`,
`storage/message`, `storage/part`).

The database is opened read-only through a `file:…?mode=ro` URI so a
running OpenCode is never blocked; a damaged database is reported and
skipped.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Iterator

from archive.providers.base import BaseProvider, ParseResult, iso, obj
from archive.record import Conversation, Source, Turn, conversation_id, turn_key


class OpenCodeProvider(BaseProvider):
    name = "opencode"

    def discover(self, home: Path) -> Iterator[Path]:
        base = home / ".local" / "share" / "opencode"
        db = base / "opencode.db"
        if db.exists():
            yield db
        storage = base / "storage" / "session"
        if storage.is_dir():
            yield storage

    def _parse(self, path: Path) -> ParseResult:
        if path.is_dir():
            return self._parse_tree(path)
        res = ParseResult()
        try:
            con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            sessions = con.execute("select id, directory, title, version, time_created, time_updated "
                                   "from session order by time_created").fetchall()
            for sid, directory, title, version, t0, t1 in sessions:
                messages = con.execute("select id, data from message where session_id = ? order by time_created, id",
                                       (sid,)).fetchall()
                parts: dict[str, list[tuple[str, str]]] = {}
                for mid, pid, data in con.execute("select message_id, id, data from part where session_id = ? "
                                                  "order by time_created, id", (sid,)):
                    parts.setdefault(mid, []).append((pid, data))
                turns = []
                for mid, mdata in messages:
                    msg = _load(mdata, res, f"{path}:message {mid}")
                    if msg is None:
                        continue
                    parent = [_quiet_load(d) for _, d in parts.get(str(msg.get("parentID")), [])]
                    shell = msg.get("role") == "assistant" and _shell_mode(parent)
                    for pid, pdata in parts.get(mid, []):
                        with res.line(f"{path}:part {pid}"):
                            part = _load(pdata, res, f"{path}:part {pid}")
                            if part is not None:
                                turns.extend(_part_turns(msg, part, pid, pdata.encode("utf-8"), shell))
                if turns:
                    res.conversations.append(Conversation(
                        id=conversation_id(self.name, sid), agent=self.name, native_id=sid, agent_version=version,
                        title=title, workspace=directory, started_at=iso(t0), ended_at=iso(t1),
                        sources=[Source("native", str(path))], turns=turns))
            con.close()
        except sqlite3.DatabaseError as e:
            res.skip(str(path), f"unreadable SQLite database ({e})")
        return res

    def _parse_tree(self, sessions_dir: Path) -> ParseResult:
        res = ParseResult()
        storage = sessions_dir.parent
        for sfile in sorted(sessions_dir.glob("**/*.json")):
            s = _load_file(sfile, res)
            if not s or not isinstance(s.get("id"), str):
                continue
            sid = s["id"]
            turns: list[Turn] = []
            msgs = [m for m in (_load_file(f, res) for f in sorted((storage / "message" / sid).glob("*.json"))) if m]
            msgs.sort(key=_created)
            for m in msgs:
                if not isinstance(m.get("id"), str):
                    res.skip(f"{sfile}: message", "unexpected shape (no id)")
                    continue
                pdir = storage / "part" / m["id"]
                parent = [_quiet_load(f.read_text(encoding="utf-8", errors="replace"))
                          for f in sorted((storage / "part" / str(m.get("parentID"))).glob("*.json"))]
                shell = m.get("role") == "assistant" and _shell_mode(parent)
                for pf in sorted(pdir.glob("*.json")):
                    with res.line(str(pf), turns):
                        part = _load_file(pf, res)
                        if part:
                            turns.extend(_part_turns(m, part, pf.stem, pf.read_bytes(), shell))
            if turns:
                time = obj(s.get("time"))
                res.conversations.append(Conversation(
                    id=conversation_id(self.name, sid), agent=self.name, native_id=sid, agent_version=s.get("version"),
                    title=s.get("title"), workspace=s.get("directory"), started_at=iso(time.get("created")),
                    ended_at=iso(time.get("updated")), sources=[Source("native", str(sfile))], turns=turns))
        return res


def _created(m: dict[str, Any]) -> float:
    v = obj(m.get("time")).get("created")
    return v if isinstance(v, (int, float)) else 0


def _load(data: str, res: ParseResult, where: str) -> dict | None:
    try:
        d = json.loads(data)
    except (json.JSONDecodeError, TypeError, UnicodeDecodeError, RecursionError):
        res.skip(where, "malformed JSON")
        return None
    if not isinstance(d, dict):
        res.skip(where, "not a JSON object")
        return None
    return d


def _load_file(path: Path, res: ParseResult) -> dict | None:
    try:
        return _load(path.read_text(encoding="utf-8"), res, str(path))
    except (OSError, UnicodeDecodeError) as e:
        res.skip(str(path), f"unreadable ({e})")
        return None


def _quiet_load(data: str) -> dict | None:
    try:
        d = json.loads(data)
    except (json.JSONDecodeError, TypeError, RecursionError):
        return None
    return d if isinstance(d, dict) else None


def _shell_mode(parent_parts: list[dict | None]) -> bool:
    """A command typed in shell mode (`!` on an empty prompt) is stored as a
    user message holding only OpenCode's own synthetic text, answered by an
    assistant message holding the bash call: the model is not asked."""
    return bool(parent_parts) and all(p is not None and p.get("type") == "text" and p.get("synthetic")
                                      for p in parent_parts)


def _part_turns(msg: dict[str, Any], part: dict[str, Any], pid: str, raw: bytes,
                shell: bool = False) -> list[Turn]:
    role = msg.get("role")
    t = part.get("type")
    ts = iso((part.get("time") or {}).get("start") or (msg.get("time") or {}).get("created"))
    model = (msg.get("model") or {}).get("modelID") if isinstance(msg.get("model"), dict) else msg.get("modelID")
    key = turn_key(pid)
    if t == "text":
        if part.get("synthetic") or part.get("ignored"):
            return []
        text = part.get("text", "")
        if role == "user":
            text = text.rstrip()  # a paste's placeholder is typed with a space after it, sent along
        return [Turn("user" if role == "user" else "assistant", text, ts=ts, model=model, key=key, raw=raw)]
    if t == "reasoning":
        return [Turn("thinking", part.get("text", ""), ts=ts, model=model, key=key, raw=raw)]
    if t == "tool":
        state = part.get("state") or {}
        inp = state.get("input")
        shown = inp.get("command") or inp.get("filePath") or inp.get("pattern") if isinstance(inp, dict) else None
        out = [Turn("tool_call", str(shown or json.dumps(inp, ensure_ascii=False)), name=part.get("tool"), input=inp,
                    ts=ts, model=model, key=key, raw=raw)]
        if shell and part.get("tool") == "bash" and isinstance(inp, dict) and isinstance(inp.get("command"), str):
            # the user's turn is the command as typed after `!`
            out.insert(0, Turn("user", inp["command"], ts=ts, key=turn_key(pid, "typed")))
        if "output" in state or state.get("error"):
            out.append(Turn("tool_result", str(state.get("output") or state.get("error") or ""), name=part.get("tool"),
                            is_error=state.get("status") == "error", ts=ts, key=turn_key(pid, "out")))
        return out
    return []


PROVIDER = OpenCodeProvider()
