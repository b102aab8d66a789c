"""The recording's screen at the moment of a screen turn (`p` in the thread).

The turn's time is wall-clock; the recording's events are seconds from its
header's timestamp, so the cast is replayed through the virtual screen up
to (turn time - start) and the visible screen is drawn with its colours.
"""
from __future__ import annotations

from rich.panel import Panel
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


def screen_at(path: str, wall_time: float) -> tuple[Panel, float]:
    """The screen of `path` at `wall_time` (epoch seconds), and the offset it was taken at."""
    from capsule_capture.render import screen_text
    from screen.cast import CastReader
    from screen.frames import replay_screen
    with CastReader(path) as reader:
        start = reader.header.timestamp
    at = max(0.0, wall_time - start) if start is not None else None
    header, scr, t = replay_screen(path, at)
    title = f"{path} @ {t:.2f}s  {scr.columns}x{scr.lines}" + ("  [alternate]" if scr.alternate else "")
    return Panel(screen_text(scr), title=Text(title), expand=False), t


class ScreenAtScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,p", "close", "back")]

    def __init__(self, path: str, wall_time: float) -> None:
        super().__init__()
        self.path = path
        self.wall_time = wall_time
        self.offset_s: float | None = None
        self.body: object = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="screen-at"):
            yield Static(Text(f"replaying {self.path} …"), id="screen-body")
        yield Footer()

    def on_mount(self) -> None:
        # a long recording takes seconds to replay: off the UI thread, the browser stays live
        self.run_worker(self._replay, thread=True, exclusive=True, name="screen-at")

    def _replay(self) -> None:
        try:
            body, offset = screen_at(self.path, self.wall_time)
        except Exception as e:  # a damaged or vanished recording: say so, keep the browser
            body, offset = Text(f"cannot replay {self.path}: {e}"), None
        self.app.call_from_thread(self._show, body, offset)

    def _show(self, body: object, offset: float | None) -> None:
        self.body, self.offset_s = body, offset
        self.query_one("#screen-body", Static).update(body)  # type: ignore[arg-type]

    def action_close(self) -> None:
        self.app.pop_screen()
