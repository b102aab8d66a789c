"""Chrome rules as data: line patterns that label transcript lines.

A profile lists `LineRule`s; the first rule whose pattern matches a line
labels it. Marker kinds (user, assistant, tool_call, tool_result, system,
thinking) open a new block; `cont` continues the open block; `chrome` and
`blank` are what they say. Lines no rule matches continue the open block.
The named group `body` (if any) is the text the line contributes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import regex

from agents_chrome.transcript import TLine

MARKERS = ("user", "assistant", "tool_call", "tool_result", "system", "thinking")
KINDS = MARKERS + ("cont", "chrome", "blank")


@dataclass(frozen=True)
class LineRule:
    name: str
    kind: str
    pattern: str
    flags: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"rule {self.name}: unknown kind {self.kind!r}")
        object.__setattr__(self, "_rx", regex.compile(self.pattern, self.flags | regex.V1))

    def match(self, text: str) -> "regex.Match[str] | None":
        return self._rx.search(text)  # type: ignore[attr-defined]


@dataclass
class Labeled:
    line: TLine
    kind: str
    rule: str
    body: str


def label_lines(lines: Iterable[TLine], rules: Sequence[LineRule]) -> list[Labeled]:
    out: list[Labeled] = []
    for ln in lines:
        text = ln.text
        if not text.strip():
            out.append(Labeled(ln, "blank", "blank", ""))
            continue
        for r in rules:
            m = r.match(text)
            if m is not None:
                body = m.group("body") if "body" in m.groupdict() else text
                if r.kind == "blank":
                    body = ""
                out.append(Labeled(ln, r.kind, r.name, body if body is not None else ""))
                break
        else:
            out.append(Labeled(ln, "cont", "unmatched", text))
    return out


def mark_implicit_answers(labeled: list[Labeled]) -> None:
    """Unmarked text after a prompt and a blank row opens an answer."""
    in_prompt = False
    seen_blank = False
    for lb in labeled:
        if lb.kind in MARKERS:
            in_prompt = lb.kind == "user"
            seen_blank = False
        elif lb.kind == "blank":
            seen_blank = in_prompt or seen_blank
        elif lb.kind == "cont" and in_prompt and seen_blank:
            lb.kind, lb.rule = "assistant", "implicit-answer"
            in_prompt = False


# Chrome every TUI shares: spinners, timers, box borders, interrupt hints.
COMMON_CHROME: tuple[LineRule, ...] = (
    LineRule("braille-spinner", "chrome", r"^\s*[\u2800-\u28ff]\s"),
    LineRule("interrupt-hint", "chrome", r"(?i)\b(esc|ctrl\+c)\b.{0,20}\b(to )?(interrupt|cancel)\b"),
    LineRule("box-border", "chrome", r"^\s*[╭╰┌└╔╚][─━═]*.*[╮╯┐┘╗╝]\s*$"),
    LineRule("rule-line", "chrome", r"^\s*[─━═▀▄▔▁\-]{8,}\s*$"),
    LineRule("progress-bar", "chrome", r"[█▓▒░]{4,}"),
)
