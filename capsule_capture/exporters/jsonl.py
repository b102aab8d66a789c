"""One event per line, one `<id>.jsonl` file per conversation: for log pipelines and replays.

Each line: `ts`, `type` (user_intent | agent_stream | tool_call | tool_result
| system), `source` (the agent), `body` (the text) and `meta` (conversation
id, turn number, role, tool name and input, error flag, model, provenance).
Thinking is agent output, so it is an `agent_stream` event with
`meta.kind = "thinking"`. Files are 0600 in 0700 folders.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

HELP = "one JSON event per line per conversation (user_intent, agent_stream, tool_call, tool_result, system)"

EVENT_TYPES = {"user": "user_intent", "assistant": "agent_stream", "thinking": "agent_stream",
               "tool_call": "tool_call", "tool_result": "tool_result", "system": "system"}


def events(conv: Any) -> list[dict[str, Any]]:
    from capsule_capture.fork import turn_numbers
    out = []
    for t, n in zip(conv.turns, turn_numbers(conv.turns)):
        meta: dict[str, Any] = {"conversation": conv.id, "turn": n, "role": t.role, "vector": t.vector}
        if t.role == "thinking":
            meta["kind"] = "thinking"
        if t.name is not None:
            meta["name"] = t.name
        if t.input is not None:
            meta["input"] = t.input
        if t.is_error is not None:
            meta["is_error"] = t.is_error
        if t.model:
            meta["model"] = t.model
        if conv.workspace:
            meta["workspace"] = conv.workspace
        if conv.native_id:
            meta["native_id"] = conv.native_id
        out.append({"ts": t.ts, "type": EVENT_TYPES.get(t.role, "system"), "source": conv.agent,
                    "body": t.text, "meta": meta})
    return out


def export(store, ids: Sequence[str], out: Path, fmt: str) -> int:  # type: ignore[no-untyped-def]
    from capsule_capture.exporters import conversations, write_private
    n = 0
    for conv in conversations(store, ids):
        text = "".join(json.dumps(e, ensure_ascii=False, default=str) + "\n" for e in events(conv))
        write_private(out / f"{conv.id}.jsonl", text)
        n += 1
    return n
