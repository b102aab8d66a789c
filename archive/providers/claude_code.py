"""Claude Code: `~/.claude/projects/<encoded-cwd>/<session>.jsonl`.

One line per event; `user`/`assistant` lines carry Anthropic messages
(text, tool_use, tool_result, thinking blocks). Sidechain lines belong to
subagents and are left out of the main thread; `isMeta` lines and local
command echoes (`<command-name>`, `<local-command-stdout>`) are not
prompts: they become system turns, and so do what the CLI writes in the
user's place (a background task's `<task-notification>`, `[Request interrupted
by user]`, a `/compact` summary). `summary`/`ai-title` lines give the title.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import msgspec

from archive.providers.base import BaseProvider, ParseResult, iter_jsonl, need_obj, text_of
from archive.record import Conversation, Source, Turn, conversation_id, turn_key

LOCAL = re.compile(r"^\s*<(command-name|command-message|local-command-stdout|local-command-stderr|command-args)>")
# What the CLI puts in the user's place without the user typing it: a background
# task reporting back, the marker of an interrupt (Esc, Ctrl+C, a rejected tool).
NOT_TYPED = re.compile(r"^\s*(<task-notification>|\[Request interrupted by user\b[^\]]*\]\s*$)")
TAG = re.compile(r"<[^>]+>")
# a multi-line paste as the CLI sends it (2.1.330): wrapped in a tag with the
# paste's id, after two newlines; the user pasted only what is inside
PASTED = re.compile(r'\n*<pasted_content id="([^"]*)">\n(.*?)\n?</pasted_content id="\1">\n?', re.S)
# a command run in shell mode (`!cmd`): the CLI writes the command and, as a
# second user line, what it printed; the model answers both
BASH_INPUT = re.compile(r"^<bash-input>(.*)</bash-input>\s*$", re.S)
BASH_OUTPUT = re.compile(r"^<bash-stdout>(.*?)</bash-stdout>\s*(?:<bash-stderr>(.*?)</bash-stderr>)?\s*$", re.S)
# `/word more words` that is no command: never sent, written as two notices
# (2.1.197 adds `. Did you mean /name?`); the user typed `/word more words`
UNKNOWN_COMMAND = re.compile(r"^Unknown command: (/[\w:-]+)(?:\.\s*Did you mean\s.*)?\s*$")
UNKNOWN_ARGS = re.compile(r"^Args from unknown skill: (.*)$", re.S)


def _as_typed(text: str) -> str:
    """A prompt without the CLI's paste wrappers: what the user typed and pasted."""
    if "<pasted_content " not in text:
        return text
    return PASTED.sub(lambda m: m.group(2), text).strip("\n")


class ClaudeCodeProvider(BaseProvider):
    name = "claude-code"

    def discover(self, home: Path) -> Iterator[Path]:
        yield from sorted((home / ".claude" / "projects").glob("*/*.jsonl"))

    def _parse(self, path: Path) -> ParseResult:
        res = ParseResult()
        turns: list[Turn] = []
        title = cwd = version = started = ended = None
        session = path.stem
        names: dict[str, str] = {}  # tool_use id -> tool name, for the results
        for n, raw, d in _in_chain_order(path, res):
            with res.line(f"{path}:{n}", turns):
                kind = d.get("type")
                if kind in ("summary", "ai-title", "custom-title"):
                    title = d.get("summary") or d.get("aiTitle") or d.get("customTitle") or title
                    continue
                if kind == "system" and not d.get("isSidechain") and isinstance(d.get("content"), str):
                    _unknown_command(d, raw, turns)
                    continue
                if kind not in ("user", "assistant") or d.get("isSidechain"):
                    continue
                session = d.get("sessionId") or session
                cwd = d.get("cwd") or cwd
                version = d.get("version") or version
                ts = d.get("timestamp")
                started = started or ts
                ended = ts or ended
                msg = need_obj(d.get("message"), "message")
                content = msg.get("content")
                uid = d.get("uuid") or n
                if kind == "user":
                    if isinstance(content, str) and (shell := _shell_mode(content)) is not None:
                        turns.append(Turn(*shell, ts=ts, key=turn_key(uid), raw=raw))
                        continue
                    if isinstance(content, str):
                        # a /compact summary stands in for the turns it replaced
                        if d.get("isMeta") or d.get("isCompactSummary") or LOCAL.match(content) \
                                or NOT_TYPED.match(content):
                            text = TAG.sub("", content).strip()
                            if text:
                                turns.append(Turn("system", text, ts=ts, key=turn_key(uid), raw=raw))
                        else:
                            turns.append(Turn("user", _as_typed(content), ts=ts, key=turn_key(uid), raw=raw))
                        continue
                    for i, block in enumerate(content or []):
                        if not isinstance(block, dict):
                            continue
                        if block.get("type") == "tool_result":
                            out = block.get("content")
                            turns.append(Turn("tool_result", text_of(out) if not isinstance(out, str) else out,
                                              name=names.get(block.get("tool_use_id") or ""),
                                              is_error=bool(block.get("is_error")), ts=ts,
                                              key=turn_key(uid, i), raw=raw))
                        elif block.get("type") == "text" and not d.get("isMeta"):
                            text = block.get("text", "")
                            if LOCAL.match(text) or text.startswith("<system-reminder>"):
                                continue
                            if d.get("isCompactSummary") or NOT_TYPED.match(text):
                                turns.append(Turn("system", TAG.sub(" ", text).strip(), ts=ts,
                                                  key=turn_key(uid, i), raw=raw))
                                continue
                            turns.append(Turn("user", _as_typed(text), ts=ts, key=turn_key(uid, i), raw=raw))
                    continue
                model = msg.get("model")
                for i, block in enumerate(content or [] if not isinstance(content, str) else [{"type": "text", "text": content}]):
                    if not isinstance(block, dict):
                        continue
                    t = block.get("type")
                    # one message may be split over several lines (one block each, same message id):
                    # a block is known by its own id, else by its message, kind and text
                    key = turn_key(block.get("id") or "", msg.get("id") or uid, t,
                                   "" if block.get("id") else block.get("text") or block.get("thinking") or i)
                    if t == "text":
                        turns.append(Turn("assistant", block.get("text", ""), ts=ts, model=model, key=key, raw=raw))
                    elif t == "tool_use":
                        inp = block.get("input")
                        names[block.get("id") or ""] = block.get("name") or ""
                        shown = inp.get("command") or inp.get("file_path") or inp.get("pattern") if isinstance(inp, dict) else None
                        turns.append(Turn("tool_call", shown or json.dumps(inp, ensure_ascii=False), name=block.get("name"),
                                          input=inp, ts=ts, model=model, key=key, raw=raw))
                    elif t in ("thinking", "redacted_thinking"):
                        turns.append(Turn("thinking", block.get("thinking", ""), ts=ts, model=model, key=key, raw=raw))
        if not turns:
            return res
        conv = Conversation(id=conversation_id(self.name, session), agent=self.name, native_id=session,
                            agent_version=version, title=title, workspace=cwd, started_at=started,
                            ended_at=ended, sources=[Source("native", str(path))], turns=_dedupe(turns))
        res.conversations.append(conv)
        return res


def _in_chain_order(path: Path, res: ParseResult) -> Iterator[tuple[int, bytes, Any]]:
    """The file's lines (as `iter_jsonl`), each after the line its
    `parentUuid` names.

    Claude Code rebuilds a session by its chain, not by the file's order, and
    2.1.197 may write a prompt's first answer line above the prompt and the
    attachment lines it chains through: read in file order, the answer came
    before its prompt (and a fork cut there left the prompt a root after it).
    A line whose parent is further down waits for it; a first pass keeps only
    where each uuid is, so the file is still streamed."""
    where: dict[str, int] = {}
    for n, _raw, d in iter_jsonl(path, ParseResult()):
        u = d.get("uuid")
        if isinstance(u, str):
            where.setdefault(u, n)
    waiting: dict[str, list[tuple[int, bytes, Any]]] = {}
    held: set[str] = set()  # the uuids of the lines waiting (their children wait too)
    for rec in iter_jsonl(path, res):
        parent, u = rec[2].get("parentUuid"), rec[2].get("uuid")
        if isinstance(parent, str) and (where.get(parent, 0) > rec[0] or parent in held):
            waiting.setdefault(parent, []).append(rec)
            if isinstance(u, str):
                held.add(u)
            continue
        stack = [rec]
        while stack:
            r = stack.pop()
            yield r
            u = r[2].get("uuid")
            if isinstance(u, str):
                held.discard(u)
                if u in waiting:
                    stack.extend(reversed(waiting.pop(u)))
    # (a parent that never came out: a chain that loops back on itself) in file order
    yield from sorted((r for recs in waiting.values() for r in recs), key=lambda r: r[0])


def _shell_mode(content: str) -> tuple[str, str, str | None] | None:
    """(role, text, name) of a shell-mode line: the command as typed (`!cmd`),
    or what it printed (stdout, then stderr) as the result of Bash."""
    if m := BASH_INPUT.match(content):
        return "user", "!" + m.group(1), None
    if m := BASH_OUTPUT.match(content):
        return "tool_result", "\n".join(x for x in (m.group(1), m.group(2)) if x), "Bash"
    return None


def _unknown_command(d: dict, raw: bytes, turns: list[Turn]) -> None:
    """A `/word …` prompt no command took: the CLI's notices are all the file
    keeps of it; the notice of its words completes the one before, and makes
    it the prompt as typed. The slash word alone is the command typed, which
    the CLI refused itself: a system turn, as a local command's is."""
    text = d["content"]
    if m := UNKNOWN_COMMAND.match(text):
        turns.append(Turn("system", m.group(1), ts=d.get("timestamp"), key=turn_key(d.get("uuid") or text), raw=raw))
    elif (m := UNKNOWN_ARGS.match(text)) and turns and turns[-1].role == "system" \
            and UNKNOWN_COMMAND.match("Unknown command: " + turns[-1].text):
        last = turns[-1]
        # both notices are the prompt's records: a fork cut after it keeps both
        turns[-1] = msgspec.structs.replace(last, role="user", text=f"{last.text} {m.group(1)}",
                                            raw=raw if last.raw is None else last.raw + b"\n" + raw)


def _dedupe(turns: list[Turn]) -> list[Turn]:
    seen, out = set(), []
    for t in turns:
        if t.key in seen:
            continue
        seen.add(t.key)
        out.append(t)
    return out


PROVIDER = ClaudeCodeProvider()
