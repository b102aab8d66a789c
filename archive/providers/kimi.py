"""Kimi: the legacy kimi-cli tree `~/.kimi/sessions/<hash>/<id>/`
(`context.jsonl` the model context, `wire.jsonl` the UI events,
`state.json` the title) and Kimi Code's
`~/.kimi-code/sessions/<wd>/<id>/agents/<agent>/wire.jsonl`.

`context.jsonl` is preferred (OpenAI-style roles; `_`-prefixed roles are
bookkeeping); the wire log is read when it is all there is: `TurnBegin`
carries the prompt, `ContentPart` the answer text, `ToolCall`/`ToolResult`
the tools (written from the format's documentation: the corpus has no
Kimi Code store).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

from archive.providers.base import BaseProvider, ParseResult, iso, iter_jsonl, need_obj, obj, text_of
from archive.record import Conversation, Source, Turn, conversation_id, turn_key

INJECTED = re.compile(r"\s*<system(-reminder)?>")


class KimiProvider(BaseProvider):
    name = "kimi"

    def discover(self, home: Path) -> Iterator[Path]:
        for d in sorted((home / ".kimi" / "sessions").glob("*/*")):
            if (d / "context.jsonl").exists() or (d / "wire.jsonl").exists():
                yield d
        yield from sorted((home / ".kimi-code" / "sessions").glob("*/*/agents/*/wire.jsonl"))

    def _parse(self, path: Path) -> ParseResult:
        res = ParseResult()
        sid = path.name if path.is_dir() else path.parents[2].name
        title = None
        if path.is_dir():
            try:
                title = obj(json.loads((path / "state.json").read_text())).get("custom_title")
            except (OSError, json.JSONDecodeError, UnicodeDecodeError, RecursionError):
                pass
            ctx = path / "context.jsonl"
            turns = self._contexts(path, res) if ctx.exists() else self._wire(path / "wire.jsonl", res)
            source = ctx if ctx.exists() else path / "wire.jsonl"
        else:
            turns, source = self._wire(path, res), path
        times = self._times(path / "wire.jsonl" if path.is_dir() else path, res)
        if turns:
            res.conversations.append(Conversation(
                id=conversation_id(self.name, sid), agent=self.name, native_id=sid, title=title,
                started_at=times[0], ended_at=times[1], sources=[Source("native", str(source))], turns=turns))
        return res

    def _contexts(self, path: Path, res: ParseResult) -> list[Turn]:
        """The whole session across compactions: `/compact` moves the context
        to `context_N.jsonl` (N counting up) and starts `context.jsonl` with
        the summary and a copy of the last messages kept; the copies are read
        once, from the older file."""
        rotated = sorted(path.glob("context_*.jsonl"),
                         key=lambda p: int(p.stem.split("_")[1]) if p.stem.split("_")[1].isdigit() else -1)
        turns: list[Turn] = []
        for f in rotated + [path / "context.jsonl"]:
            part = self._context(f, res, tag="" if f.name == "context.jsonl" else f.stem)
            if turns:
                seen = {(t.role, t.text) for t in turns[-40:]}
                k = 0
                while k < len(part) and (part[k].role == "system" or (part[k].role, part[k].text) in seen):
                    k += 1  # the compaction summary and the kept copies
                part = part[k:]
            turns += part
        return turns

    def _context(self, path: Path, res: ParseResult, tag: str = "") -> list[Turn]:
        turns: list[Turn] = []
        for n, raw, d in iter_jsonl(path, res):
            with res.line(f"{path}:{n}", turns):
                role = d.get("role")
                key = turn_key(tag, n) if tag else turn_key(n)
                if role == "user":
                    text = text_of(d.get("content"))
                    # what Kimi itself puts in the user's place (a compaction summary, an
                    # afk-mode reminder) is wrapped in <system...> tags: not typed
                    kind = "system" if INJECTED.match(text) else "user"
                    turns.append(Turn(kind, text, key=key, raw=raw))
                elif role == "assistant":
                    parts = d.get("content") if isinstance(d.get("content"), list) else []
                    for part in parts:  # reasoning the model streamed (`reasoning_content`)
                        if isinstance(part, dict) and part.get("type") == "think" and isinstance(part.get("think"), str):
                            turns.append(Turn("thinking", part["think"], key=turn_key(tag, n, "think") if tag else turn_key(n, "think"), raw=raw))
                    text = text_of(d.get("content"))
                    if text:
                        turns.append(Turn("assistant", text, key=key, raw=raw))
                    for j, call in enumerate(d.get("tool_calls") or []):
                        fn = call.get("function") or {}
                        try:
                            inp = json.loads(fn.get("arguments") or "null")
                        except json.JSONDecodeError:
                            inp = fn.get("arguments")
                        shown = inp.get("command") if isinstance(inp, dict) else None
                        turns.append(Turn("tool_call", str(shown or json.dumps(inp, ensure_ascii=False)), name=fn.get("name"),
                                          input=inp, key=turn_key(tag, n, j) if tag else turn_key(n, j), raw=raw))
                elif role == "tool":
                    turns.append(Turn("tool_result", text_of(d.get("content")), key=key, raw=raw))
        return turns

    def _wire(self, path: Path, res: ParseResult) -> list[Turn]:
        turns: list[Turn] = []
        for n, raw, d in iter_jsonl(path, res):
            with res.line(f"{path}:{n}", turns):
                msg = need_obj(d["message"], "message") if d.get("message") is not None else {}
                t, p = msg.get("type"), msg.get("payload") or {}
                ts = iso(d.get("timestamp"))
                key = turn_key(n)
                if t == "TurnBegin":
                    turns.append(Turn("user", text_of(p.get("user_input")), ts=ts, key=key, raw=raw))
                elif t == "ContentPart" and p.get("type") == "text":
                    if turns and turns[-1].role == "assistant":
                        turns[-1].text += p.get("text", "")
                    else:
                        turns.append(Turn("assistant", p.get("text", ""), ts=ts, key=key, raw=raw))
                elif t == "ToolCall":
                    fn = p.get("function") or {}
                    turns.append(Turn("tool_call", str(fn.get("arguments") or ""), name=fn.get("name"), ts=ts, key=key, raw=raw))
                elif t == "ToolResult":
                    turns.append(Turn("tool_result", text_of((p.get("return_value") or {}).get("output")), ts=ts, key=key, raw=raw))
        return turns

    def _times(self, wire: Path, res: ParseResult) -> tuple[str | None, str | None]:
        if not wire.exists():
            return None, None
        first = last = None
        scratch = ParseResult()
        for _, _, d in iter_jsonl(wire, scratch):
            if isinstance(d.get("timestamp"), (int, float, str)) and d["timestamp"]:
                first = first or d["timestamp"]
                last = d["timestamp"]
        return iso(first), iso(last)


PROVIDER = KimiProvider()
