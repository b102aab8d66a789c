"""The browser's application: the archive, the global keys, and the screen stack.

Workspaces -> conversations (narrowed by agent and day) -> the thread; `/`
opens the search from anywhere, Esc goes back one screen, `q` quits. Each
screen is its own module; this one only wires them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.binding import Binding

from capsule_capture.tui.lists import ConversationsScreen, WorkspacesScreen


class BrowseApp(App[None]):
    TITLE = "capsule-capture"
    SUB_TITLE = "browse"
    CSS = """
    #filters { width: 30; border-right: solid $panel-lighten-2; }
    #filters Label { padding: 0 1; text-style: bold; }
    #agents { height: auto; max-height: 12; }
    #days { height: 1fr; }
    #convs { width: 1fr; }
    TurnView { height: auto; padding: 0 1; margin: 0 0 1 0; }
    TurnView:focus { background: $boost; border-left: thick $accent; }
    TurnView .turn-head { text-style: bold; }
    TurnView Collapsible { border-top: none; padding: 0; margin: 0; background: transparent; }
    TurnView Collapsible > Contents { padding: 0 0 0 3; height: auto; }
    TurnView CollapsibleTitle { padding: 0; }
    #conv-head { padding: 0 1; margin: 0 0 1 0; border-bottom: solid $panel-lighten-2; }
    #results { height: 1fr; }
    #status { height: auto; max-height: 3; padding: 0 1; background: $panel; }
    """
    BINDINGS = [
        Binding("q", "quit", "quit"),
        Binding("slash", "search", "search", key_display="/"),
    ]

    def __init__(self, store: Any, workspace: str | None = None, agent: str | None = None,
                 export_dir: Path | None = None) -> None:
        super().__init__()
        self.store = store
        self.start_workspace = workspace
        self.start_agent = agent
        self.export_dir = export_dir or Path.cwd()

    def on_mount(self) -> None:
        self.push_screen(WorkspacesScreen())
        if self.start_workspace is not None or self.start_agent:
            self.push_screen(ConversationsScreen(self.start_workspace, self.start_agent))

    def action_search(self) -> None:
        from capsule_capture.tui.search import SearchScreen
        if not isinstance(self.screen, SearchScreen):
            self.push_screen(SearchScreen())

    def open_conversation(self, cid: str, turn: int | None = None) -> None:
        from capsule_capture.tui.thread import ThreadScreen
        self.push_screen(ThreadScreen(cid, turn))
