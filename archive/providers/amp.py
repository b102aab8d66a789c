"""Amp: threads live on Amp's server. Locally there is
- the output of `amp --execute --stream-json` saved to a file: Claude-
  compatible `system`/`user`/`assistant`/`result` lines (vector `stream`);
- `~/.local/share/amp/threads/T-*.json` thread files where a version keeps
  them (`messages` with Anthropic-style content blocks);
- `~/.local/share/amp/history.jsonl`: the prompts typed, with their
  directory, and nothing else (a prompts-only record that the screen
  capture completes when both are merged).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from archive.providers.base import BaseProvider, ParseResult, iter_jsonl, need_obj, text_of
from archive.record import Conversation, Source, Turn, conversation_id, turn_key


class AmpProvider(BaseProvider):
    name = "amp"

    def discover(self, home: Path) -> Iterator[Path]:
        for p in sorted(home.glob("*.jsonl")):
            if _is_stream(p):
                yield p
        yield from sorted((home / ".local" / "share" / "amp" / "threads").glob("T-*.json"))
        hist = home / ".local" / "share" / "amp" / "history.jsonl"
        if hist.exists():
            yield hist

    def _parse(self, path: Path) -> ParseResult:
        if path.name == "history.jsonl":
            return self._history(path)
        if path.suffix == ".json":
            return self._thread(path)
        return self._stream(path)

    def _stream(self, path: Path) -> ParseResult:
        res = ParseResult()
        turns: list[Turn] = []
        sid = cwd = None
        names: dict[str, str] = {}
        for n, raw, d in iter_jsonl(path, res):
            with res.line(f"{path}:{n}", turns):
                sid = d.get("session_id") or sid
                if d.get("type") == "system":
                    cwd = d.get("cwd") or cwd
                    continue
                if d.get("type") not in ("user", "assistant"):
                    continue
                turns.extend(_blocks(d.get("type"), need_obj(d.get("message"), "message").get("content"), n, raw, "stream", names))
        if turns:
            sid = sid or path.stem
            res.conversations.append(Conversation(
                id=conversation_id(self.name, sid), agent=self.name, native_id=sid, workspace=cwd,
                title=next((t.text[:80] for t in turns if t.role == "user"), None),
                sources=[Source("stream", str(path))], turns=turns))
        return res

    def _thread(self, path: Path) -> ParseResult:
        res = ParseResult()
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
            res.skip(str(path), f"unreadable ({e})")
            return res
        turns: list[Turn] = []
        names: dict[str, str] = {}
        if not isinstance(doc, dict):
            res.skip(str(path), "not a JSON object")
            return res
        for i, m in enumerate(doc.get("messages") or []):
            if isinstance(m, dict):
                with res.line(f"{path}#{i}", turns):
                    turns.extend(_blocks(m.get("role"), m.get("content"), i, json.dumps(m).encode(), "native", names))
        if turns:
            sid = doc.get("id") or path.stem
            res.conversations.append(Conversation(
                id=conversation_id(self.name, sid), agent=self.name, native_id=sid, title=doc.get("title"),
                sources=[Source("native", str(path))], turns=turns))
        return res

    def _history(self, path: Path) -> ParseResult:
        """Prompts only, grouped by working directory."""
        res = ParseResult()
        by_cwd: dict[str, list[Turn]] = {}
        for n, raw, d in iter_jsonl(path, res):
            if isinstance(d.get("text"), str):
                cwd = d.get("cwd") if isinstance(d.get("cwd"), str) else ""
                by_cwd.setdefault(cwd, []).append(Turn("user", d["text"], key=turn_key(n), raw=raw))
        for cwd, turns in by_cwd.items():
            sid = f"history:{cwd}"
            res.conversations.append(Conversation(
                id=conversation_id(self.name, sid), agent=self.name, native_id=sid, workspace=cwd or None,
                title=turns[0].text[:80], sources=[Source("native", str(path))], turns=turns))
        return res


def _is_stream(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            first = json.loads(fh.readline() or b"{}")
    except (OSError, json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return False
    return isinstance(first, dict) and first.get("type") == "system" and str(first.get("session_id", "")).startswith("T-")


def _blocks(role: str | None, content: Any, n: int, raw: bytes, vector: str, names: dict[str, str]) -> list[Turn]:
    out: list[Turn] = []
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    for i, b in enumerate(content or []):
        if not isinstance(b, dict):
            continue
        t, key = b.get("type"), turn_key(n, i)
        if t == "text":
            out.append(Turn("user" if role == "user" else "assistant", b.get("text", ""), vector=vector, key=key, raw=raw))
        elif t == "tool_use":
            inp = b.get("input")
            names[b.get("id", "")] = b.get("name", "")
            shown = inp.get("command") or inp.get("filePattern") or inp.get("pattern") if isinstance(inp, dict) else None
            out.append(Turn("tool_call", str(shown or json.dumps(inp, ensure_ascii=False)), name=b.get("name"), input=inp,
                            vector=vector, key=key, raw=raw))
        elif t == "tool_result":
            c = b.get("content")
            text = c if isinstance(c, str) else text_of(c)
            try:
                obj = json.loads(text)
                if isinstance(obj, dict) and "output" in obj:
                    text = str(obj["output"])
            except (json.JSONDecodeError, TypeError):
                pass
            out.append(Turn("tool_result", text, name=names.get(b.get("tool_use_id", "")), is_error=b.get("is_error"),
                            vector=vector, key=key, raw=raw))
        elif t == "thinking":
            out.append(Turn("thinking", b.get("thinking", ""), vector=vector, key=key, raw=raw))
    return out


PROVIDER = AmpProvider()
