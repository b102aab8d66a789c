"""Amp: chrome rules and turn segmentation.

Checked against Amp CLI 0.0.1790142911-g7618fb (full-screen on the
alternate screen, redrawn ~30 times a second while the orb animates). Amp
keeps its threads on its server, so for a local capture the screen is
often the only record.

Screen anatomy:
- start: an animated orb of `•●:·.` glyphs beside `Welcome to Amp` and
  `ctrl+o for commands · ? for shortcuts`, onboarding cards (`Space to
  continue`, `4/5`);
- conversation, bottom-anchored: ` ┃ prompt` (continuation rows keep the
  bar), answers indented one column, tool rows with a status glyph
  (`✓`/`✗`, a braille spinner while running): `Explored 1 search ▸`,
  `$ python3 src/main.py ▸`, `Read file ▸`, …;
- the input box at the bottom: `╭── … ─ medium ─╮`, and its bottom border
  carries the state: `╰ ≈ Running Tools ──`, `Streaming 2.23k tok`,
  `thinking`, `waiting`, and the working directory;
- at exit (Ctrl+C twice), on the main screen: a small logo, the thread
  title and directory, and `amp threads continue <url>`.
"""
from __future__ import annotations

import regex

from typing import Iterable

from agents_chrome.profile import ChromeProfile
from agents_chrome.rules import Labeled, LineRule
from agents_chrome.stitch import Stitcher
from agents_chrome.transcript import TLine, without_scrollbar
from agents_chrome.turns import Turn
from screen.frames import Frame

BOX_TOP = regex.compile(r"^\s*╭─")
OVERLAY = regex.compile(r"(\s{3,}[╭╰│┃].*|[╭╰]─.*[╮╯])\s*$")
ORB_GLYPHS = set("•●·:")
SCROLLBAR = set("█▐▌▕▏▁▂▃▄▅▆▇│┃")  # the scrollbar and its track, in the last column
ORB = regex.compile(r"^\s*[•●:·.][\s•●:·.]{2,}$")
WELCOME = regex.compile(r"Welcome to Amp|Space to continue|ctrl\+o for commands")
STATUS = r"[✓✗✔✘×⚠◌○●⠀-⣿]"
TOOL = regex.compile(rf"^\s{{0,2}}{STATUS}?\s*(?P<body>.*?)\s*▸?\s*$")
COUNTED = regex.compile(r"(?P<n>\d+)\s+(searches|search|files?|commands?|edits?|reads?|tools?)\b")
VERB_TOOL = {"explored": "search", "exploring": "search", "read": "Read", "reading": "Read",
             "edited": "edit_file", "editing": "edit_file", "created": "create_file", "ran": "shell_command",
             "running": "shell_command", "searched": "Grep", "searching": "Grep", "listed": "list_directory",
             "fetched": "read_web_page", "planned": "todo_write", "updated": "todo_write"}


def popup_rows(frame: Frame) -> range:
    """Rows of a menu box drawn over the conversation at the right (the one
    after a first Ctrl+C): its top corner stands well inside the row and its
    right edge at the screen's; a table in an answer starts at the left."""
    lines = frame.lines
    for y, ln in enumerate(lines):
        c = ln.find("╭─")
        body = ln.rstrip()
        if c < 4 or not body.endswith("╮") and not body[:-1].rstrip().endswith("╮"):
            continue
        if len(body) < frame.columns - 4:
            continue
        for y2 in range(y + 1, len(lines)):
            if lines[y2][c:c + 1] == "╰":
                return range(y, y2 + 1)
            if lines[y2][c:c + 1] not in ("│", "┃"):
                break
    return range(0)


class AmpProfile(ChromeProfile):
    name = "amp"
    checked_versions = ("0.0.1790142911-g7618fb",)
    commands = ("amp",)
    screen_signatures = (r"Welcome to Amp", r"amp threads continue", r"ctrl\+o for commands")
    join_answers = True
    rules = (
        LineRule("orb", "chrome", r"^\s*[•●:·.]{3,}[\s•●:·.]*(Welcome to Amp|ctrl\+o for commands.*)?$"),
        LineRule("welcome", "chrome", r"(Welcome to Amp|ctrl\+o for commands)"),
        LineRule("onboarding", "chrome", r"^\s*(\d/\d|Space to continue)\s*$"),
        LineRule("exit-logo", "chrome", r"^\s*[.#*+:=%@-]{3,}(\s{2,}\S.*)?$"),
        LineRule("exit-continue", "chrome", r"^\s*amp threads continue\b"),
        # a table in an answer: a grid one column in, with inner separators (its
        # rounded top and bottom edges are left out with the other box edges)
        LineRule("table", "cont", r"^\s[├│](?=.*[┼│].*[┼│]).*[┤│]\s*$"),
        LineRule("box", "chrome", r"^\s*[╭╰│]"),
        LineRule("prompt", "user", r"^\s?┃\s(?P<body>.*)$"),
        LineRule("shell", "tool_call", rf"^\s{{0,2}}({STATUS}\s+)?\$\s(?P<body>.*?)\s*▸?\s*$"),
        LineRule("tool", "tool_call", rf"^\s{{0,2}}{STATUS}\s+(?P<body>\S.*?)\s*▸?\s*$"),
        LineRule("answer", "assistant", r"^\s(?P<body>\S.*)$"),
    )

    def rows(self, frame: Frame) -> list[str | None]:  # type: ignore[override]
        """Rows as the rules should see them: the animated orb and half-drawn
        box borders blanked (they redraw every frame and are never
        conversation), the scrollbar in the last column removed. On the
        alternate screen a row a popup is drawn over (the menu after one
        Ctrl+C) is None: covered, the stitcher keeps the row it hid."""
        out: list[str | None] = []
        covered = popup_rows(frame) if frame.alternate else range(0)
        for y, ln in enumerate(without_scrollbar(frame, SCROLLBAR)):
            if y in covered:
                out.append(None)
                continue
            if not frame.alternate:
                ln = OVERLAY.sub("", ln).rstrip()  # a menu drawn over the right side (e.g. after one Ctrl+C)
            visible = ln.replace(" ", "")
            orb = sum(1 for c in visible if c in ORB_GLYPHS)
            grid = any(c in ln for c in "┬┼┴")  # a table's edge, not a half-drawn border
            if ORB.match(ln) or (visible and not grid and (visible.count("─") >= max(5, 0.4 * len(visible))
                                              or orb >= max(4, 0.3 * len(visible)))):
                ln = ""
            out.append(ln)
        return out

    def viewport(self, frame: Frame) -> tuple[int, int] | None:
        if any(WELCOME.search(ln) for ln in frame.lines):
            return None  # the animated welcome screen: no conversation yet
        for y in range(len(frame.lines) - 1, -1, -1):
            if BOX_TOP.match(frame.lines[y]):
                return (0, y)
        return (0, len(frame.lines))

    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        """The main screen holds only the exit banner (logo, title, `amp threads
        continue`), wrapped on narrow screens: never conversation."""
        return None

    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        """Stitched like any full-screen TUI, keeping where a view continued the
        document without sharing a row: Amp draws a finished answer anchored to
        the bottom of its viewport (a counter while it streams), so the top of
        an answer taller than the screen is on no frame."""
        self._dialogs = []
        self._after_gap: set[int] = set()
        out: list[TLine] = []
        block = 0
        st: Stitcher | None = None
        last_main: Frame | None = None

        def flush(st: Stitcher) -> None:
            for i, (t, tm) in enumerate(zip(st.doc, st.times)):
                line = TLine(t, tm, "alt", block)
                if i in st.gaps:
                    self._after_gap.add(id(line))
                out.append(line)

        for f in frames:
            if f.alternate:
                if st is None:
                    block += 1
                    st = Stitcher(reach="view")
                vp = self.viewport(f)
                if vp is not None:
                    st.add(self.rows(f)[vp[0]:vp[1]], f.time)
            else:
                if st is not None:
                    flush(st)
                    st = None
                last_main = f
        if st is not None:
            flush(st)
        if last_main is not None:
            vp = self.main_viewport(last_main)
            if vp is not None:
                final = [r or "" for r in self.rows(last_main)[vp[0]:vp[1]]]
                while final and not final[-1].strip():
                    final.pop()
                out.extend(TLine(t, last_main.time, "screen", block + 1) for t in final)
        return out

    def label(self, lines: list) -> list[Labeled]:
        labeled = super().label(lines)
        # Rows of one prompt bar are one prompt.
        for a, b in zip(labeled, labeled[1:]):
            if b.rule == "prompt" and a.rule in ("prompt", "prompt-row"):
                b.kind, b.rule = "cont", "prompt-row"
        # Every row of a prompt keeps the bar: the first row without it that
        # no rule claims opens the answer (one that starts with a code block
        # is indented past the answer's one column).
        in_prompt = False
        for lb in labeled:
            if lb.rule in ("prompt", "prompt-row"):
                in_prompt = True
            elif lb.kind in ("blank", "chrome"):
                continue
            elif in_prompt and lb.kind == "cont":
                lb.kind, lb.rule, lb.body = "assistant", "unmarked-answer", lb.line.text.rstrip()
                in_prompt = False
            else:
                in_prompt = False
        return labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        made = self._make_turn(kind, text, members)
        gaps = getattr(self, "_after_gap", set())
        # a prompt whose own opening row follows the gap is whole: what was
        # not shown lies above it
        cut = [m for m in members[1:] if id(m.line) in gaps] if kind == "user" else \
            [m for m in members if id(m.line) in gaps]
        if made is not None and cut:
            for t in (made if isinstance(made, list) else [made]):
                t.partial = True
        return made

    def _make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        rule = members[0].rule if members else ""
        if kind == "tool_call":
            head = text.splitlines()[0].strip() if text else ""
            if rule == "shell":
                return Turn("tool_call", head, name="shell_command")
            verb = head.split()[0].lower() if head else ""
            name = VERB_TOOL.get(verb, verb or None)
            c = COUNTED.search(head)
            if c:
                return [Turn("tool_call", head, name=name) for _ in range(min(int(c.group("n")), 50))]
            return Turn("tool_call", head, name=name)
        return Turn(kind, text)

    def turns(self, labeled: list[Labeled]) -> list[Turn]:
        made = super().turns(labeled)
        # A thread opens with a prompt; what is drawn before the first one is
        # the welcome and onboarding screens, half torn down.
        first = next((i for i, t in enumerate(made) if t.role == "user"), len(made))
        return made[first:]


PROFILE = AmpProfile()
