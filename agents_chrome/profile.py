"""The base of every agent's chrome profile: transcript -> labels -> turns.

An agent module subclasses `ChromeProfile` and mostly sets data: the
command names that launch it, the screen text that identifies it, its
`rules`, and the viewport of its full-screen frames. It overrides a step
only where data cannot say it.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterable, Sequence, TypeVar

from screen.cast import CastHeader
from screen.frames import Frame
from agents_chrome.rules import Labeled, LineRule, label_lines, mark_implicit_answers
from agents_chrome.segment import segment
from agents_chrome.transcript import TLine, build_transcript
from agents_chrome.turns import Turn


_T = TypeVar("_T")


def per_frame(method: "Callable[[Any, Frame], _T]") -> "Callable[[Any, Frame], _T]":
    """A profile method of one frame, worked out once per frame and profile.

    The same frame is read by several steps (which frames to keep, the
    viewport, the rows, the stitcher's view), and each step often asks the
    same question (where is the input box?); a frame's rows never change,
    so the answer is kept on the frame (`Frame.memo`). The value is shared
    by every caller: a method returning a list must return one its callers
    only read (slice), never change.
    """
    def cached(self: Any, frame: Frame) -> _T:
        memo = frame.memo
        key = (method, self)
        try:
            return memo[key]
        except KeyError:
            got = memo[key] = method(self, frame)
            return got
    cached.__name__ = method.__name__
    cached.__qualname__ = method.__qualname__
    cached.__doc__ = method.__doc__
    cached.__wrapped__ = method  # type: ignore[attr-defined]
    return cached


class ChromeProfile:
    name: ClassVar[str] = "generic"
    #: agent releases the rules were checked against
    checked_versions: ClassVar[tuple[str, ...]] = ()
    #: executable basenames that launch the agent
    commands: ClassVar[tuple[str, ...]] = ()
    #: regexes (regex module) that identify the agent on screen
    screen_signatures: ClassVar[tuple[str, ...]] = ()
    #: words of a launch line, after the executable, that resume an earlier
    #: session: the agent prints that session's turns again when it starts
    resume_words: ClassVar[frozenset[str]] = frozenset()
    #: the prompts an earlier run of the agent was given in the same recording,
    #: set on a copy of the profile by the shell split for a run that resumes that session
    #: (the agent draws them again first), empty otherwise
    prompts_before: tuple[str, ...] = ()
    rules: ClassVar[Sequence[LineRule]] = ()
    #: a prompt ends at its first blank row; text after it with no marker is
    #: the answer whose marker row scrolled away (or was never drawn)
    prompt_ends_at_blank: ClassVar[bool] = False
    #: answers drawn without a marker come out one block per row: join
    #: consecutive answer turns back into one
    join_answers: ClassVar[bool] = False
    #: options of the full-screen stitcher across widths (`relayout.LayoutStitcher`)
    layout_options: ClassVar[dict[str, Any]] = {}

    # -- steps --------------------------------------------------------------
    def viewport(self, frame: Frame) -> tuple[int, int] | None:
        """Rows of an alternate-screen frame that hold conversation."""
        return (0, len(frame.lines))

    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        """Rows of the final main-screen frame that hold conversation."""
        return (0, len(frame.lines))

    def rows(self, frame: Frame) -> list[str]:
        """A frame's row texts as the rules should see them."""
        return frame.lines

    def dialog(self, frame: Frame) -> list[str] | None:
        """The rows of a modal dialog drawn over the conversation, if any.

        A frame with a dialog is left out of the transcript (the dialog
        covers the conversation) and the dialog becomes a system turn.
        """
        return None

    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        self._dialogs: list[tuple[float, list[str]]] = []

        def conversation_frames() -> Iterable[Frame]:
            for f in frames:
                rows = self.dialog(f) if f.alternate else None
                if rows is None:
                    self._conversation_frame(f)
                    yield f
                elif not self._dialogs or self._dialogs[-1][1] != rows:
                    if self._dialogs and rows[:1] == self._dialogs[-1][1][:1]:
                        self._dialogs[-1] = (self._dialogs[-1][0], rows)  # the same dialog, redrawn
                    else:
                        self._dialogs.append((f.time, rows))
                        self._dialog_opened(f)
        return build_transcript(conversation_frames(), self.viewport, self.main_viewport, self.rows,
                                self.layout_options, self.layout)

    def layout(self, frame: Frame) -> object:
        """How an alternate-screen frame lays the conversation out besides
        its width, when the program has more than one view of the same
        history; None: unknown from this frame (as the frames before)."""
        return None

    def _conversation_frame(self, frame: Frame) -> None:
        """Hook: `frame` shows the conversation (no dialog over it), in frame order."""

    def _dialog_opened(self, frame: Frame) -> None:
        """Hook: a new dialog was drawn in `frame` (appended to `_dialogs`)."""

    def label(self, lines: list[TLine]) -> list[Labeled]:
        labeled = label_lines(lines, self.rules)
        if self.prompt_ends_at_blank:
            mark_implicit_answers(labeled)
        return labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | None:
        return Turn(kind, text)

    def turns(self, labeled: list[Labeled]) -> list[Turn]:
        made = segment(labeled, self.make_turn)
        if not self.join_answers:
            return made
        out: list[Turn] = []
        for t in made:
            if t.role == "assistant" and out and out[-1].role == "assistant":
                out[-1].text += "\n" + t.text
                out[-1].partial = out[-1].partial or t.partial
            else:
                out.append(t)
        return out

    def reconstruct(self, frames: Iterable[Frame], header: CastHeader | None = None
                    ) -> tuple[list[Turn], list[Labeled]]:
        """Turns and the labeled transcript they came from (for `explain`)."""
        labeled = self.label(self.transcript(frames))
        turns = self.turns(labeled)
        dialogs = getattr(self, "_dialogs", [])
        if dialogs:
            turns = _insert_by_time(turns, [Turn("system", "\n".join(rows).strip(), time=t)
                                            for t, rows in dialogs])
        return turns, labeled


def _insert_by_time(turns: list[Turn], extra: list[Turn]) -> list[Turn]:
    """Merge `extra` (in time order) into `turns` before the first later turn."""
    out: list[Turn] = []
    pending = list(extra)
    for t in turns:
        while pending and t.time is not None and pending[0].time is not None and pending[0].time <= t.time:
            out.append(pending.pop(0))
        out.append(t)
    return out + pending
