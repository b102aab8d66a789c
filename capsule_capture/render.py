"""Rich renderables and text views shared by the commands that print things.

`screen/` is imported only by `screen_text`, so the archive commands (list,
show, search) start without loading the terminal emulator.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from capsule_capture.console import PipeConsole

if TYPE_CHECKING:
    from screen.vscreen import VirtualScreen

ROLE_STYLE = {"user": ("You", "bold cyan"), "assistant": ("Assistant", "green"),
              "tool_call": ("Tool call", "yellow"), "tool_result": ("Tool result", "dim yellow"),
              "thinking": ("Thinking", "italic blue"), "system": ("System", "magenta")}


def _color(c: str) -> str | None:
    if not c or c == "default":
        return None
    if len(c) == 6 and all(ch in "0123456789abcdefABCDEF" for ch in c):
        return "#" + c
    return {"brown": "yellow"}.get(c, c)


def screen_text(scr: VirtualScreen) -> Text:
    """The visible screen with its colours, as one rich Text."""
    from screen.vscreen import FLAG_BOLD, FLAG_ITALIC, FLAG_REVERSE, FLAG_STRIKE, FLAG_UNDERLINE
    out = Text()
    for i, line in enumerate(scr.lines_with_style()):
        t = Text(line.text)
        for start, end, fg, bg, flags in line.spans:
            try:
                t.stylize(Style(color=_color(fg), bgcolor=_color(bg), bold=bool(flags & FLAG_BOLD),
                                italic=bool(flags & FLAG_ITALIC), underline=bool(flags & FLAG_UNDERLINE),
                                reverse=bool(flags & FLAG_REVERSE), strike=bool(flags & FLAG_STRIKE)),
                          start, end)
            except Exception:
                continue  # a colour rich does not know: leave the cell plain
        out.append(t)
        if i < scr.lines - 1:
            out.append("\n")
    return out


def turn_label(t: dict[str, Any]) -> tuple[str, str]:
    label, style = ROLE_STYLE.get(t.get("role", ""), (t.get("role", "?"), ""))
    if t.get("name"):
        label += f" · {t['name']}"
    if t.get("vector") and t["vector"] != "native":
        label += f"  [{t['vector']}]"
    if t.get("partial"):
        # the turn was cut: the agent stopped, the source ended mid-turn, or (a screen
        # capture) the screen never showed all of it
        label += "  [partial: not all of it was on screen]" if t.get("vector") == "screen" else "  [partial]"
    return label, style


def _short_path(path: str | None) -> str:
    import os
    if not path:
        return "-"
    home = os.path.expanduser("~")
    if home not in ("", "/") and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home):]
    return path


def _cut_left(text: str, width: int) -> str:
    """The end of `text` in `width` cells (a path's last folders say most)."""
    if width <= 1:
        return "…" if text else ""
    return text if len(text) <= width else "…" + text[-(width - 1):]


def conversation_table(rows: list[dict[str, Any]], width: int) -> Table:
    """One line per conversation at any width: fixed columns stay whole, the title and the
    workspace share what is left and are cut with … (the workspace from the left)."""
    from capsule_capture.tui.catalog import local_time
    started = [local_time(r.get("started_at")) for r in rows]
    if width < 60:  # the year goes first: the time and its zone stay whole
        started = [x[5:] if x[:4].isdigit() else x for x in started]
    w_start = max([7] + [len(x) for x in started])
    w_agent = max([5] + [len(r.get("agent") or "") for r in rows])
    w_id, w_turns = 8, max(5, len(str(max((r.get("turns") or 0) for r in rows))))
    narrow = width < 72  # too narrow for a useful workspace: the title takes its room
    free = max(6, width - (w_id + w_agent + w_start + w_turns) - 2 * (4 if narrow else 5))
    w_title = free if narrow else max(6, free * 3 // 5)
    w_ws = 0 if narrow else max(4, free - w_title)
    table = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False, header_style="bold",
                  expand=False, width=width)
    table.add_column("id", width=w_id, no_wrap=True, overflow="ellipsis", style="bold")
    table.add_column("agent", width=w_agent, no_wrap=True, overflow="ellipsis", style="cyan")
    table.add_column("started", width=w_start, no_wrap=True, overflow="ellipsis")
    table.add_column("turns", width=w_turns, no_wrap=True, justify="right")
    table.add_column("title", width=w_title, no_wrap=True, overflow="ellipsis")
    if not narrow:
        table.add_column("workspace", width=w_ws, no_wrap=True, overflow="ellipsis", style="dim")
    for r, st in zip(rows, started):
        title = " ".join((r.get("title") or "").split()) or "-"
        cells = [r["id"][:w_id], r.get("agent") or "?", st, str(r.get("turns") or 0), title]
        if not narrow:
            cells.append(_cut_left(_short_path(r.get("workspace")), w_ws))
        table.add_row(*cells)
    return table


def search_hit_lines(hit: Any, width: int) -> list[Text]:
    """A search hit in two lines: where (id, agent, local date, turn) and the highlighted snippet."""
    from capsule_capture.tui.catalog import local_time
    c = hit.conv
    head = Text.assemble((c.id[:8], "bold"), "  ", (c.agent, "cyan"), "  ", local_time(c.started_at), "  ",
                         (f"turn {hit.turn_index + 1}", "magenta"), (f" {hit.role}" if hit.role else "", "magenta"),
                         "  ", (" ".join((c.title or "").split()), "dim"))
    snip = Text("    ")
    for i, part in enumerate(hit.snippet.replace("]]", "[[").split("[[")):
        snip.append(part, "bold yellow" if i % 2 else "")
    for t in (head, snip):
        t.no_wrap = True
        t.overflow = "ellipsis"
        t.truncate(width, overflow="ellipsis")
    return [head, snip]


def _sources_line(conv: dict[str, Any]) -> str:
    counts: dict[str, int] = {}
    for t in conv.get("turns", []):
        v = t.get("vector") or "native"
        counts[v] = counts.get(v, 0) + 1
    parts = [f"{v} {n} turn{'s' if n != 1 else ''}" for v, n in sorted(counts.items())]
    files = [f"{s['vector']}: {_short_path(s['path'])}" for s in conv.get("sources", [])]
    return ", ".join(parts) + ("  (" + "; ".join(files) + ")" if files else "")


def conversation_header(conv: dict[str, Any]) -> Table:
    """Agent, workspace, local time and sources: what a reader needs before the first turn."""
    from capsule_capture.tui.catalog import local_time
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    agent = conv.get("agent") or "?"
    if conv.get("agent_version"):
        agent += f" {conv['agent_version']}"
    when = local_time(conv.get("started_at"), seconds=True)
    if conv.get("ended_at"):
        when += f"  →  {local_time(conv.get('ended_at'), seconds=True)}"
    grid.add_row("agent", agent)
    grid.add_row("workspace", _short_path(conv.get("workspace")))
    grid.add_row("time", when)
    grid.add_row("sources", _sources_line(conv) or "-")
    grid.add_row("id", conv.get("id") or "?")
    return grid


def print_conversation(conv: dict[str, Any], console: Console | None = None) -> None:
    from capsule_capture.tui.catalog import local_time
    console = console or PipeConsole()
    console.rule(Text(conv.get("title") or conv.get("id") or "", "bold"))
    console.print(conversation_header(conv))
    console.print()
    for t in conv.get("turns", []):
        label, style = turn_label(t)
        if t.get("ts"):
            label += "  " + local_time(t["ts"], seconds=True)[11:]
        console.print(Panel(Text(t.get("text") or ""), title=Text(label, style), title_align="left",
                            border_style=style or "white", expand=True))


def conversation_markdown(conv: dict[str, Any]) -> str:
    from capsule_capture.tui.catalog import local_time
    out = [f"# {conv.get('title') or conv.get('id')}\n",
           f"- agent: {conv.get('agent')}", f"- workspace: {conv.get('workspace')}",
           f"- started: {conv.get('started_at')} ({local_time(conv.get('started_at'))})",
           f"- sources: {_sources_line(conv) or '-'}", f"- id: {conv.get('id')}", ""]
    for t in conv.get("turns", []):
        label, _ = turn_label(t)
        if t.get("ts"):
            label += f" · {local_time(t['ts'], seconds=True)}"
        out.append(f"## {label}\n")
        text = t.get("text") or ""
        if t.get("role") in ("tool_call", "tool_result"):
            fence = "````" if "```" in text else "```"
            out.append(f"{fence}\n{text}\n{fence}\n")
        else:
            out.append(text + "\n")
    return "\n".join(out) + "\n"
