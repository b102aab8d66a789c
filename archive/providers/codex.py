"""Codex CLI: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`.

Current versions wrap each record as `{timestamp, type, payload}` with
types session_meta, response_item, event_msg, turn_context, compacted;
older ones wrote the items bare. Both are read. Context blocks injected as
user messages (`<environment_context>`, `<user_instructions>`, ...) and
developer messages are not prompts.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from archive.providers.base import BaseProvider, ParseResult, iter_jsonl, need_obj
from archive.record import Conversation, Source, Turn, conversation_id, turn_key


#: what Codex sends the model for a command run with `!` in the composer
USER_SHELL = re.compile(r"\s*<user_shell_command>\n<command>\n(?P<cmd>.*?)\n</command>\n<result>\n"
                        r"(?:.*?\nOutput:\n(?P<out>.*?))?\n?</result>\n</user_shell_command>\s*$", re.S)


def _parts_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    out = []
    for part in content or []:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            out.append(part["text"])
    return "\n".join(out)


class CodexProvider(BaseProvider):
    name = "codex"

    def discover(self, home: Path) -> Iterator[Path]:
        yield from sorted((home / ".codex" / "sessions").glob("**/rollout-*.jsonl"))

    def _parse(self, path: Path) -> ParseResult:
        res = ParseResult()
        turns: list[Turn] = []
        session = path.stem.split("-", 6)[-1] if path.stem.count("-") >= 6 else path.stem
        cwd = version = started = ended = None
        model = None
        for n, raw, d in iter_jsonl(path, res):
            with res.line(f"{path}:{n}", turns):
                ts = d.get("timestamp")
                if ts:
                    started = started or ts
                    ended = ts
                kind, p = (d.get("type"), d.get("payload")) if "payload" in d else ("response_item", d)
                p = need_obj(p, "payload")
                if kind == "session_meta":
                    session = p.get("id") or session
                    cwd = p.get("cwd") or cwd
                    version = p.get("cli_version") or version
                    continue
                if kind == "turn_context":
                    model = p.get("model") or model
                    cwd = p.get("cwd") or cwd
                    continue
                if kind != "response_item":
                    continue
                t = p.get("type")
                key = turn_key(n)
                if t == "message":
                    role = p.get("role")
                    text = _parts_text(p.get("content"))
                    if role == "user":
                        m = USER_SHELL.match(text)
                        if m:
                            # `!cmd` in the composer: a command the user ran, sent to the model with its output
                            cmd = m.group("cmd")
                            turns.append(Turn("user", "!" + cmd, ts=ts, key=key, raw=raw))
                            turns.append(Turn("tool_call", cmd, name="shell", input={"command": cmd}, ts=ts,
                                              key=turn_key(n, "call"), raw=raw))
                            turns.append(Turn("tool_result", m.group("out") or "", ts=ts, key=turn_key(n, "out"),
                                              raw=raw))
                            continue
                        if text.lstrip().startswith("<") and text.rstrip().endswith(">"):
                            continue  # injected context, not a prompt
                        turns.append(Turn("user", text, ts=ts, key=key, raw=raw))
                    elif role == "assistant":
                        turns.append(Turn("assistant", text, ts=ts, model=model, key=key, raw=raw))
                elif t in ("function_call", "custom_tool_call", "local_shell_call"):
                    args = p.get("arguments") if t == "function_call" else p.get("input") or p.get("action")
                    try:
                        inp = json.loads(args) if isinstance(args, str) else args
                    except json.JSONDecodeError:
                        inp = args
                    shown = inp.get("cmd") or inp.get("command") if isinstance(inp, dict) else inp
                    if isinstance(shown, list):
                        shown = " ".join(map(str, shown))
                    turns.append(Turn("tool_call", str(shown or ""), name=p.get("name") or t, input=inp, ts=ts,
                                      model=model, key=key, raw=raw))
                elif t in ("function_call_output", "custom_tool_call_output"):
                    out = p.get("output")
                    if isinstance(out, dict):
                        out = out.get("content") or json.dumps(out, ensure_ascii=False)
                    turns.append(Turn("tool_result", str(out or ""), ts=ts, key=key, raw=raw))
                elif t == "reasoning":
                    summ = "\n".join(s.get("text", "") for s in p.get("summary") or [] if isinstance(s, dict))
                    if summ:
                        turns.append(Turn("thinking", summ, ts=ts, key=key, raw=raw))
        if turns:
            res.conversations.append(Conversation(
                id=conversation_id(self.name, session), agent=self.name, native_id=session,
                agent_version=version, workspace=cwd, started_at=started, ended_at=ended,
                title=next((t.text[:80] for t in turns if t.role == "user"), None),
                sources=[Source("native", str(path))], turns=turns))
        return res


PROVIDER = CodexProvider()
