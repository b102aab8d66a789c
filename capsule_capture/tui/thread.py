"""One conversation, top to bottom.

Each turn is a focusable block: its role, local time and vector (native,
stream, screen) on the first line, `partial` when the turn was cut; prose
rendered as Markdown; tool calls, tool results and thinking folded (Enter
or a click opens them). Keys act on the open conversation or the focused
turn: `e` exports Markdown, `c` copies the agent's resume command, `p`
shows the recording's screen at a screen turn's moment.
"""
from __future__ import annotations

import os
from typing import Any

from rich.markdown import Markdown
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Collapsible, Footer, Header, Static

from capsule_capture.tui import catalog

FOLDED = ("tool_call", "tool_result", "thinking")
MAX_TURNS = 500  # beyond this the thread says how many more there are (`capsule-capture show` prints all)


def turn_head(t: dict[str, Any]) -> Text:
    from capsule_capture.render import turn_label
    label, style = turn_label(t)
    head = Text(label, style or "bold")
    if (t.get("vector") or "native") == "native":  # turn_label names only the other vectors
        head.append("  [native]", "dim")
    if t.get("ts"):
        head.append("  " + catalog.local_time(t["ts"], seconds=True), "dim")
    return head


def _tool_text(t: dict[str, Any]) -> str:
    text = t.get("text") or ""
    if not text and t.get("input") is not None:
        import json
        text = json.dumps(t["input"], ensure_ascii=False, indent=1)
    return text


class TurnView(Vertical):
    """A turn; focusable so that `p` and the arrows know which one is meant."""

    can_focus = True

    def __init__(self, index: int, turn: dict[str, Any]) -> None:
        super().__init__(id=f"turn-{index}", classes=f"role-{turn.get('role')}")
        self.index = index
        self.turn = turn

    def compose(self) -> ComposeResult:
        t = self.turn
        head = turn_head(t)
        if t.get("role") in FOLDED:
            first = " ".join(_tool_text(t).split())[:60]
            title = head.plain + (f"  {first}" if first else "")
            yield Collapsible(Static(Text(_tool_text(t)), markup=False), title=escape(title), collapsed=True)
        else:
            yield Static(head, classes="turn-head")
            yield Static(Markdown(t.get("text") or ""))


class ThreadScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "back"),
        Binding("e", "export", "export .md"),
        Binding("c", "copy_resume", "copy resume cmd"),
        Binding("p", "screen_at", "screen at turn"),
        Binding("enter", "toggle", "fold/unfold", show=False),
        # priority: the scrolling container would otherwise take the arrows before the screen
        Binding("down,j", "turn(1)", "next turn", show=False, priority=True),
        Binding("up,k", "turn(-1)", "previous turn", show=False, priority=True),
    ]

    def __init__(self, cid: str, turn: int | None = None) -> None:
        super().__init__()
        self.cid = cid
        self.start_turn = turn
        self.conv: Any = None
        self.data: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        from archive.record import to_json
        from capsule_capture.render import conversation_header
        self.conv = self.app.store.get(self.cid, raw=False)  # type: ignore[attr-defined]
        self.data = to_json(self.conv) if self.conv is not None else {"turns": []}
        for d, t in zip(self.data["turns"], self.conv.turns if self.conv is not None else []):
            if getattr(t, "partial", None):  # a turn cut short (the field is newer than some archives)
                d["partial"] = True
        yield Header()
        with VerticalScroll(id="thread"):
            if self.conv is None:
                yield Static(f"conversation {self.cid} is no longer in the archive")
            else:
                yield Static(conversation_header(self.data), id="conv-head")
                turns = self.data["turns"]
                for i, t in enumerate(turns[:MAX_TURNS]):
                    yield TurnView(i, t)
                if len(turns) > MAX_TURNS:
                    yield Static(f"… {len(turns) - MAX_TURNS} more turns: capsule-capture show {self.cid}")
        yield Static("", id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = (self.data.get("title") or self.cid) if self.data else self.cid
        views = list(self.query(TurnView))
        if views:
            i = self.start_turn if self.start_turn is not None and 0 <= self.start_turn < len(views) else 0
            views[i].focus()
            if i:
                self.call_after_refresh(views[i].scroll_visible, top=True, animate=False)

    # -- helpers --------------------------------------------------------------
    def say(self, text: str) -> None:
        """A line at the bottom of the thread (and a notification)."""
        self.query_one("#status", Static).update(Text(text))
        self.notify(text, timeout=6)

    def current(self) -> TurnView | None:
        f = self.focused
        while f is not None and not isinstance(f, TurnView):
            f = f.parent if isinstance(f.parent, (TurnView, Collapsible, Vertical)) else None
        return f

    # -- actions --------------------------------------------------------------
    def action_back(self) -> None:
        self.app.pop_screen()

    def action_turn(self, step: int) -> None:
        views = list(self.query(TurnView))
        if not views:
            return
        cur = self.current()
        i = views.index(cur) + step if cur in views else 0
        i = max(0, min(len(views) - 1, i))
        views[i].focus()
        views[i].scroll_visible(animate=False)

    def action_toggle(self) -> None:
        cur = self.current()
        if cur is not None:
            for c in cur.query(Collapsible):
                c.collapsed = not c.collapsed

    def action_export(self) -> None:
        if self.conv is None:
            return
        from capsule_capture.render import conversation_markdown
        out_dir = self.app.export_dir  # type: ignore[attr-defined]
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
            path = out_dir / f"{self.cid}.md"
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # private by default
            with open(fd, "w", encoding="utf-8") as f:
                f.write(conversation_markdown(self.data))
        except OSError as e:
            self.say(f"export failed: {e.strerror or e}")
            return
        self.say(f"exported to {path}")

    def action_copy_resume(self) -> None:
        if self.conv is None:
            return
        cmd = catalog.resume_command(self.conv)
        if cmd is None:
            why = "it has no session id of its own" if self.conv.native_id is None else "it has no resume command"
            self.say(f"{self.conv.agent}: nothing to resume ({why})")
            return
        self.app.copy_to_clipboard(cmd)
        self.say(f"copied: {cmd}")

    def action_screen_at(self) -> None:
        cur = self.current()
        if cur is None or cur.turn.get("vector") != "screen":
            self.say("p shows the recording at a screen turn: focus one marked [screen]")
            return
        path = catalog.cast_path(self.conv)
        when = catalog.when(cur.turn.get("ts"))
        if path is None or when is None:
            self.say("the recording of this turn is no longer on disk" if path is None
                     else "this turn has no time to find it at")
            return
        from capsule_capture.tui.screenshot import ScreenAtScreen
        self.app.push_screen(ScreenAtScreen(path, when.timestamp()))
