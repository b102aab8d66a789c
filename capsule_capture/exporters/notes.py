"""Session notes: one Markdown file per day and workspace, for Obsidian-style vaults.

Each note has YAML front matter (`date`, `time` of the first session,
`workspace`, `agent` list, `tags`), a line per conversation (time, agent,
title, prompt count, short id as a block id `^id` so other notes can link to
it) with its first prompt under it, and wiki-links between notes: the
previous and next day of the same workspace, and the other workspaces of the
same day. A note is named `YYYY-MM-DD <workspace folder name>` (a short hash
is added when two workspaces of one day share a folder name); days are the
local calendar days. Notes hold the exported conversations only.
Files are 0600 in 0700 folders.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import datetime
from pathlib import Path
from typing import Any, Sequence

HELP = "one Markdown note per day and workspace (YAML front matter, wiki-links), for Obsidian"

_UNSAFE = re.compile(r"[\\/:#^\[\]|*\"<>?\x00-\x1f\x7f-\x9f\u2028\u2029]+")
_TAG = re.compile(r"[^\w/-]+")


def _local(ts: str | None) -> datetime | None:
    if not ts:
        return None
    try:
        dt = datetime.fromisoformat(ts.replace("Z", "+00:00") if ts.endswith("Z") else ts)
    except ValueError:
        return None
    return dt.astimezone() if dt.tzinfo else dt


def _folder_name(workspace: str | None) -> str:
    if not workspace:
        return "no workspace"
    base = os.path.basename(workspace.rstrip("/\\")) or workspace
    return _UNSAFE.sub("-", base).strip(" .-") or "workspace"


def _tag(text: str) -> str:
    return _TAG.sub("-", text).strip("-") or "x"


_BREAKS = re.compile("[\x7f-\x9f\u2028\u2029\ufeff]")


def _y(v: Any) -> str:
    """A YAML scalar or flow list (JSON's syntax is valid YAML), on one line: the
    characters some YAML parsers take as line breaks (NEL, LS, PS) are escaped too."""
    return _BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(v, ensure_ascii=False))


def _one_line(text: str, width: int = 160) -> str:
    s = " ".join(text.split())
    return s if len(s) <= width else s[:width - 1] + "…"


def plan(convs: list[Any]) -> dict[tuple[str, str], list[Any]]:
    """(day, workspace) -> its conversations, oldest first."""
    groups: dict[tuple[str, str], list[Any]] = {}
    for c in convs:
        dt = _local(c.started_at)
        day = dt.strftime("%Y-%m-%d") if dt else "undated"
        groups.setdefault((day, c.workspace or ""), []).append(c)
    for v in groups.values():
        v.sort(key=lambda c: (_local(c.started_at) or datetime.min).isoformat())
    return groups


def note_names(keys: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    names: dict[tuple[str, str], str] = {}
    by_name: dict[str, list[tuple[str, str]]] = {}
    for day, ws in keys:
        by_name.setdefault(f"{day} {_folder_name(ws)}", []).append((day, ws))
    for name, ks in by_name.items():
        for k in ks:
            names[k] = name if len(ks) == 1 else f"{name} {hashlib.sha1(k[1].encode()).hexdigest()[:6]}"
    return names


def render(key: tuple[str, str], convs: list[Any], names: dict[tuple[str, str], str]) -> str:
    from capsule_capture.fork import turn_numbers
    day, ws = key
    agents = sorted({c.agent for c in convs})
    first = _local(convs[0].started_at)
    folder = _folder_name(ws)
    lines = ["---", f"date: {_y(day)}", f"time: {_y(first.strftime('%H:%M') if first else '')}",
             f"workspace: {_y(ws or None)}", f"agent: {_y(agents)}",
             f"tags: {_y(['capsule-capture'] + [f'agent/{_tag(a)}' for a in agents] + [f'workspace/{_tag(folder)}'])}",
             f"conversations: {len(convs)}", "---", "", f"# {day} · {folder}", ""]
    same_ws = sorted(d for d, w in names if w == ws and d != "undated")
    nav = []
    if day in same_ws:
        i = same_ws.index(day)
        if i > 0:
            nav.append(f"previous: [[{names[(same_ws[i - 1], ws)]}]]")
        if i + 1 < len(same_ws):
            nav.append(f"next: [[{names[(same_ws[i + 1], ws)]}]]")
    others = sorted(names[k] for k in names if k[0] == day and k[1] != ws)
    if others:
        nav.append("same day: " + ", ".join(f"[[{n}]]" for n in others))
    if nav:
        lines += [" · ".join(nav), ""]
    if ws:
        lines += [f"Workspace: `{_one_line(ws, 400)}`", ""]
    lines += ["## Conversations", ""]
    for c in convs:
        dt = _local(c.started_at)
        prompts = max(turn_numbers(c.turns), default=0)
        first_prompt = next((t.text for t in c.turns if t.role == "user" and t.text.strip()), None)
        title = _one_line(c.title or first_prompt or "(untitled)", 100).replace("[[", "[ [")
        lines.append(f"- {dt.strftime('%H:%M') if dt else '--:--'} · {c.agent} · **{title}** · "
                     f"{prompts} prompt{'s' if prompts != 1 else ''} · `{c.id}` ^{c.id}")
        if first_prompt:
            lines.append(f"    - > {_one_line(first_prompt).replace('[[', '[ [')}")
    return "\n".join(lines) + "\n"


def export(store, ids: Sequence[str], out: Path, fmt: str) -> int:  # type: ignore[no-untyped-def]
    from capsule_capture.exporters import conversations, write_private
    convs = list(conversations(store, ids))
    groups = plan(convs)
    names = note_names(list(groups))
    for key, cs in groups.items():
        write_private(out / f"{names[key]}.md", render(key, cs, names))
    return len(convs)
