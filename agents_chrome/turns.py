"""The turn a chrome profile produces: the screen-side half of the normalized record."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ROLES = ("user", "assistant", "tool_call", "tool_result", "thinking", "system")


@dataclass
class Turn:
    role: str
    text: str
    name: str | None = None
    input: Any = None
    ts: str | None = None
    vector: str = "screen"
    time: float | None = None  # seconds into the recording where it was first seen
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"role": self.role, "text": self.text, "name": self.name,
                             "input": self.input, "ts": self.ts, "vector": self.vector}
        d.update(self.extra)
        return d
