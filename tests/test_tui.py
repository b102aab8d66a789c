"""The browser, driven headless through Textual's pilot on a real archive.

The archive is built by the real CLI (sync of real recordings' native files,
import of real recordings) plus conversations put through the store the way
sync does; every key of the browser is pressed here.
"""
from __future__ import annotations

import asyncio
import os
import stat

import pytest

from tests.conftest import RECORDINGS, cli

pytest.importorskip("textual")

from archive.record import Conversation, Turn  # noqa: E402
from archive.store import Store  # noqa: E402
from capsule_capture.tui.app import BrowseApp  # noqa: E402
from capsule_capture.tui.lists import PAGE, ConversationsScreen, WorkspacesScreen  # noqa: E402
from capsule_capture.tui.screenshot import ScreenAtScreen  # noqa: E402
from capsule_capture.tui.search import SearchScreen  # noqa: E402
from capsule_capture.tui.thread import ThreadScreen, TurnView  # noqa: E402

NATIVE = ("codex/s3-tool-chain-120x40", "gemini/gem-x1-tools-table-90x28")
SCREEN_ONLY = "kimi/kimi-x1-tools-100x30"
BULK_WS = "/work/bulk-project"
BULK = 2 * PAGE + 50


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("tui")
    env = {"CAPSULE_CAPTURE_HOME": str(home)}
    for case in NATIVE:
        assert cli("sync", "--home", str(RECORDINGS / case / "native"), env=env).returncode == 0
    r = cli("import", str(RECORDINGS / SCREEN_ONLY / "session.cast"), "--agent", "kimi", env=env)
    assert r.returncode == 0, r.stderr
    with Store(home / "archive") as store:
        convs = [Conversation(id=f"bulk{i:012d}", agent="claude-code", native_id=f"bulk-{i}", workspace=BULK_WS,
                              title=f"bulk conversation {i}", started_at=f"2026-10-{1 + i % 28:02d}T10:{i % 60:02d}:00Z",
                              turns=[Turn(role="user", text=f"question number {i}"),
                                     Turn(role="assistant", text="an answer", ts="2026-10-01T10:00:05Z")])
                 for i in range(BULK)]
        convs.append(Conversation(id="partial000000001", agent="codex", native_id="p-1", workspace="/work/p",
                                  title="cut short", started_at="2026-09-01T08:00:00Z",
                                  turns=[Turn(role="user", text="start a long job"),
                                         Turn(role="assistant", text="working on it, first I will")]))
        store.write(lambda txn: [store.put(txn, c) for c in convs])
    return home


def run(home, script, size=(120, 40), **kw):
    """Run the browser on the archive at `home`, headless, and `script(app, pilot)` in it."""
    async def main():
        with Store(home / "archive") as store:
            app = BrowseApp(store, **kw)
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                await script(app, pilot)
    asyncio.run(main())


async def settle(app, pilot):
    """Wait for the searches typed so far (they run in worker threads) and their display."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def test_workspaces_conversations_thread_back_and_quit(home):
    async def script(app, pilot):
        assert isinstance(app.screen, WorkspacesScreen)
        await pilot.press("enter")  # All workspaces
        await pilot.pause()
        scr = app.screen
        assert isinstance(scr, ConversationsScreen) and scr.workspace is None
        table = scr.query_one("#convs")
        first = table.get_row_at(0)
        assert first[1] == "gemini" and first[3] == "10" and first[4] == "native"
        assert first[2].endswith(("UTC", "CET", "JST", "EST")) or first[2][-4:].strip()  # local time, zone named
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ThreadScreen) and app.screen.conv.agent == "gemini"
        await pilot.press("escape")
        assert isinstance(app.screen, ConversationsScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, WorkspacesScreen)
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0 and not app.is_running
    run(home, script)


def test_conversation_list_is_lazy(home):
    async def script(app, pilot):
        scr = app.screen
        assert isinstance(scr, ConversationsScreen) and scr.workspace == BULK_WS
        assert scr.loaded == PAGE  # not all BULK rows
        table = scr.query_one("#convs")
        for _ in range(PAGE):
            await pilot.press("down")
        await pilot.pause()
        assert PAGE < scr.loaded <= 3 * PAGE
        for _ in range(12):
            await pilot.press("pagedown")
        await pilot.pause()
        assert scr.loaded == BULK == table.row_count
        # newest first
        starts = [table.get_row_at(i)[2] for i in range(table.row_count)]
        assert starts == sorted(starts, reverse=True)
    run(home, script, workspace=BULK_WS)


def test_agent_and_date_filters(home):
    async def script(app, pilot):
        scr = app.screen
        assert isinstance(scr, ConversationsScreen)
        await pilot.press("a")
        agents = scr.query_one("#agents")
        assert agents.has_focus
        names = [agents.get_option_at_index(i).prompt for i in range(agents.option_count)]
        assert names[0] == "any agent" and {"codex", "gemini", "kimi", "claude-code"} <= set(names)
        agents.highlighted = names.index("codex")
        await pilot.press("enter")
        await pilot.pause()
        table = scr.query_one("#convs")
        assert table.has_focus and scr.agent == "codex"
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        assert rows and {r[1] for r in rows} == {"codex"} and len(rows) == 2
        await pilot.press("d")
        days = scr.query_one("#days")
        labels = [str(days.get_option_at_index(i).prompt) for i in range(days.option_count)]
        assert labels[0] == "any date" and len(labels) == 3  # the two codex days
        days.highlighted = 2  # the older day: the partial conversation's
        await pilot.press("enter")
        await pilot.pause()
        assert [table.get_row_at(i)[0] for i in range(table.row_count)] == ["cut short"]
    run(home, script, workspace=None, agent="codex")


def test_search_as_you_type_enter_opens_esc_back(home):
    async def script(app, pilot):
        await pilot.press("slash")
        await pilot.pause()
        scr = app.screen
        assert isinstance(scr, SearchScreen)
        seen = []
        for ch in "pyth":  # half a word: completed from the index
            await pilot.press(ch)
            await settle(app, pilot)
            seen.append([h.conv.agent for h in scr.hits])
        assert "codex" in seen[-1]
        assert scr.last_ms < 1000
        await pilot.press("space", *"vers")
        await settle(app, pilot)
        assert scr.hits and scr.hits[0].conv.agent == "codex"
        await pilot.press("enter")
        await pilot.pause()
        th = app.screen
        assert isinstance(th, ThreadScreen) and th.conv.agent == "codex"
        focused = th.current()
        assert focused is not None and focused.index == scr.hits[0].turn_index
        await pilot.press("escape")
        assert app.screen is scr
        await pilot.press("escape")
        assert isinstance(app.screen, WorkspacesScreen)
    run(home, script)


def test_search_finds_cjk_and_nothing_for_nonsense(home):
    async def script(app, pilot):
        await pilot.press("slash")
        scr = app.screen
        await pilot.press(*"zzqqxx")
        await settle(app, pilot)
        assert scr.hits == []
        scr.query_one("#q").value = "question number 7"
        await settle(app, pilot)
        assert scr.hits and scr.hits[0].conv.workspace == BULK_WS
        before = scr.hits
        scr._show("question number", [], 1.0)  # a late result for text typed over: dropped
        assert scr.hits is before
    run(home, script)


def _open(app, cid):
    app.open_conversation(cid)


def test_export_writes_private_markdown(home, tmp_path):
    out = tmp_path / "exports"

    async def script(app, pilot):
        codex = next(r for r in app.store.iter_rows() if r["agent"] == "codex" and r["title"] != "cut short")
        _open(app, codex["id"])
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        f = out / f"{codex['id']}.md"
        assert f.is_file()
        assert stat.S_IMODE(os.stat(f).st_mode) == 0o600
        text = f.read_text()
        assert text.startswith("# ") and "check the python version" in text and "## Tool call" in text
        assert str(f) in str(app.screen.query_one("#status").render())
    run(home, script, export_dir=out)


def test_copy_resume_command(home):
    async def script(app, pilot):
        codex = next(r for r in app.store.iter_rows() if r["agent"] == "codex" and r["title"] != "cut short")
        conv = app.store.get(codex["id"])
        _open(app, codex["id"])
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard.endswith(f"codex resume {conv.native_id}")
        assert app.clipboard.startswith("cd ")
        assert "copied: " in str(app.screen.query_one("#status").render())
        await pilot.press("escape")
        kimi = next(r for r in app.store.iter_rows() if r["agent"] == "kimi")
        _open(app, kimi["id"])  # a screen capture: the agent's own session id is unknown
        await pilot.pause()
        app.copy_to_clipboard("")
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == ""
        assert "nothing to resume" in str(app.screen.query_one("#status").render())
    run(home, script)


def test_p_shows_the_recording_at_the_turn(home):
    async def script(app, pilot):
        kimi = next(r for r in app.store.iter_rows() if r["agent"] == "kimi")
        _open(app, kimi["id"])
        await pilot.pause()
        th = app.screen
        views = list(th.query(TurnView))
        user = [v for v in views if v.turn["role"] == "user" and v.turn.get("vector") == "screen"]
        assert user
        target = user[-1]
        target.focus()
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        shot = app.screen
        assert isinstance(shot, ScreenAtScreen)
        await app.workers.wait_for_complete()  # the replay runs in a thread
        await pilot.pause()
        assert shot.offset_s is not None and shot.offset_s > 0
        from rich.console import Console
        con = Console(width=200, record=True, file=open(os.devnull, "w"))
        con.print(shot.body)
        text = con.export_text()
        assert "cannot replay" not in text
        # the screen at that moment shows the prompt the turn holds, drawn by the agent's TUI
        prompt = " ".join(target.turn["text"].split())[:20]
        assert prompt in " ".join(text.split())
        await pilot.press("escape")
        assert app.screen is th
    run(home, script, size=(140, 50))


def test_p_on_a_native_turn_says_why_not(home):
    async def script(app, pilot):
        gem = next(r for r in app.store.iter_rows() if r["agent"] == "gemini")
        _open(app, gem["id"])
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, ThreadScreen)
        assert "screen turn" in str(app.screen.query_one("#status").render())
    run(home, script)


def test_thread_marks_partial_and_folds_tools(home):
    from textual.widgets import Collapsible

    async def script(app, pilot):
        codex = next(r for r in app.store.iter_rows() if r["agent"] == "codex" and r["title"] != "cut short")
        _open(app, codex["id"])
        await pilot.pause()
        th = app.screen
        folds = list(th.query(Collapsible))
        assert folds and all(c.collapsed for c in folds)
        tool = next(v for v in th.query(TurnView) if v.turn["role"] == "tool_call")
        tool.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert not tool.query_one(Collapsible).collapsed
        # arrows walk the turns
        first = th.query(TurnView).first()
        first.focus()
        await pilot.press("down")
        assert th.current().index == 1
        await pilot.press("up")
        assert th.current().index == 0
        # a partial turn is marked
        from capsule_capture.tui.thread import turn_head
        head = turn_head({"role": "assistant", "text": "x", "partial": True, "ts": "2026-11-22T07:00:00Z"})
        assert "[partial]" in head.plain and "[native]" in head.plain
        assert "[screen]" in turn_head({"role": "user", "text": "x", "vector": "screen"}).plain
        view = TurnView(999, {"role": "assistant", "text": "cut", "partial": True})
        await th.query_one("#thread").mount(view)
        await pilot.pause()
        assert "[partial]" in str(view.query_one(".turn-head").render())
    run(home, script)


def test_empty_archive_says_how_to_fill_it(tmp_path):
    async def main():
        with Store(tmp_path / "archive") as store:
            app = BrowseApp(store)
            async with app.run_test() as pilot:
                await pilot.pause()
                ol = app.screen.query_one("#workspaces")
                assert "capsule-capture sync" in str(ol.get_option_at_index(0).prompt)
                await pilot.press("q")
    asyncio.run(main())


def test_typing_q_and_slash_in_search_is_text(home):
    async def script(app, pilot):
        await pilot.press("slash")
        scr = app.screen
        await pilot.press("q", "slash", "u")
        await pilot.pause()
        assert app.is_running and app.screen is scr
        assert scr.query_one("#q").value == "q/u"
        await pilot.press("escape")
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
    run(home, script)


def test_p_when_the_recording_is_gone(tmp_path):
    import shutil
    cast = tmp_path / "gone.cast"
    shutil.copy(RECORDINGS / SCREEN_ONLY / "session.cast", cast)
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "h")}
    assert cli("import", str(cast), "--agent", "kimi", env=env).returncode == 0
    cast.unlink()

    async def main():
        with Store(tmp_path / "h" / "archive") as store:
            app = BrowseApp(store)
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                app.open_conversation(next(store.iter_ids()))
                await pilot.pause()
                th = app.screen
                next(v for v in th.query(TurnView) if v.turn.get("vector") == "screen").focus()
                await pilot.press("p")
                await pilot.pause()
                assert app.screen is th
                assert "no longer on disk" in str(th.query_one("#status").render())
    asyncio.run(main())
