"""Kimi CLI: chrome rules and turn segmentation.

Checked against kimi-cli 1.51.0 (prompt_toolkit, inline).

Screen anatomy:
- the welcome box (`Welcome to Kimi Code CLI!`, directory, session, model,
  tips, update notice) drawn from column 0;
- `✨ text` is a submitted prompt; `• text` an answer (or a list item when
  indented); `• Used Shell (cmd)` a tool call, its output under it;
- output is hard-wrapped at the terminal width, even mid-word: a row that
  fills the width continues on the next row (joined back here);
- the live area: `⠙ Composing... 4s · 1.1k tokens`, the `── input ──` box,
  a rule, the status bar (`yolo  agent (model)  …  ctrl-x: toggle mode`,
  `context: 0.0% (…)`);
- `/help` opens a pager on the alternate screen (a system turn);
- at exit: `Bye!`, tips, `To resume this session: kimi -r <id>`.
"""
from __future__ import annotations

from typing import Iterable

import regex
from wcwidth import wcswidth

from agents_chrome.profile import ChromeProfile
from agents_chrome.rules import Labeled, LineRule
from agents_chrome.transcript import TLine
from agents_chrome.turns import Turn
from screen.frames import Frame

INPUT_RULE = regex.compile(r"^──\s*input\s*─+")
TOOL = regex.compile(r"^\s*•\s+Used\s+(?P<name>\w+)\s*(?:\((?P<arg>.*)\))?\s*$")
MARKER = regex.compile(r"^\s*(?:[•✨]\s)?")


class KimiProfile(ChromeProfile):
    name = "kimi"
    checked_versions = ("1.51.0",)
    commands = ("kimi", "kimi-cli")
    screen_signatures = (r"Welcome to Kimi Code CLI", r"kimi -r [0-9a-f-]{8,}", r"── input ─")
    rules = (
        LineRule("welcome-box", "chrome", r"^[│╭╰]"),
        LineRule("spinner", "chrome", r"^\s*[⠀-⣿]\s+\w+\.\.\.(\s+\d+s)?"),
        LineRule("input-rule", "chrome", INPUT_RULE.pattern),
        LineRule("rule", "chrome", r"^\s*─{10,}\s*$"),
        LineRule("status-bar", "chrome", r"(ctrl-x: toggle mode|^\s*context: \d+(\.\d+)?%|^\s*(yolo|agent|plan)\s{2,})"),
        LineRule("exit", "chrome", r"^(Bye!|Tip: |Install: |To resume this session: kimi\b)"),
        LineRule("heading-rule", "chrome", r"^\s+─{3,}\s*$"),
        LineRule("slash-command", "system", r"^✨\s(?P<body>/[\w-]+.*)$"),
        LineRule("prompt", "user", r"^✨\s(?P<body>.*)$"),
        LineRule("tool", "tool_call", TOOL.pattern),
        LineRule("answer", "assistant", r"^•\s(?P<body>.*)$"),
    )

    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        for y in range(len(frame.lines) - 1, -1, -1):
            if INPUT_RULE.match(frame.lines[y]):
                return (0, y)
        return (0, len(frame.lines))

    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        frames = list(frames)
        widths = [(f.time, f.columns) for f in frames]
        lines = super().transcript(frames)
        return _unwrap(lines, widths)

    def label(self, lines: list[TLine]) -> list[Labeled]:
        labeled = super().label(lines)
        # The alternate screen is only the /help pager here: a system turn.
        first = True
        for lb in labeled:
            if lb.line.source == "alt":
                if lb.kind != "blank":
                    lb.kind, lb.rule = ("system", "pager") if first else ("cont", "pager")
                    first = False
            else:
                first = True
        return labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        if kind == "tool_call":
            m = TOOL.match(members[0].line.text)
            if m:
                return Turn("tool_call", (m.group("arg") or "").strip(), name=m.group("name"))
        return Turn(kind, text)


def _unwrap(lines: list[TLine], widths: list[tuple[float, int]]) -> list[TLine]:
    """Join rows that fill the terminal width with the row after them."""
    def width_at(t: float) -> int:
        w = widths[0][1] if widths else 80
        for tm, cols in widths:
            if tm > t:
                break
            w = cols
        return w

    out: list[TLine] = []
    joining = False
    indent = 0
    for ln in lines:
        if joining and out and ln.text.startswith(" ") and ln.text.strip():
            prev = out[-1]
            lead = len(ln.text) - len(ln.text.lstrip(" "))
            out[-1] = TLine(prev.text + ln.text[min(lead, indent):], prev.time, prev.source, prev.block)
        else:
            out.append(ln)
            indent = len(MARKER.match(ln.text).group(0))
        # this row filled the terminal (box borders excepted)
        joining = wcswidth(ln.text) >= width_at(ln.time) and not ln.text.rstrip().endswith(("│", "╮", "╯", "┐", "┘"))
    return out


PROFILE = KimiProfile()
