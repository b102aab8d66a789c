"""Group labeled lines into turns."""
from __future__ import annotations

import textwrap
from typing import Callable

from agents_chrome.rules import MARKERS, Labeled
from agents_chrome.turns import Turn


def _finish(kind: str, rows: list[str]) -> str:
    while rows and not rows[-1].strip():
        rows.pop()
    while rows and not rows[0].strip():
        rows.pop(0)
    if not rows:
        return ""
    # The marker line's body starts at column 0; its continuation rows are
    # indented under it, so they are dedented on their own.
    head, rest = rows[0].rstrip(), textwrap.dedent("\n".join(r.rstrip() for r in rows[1:]))
    return head + ("\n" + rest if len(rows) > 1 else "")


def segment(labeled: list[Labeled],
            make_turn: Callable[[str, str, list[Labeled]], "Turn | list[Turn] | None"] | None = None) -> list[Turn]:
    """Blocks open at marker lines and run until the next marker.

    `make_turn(kind, text, lines)` may rewrite or drop a block (a profile
    hook, e.g. to split a tool call's name from its argument).
    """
    turns: list[Turn] = []
    kind: str | None = None
    rows: list[str] = []
    members: list[Labeled] = []

    def flush() -> None:
        nonlocal kind, rows, members
        if kind is not None:
            text = _finish(kind, rows)
            made = make_turn(kind, text, members) if make_turn else Turn(kind, text)
            # a hook may return one turn, several (a summary of N calls), or none
            for t in (made if isinstance(made, list) else [made] if made is not None else []):
                if t.text or t.role in ("tool_call", "tool_result"):
                    if t.time is None and members:
                        t.time = members[0].line.time
                    turns.append(t)
        kind, rows, members = None, [], []

    for lb in labeled:
        if lb.kind in MARKERS:
            flush()
            kind = lb.kind
            rows = [lb.body]
            members = [lb]
        elif lb.kind in ("cont", "blank"):
            if kind is not None:
                rows.append(lb.body)
                members.append(lb)
        # chrome: dropped, the block stays open
    flush()
    return turns
