"""Kimi CLI: chrome rules and turn segmentation.

Checked against kimi-cli 1.51.0 (prompt_toolkit + rich, inline). Finished
output is printed above a live area and scrolls into the terminal's
history; the live area at the bottom is redrawn in place.

Screen anatomy:
- `⠙ Loading configuration...` while starting, then the welcome box
  (`╭ … ╮`, `Welcome to Kimi Code CLI!`, directory, session, model, tips,
  `✨ Update: …`);
- a prompt echo `✨ text` (a multi-line prompt keeps its rows, under it at
  column 0) followed by a blank row; slash commands are not echoed (only
  `/skill:…` and `/flow:…`, as `✨ /skill:…`);
- output blocks with a bullet: `• answer` (markdown indented two under
  it: lists `•`, headings underlined `═══`/`───`, tables in `┌┬┐` boxes),
  `• Used Shell (cmd)` (`Using` while it runs) with its brief result
  indented under it (`Failed with exit code: 1`, output rows);
- a moon-phase spinner row (`🌑`…`🌘`) while the model works;
- the live area: `── input ──…` rule, the input rows, a rule, the status
  bar (`yolo  agent (model ○)  cwd  hints`) and `context: n% (…)`; the
  completion menu of a slash command under the input;
- `/help` (and other pagers) on the alternate screen, with `line N (press
  h for help or q to quit)` at the bottom: a system turn;
- at exit: `Bye!`, `Tip: …`, `Install: …`, `To resume this session: kimi -r …`.

Rows are hard-wrapped at the terminal width, even mid-word, and the
continuation row is indented like the block (two columns under a bullet,
none under a prompt): a row that reaches the last column is joined with
the next one before any rule sees it.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Iterable

import regex
from wcwidth import wcswidth

from agents_chrome.profile import ChromeProfile, _insert_by_time
from agents_chrome.rules import COMMON_CHROME, Labeled, LineRule
from agents_chrome.transcript import TLine, fold_redraws
from agents_chrome.turns import Turn
from screen.frames import Frame

INPUT_RULE = regex.compile(r"^── input ─+")
PAGER_STATUS = regex.compile(r"^\s*(line \d+|\(END\)|lines? \d+.*)?\s*\(?press h for help or q to quit\)?\s*$|^:\s*$")
TOOL = regex.compile(r"^•\s+(?P<verb>Used|Using)\s+(?P<name>[A-Za-z_][\w.:-]*)(?:\s+\((?P<arg>.*)\))?\s*$")
MOON = "🌑🌒🌓🌔🌕🌖🌗🌘"
# a bullet or list marker that sets a wrapped row's hanging indent
HANG = regex.compile(r"^(?P<sp>\s*)(?P<mk>(?:[•◦▪‣\-*]|\d+[.)]|✨|\$)\s)?")
BOX_EDGE = "│╮╯┐┘┤║"


@dataclass
class KLine(TLine):
    #: every width the terminal had up to the frame the row was read from:
    #: Kimi hard-wraps at the width it has, so a row as long as one of
    #: those was cut there, even after a resize laid it out again
    seen: frozenset[int] = frozenset()


def _cells(text: str) -> int:
    w = wcswidth(text)
    return w if w >= 0 else len(text)


def _same_flow(a: KLine, b: KLine) -> bool:
    """`b` follows `a` in the same drawing: the same source, or the top row of
    the last screen right under the last row that scrolled into history."""
    return a.source == b.source or (a.source, b.source) == ("history", "screen")


def join_soft_wrapped(lines: list[KLine]) -> list[KLine]:
    """Join rows the terminal wrapped (autowrap, or a resize laying a long row
    out again) back into the row the program drew."""
    out: list[KLine] = []
    for ln in lines:
        prev = out[-1] if out else None
        if prev is not None and prev.wrapped and _same_flow(prev, ln):
            pad = " " * max(0, (prev.width or 0) - _cells(prev.text))
            out[-1] = KLine(prev.text + pad + ln.text, prev.time, prev.source, prev.block, prev.width,
                            ln.wrapped, prev.seen | ln.seen)
        else:
            out.append(ln)
    return out


def join_wrapped(lines: list[KLine]) -> list[KLine]:
    """Join rows that were hard-wrapped at the terminal width.

    A row whose text reaches the last column (of the width it was drawn at)
    continues on the next row, which is indented by the block's hanging
    indent (the bullet's width).
    """
    lines = join_soft_wrapped(lines)
    out: list[KLine] = []
    i = 0

    def full(row: str, ln: KLine) -> bool:
        n = _cells(row)
        return bool(ln.width) and (n >= ln.width or n in ln.seen)

    while i < len(lines):
        cur = lines[i]
        text, row = cur.text, cur.text
        m = HANG.match(text)
        hang = _cells(m.group("sp") + (m.group("mk") or ""))
        while (i + 1 < len(lines) and full(row, lines[i])
               and row.rstrip()[-1:] not in BOX_EDGE and not RULE_ROW.match(row)
               and lines[i + 1].text.strip() and _same_flow(lines[i], lines[i + 1])):
            row = lines[i + 1].text
            lead = len(row) - len(row.lstrip(" "))
            text += row[min(hang, lead):]
            i += 1
        out.append(KLine(text, cur.time, cur.source, cur.block, cur.width, False, cur.seen))
        i += 1
    return out


BYE = regex.compile(r"^Bye!\s*$")
RULE_ROW = regex.compile(r"^\s*[─━═]+\s*$|^── input ─")


class KimiProfile(ChromeProfile):
    name = "kimi"
    checked_versions = ("1.51.0",)
    commands = ("kimi", "kimi-cli")
    screen_signatures = (r"Welcome to Kimi Code CLI", r"── input ─{5,}", r"To resume this session: kimi -r")
    rules = (
        LineRule("loading", "chrome", r"^\s*[\u2800-\u28ff]\s+Loading configuration\.\.\.\s*$"),
        LineRule("welcome-box", "chrome", r"^│.*│$"),
        LineRule("table-rule", "chrome", r"^\s*[┌├└╞╘╭╰][─━┬┼┴═╪╤╧]+[┐┤┘╡╛╮╯]\s*$"),
        *COMMON_CHROME,
        LineRule("moon-spinner", "chrome", rf"^\s*[{MOON}]\s*(\S.*)?$"),
        LineRule("input-rule", "chrome", INPUT_RULE.pattern),
        LineRule("status-bar", "chrome", r"^\s*(yolo\s+)?(agent|shell|plan)\s+\(.*\)\s{2,}"),
        LineRule("context", "chrome", r"^\s*context:\s+[\d.]+%\s+\(.*\)\s*$"),
        LineRule("bye", "chrome", r"^Bye!\s*$"),
        LineRule("exit-tip", "chrome", r"^(Tip: The new Kimi Code\b|Install: curl\b|upgrade next time\)|To resume this session: kimi -r\b)"),
        LineRule("slash-echo", "system", r"^✨\s(?P<body>/[\w:-]+(\s.*)?)$"),
        LineRule("prompt", "user", r"^(?:✨|💫|📋)\s(?P<body>.*)$"),
        LineRule("shell-prompt", "user", r"^\$\s(?P<body>.*)$"),
        LineRule("tool", "tool_call", TOOL.pattern),
        LineRule("answer", "assistant", r"^•\s(?P<body>.*)$"),
        LineRule("notice", "system", r"^[•●]\s(?P<body>.*)$"),
    )

    # -- frames -----------------------------------------------------------
    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        lines = frame.lines
        for y, t in enumerate(lines):
            if INPUT_RULE.match(t):
                return (0, y)
        return (0, len(lines))

    def dialog(self, frame: Frame) -> list[str] | None:
        rows = [r for r in frame.lines if not PAGER_STATUS.match(r)]
        while rows and not rows[-1].strip():
            rows.pop()
        return rows or None

    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        out: list[KLine] = []
        self._dialogs = []
        last_main: Frame | None = None
        typed: str | None = None  # a slash command left in the input box
        pager: list[str] | None = None  # the command that opened the pager on screen
        pager_rows: list[str] | None = None
        first_seen: dict[str, float] = {}
        marks: list[tuple[int, int]] = []
        seen: frozenset[int] = frozenset()
        for f in frames:
            seen = seen | {f.columns} if f.columns not in seen else seen
            marks.extend((len(out) + off, f.rows) for off, _why in f.marks)
            widths = f.widths or [f.columns] * len(f.scrolled)
            wraps = f.wrapped or [False] * len(f.scrolled)
            for ln, w, wr in zip(f.scrolled, widths, wraps):
                out.append(KLine(ln, f.time, "history", 0, w, wr, seen))
            if f.alternate:
                rows = self.dialog(f)
                if rows is None:
                    continue
                if pager is not None and pager_rows[:2] == rows[:2]:
                    self._dialogs[-1] = (self._dialogs[-1][0], pager + rows)  # the same pager, scrolled
                elif pager_rows != rows:
                    pager = [typed] if typed else []
                    typed = None
                    self._dialogs.append((f.time, pager + rows))
                pager_rows = rows
                continue
            pager, pager_rows = None, None
            last_main = f
            for t in f.lines:
                first_seen.setdefault(t, f.time)
            box = self._input_text(f)
            if box is not None:
                typed = box or None
        if last_main is not None:
            vp = self.main_viewport(last_main)
            if vp is not None:
                final = last_main.lines[vp[0]:vp[1]]
                while final and not final[-1].strip():
                    final.pop()
                if typed and any(BYE.match(t) for t in final):
                    self._dialogs.append((last_main.time + 1e-3, [typed]))  # the exit command
                wraps = last_main.row_wrapped[vp[0]:vp[1]]
                out.extend(KLine(t, first_seen.get(t, last_main.time), "screen", 1, last_main.columns,
                                 wraps[k] if k < len(wraps) else False, seen) for k, t in enumerate(final))
        return join_wrapped(fold_redraws(out, marks))  # type: ignore[arg-type]

    @staticmethod
    def _input_text(frame: Frame) -> str | None:
        """The input box's slash command ("" for other text), None when no box is drawn."""
        for y, t in enumerate(frame.lines):
            if INPUT_RULE.match(t) and y + 1 < len(frame.lines):
                s = frame.lines[y + 1].strip()
                return s if regex.match(r"^/[\w:-]+(\s.*)?$", s) else ""
        return None

    # -- turns ------------------------------------------------------------
    def label(self, lines: list[TLine]) -> list[Labeled]:
        labeled = super().label(lines)
        prev = None
        in_prompt = False
        after_bye = False
        for lb in labeled:
            if lb.rule == "bye":
                after_bye = True
            if after_bye:  # the farewell and its tips
                lb.kind = "chrome" if lb.kind != "blank" else "blank"
                continue
            if lb.kind in ("user", "system"):
                in_prompt = lb.kind == "user"
                prev = lb.kind
                continue
            if in_prompt:
                # a prompt runs to its first blank row (its rows start at column 0)
                if lb.kind == "blank":
                    in_prompt = False
                else:
                    lb.kind, lb.rule, lb.body = "cont", "prompt-row", lb.line.text
                continue
            if lb.kind == "tool_call":
                prev = "tool_call"
                continue
            if lb.kind == "cont" and prev == "tool_call" and lb.line.text.startswith("  "):
                lb.kind, lb.rule = "tool_result", "tool-output"
                prev = "tool_result"
            elif lb.kind in ("assistant",):
                prev = "assistant"
            elif lb.kind == "cont" and prev is None:
                lb.kind, lb.rule = "chrome", "before-first-prompt"
            elif lb.kind == "cont" and not lb.line.text[:1].isspace() and prev != "system":
                # output blocks are indented under a bullet: text at column 0 is what
                # a slash command printed (`Usage is available on …`)
                lb.kind, lb.rule = "system", "command-output"
                prev = "system"
        return labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        if kind == "user":
            rows = [members[0].body] + [m.line.text for m in members[1:]]
            while rows and not rows[-1].strip():
                rows.pop()
            return Turn("user", "\n".join(r.rstrip() for r in rows))
        if kind == "tool_call":
            m = TOOL.match(members[0].line.text)
            if m:
                return Turn("tool_call", (m.group("arg") or "").strip(), name=m.group("name"))
        if kind == "tool_result":
            return Turn("tool_result", textwrap.dedent("\n".join(m.line.text for m in members)).strip())
        return Turn(kind, text)

    def turns(self, labeled: list[Labeled]) -> list[Turn]:
        out = super().turns(labeled)
        name = None
        for t in out:
            if t.role == "tool_call":
                name = t.name
            elif t.role == "tool_result" and t.name is None:
                t.name = name  # the result belongs to the call above it
        return out


PROFILE = KimiProfile()
