"""The base of every agent's chrome profile: transcript -> labels -> turns.

An agent module subclasses `ChromeProfile` and mostly sets data: the
command names that launch it, the screen text that identifies it, its
`rules`, and the viewport of its full-screen frames. It overrides a step
only where data cannot say it.
"""
from __future__ import annotations

from typing import ClassVar, Iterable, Sequence

from screen.cast import CastHeader
from screen.frames import Frame
from agents_chrome.rules import Labeled, LineRule, label_lines, mark_implicit_answers
from agents_chrome.segment import segment
from agents_chrome.transcript import TLine, build_transcript
from agents_chrome.turns import Turn


class ChromeProfile:
    name: ClassVar[str] = "generic"
    #: agent releases the rules were checked against
    checked_versions: ClassVar[tuple[str, ...]] = ()
    #: executable basenames that launch the agent
    commands: ClassVar[tuple[str, ...]] = ()
    #: regexes (regex module) that identify the agent on screen
    screen_signatures: ClassVar[tuple[str, ...]] = ()
    rules: ClassVar[Sequence[LineRule]] = ()
    #: a prompt ends at its first blank row; text after it with no marker is
    #: the answer whose marker row scrolled away (or was never drawn)
    prompt_ends_at_blank: ClassVar[bool] = False

    # -- steps --------------------------------------------------------------
    def viewport(self, frame: Frame) -> tuple[int, int] | None:
        """Rows of an alternate-screen frame that hold conversation."""
        return (0, len(frame.lines))

    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        """Rows of the final main-screen frame that hold conversation."""
        return (0, len(frame.lines))

    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        return build_transcript(frames, self.viewport, self.main_viewport)

    def label(self, lines: list[TLine]) -> list[Labeled]:
        labeled = label_lines(lines, self.rules)
        if self.prompt_ends_at_blank:
            mark_implicit_answers(labeled)
        return labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | None:
        return Turn(kind, text)

    def turns(self, labeled: list[Labeled]) -> list[Turn]:
        return segment(labeled, self.make_turn)

    def reconstruct(self, frames: Iterable[Frame], header: CastHeader | None = None
                    ) -> tuple[list[Turn], list[Labeled]]:
        """Turns and the labeled transcript they came from (for `explain`)."""
        labeled = self.label(self.transcript(frames))
        return self.turns(labeled), labeled
