"""The normalized record: one schema for every source, encoded with msgspec.

Stored as MessagePack (schema-checked, compact, fast); JSON and Markdown
are views rendered on demand. Each turn keeps its provenance (`vector`)
and the source's own line verbatim in `raw`, so nothing is thrown away.
"""
from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

import msgspec

VECTORS = ("native", "stream", "screen")


class Turn(msgspec.Struct, omit_defaults=True):
    role: str  # user | assistant | tool_call | tool_result | thinking | system
    text: str = ""
    name: str | None = None  # tool name
    input: Any = None  # tool input
    is_error: bool | None = None
    ts: str | None = None
    model: str | None = None
    usage: dict[str, Any] | None = None
    vector: str = "native"
    key: str = ""  # stable identity of the turn within its source (dedupe on re-sync)
    raw: bytes | None = None  # the source's own record, verbatim (records, a line each, when one turn took several)
    # not all of it was on screen (an answer taller than a bottom-anchored
    # viewport): said in every view, so a reader knows the text is cut
    partial: bool = False


class Source(msgspec.Struct, omit_defaults=True):
    vector: str
    path: str
    size: int = 0
    mtime: float = 0.0


class Conversation(msgspec.Struct, omit_defaults=True):
    id: str
    agent: str
    native_id: str | None = None
    agent_version: str | None = None
    title: str | None = None
    workspace: str | None = None
    instance: str | None = None  # machine / container the capture came from
    started_at: str | None = None
    ended_at: str | None = None
    sources: list[Source] = msgspec.field(default_factory=list)
    turns: list[Turn] = msgspec.field(default_factory=list)


_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(Conversation)


def instant(ts: str | None) -> "datetime | None":
    """An archived ISO 8601 time as an aware datetime; None when absent, unreadable or without an offset
    (a time whose zone is unknown cannot be placed against another)."""
    if not ts or not isinstance(ts, str):
        return None
    try:
        d = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    except ValueError:
        return None
    return d if d.tzinfo else None


def encode(conv: Conversation) -> bytes:
    return _enc.encode(conv)


def decode(data: bytes) -> Conversation:
    return _dec.decode(data)


def conversation_id(agent: str, native_id: str) -> str:
    """Stable id from the agent and its own session id: re-syncs land on the same record."""
    return hashlib.sha256(f"{agent}\0{native_id}".encode()).hexdigest()[:16]


def turn_key(*parts: Any) -> str:
    return hashlib.sha1("\0".join(str(p) for p in parts).encode("utf-8", "replace")).hexdigest()[:16]


def to_json(conv: Conversation, raw: bool = False) -> dict[str, Any]:
    """The conversation-json view (see docs/conversation-json.md)."""
    turns = []
    for t in conv.turns:
        d: dict[str, Any] = {"role": t.role, "text": t.text, "name": t.name, "input": t.input,
                             "ts": t.ts, "vector": t.vector}
        if t.is_error is not None:
            d["is_error"] = t.is_error
        if t.model:
            d["model"] = t.model
        if t.partial:
            d["partial"] = True
        if raw and t.raw is not None:
            d["raw"] = t.raw.decode("utf-8", "replace")
        turns.append(d)
    return {"id": conv.id, "agent": conv.agent, "title": conv.title, "workspace": conv.workspace,
            "started_at": conv.started_at, "ended_at": conv.ended_at, "native_id": conv.native_id,
            "agent_version": conv.agent_version,
            "sources": [{"vector": s.vector, "path": s.path} for s in conv.sources], "turns": turns}


def summary(conv: Conversation) -> dict[str, Any]:
    return {"id": conv.id, "agent": conv.agent, "title": conv.title, "workspace": conv.workspace,
            "started_at": conv.started_at, "ended_at": conv.ended_at, "turns": len(conv.turns)}


_TEXT_FIELDS = ("name", "ts", "model")
_CONV_FIELDS = ("native_id", "agent_version", "title", "workspace", "instance", "started_at", "ended_at")


def _scalar_text(v: Any) -> str | None:
    """A metadata value as text: strings as they are, numbers as their digits, anything else dropped."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    return None


def checked(conv: Conversation) -> tuple[Conversation, int]:
    """`conv` made to fit its schema, and how many turns had to be dropped.

    Providers read outside data: a field that should be text may hold a
    number, a list or an object. msgspec checks the whole record in one
    decode; only when that fails is it repaired turn by turn: metadata that
    is not text becomes None (numbers keep their digits), a turn whose text
    is not a string, or that still does not fit, is dropped (and counted,
    like a malformed line).
    """
    try:
        return _dec.decode(_enc.encode(conv)), 0
    except (msgspec.ValidationError, msgspec.DecodeError, TypeError, ValueError, OverflowError):
        pass
    turns, dropped = [], 0
    for t in conv.turns:
        fixed = _checked_turn(t)
        if fixed is None:
            dropped += 1
        else:
            turns.append(fixed)
    sources = [s for s in conv.sources if isinstance(s.path, str) and isinstance(s.vector, str)]
    fields = {f: _scalar_text(getattr(conv, f)) for f in _CONV_FIELDS}
    out = Conversation(id=str(conv.id), agent=str(conv.agent), sources=sources, turns=turns, **fields)
    return _dec.decode(_enc.encode(out)), dropped


def _checked_turn(t: Turn) -> Turn | None:
    try:
        return _turn_dec.decode(_enc.encode(t))
    except (msgspec.ValidationError, msgspec.DecodeError, TypeError, ValueError, OverflowError):
        pass
    if not isinstance(t.text, str) or not isinstance(t.role, str) or not isinstance(t.key, str):
        return None
    usage = t.usage if isinstance(t.usage, dict) and all(isinstance(k, str) for k in t.usage) else None
    t = msgspec.structs.replace(
        t, **{f: _scalar_text(getattr(t, f)) for f in _TEXT_FIELDS}, usage=usage,
        is_error=t.is_error if isinstance(t.is_error, bool) else None,
        vector=t.vector if isinstance(t.vector, str) else "native",
        raw=t.raw if isinstance(t.raw, bytes) else None)
    for field in ("input", "usage"):
        try:
            _enc.encode(getattr(t, field))
        except (TypeError, ValueError, OverflowError):
            t = msgspec.structs.replace(t, **{field: None})
    try:
        return _turn_dec.decode(_enc.encode(t))
    except (msgspec.ValidationError, msgspec.DecodeError, TypeError, ValueError, OverflowError):
        return None


_turn_dec = msgspec.msgpack.Decoder(Turn)
