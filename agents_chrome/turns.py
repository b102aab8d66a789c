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
    #: the screen never showed all of it (an answer taller than a bottom-anchored
    #: viewport): a reader must know the text is not the whole turn
    partial: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"role": self.role, "text": self.text, "name": self.name,
                             "input": self.input, "ts": self.ts, "vector": self.vector}
        d.update(self.extra)
        if self.partial:
            d["partial"] = True
        return d
