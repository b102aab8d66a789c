"""`/`: search the whole archive as you type.

Every keystroke runs one ranked query on the keyword index (the last,
half-typed word completed from the index: see live.py); results show where
the hit is (agent, local date, turn) and the highlighted snippet. Down or
Tab moves into the results, Enter opens the selected one at its turn, Esc
goes back.
"""
from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from capsule_capture.tui import catalog
from capsule_capture.tui.live import live_search


def hit_prompt(h: Any) -> Text:
    c = h.conv
    t = Text.assemble((c.agent, "cyan"), "  ", catalog.local_time(c.started_at), "  ",
                      (f"turn {h.turn_index + 1} {h.role}", "magenta"), "  ",
                      (" ".join((c.title or "").split())[:80], "bold"), "\n  ")
    for i, part in enumerate(h.snippet.replace("]]", "[[").split("[[")):
        t.append(part, "bold yellow" if i % 2 else "")
    return t


class SearchScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "back"),
        Binding("down", "results", "results", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.hits: list[Any] = []
        self.last_ms = 0.0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="search every conversation (words; CJK works too)", id="q")
        yield OptionList(id="results")
        yield Static("", id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "search"
        self.query_one("#q", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        # each keystroke searches in a worker thread, so typing never waits for a search;
        # a newer keystroke cancels the older search's display (exclusive), and a result that
        # arrives for text no longer in the box is dropped
        value = event.value
        self.run_worker(lambda: self._search(value), thread=True, exclusive=True, group="search")

    def _search(self, value: str) -> None:
        t0 = time.perf_counter()
        hits = live_search(self.app.store, value)  # type: ignore[attr-defined]
        ms = (time.perf_counter() - t0) * 1000
        self.app.call_from_thread(self._show, value, hits, ms)

    def _show(self, value: str, hits: list[Any], ms: float) -> None:
        if value != self.query_one("#q", Input).value:
            return  # typed on since: a newer search is on its way
        self.hits, self.last_ms = hits, ms
        ol = self.query_one("#results", OptionList)
        ol.clear_options()
        ol.add_options([Option(hit_prompt(h), id=str(i)) for i, h in enumerate(hits)])
        if hits:
            ol.highlighted = 0
        status = (f"{len(hits)} result{'s' if len(hits) != 1 else ''} in {ms:.0f} ms" if value.strip() else "")
        self.query_one("#status", Static).update(status)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.hits:
            self._open(self.query_one("#results", OptionList).highlighted or 0)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._open(int(event.option.id or 0))

    def _open(self, i: int) -> None:
        if 0 <= i < len(self.hits):
            h = self.hits[i]
            self.app.open_conversation(h.conv.id, h.turn_index)  # type: ignore[attr-defined]

    def action_results(self) -> None:
        ol = self.query_one("#results", OptionList)
        if self.hits and not ol.has_focus:
            ol.focus()
        elif ol.has_focus:
            ol.action_cursor_down()

    def action_back(self) -> None:
        self.app.pop_screen()
