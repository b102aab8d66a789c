"""Gemini CLI: `~/.gemini/tmp/<project>/chats/session-*.jsonl` (current) and
`session-*.json` (older: one JSON document). `logs.json` holds prompts only.

The JSONL is append-only: a message can be written again with more fields
(its tool calls, once they finish) under the same id, and `$set` lines
update session metadata; the last version of each id wins, in first-seen
order. A `$set` of `messages` is the model's history set again (at start:
the session context; after a refused tool: the whole history copied under
new ids, the copies appended just before it): the messages it lists are
never turns of their own.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from archive.providers.base import BaseProvider, ParseResult, iter_jsonl, text_of
from archive.record import Conversation, Source, Turn, conversation_id, turn_key


# the session context Gemini sends first names the workspace
WORKSPACE = re.compile(r"Workspace Directories:\*\*\n\s*- (\S+)")
# the part that opens what the CLI adds to a prompt with `@path` mentions (the files' text)
REFERENCED = "--- Content from referenced files ---"
# what the CLI tells the model of a command the user ran in shell mode (`!`),
# stored as a user message: the command, then its output (or a note)
SHELL_MODE = re.compile(r"\AI ran the following shell command:\n```sh\n(?P<cmd>.*?)\n```"
                        r"(?:\n\nThis produced the following result:\n```\n(?P<out>.*)\n```|\n\n(?P<note>.*))?\s*\Z", re.S)


class GeminiProvider(BaseProvider):
    name = "gemini"

    def discover(self, home: Path) -> Iterator[Path]:
        chats = home / ".gemini" / "tmp"
        yield from sorted(chats.glob("*/chats/session-*.jsonl"))
        yield from sorted(chats.glob("*/chats/session-*.json"))

    def _parse(self, path: Path) -> ParseResult:
        res = ParseResult()
        meta: dict[str, Any] = {}
        messages: dict[str, tuple[dict, bytes]] = {}
        rewritten: set[str] = set()
        if path.suffix == ".json":
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
                res.skip(str(path), f"unreadable ({e})")
                return res
            if not isinstance(doc, dict):
                res.skip(str(path), "not a JSON object")
                return res
            meta = {k: v for k, v in doc.items() if k != "messages"}
            for i, m in enumerate(doc.get("messages") or []):
                if isinstance(m, dict):
                    with res.line(f"{path}#{i}"):
                        messages[m.get("id") or str(i)] = (m, json.dumps(m, ensure_ascii=False).encode())
        else:
            for n, raw, d in iter_jsonl(path, res):
                with res.line(f"{path}:{n}"):
                    if "$set" in d and isinstance(d["$set"], dict):
                        meta.update({k: v for k, v in d["$set"].items() if k != "messages"})
                        for m in d["$set"].get("messages") or []:
                            ws = WORKSPACE.search(text_of(m.get("content")) if isinstance(m, dict) else "")
                            if ws:
                                meta.setdefault("workspace", ws.group(1))
                            # the model's history as the CLI set it again (after a
                            # refused tool: every message so far, copied under new
                            # ids and appended just before): copies, not new turns
                            if isinstance(m, dict) and m.get("id"):
                                rewritten.add(m["id"])
                                messages.pop(m["id"], None)
                    elif "type" in d and "id" in d and d["id"] not in rewritten:
                        messages[d["id"]] = (d, raw)
                    elif "sessionId" in d:
                        meta.update(d)
        turns: list[Turn] = []
        for mid, (m, raw) in messages.items():
            with res.line(f"{path}#{mid}", turns):
                ts = m.get("timestamp")
                kind = m.get("type")
                if kind == "user":
                    content = m.get("content")
                    if isinstance(content, list) and any(isinstance(p, dict) and "functionResponse" in p for p in content):
                        continue  # tool results are read from the call records below
                    if isinstance(content, list):
                        # an `@path` mention: the CLI appends the files' text as parts of
                        # its own, from a `--- Content from referenced files ---` part on
                        cut = next((i for i, p in enumerate(content) if isinstance(p, dict)
                                    and str(p.get("text", "")).strip() == REFERENCED), None)
                        content = content[:cut] if cut else content
                    text = text_of(content)
                    shell = SHELL_MODE.match(text)
                    if shell:
                        # a command run in shell mode (`!`), as the CLI tells the model of it:
                        # the user's command, the call and its output
                        cmd, out = shell.group("cmd"), shell.group("out")
                        turns += [Turn("user", cmd, ts=ts, key=turn_key(mid), raw=raw),
                                  Turn("tool_call", cmd, name="shell", input={"command": cmd}, ts=ts,
                                       key=turn_key(mid, "shell")),
                                  Turn("tool_result", out if out is not None else shell.group("note") or "", name="shell", ts=ts, key=turn_key(mid, "shell", "out"))]
                    elif text.startswith("/") and len(text.split()) == 1:
                        # a command name the CLI does not know is sent on as typed; a
                        # prompt that merely opens with `/` (a path, `/sailplan for …`) is the user's
                        turns.append(Turn("system", text, ts=ts, key=turn_key(mid), raw=raw))
                    elif text:
                        turns.append(Turn("user", text, ts=ts, key=turn_key(mid), raw=raw))
                elif kind == "gemini":
                    for th in m.get("thoughts") or []:
                        if isinstance(th, dict) and (th.get("description") or th.get("subject")):
                            turns.append(Turn("thinking", th.get("description") or th.get("subject"), ts=ts,
                                              key=turn_key(mid, "th", th.get("subject"))))
                    if m.get("content"):
                        turns.append(Turn("assistant", text_of(m["content"]), ts=ts, model=m.get("model"),
                                          key=turn_key(mid), raw=raw))
                    for call in m.get("toolCalls") or []:
                        if not isinstance(call, dict):
                            continue
                        args = call.get("args")
                        shown = args.get("command") or args.get("file_path") or args.get("path") if isinstance(args, dict) else None
                        turns.append(Turn("tool_call", str(shown or json.dumps(args, ensure_ascii=False)), name=call.get("name"),
                                          input=args, ts=call.get("timestamp") or ts, key=turn_key(mid, call.get("id"))))
                        out = _result_text(call.get("result"))
                        if out is not None:
                            turns.append(Turn("tool_result", out, name=call.get("name"),
                                              is_error=call.get("status") == "error", ts=call.get("timestamp") or ts,
                                              key=turn_key(mid, call.get("id"), "out")))
                elif kind in ("info", "error", "warning"):
                    text = text_of(m.get("content"))
                    if text:
                        turns.append(Turn("system", text, ts=ts, key=turn_key(mid), raw=raw))
        if not turns:
            return res
        sid = meta.get("sessionId") or path.stem
        res.conversations.append(Conversation(
            id=conversation_id(self.name, sid), agent=self.name, native_id=sid, workspace=meta.get("workspace") or meta.get("projectHash"),
            title=meta.get("summary") or next((t.text[:80] for t in turns if t.role == "user"), None), started_at=meta.get("startTime"), ended_at=meta.get("lastUpdated"),
            sources=[Source("native", str(path))], turns=turns))
        return res


def _result_text(result: Any) -> str | None:
    if not result:
        return None
    out = []
    for r in result if isinstance(result, list) else [result]:
        resp = (r.get("functionResponse") or {}).get("response") if isinstance(r, dict) else None
        if isinstance(resp, dict):
            out.append(str(resp.get("output") or resp.get("error") or json.dumps(resp, ensure_ascii=False)))
    return "\n".join(out) if out else None


PROVIDER = GeminiProvider()
