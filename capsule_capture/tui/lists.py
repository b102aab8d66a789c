"""The two list screens: workspaces, then a workspace's conversations.

The conversation table is lazy: it holds one page of rows and asks the
archive for the next page only when the cursor comes near the end, so
opening it costs the same at 100 or 100,000 conversations. The agent and
day lists beside it narrow the table (a new query, from the first page).
"""
from __future__ import annotations

from datetime import date
from typing import Any, Iterator

import msgspec
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label, OptionList
from textual.widgets.option_list import Option

from archive.record import Source
from capsule_capture.tui import catalog

PAGE = 100
ALL = "\0all"


class _TurnVector(msgspec.Struct):
    vector: str = "native"


class _Provenance(msgspec.Struct):
    """The part of a stored conversation that says where its turns come from (the rest is skipped)."""
    sources: list[Source] = msgspec.field(default_factory=list)
    turns: list[_TurnVector] = msgspec.field(default_factory=list)


_prov_dec = msgspec.msgpack.Decoder(_Provenance)


def provenance(store: Any, txn: Any, cid: str) -> str:
    """`native`, `screen` or `both`, read without decoding the turns' text."""
    import zlib
    data = txn.get(cid.encode(), db=store.conv)
    if not data:
        return "-"
    try:
        return catalog.vectors(_prov_dec.decode(zlib.decompress(data)))
    except (msgspec.DecodeError, msgspec.ValidationError, zlib.error):
        return "?"


class WorkspacesScreen(Screen[None]):
    """Every workspace, most recently active first; `All workspaces` on top."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label(" Workspaces: Enter opens, / searches everything, q quits", id="ws-help")
        yield OptionList(id="workspaces")
        yield Footer()

    def on_mount(self) -> None:
        store = self.app.store  # type: ignore[attr-defined]
        ol = self.query_one("#workspaces", OptionList)
        n = store.count()
        if n == 0:
            ol.add_option(Option("The archive is empty: run `capsule-capture sync` or `capsule-capture record`",
                                 id=ALL, disabled=True))
            return
        options = [Option(f"All workspaces  ({n} conversation{'s' if n != 1 else ''})", id=ALL)]
        for ws, latest in catalog.workspaces(store):
            options.append(Option(f"{ws or '(no workspace)'}   last {catalog.local_time(latest)}", id="w" + ws))
        ol.add_options(options)
        ol.highlighted = 0
        ol.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        oid = event.option.id or ALL
        self.app.push_screen(ConversationsScreen(None if oid == ALL else oid[1:]))


class ConversationsScreen(Screen[None]):
    """A workspace's conversations (or all), narrowed by agent and day, newest first."""

    BINDINGS = [
        Binding("escape", "back", "back"),
        Binding("a", "focus('agents')", "agents"),
        Binding("d", "focus('days')", "dates"),
        Binding("t", "focus('convs')", "table"),
    ]

    def __init__(self, workspace: str | None, agent: str | None = None) -> None:
        super().__init__()
        self.workspace = workspace
        self.agent = agent
        self.day: date | None = None
        self._rows: Iterator[dict[str, Any]] | None = None
        self._exhausted = False
        self._ids: list[str] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="filters"):
                yield Label("Agent")
                yield OptionList(id="agents")
                yield Label("Date")
                yield OptionList(id="days")
            yield DataTable(id="convs", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.workspace or "all workspaces"
        store = self.app.store  # type: ignore[attr-defined]
        agents = self.query_one("#agents", OptionList)
        names = catalog.agents(store)
        agents.add_options([Option("any agent", id=ALL)] + [Option(a, id="a" + a) for a in names])
        agents.highlighted = 0 if not self.agent or self.agent not in names else names.index(self.agent) + 1
        self._fill_days()
        table = self.query_one("#convs", DataTable)
        side = 30 if self.app.size.width >= 110 else 20  # narrow terminals: the table keeps its room
        self.query_one("#filters").styles.width = side
        fixed = side + 11 + 21 + 5 + 6 + 2 * 5 + 2  # the filters, the other columns, cell padding, scrollbar
        table.add_column("title", width=max(16, self.app.size.width - fixed), key="title")
        table.add_column("agent", width=11, key="agent")
        table.add_column("started", width=21, key="started")
        table.add_column("turns", width=5, key="turns")
        table.add_column("from", width=6, key="from")
        self.reload()
        table.focus()

    def _fill_days(self) -> None:
        days = self.query_one("#days", OptionList)
        days.clear_options()
        found = catalog.days(self.app.store, self.workspace, self.agent)  # type: ignore[attr-defined]
        days.add_options([Option("any date", id=ALL)] + [Option(d.strftime("%Y-%m-%d %a"), id="d" + d.isoformat())
                                                         for d in found])
        days.highlighted = 0

    def reload(self) -> None:
        table = self.query_one("#convs", DataTable)
        table.clear()
        self._ids = []
        since = until = None
        if self.day is not None:
            since, until = catalog.day_bounds(self.day)
        self._rows = catalog.rows(self.app.store, agent=self.agent, workspace=self.workspace,  # type: ignore[attr-defined]
                                  since=since, until=until)
        self._exhausted = False
        self.load_page()

    def load_page(self) -> int:
        """Append the next page of rows; the number added."""
        if self._exhausted or self._rows is None:
            return 0
        store = self.app.store  # type: ignore[attr-defined]
        table = self.query_one("#convs", DataTable)
        batch = []
        for r in self._rows:
            batch.append(r)
            if len(batch) >= PAGE:
                break
        if len(batch) < PAGE:
            self._exhausted = True
            self._rows = None
        with store.env.begin() as txn:
            for r in batch:
                title = " ".join((r.get("title") or "").split()) or "-"
                table.add_row(title, r.get("agent") or "?", catalog.local_time(r.get("started_at")),
                              str(r.get("turns") or 0), provenance(store, txn, r["id"]), key=r["id"])
                self._ids.append(r["id"])
        return len(batch)

    @property
    def loaded(self) -> int:
        return len(self._ids)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.cursor_row >= len(self._ids) - 10:
            self.load_page()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value:
            self.app.open_conversation(event.row_key.value)  # type: ignore[attr-defined]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        oid = event.option.id or ALL
        if event.option_list.id == "agents":
            self.agent = None if oid == ALL else oid[1:]
            self.day = None
            self._fill_days()
        elif event.option_list.id == "days":
            self.day = None if oid == ALL else date.fromisoformat(oid[1:])
        self.reload()
        self.query_one("#convs", DataTable).focus()

    def action_focus(self, which: str) -> None:
        self.query_one(f"#{which}").focus()

    def action_back(self) -> None:
        self.app.pop_screen()
