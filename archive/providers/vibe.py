"""Mistral Vibe session stores, three generations of them.

- 3.x: `~/.vibe/logs/session/unified/<id>/`: `CURRENT` names the latest
  generation; its `manifest.json` lists the checkpoint's content-addressed
  chunks under `chunks/`, each a JSON list of `{message: {role, content}}`
  history entries (OpenAI-style roles; tool calls as content parts).
- 2.x: `session_<ts>_<id>/meta.json` + `messages.jsonl` (one message a line).
- 1.x: a single `session_*.json` with a `messages` list.
The 2.x and 1.x readers follow the format's documentation; the corpus only
has 3.x stores.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from archive.providers.base import BaseProvider, ParseResult, arr, iter_jsonl, obj
from archive.record import Conversation, Source, Turn, conversation_id, turn_key


class VibeProvider(BaseProvider):
    name = "vibe"

    def discover(self, home: Path) -> Iterator[Path]:
        logs = home / ".vibe" / "logs" / "session"
        yield from sorted(p for p in (logs / "unified").glob("*") if (p / "CURRENT").exists())
        yield from sorted(p for p in logs.glob("session_*") if p.is_dir() and (p / "messages.jsonl").exists())
        yield from sorted(logs.glob("session_*.json"))

    def _parse(self, path: Path) -> ParseResult:
        res = ParseResult()
        try:
            if (path / "CURRENT").exists():
                msgs, meta = self._unified(path, res)
            elif path.is_dir():
                msgs = [m for _, _, m in iter_jsonl(path / "messages.jsonl", res)]
                meta = obj(_read_json(path / "meta.json", res))
            else:
                doc = obj(_read_json(path, res))
                msgs, meta = arr(doc.get("messages")), obj(doc.get("metadata") or doc)
        except OSError as e:
            res.skip(str(path), f"unreadable ({e})")
            return res
        turns: list[Turn] = []
        for i, entry in enumerate(msgs):
            m = entry.get("message", entry) if isinstance(entry, dict) else None
            if not isinstance(m, dict):
                res.skip(f"{path}#{i}", "not a message")
                continue
            with res.line(f"{path}#{i}", turns):
                turns.extend(_turns(m, i))
        if not turns:
            return res
        sid = meta.get("session_id") or path.name
        env = obj(meta.get("environment"))
        res.conversations.append(Conversation(
            id=conversation_id(self.name, sid), agent=self.name, native_id=sid, title=meta.get("title"),
            workspace=env.get("working_directory") or meta.get("origin_directory"),
            started_at=meta.get("start_time"), ended_at=meta.get("end_time"),
            sources=[Source("native", str(path))], turns=turns))
        return res

    def _unified(self, root: Path, res: ParseResult) -> tuple[list[Any], dict]:
        current = obj(_read_json(root / "CURRENT", res))
        gen = current.get("generation")
        if not isinstance(gen, (str, int)) or isinstance(gen, bool):
            res.skip(str(root / "CURRENT"), "unexpected shape (no generation)")
            return [], {}
        manifest = obj(_read_json(root / "generations" / str(gen) / "manifest.json", res))
        msgs: list[Any] = []
        for h in arr(obj(manifest.get("checkpoint")).get("chunks")):
            if not isinstance(h, str) or "/" in h:
                res.skip(f"{root}: chunk", "unexpected shape (chunk name)")
                continue
            chunk = _read_json(root / "chunks" / f"{h}.json", res)
            if isinstance(chunk, list):
                msgs.extend(chunk)
        return msgs, obj(_read_json(root / "meta.json", res))


def _read_json(path: Path, res: ParseResult) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
        res.skip(str(path), f"unreadable ({e})")
        return None


def _turns(m: dict[str, Any], i: int) -> list[Turn]:
    role = m.get("role")
    content = m.get("content")
    raw = json.dumps(m, ensure_ascii=False).encode()
    out: list[Turn] = []
    parts = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
    for j, p in enumerate(parts):
        if not isinstance(p, dict):
            continue
        key = turn_key(i, j)
        t = p.get("type")
        if t == "text" and p.get("text"):
            r = {"user": "user", "assistant": "assistant", "tool": "tool_result"}.get(role)
            if r:
                out.append(Turn(r, p["text"], key=key, raw=raw))
        elif t in ("tool_call", "function_call"):
            args = p.get("arguments")
            inp = args.get("value") if isinstance(args, dict) and "value" in args else args
            shown = inp.get("command") if isinstance(inp, dict) else None
            out.append(Turn("tool_call", str(shown or json.dumps(inp, ensure_ascii=False)), name=p.get("name"),
                            input=inp, key=key, raw=raw))
        elif t in ("reasoning", "thinking") and (p.get("text") or p.get("thinking")):
            out.append(Turn("thinking", p.get("text") or p.get("thinking"), key=key, raw=raw))
    for j, call in enumerate(m.get("tool_calls") or []):  # 1.x/2.x OpenAI-style
        fn = call.get("function") or {}
        try:
            inp = json.loads(fn.get("arguments") or "null")
        except json.JSONDecodeError:
            inp = fn.get("arguments")
        out.append(Turn("tool_call", json.dumps(inp, ensure_ascii=False), name=fn.get("name"), input=inp,
                        key=turn_key(i, "call", j), raw=raw))
    return out


PROVIDER = VibeProvider()
