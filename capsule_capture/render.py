"""Rich renderables and text views shared by the commands that print things."""
from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.style import Style
from rich.text import Text

from screen.vscreen import FLAG_BOLD, FLAG_ITALIC, FLAG_REVERSE, FLAG_STRIKE, FLAG_UNDERLINE, VirtualScreen

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
    return label, style


def print_conversation(conv: dict[str, Any], console: Console | None = None) -> None:
    console = console or Console()
    head = f"{conv.get('agent') or '?'} · {conv.get('title') or conv.get('id')}"
    console.rule(Text(head, "bold"))
    for t in conv.get("turns", []):
        label, style = turn_label(t)
        console.print(Panel(Text(t.get("text") or ""), title=Text(label, style), title_align="left",
                            border_style=style or "white", expand=True))


def conversation_markdown(conv: dict[str, Any]) -> str:
    out = [f"# {conv.get('title') or conv.get('id')}\n",
           f"- agent: {conv.get('agent')}", f"- workspace: {conv.get('workspace')}",
           f"- started: {conv.get('started_at')}", ""]
    for t in conv.get("turns", []):
        label, _ = turn_label(t)
        out.append(f"## {label}\n")
        text = t.get("text") or ""
        if t.get("role") in ("tool_call", "tool_result"):
            out.append("```\n" + text + "\n```\n")
        else:
            out.append(text + "\n")
    return "\n".join(out) + "\n"
