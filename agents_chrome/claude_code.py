"""Claude Code: chrome rules and turn segmentation.

Checked against Claude Code 2.1.330 and 2.1.197, in both renderers: inline
(`CLAUDE_CODE_NO_FLICKER=0`: finished messages scroll into the main
screen's history, the live area at the bottom is redrawn in place) and
full-screen (`CLAUDE_CODE_NO_FLICKER=1`: the alternate screen, redrawn as a
scrolling viewport above the input box).

Screen anatomy:
- header: the logo block (`▐▛███▜▌ Claude Code vX`), model line, directory;
- conversation: `❯ prompt` (continuation rows indented two), `● answer`,
  `● Tool(arg)` with its output under `⎿`, collapsed tool groups such as
  `Ran 2 shell commands` / `Read 1 file`, star-glyph status lines
  (`✻ Churned for 0s · done 7:06 AM`, `✶ Cogitating… (0s · ↓ 11 tokens)`);
- the input box: a full-width rule, `❯` and what is being typed, a rule;
  below it the footer hints (`? for shortcuts`, mode, `esc to interrupt`),
  slash-command menus and `Press Ctrl-D again to exit`.
"""
from __future__ import annotations

import dataclasses
import functools
from itertools import compress, count, repeat
from operator import contains, is_, methodcaller
from typing import Callable, Iterable, Iterator

import regex
from wcwidth import wcswidth, wcwidth

from agents_chrome.cjk_bold import marked_ideograph_bold
from agents_chrome.grids import merge_cells
from agents_chrome.input_line import InputLine
from agents_chrome.profile import ChromeProfile, _insert_by_time, per_frame
from agents_chrome.rules import Labeled, LineRule
from agents_chrome.transcript import WORD as WORD_RE, TLine, fold_reprints
from agents_chrome.wraps import broken_token, unwrap_words, wide
from agents_chrome.turns import Turn
from screen.frames import Frame
from screen.vscreen import FLAG_ITALIC
from screen.memo import IdentityMemo

RULE = regex.compile(r"^\s*─{20,}\s*$")
_RULE_RUN = "─" * 20  # every RULE row holds it: a substring test skips the regex on most rows
LOGO = regex.compile(r"^\s*[▐▝▘▗▖▛▜▟▙▀▄█▌]{2}[▐▝▘▗▖▛▜▟▙▀▄█▌ ]*\s+Claude Code v?\d")
STAR = r"[✻✶✳✢✽·*⏺∗]"
#: the header's text with the mascot left out (`_still_mascot`)
LOGO_STILL = regex.compile(r"^ {%d}Claude Code v?\d" % 11)  # (the header text's column, _HEADER_TEXT)
#: the header's other rows: the mascot's lower rows, then the model and the directory
LOGO_CONTINUED = regex.compile(r"^\s*[▐▝▘▗▖▛▜▟▙▀▄█▌]{2}[▐▝▘▗▖▛▜▟▙▀▄█▌ ]*\s{2,}\S")
#: the working status row over the input box (`✽ Choreographing…`, `· Thinking… (2s · ↓ 13 tokens)`):
#: in the transcript only where a copy of the screen went into history while a turn ran
WORKING_STATUS = regex.compile(rf"^\s*{STAR}\s+\S+…")
#: any row of the header (a reprint may come with its first row cut off)
HEADER = regex.compile("|".join("(?:%s)" % r.pattern for r in (LOGO, LOGO_STILL, LOGO_CONTINUED)))
_MASCOT = frozenset("▐▝▘▗▖▛▜▟▙▀▄█▌·~*✻ ")
_MASCOT_COLS = 10

# A collapsed group of tool calls: "Ran 2 shell commands, read 1 file".
#: while the group runs it is drawn in the present ("● Running 2 shell commands…",
#: "Reading 1 file, running 2 shell commands…": the grey bullet blinks), and an answer that
#: streams right after it can push the finished row out of a full-screen view before it is drawn
SUMMARY_PATTERN = (
    r"(?i:\b(ran|read|listed|searched for|searched|wrote|edited|updated|created|fetched|found"
    r"|running|reading|listing|searching for|searching|writing|editing|updating|creating|fetching|finding)\s+"
    r"(\d+)\s+(shell commands?|files?|director(?:y|ies)|patterns?|lines?|pages?|urls?|matches|results?|todos?))")
SUMMARY = regex.compile(SUMMARY_PATTERN)
#: the row of a collapsed group is its phrases and nothing else: joined by commas, then
#: `· 1 failed`, and the key hint (cut where the width ends); an answer's sentence that
#: opens the same way (`Read 2 files before you change …`) goes on in words
SUMMARY_ROW = (SUMMARY_PATTERN + r"(?:,\s+" + SUMMARY_PATTERN + r")*"
               r"(?:,\s+(?i:ran|read|listed|searched|wrote|edited|updated|created|fetched|found"
               r"|running|reading|listing|searching|writing|editing|updating|creating|fetching|finding)\b[\w ]*)?"
               r"(?:\s+·\s+\d+\s+failed)?…?(?:\s+\((?i:ctrl|shift|alt|meta|cmd)\+\w+[^()]*\)?)?")
SUMMARY_TOOL = {"ran": "Bash", "read": "Read", "listed": "LS", "searched": "Grep", "searched for": "Grep",
                "wrote": "Write", "edited": "Edit", "updated": "Edit", "created": "Write",
                "fetched": "WebFetch", "found": "Glob",
                "running": "Bash", "reading": "Read", "listing": "LS", "searching": "Grep", "searching for": "Grep",
                "writing": "Write", "editing": "Edit", "updating": "Edit", "creating": "Write",
                "fetching": "WebFetch", "finding": "Glob"}
#: the head of the task list (`1 tasks (0 done, 1 open)`), alone on its row or after
#: the working status (`✶ Hullaballooing… · 2 tasks (1 done, 1 in progress, 0 open)`)
TASK_HEAD = regex.compile(r"^\s*\d+ tasks? \(\d+ done(?:, \d+ in progress)?, \d+ open\)\s*$")
#: a task's row: its box (open ◻, in progress ◼, done ✔) and the task
TASK_ROW = regex.compile(r"^\s{1,6}(?:⎿\s+)?[◻◼✔✓☐☒]\s+\S")
#: the header's first row, the mascot's first row as drawn (`▐▛███▜▌`) before it
_HEADER_FIRST = regex.compile(r"^\s*\S{2,9}\s+Claude Code v?\d")
#: the echo of a `/clear` (`/reset`, `/new`: its other names)
CLEAR_ECHO = regex.compile(r"^❯ /(?:clear|reset|new)\s*$")
TASK_ROW_TEXT = regex.compile(r"^\s*(?:⎿\s+)?[◻◼✔✓☐☒]\s+")
# Tool headers that show an action instead of the tool's name.
DISPLAY_TOOL = {"Update": "Edit", "Create": "Write"}
# A key hint closing a row, "(ctrl+o to expand)": the UI's, not the call's.
KEY_HINT = regex.compile(r"\s*\((?i:ctrl|shift|alt|meta|cmd)\+\w+ to [^()]*\)\s*$")
# The pill drawn over the last conversation row while the user has scrolled
# back: "Jump to bottom (ctrl+End) ↓", "3 new messages ↓", "Waiting for your
# answer · fn+↓ to scroll". The pill is centred: over a long row it covers
# the row's middle.
SCROLLED_PILL = regex.compile(r"\s(Jump to bottom|\d+ new messages?|Waiting for your answer)"
                              r"(\s\([^()]*\))?(\s↓|\s·\s\S+ to scroll)")


def _pill(ln: str) -> bool:
    """`SCROLLED_PILL` is on the row: searched only where its closing arrow or
    "to scroll" is (the unanchored search costs ~10 us on a long row; it is
    asked of rows of every full-screen frame)."""
    return ("↓" in ln or " to scroll" in ln) and SCROLLED_PILL.search(ln) is not None
# The footer of the detailed transcript (Ctrl+O): "Showing detailed
# transcript · ctrl+o to toggle · ctrl+e to show all", after "working · "
# while an answer streams.
DETAILED_FOOTER = regex.compile(r"^\s*(?:\w+\s+·\s+)?Showing detailed transcript\b")
_DETAILED = "Showing detailed transcript"  # every DETAILED_FOOTER row holds it
#: characters markdown marks a prompt with, dropped when Claude Code echoes it rendered
MD_MARKS_TEXT = "#*_`~>"
MD_MARKS = frozenset(MD_MARKS_TEXT)
#: the input box's first row: the prompt glyph and what is being typed
PROMPT_ROW = regex.compile(r"^❯\s")
#: a slash-command menu entry (`/clear   Start a new session …`), the selected one after `❯`
SLASH_ENTRY = regex.compile(r"^\s+(❯\s+)?/[\w:-]+\s{3,}\S")
#: the column the header's text starts at, right of the mascot
_HEADER_TEXT = 11
TOOL_CALL = regex.compile(r"^●\s+(?P<name>[A-Z][A-Za-z0-9_]*(?:\s?\([A-Za-z0-9_]+\))?|mcp__\S+)\((?P<arg>.*?)\)?\s*$")


class ClaudeCodeProfile(ChromeProfile):
    name = "claude-code"
    checked_versions = ("2.1.330", "2.1.197")
    commands = ("claude", "claude-code")
    screen_signatures = (r"Claude Code v\d", r"Welcome to Claude Code")
    resume_words = frozenset({"--continue", "-c", "--resume", "-r"})  # `claude --continue`, `claude -r <id>`
    # a box table laid out anew in the render that scrolled the view, a row grown
    # past a whole view between two frames (see `Stitcher._relaid_unshared`);
    # a full-screen `/clear` starts a document of its own (`layout`)
    layout_options = {"relaid_moved": True, "fresh_layouts": True, "fuller_reprint": True}
    rules = (
        LineRule("logo", "chrome", LOGO.pattern),
        LineRule("logo-still", "chrome", LOGO_STILL.pattern),
        LineRule("logo-continued", "chrome", LOGO_CONTINUED.pattern),
        # `✻ Cooked for 3s · done 7:06 AM`, `✻ Waiting for 1 background agent to finish`,
        # `✢ Hullaballooing…`: a time with its unit (an answer's `✻ Cooked for 2 hours` is no status)
        LineRule("status-star", "chrome", rf"^\s*{STAR}\s+\S+(…|\s+for\s+\d+(?:[smh]\b|\s+background\b))"),
        LineRule("status-star-tokens", "chrome", rf"^\s*{STAR}\s+.*(\d+s\b|tokens|esc to interrupt)"),
        # the thinking time alone, as the full-screen renderer draws it under
        # the prompt ("Thought for 1s") or while it thinks ("● Thinking for 1s…")
        LineRule("thinking-time", "chrome", r"^\s*(●\s+|∴\s+)?(?i:thought|thinking) for \d+(\.\d+)?[smh]…?"
                 r"(\s+\((ctrl|shift|alt)\+\w+ to [^()]*\))?\s*$"),
        # a collapsed group, possibly after the thinking time that preceded it:
        # "Thought for 1s, read 2 files (ctrl+o to expand)"
        # (a running group: after the grey bullet while it blinks on)
        LineRule("tool-summary", "tool_call", r"^(?:\s{1,4}|●\s)(?P<body>(?:(?i:thought|thinking)\b[^,]{0,30},\s+)?"
                 + SUMMARY_ROW + r")\s*$"),
        LineRule("expand-hint", "chrome", r"^\s*(⎿\s+)?…\s*\+\d+\s+lines?\b.*(ctrl\+\w|expand)"),
        LineRule("ctrl-hint", "chrome", r"\((ctrl|shift|alt)\+\w+ to [\w ]+\)\s*$"),
        LineRule("tip", "chrome", r"^\s*(⎿\s+)?(※\s*)?Tip:"),
        # the task list drawn over the input box once the model made tasks (2.1.197's
        # TaskCreate): `1 tasks (0 done, 1 open)`, then a row per task (`_task_rows`)
        LineRule("task-list", "chrome", TASK_HEAD.pattern),
        LineRule("exit-hint", "chrome", r"^\s*Press Ctrl-[CD] again to exit"),
        # what it prints as Ctrl+Z stops it, before the shell's job message
        # (2.1.197: `Claude Code has been suspended. Run `fg` to bring Claude Code back.`, written
        # over the input box's rule: the rest of the rule stays on the row; then a note)
        LineRule("suspended", "chrome", r"^\s*Claude Code (?:is|has been) suspended\. Run `fg` to bring"
                 r" (?:it|Claude Code) back\.?[─━]*\s*$"),
        LineRule("suspend-note", "chrome", r"^\s*Note: ctrl \+ z now suspends Claude Code\b.*$"),
        LineRule("undo-hint", "chrome", r"^\s*To undo typing, press ctrl\+_\.?\s*$"),
        LineRule("resume-hint", "chrome", r"^\s*(Resume this session with:|claude( --?[\w-]+(?: (?!--)\S+)?)*? --resume\s+[0-9a-f-]{8,})\s*$"),
        LineRule("footer-hints", "chrome", r"(\? for shortcuts|esc to interrupt|← for agents|shift\+tab to cycle"
                                            r"|manual mode on|accept edits on|plan mode on|bypass permissions on)"),
        LineRule("effort", "chrome", r"^\s*[◐◓◑◒○●]\s+(low|medium|high|max)\s+·\s+/effort\s*$"),
        LineRule("rule", "chrome", RULE.pattern),
        LineRule("permission-question", "chrome", r"^\s*(│\s*)?Do you want to (proceed|make this edit|create)"),
        LineRule("permission-option", "chrome", r"^\s*(│\s*)?(❯\s*)?\d\.\s+(Yes|No)\b"),
        LineRule("permission-esc", "chrome", r"Esc to cancel|Tab to amend"),
        LineRule("interrupted", "chrome", r"^\s*⎿\s+Interrupted\b"),
        LineRule("slash-menu", "chrome", SLASH_ENTRY.pattern),
        # the input box's own row: `❯` and a no-break space (an echoed prompt has a plain
        # space). Seen outside the box when another program wrote over it (a background
        # job's output left on the row, the box redrawn lower): never a prompt sent
        LineRule("input-row", "chrome", "^❯\xa0"),
        # a command run in shell mode (typed after `!`): echoed `! cmd` at the left edge, its
        # output under `⎿`; Claude Code sends both to the model, which answers
        LineRule("bang-command", "user", r"^! (?P<body>\S.*)$"),
        LineRule("slash-command", "system", r"^❯\s+(?P<body>/[\w:-]+.*)$"),
        LineRule("empty-prompt", "chrome", r"^❯\s*$"),
        LineRule("prompt", "user", r"^❯\s(?P<body>.*)$"),
        LineRule("tool-call", "tool_call", r"^●\s+(?P<body>([A-Z][A-Za-z0-9_]*|mcp__\S+)\(.*)$"),
        # a tool's output opens `  ⎿  ` (two spaces, or a space and a no-break space); an
        # answer's own row that opens with the glyph (`⎿ tested at low water`, markdown drawn
        # under the answer's indent) has one plain space after it
        LineRule("tool-output", "tool_result", r"^\s{0,4}⎿(?:\s{2,3}|\s*$)(?P<body>.*)$"),
        LineRule("thinking", "thinking", rf"^\s*(∴|{STAR})\s+(?P<body>Thinking.*)$"),
        # a background agent reporting back: `● Agent "Skim the notes" finished · 1s` (the UI's
        # notice; the model's answer to it follows as an answer of its own)
        LineRule("agent-notice", "chrome", r'^●\s+(?:Agent|Task)\s+"[^"]*"\s+(?:finished|failed|completed|'
                 r'stopped|was stopped|killed)\b[^"]*$'),
        LineRule("answer", "assistant", r"^●\s(?P<body>.*)$"),
    )

    # -- regions ----------------------------------------------------------
    def _input_box_top(self, lines: list[str], rules: list[int] | None = None) -> int | None:
        """Row of the input box's top rule (the last pair of full-width rules);
        `rules`: the rows of `lines` that are rules (`_rule_rows`), when known."""
        if rules is None:
            rules = _rule_rows(lines)
        for a, b in zip(reversed(rules[:-1]), reversed(rules[1:])):
            if 1 <= b - a <= 12:
                return a
        return None

    @per_frame
    def _frame_rules(self, frame: Frame) -> list[int]:
        """The frame's full-width rule rows (`_rule_rows`), read once per frame."""
        return _rule_rows(frame.lines)

    @per_frame
    def _frame_box_top(self, frame: Frame) -> int | None:
        return self._input_box_top(frame.lines, self._frame_rules(frame))

    @per_frame
    def viewport(self, frame: Frame) -> tuple[int, int] | None:
        top = self._frame_box_top(frame)
        if top is None and frame.alternate:
            top = _dialog_edge(frame.lines)
        if top is None and frame.alternate:
            top = _dialog_rule(frame.lines)
            if top is None and _dialog_only(frame.lines):
                return None
        return (0, top if top is not None else len(frame.lines))

    main_viewport = viewport

    @per_frame
    def rows(self, frame: Frame) -> list[str]:  # type: ignore[override]
        """Full-screen rows as the stitcher should see them.

        - Padding: while the conversation is shorter than the screen it is
          drawn from the top and the status row sits right above the input
          box; the blank rows between are no part of the conversation, and
          kept they push its text far from the document's tail (views are
          placed near the tail). Runs of more than two blank rows become
          two; the rows taken out go to the end of the region, so row
          indices from the input box down stay as they are.
        - Scrolled back (wheel, PageUp): a pill ("Jump to bottom ↓") is drawn
          over a row near the bottom and the prompt of the turn in view is
          pinned over the top row (a multi-line prompt folded into one
          row). Both rows are covered (`None`): they match anything and
          keep the document's row. The view itself stays: it is an older
          window (placed as paging), or the only place where text that
          streamed while the user looked elsewhere was ever drawn. Back at
          the bottom, 2.1.197 redraws the rows below before the top one:
          the pinned prompt left there is covered too (`_new_text_only`).
        - The slash-command menu (typing `/`) is drawn over the conversation's
          last rows, right above the input box: its rows are covered too.
          Taken as conversation, they stand in for the answer's last rows,
          and an Enter on a command that clears the screen (`/clear`) leaves
          them there for good: the answer loses its tail.
        - Bold set between ideographs gets its `**` back (`cjk_bold`).
        - The thinking a running group shows under it goes (`_running_thinking`).

        The rows above the input box are worked out once per such rows: a
        keystroke or a spinner tick repaints only the box and what is under
        it, so most frames (139 of cc197's 149) hold the very rows above
        the box the frame before held (`_rows_above`).
        """
        lines = frame.lines
        if not frame.alternate:
            return lines
        top = self._frame_box_top(frame)
        end = top if top is not None else len(lines)
        memo = frame.memo
        key = (end, memo.get(("clears", self), 0), memo.get(("stale-pin", self), False))
        above, cells = lines[:end], frame.cells[:end]
        last = self._rows_last
        # what `_rows_above` reads: the rows above the box, their cells (the
        # same tuples: the screen shares an unchanged row's), and the flags
        if (last is not None and last[0] == key and last[1] == above and len(last[2]) == len(cells)
                and all(map(is_, last[2], cells))):
            return last[3] + lines[end:]
        head = self._rows_above(frame, end)
        self._rows_last = (key, above, cells, head)
        return head + lines[end:]

    #: the last frame's (key, rows above the box, their cells, `_rows_above`)
    _rows_last: tuple[tuple[int, int, bool], list[str], list, list[str | None]] | None = None

    def _rows_above(self, frame: Frame, end: int) -> list[str | None]:
        """`rows` above the input box (row `end`): a function of those rows
        (their texts, cells and styles), `end` and the frame's `clears` and
        `stale-pin` marks alone."""
        scrolled = self._scrolled(frame)
        lines = _still_mascot(_ideograph_bold(frame, end), end)
        panel = _task_panel(lines, end)
        # (with a task list the menu is drawn above the list and a blank row, not
        # right above the box)
        above = panel
        while panel < end and above > 0 and not lines[above - 1].strip():
            above -= 1
        menu = _menu_top(lines, above)
        if menu == above:
            menu = end
        if panel < end:
            lines = lines[:panel] + [""] * (end - panel) + lines[end:]
        thinking = _running_thinking(frame, end)
        if thinking:
            lines = [ln if y not in thinking else "\x00" for y, ln in enumerate(lines)]
        if frame.memo.get(("clears", self), 0):
            drawn = frame.lines
            lines = [("" if y < end and (HEADER.match(drawn[y]) or _HEADER_FIRST.match(drawn[y])) else ln)
                     for y, ln in enumerate(lines)]
        out: list[str | None] = []
        run = 0
        stale_pin = frame.memo.get(("stale-pin", self), False)
        for y, ln in enumerate(lines[:end]):
            if ln == "\x00":
                continue  # a running group's thinking: gone when the group closes
            if y >= menu or (y == 0 and stale_pin) or (
                    scrolled and (_pill(ln) or (y == 0 and ln.startswith("❯")))):
                out.append(None)
                run = 0
                continue
            run = run + 1 if not ln.strip() else 0
            if run <= 2:
                out.append(ln)
        return out + [""] * (end - len(out))

    def layout(self, frame: Frame) -> object:
        """How many times the full-screen conversation was cleared (`/clear`).

        After a clear the view opens with the header again, then `❯ /clear`
        and nothing below it. Its rows share the header with the document's
        top: while the conversation before it is shorter than the screen,
        the stitcher lays the new view over it from the top, and the turns
        before the clear are gone. A clear is a new layout that follows the
        old one (`fresh_layouts`), never joined on words: a status row both
        hold (`✻ Worked for 1s · done 12:39 PM` after `✻ Cogitated for 1s ·
        done 12:39 PM`) would put the new conversation's rows after it in
        place of the turns before it. The header's rows drawn after a clear
        are left out (`rows`). Counted in frame order by `_new_text_only`."""
        if not frame.alternate:
            return None
        return frame.memo.get(("clears", self), 0)

    @per_frame
    def _scrolled(self, frame: Frame) -> bool:
        """The user scrolled this full-screen view back: the pill is drawn."""
        if not frame.alternate:
            return False
        top = self._frame_box_top(frame)
        end = top if top is not None else len(frame.lines)
        end = _task_panel(frame.lines, end)  # the pill is drawn above the task list
        return any(_pill(ln) for ln in frame.lines[max(0, end - 3):end])

    def _new_text_only(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        """Leave out scrolled-back views that show nothing new.

        A scrolled-back view is frozen while the answer streams on below it;
        near the end of the conversation it looks like the live tail, and
        taken as one it would end the document where it ends, cutting the
        rows streamed below it. A view whose rows were all shown before
        adds nothing, so it goes; one that shows rows never shown (text that
        streamed while the user looked elsewhere) stays.
        """
        seen: set[str] = set()
        seen_words: set[str] = set()  # the words of the rows in `seen`, chrome rows aside
        last_view: list[str | None] | None = None  # the last view's rows, and their set
        last_rows: set[str] = set()
        fresh_words = False  # the last view shows a word no view showed before
        pin: str | None = None  # the prompt pinned over the top row of the last scrolled-back view
        clears, in_clear = 0, False
        size: tuple[int, int] | None = None
        resized = False  # the terminal was resized while the full-screen view was up
        # a view that left out the last message was left out, and no view of that size
        # since has shown a word not shown before: the message is still left out (the
        # slash menu drawn over the blank rows hides the shape, not the loss)
        withheld = False
        chrome = [r for r in self.rules if r.name in _STATUS_RULES]
        for f in frames:
            if f.alternate:
                if size is not None and (f.columns, f.rows) != size:
                    resized, withheld = True, False
                size = (f.columns, f.rows)
                top = self._frame_box_top(f)
                fresh = top is not None and _fresh_clear(f.lines, top)
                clears += fresh and not in_clear
                in_clear = fresh
                f.memo[("clears", self)] = clears
                if self._scrolled(f):
                    pin = f.lines[0] if f.lines and f.lines[0].startswith("❯") else None
                elif pin is not None and f.lines and f.lines[0] == pin:
                    # back at the bottom, the rows below redrawn, the pinned prompt not yet
                    # (2.1.197 draws the top row in a later write): it covers the row there
                    f.memo[("stale-pin", self)] = True
                else:
                    pin = None
                vp = self.viewport(f)
                if vp is not None:
                    view = self.rows(f)[vp[0]:vp[1]]
                    if view != last_view:  # (most frames show the rows the last one did)
                        last_view = view
                        last_rows = {r for r in view if r is not None and len(r.strip()) >= 3}
                        # (nor the hint over the box while a long draft is typed)
                        words = {w for r in last_rows - seen
                                 if not any(c.match(r) for c in chrome) and not _EDIT_HINT.match(r)
                                 for w in _TABLE_WORD.findall(r)}
                        fresh_words = not words <= seen_words
                    rows = last_rows
                    if self._scrolled(f) and rows <= seen:
                        continue
                    if resized and not fresh_words and (withheld or (top is not None and _withheld_tail(f.lines, top))):
                        withheld = True
                        continue  # 2.1.197's redraw after a resize without the last message (`_withheld_tail`)
                    withheld = False
                    if fresh_words:
                        seen_words |= words
                        fresh_words = False
                    seen |= rows
            yield f

    def _laid_out(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        """Leave out full-screen frames still holding the layout of an older,
        narrower width.

        The input box's rules run the full width of the screen. Right after
        the terminal grows, the screen still holds the old rows (the box's
        rules stop short) until the TUI clears and redraws the conversation
        at the new width. Taken as a view of the new width, those old rows
        open the new layout, and the redraw, which shares no row with them,
        would be stitched after them: a second copy of the conversation.
        So are frames taken while a full-screen render was half drawn (the
        cursor up in the conversation's rows).
        """
        held: Frame | None = None  # history a left-out inline frame carried, for the next frame
        size: tuple[int, int] | None = None
        repainting = False  # resized in the alternate screen, the box not yet drawn anew
        torn_inputs: list[str] = []  # keys typed while a left-out half-drawn frame was taken
        for f in frames:
            if torn_inputs:
                f = dataclasses.replace(f, inputs=torn_inputs + f.inputs)
                torn_inputs = []
            if size is not None and (f.columns, f.rows) != size:
                repainting = f.alternate
            size = (f.columns, f.rows)
            if f.alternate:
                top = self._frame_box_top(f)
                if top is not None and len(f.lines[top].rstrip()) < f.columns - 1:
                    continue
                if top is not None and f.cursor[1] < top:
                    # taken while the renderer was still redrawing the conversation
                    # (at a pause, at a resize, at any boundary): Claude Code draws
                    # without synchronized updates, and on a slow machine a render of
                    # more than a pipe's 4 kB reaches the terminal in two reads a pause
                    # apart; the cursor is up in the rows it writes, where every
                    # finished render leaves it in or below the input box. Rows half
                    # rewritten hold cells of two states (a table's rows drawn twice,
                    # the rows below not moved yet): placed as a view, they add a copy
                    # of the conversation. The keys typed meanwhile go with the next frame.
                    torn_inputs += f.inputs
                    continue
                if repainting:
                    # After a shrink the screen keeps the old rows cut at the
                    # new edge (the box's lower rows cut off below) and Ink's
                    # next diff lands on rows laid out for the old width
                    # (cells of two layouts mixed); neither is a layout of
                    # the conversation. The repaint at the new width ends
                    # with the input box whole (both rules) again.
                    if top is None:
                        continue
                    repainting = False
            elif _drawn_wider(f):
                held = _history_before_resize(f, held)
                continue
            if held is not None and not f.alternate:
                f = _with_history_before(f, held)
            held = None
            yield f

    def _cleared_tail(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        """Keep the rows an inline clear wiped when the conversation starts over.

        `/clear` (and `/compact`) in the inline renderer go home and erase the
        screen row by row, then draw the header again and nothing of what was
        on screen: the last answer's rows that had not scrolled into history
        yet (its tail, a collapsed tool group, the closing status) were shown
        and are drawn nowhere else. When a frame's wipe is followed by the
        header, the rows the frame before it showed above the input box go
        into history before the mark, as a full clear (ED 2) would put them
        (a reprint that repeats them is folded by `fold_redraws`). Only when
        that screen did not itself open with the header: a conversation
        drawn again from its start is a reprint of what history holds.
        """
        prev: Frame | None = None  # the last main-screen frame with text
        held: tuple[Frame, int] | None = None  # a wiped frame, blank after its mark, and the mark
        for f in frames:
            if held is not None:
                g, cut = held
                held = None
                if not f.alternate and not f.marks and _starts_over(f.scrolled + f.lines):
                    g = self._with_wiped_rows(g, cut, prev)
                elif not f.alternate and not f.marks:
                    g = self._with_rows_above_redraw(g, cut, prev, f.scrolled + f.lines)
                yield g
            if not f.alternate and prev is not None:
                cut = max((off for off, why in f.marks if why == "clear"), default=None) if f.marks else None
                if cut is not None and not _opens_with_header(prev.lines):
                    after = f.scrolled[cut:] + f.lines
                    if not any(r.strip() for r in after):
                        held = (f, cut)  # the header comes in the next frame
                        continue
                    if _starts_over(after):
                        f = self._with_wiped_rows(f, cut, prev)
                    else:
                        f = self._with_rows_above_redraw(f, cut, prev, after)
            if not f.alternate and any(r.strip() for r in f.lines):
                prev = f
            elif f.alternate:
                prev = None
            yield f
        if held is not None:
            yield held[0]

    def _without_dialogs(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        """Leave out of the history the rows of a permission dialog that
        scrolled off the top while the inline renderer drew it.

        A file's dialog (`Create file`, `Edit file`: a full-width rule at the
        left edge, the title rows, a dashed rule `╌╌╌`, then the file's rows,
        the question and its options) taller than the space left pushes its
        top rows into history. Once answered, the renderer wipes the screen
        and draws the call again with its result: the rows that scrolled off
        are no text of the conversation, and in the middle of the older copy
        they stop the reprint from being folded onto it (the two copies part
        at the dialog and agree again right after, as lookalike text does).
        """
        for f in frames:
            if not f.alternate and f.scrolled:
                drop = _dialog_rows(f.scrolled, f.columns)
                if drop:
                    f = _without_scrolled(f, drop)
            yield f

    def _with_rows_above_redraw(self, f: Frame, cut: int, prev: Frame | None, after: list[str]) -> Frame:
        """`f` with the rows `prev` showed above the first row of the redraw
        after its wipe at `cut` scrolled before the mark.

        After the window grew shorter, the inline renderer wipes the screen and
        draws its live part again, from a row that was further down before the
        wipe: the rows above it (the end of the last answer, which the
        shrink left on the screen's top rows) were shown and are drawn nowhere
        else. Only at the same width, where the redraw's rows are the rows
        `prev` showed (two rows with text, as they were, at least)."""
        if prev is None or prev.columns != f.columns:
            return f
        drawn = [r.rstrip() for r in after if r.strip()]
        if len(drawn) < 3 or HEADER.match(drawn[0]):
            # a redraw from the header (after `/clear`) has no answer above it:
            # the rows `prev` showed there are older output a taller window
            # pulled back from the scrollback (`/clear` wipes the screen, not
            # the scrollback), recorded when they scrolled
            return f
        top = self._frame_box_top(prev)
        shown = [r.rstrip() for r in prev.lines[:top if top is not None else len(prev.lines)]]
        k = next((y for y, r in enumerate(shown) if r == drawn[0]), None)
        if not k or [r for r in shown[k:] if r.strip()][:3] != drawn[:3]:
            k = _relaid_at(shown, drawn)
            if not k:
                return f
        return self._with_wiped_rows(f, cut, prev, shown[:k])

    def _with_wiped_rows(self, f: Frame, cut: int, prev: Frame | None, rows: list[str] | None = None) -> Frame:
        """`f` with the rows `prev` showed above its input box (or `rows`, its
        top rows) scrolled before its mark at `cut`."""
        if prev is None:
            return f
        top = self._frame_box_top(prev)
        shown = list(rows if rows is not None else prev.lines[:top if top is not None else len(prev.lines)])
        while shown and not shown[-1].strip():
            shown.pop()
        if not shown:
            return f
        n = len(shown)
        widths = f.widths or [f.columns] * len(f.scrolled)
        wrapped = f.wrapped or [False] * len(f.scrolled)
        rw = list((prev.row_wrapped or [])[:n])
        rw += [False] * (n - len(rw))
        return dataclasses.replace(
            f, scrolled=f.scrolled[:cut] + shown + f.scrolled[cut:],
            widths=widths[:cut] + [prev.columns] * n + widths[cut:],
            wrapped=wrapped[:cut] + rw + wrapped[cut:], scrolled_lines=[],
            marks=[(off + n if off >= cut else off, why) for off, why in f.marks])

    def _learn_echo_marks(self, frame: Frame) -> None:
        """Remember the markdown of prompts echoed with it rendered.

        Claude Code echoes a sent prompt on a block of its own background,
        `❯ ` then the text, with the prompt's markdown rendered: `**b**`
        bold, `*i*` italic, `` `c` `` in a colour of its own, `# h` bold,
        italic and underlined and `## h` (and deeper) bold, a heading row
        followed by a blank row the renderer adds; `_`, `~~`, links and
        quotes stay as typed. The history keeps only the text, so each such
        block is read back with its marks (see _echo_rows), from the rows
        that scrolled off since the last frame and the rows on this one
        (which rows a frame caught depends on the pauses, this does not),
        and kept by its text without marks and spacing for make_turn."""
        gone = frame.scrolled_lines
        hist = gone if gone and len(gone) == len(frame.scrolled) else []
        texts = [h.text for h in hist]
        top = len(texts)
        first = next((y for y, t in enumerate(texts) if t.startswith("❯ ")), None)
        if frame.cells:
            if first is None:
                # (the rows tested in C: this runs for every frame)
                first = next(compress(count(top), map(_ECHO_START, frame.lines)), None)
            if first is not None:
                texts += frame.lines
        if first is None:
            return
        styles = frame.styles

        def spans(i: int) -> tuple:
            # a row's spans, read only where a block needs them (the rows
            # on screen above the first `❯ ` have none)
            if i < top:
                return tuple(hist[i].spans)
            return tuple(styles[i - top]) if i >= first else ()

        for block in _echo_blocks(texts, spans):
            got = _echo_memo(block)
            if got is not None:
                key, marked = got
                self._typed[key] = list(marked)

    def _learn_box(self, frame: Frame) -> None:
        """Remember what the input box holds, marks as typed.

        The echo of a sent prompt renders its markdown, and some marks leave
        no trace there (`## h` and `### h` are both a bold row); the input box
        shows the text raw while it is typed, the last state before Enter
        drawn on a frame of its own (each keystroke is a repaint). The rows
        between the box's two rules, `❯ ` and the indent left out, are kept
        by their text without marks and spacing for make_turn."""
        lines = frame.lines
        rules = self._frame_rules(frame)
        for i, y in enumerate(rules):
            if y >= len(lines) - 2 or not PROMPT_ROW.match(lines[y + 1]):
                continue
            # the next rule row below (the prompt row at y + 1 is none)
            end = rules[i + 1] if i + 1 < len(rules) and rules[i + 1] < min(len(lines), y + 40) else None
            if end is None:
                return
            # the same box drawn again (every keystroke, every spinner tick
            # repaints it) is read once: what it teaches is kept by its rows
            box = tuple(lines[y + 1:end])
            got = _BOX_MEMO.get(box)
            if got is None:
                got = _BOX_MEMO[box] = _box_lesson(box)
                if len(_BOX_MEMO) > 4096:
                    _BOX_MEMO.clear()
                    _BOX_MEMO[box] = got
            kind, key, rows = got
            if kind == "boxed":
                self._boxed[key] = list(rows)
            elif kind == "wide":
                self._wide_box[key] = (list(rows), frame.columns)
            return

    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        self._typed: dict[str, list[str]] = {}

        self._pasted: dict[str, str] = {}
        keys = InputLine()

        self._alt_widths: set[int] = set()
        self._echo_bgs: set[str] = set()
        self._headless: set[tuple[str, ...]] = set()
        self._headed: dict[str, tuple[str, ...]] = {}
        detailed = [False]  # the inline detailed transcript (Ctrl+O) is up

        def tap(frames: Iterable[Frame]) -> Iterator[Frame]:
            for f in frames:
                if f.alternate:
                    self._alt_widths.add(f.columns)
                    if f.styles:
                        _learn_headless_echo(f, self._echo_bgs, self._headless, self._headed)
                for sent in keys.feed(f.inputs):
                    key = _markless(_FENCE_ROW.sub("", sent))
                    if key:
                        self._pasted[key] = sent
                if not f.alternate:
                    if any(_DETAILED in ln and DETAILED_FOOTER.match(ln) for ln in f.lines[-3:]):
                        detailed[0] = True
                        f = _without_history(f)
                    elif detailed[0]:
                        # the detailed view is up until the normal view's input box is drawn
                        # again: a frame taken in the middle of its render (its footer
                        # already pushed up, or not drawn yet) scrolled rows of it too
                        if self._frame_box_top(f) is None:
                            f = _without_history(f)
                        else:
                            detailed[0] = False
                self._learn_echo_marks(f)
                self._learn_box(f)
                self._learn_tasks(f)
                _learn_groups(f.lines, self._groups, f)
                yield f

        self._boxed: dict[str, list[str]] = {}
        self._groups: dict[str, set[str]] = {}
        self._wide_box: dict[str, tuple[list[str], int]] = {}
        self._tasks: dict[str, float] = {}
        lines = super().transcript(tap(self._new_text_only(self._cleared_tail(self._without_dialogs(self._laid_out(frames))))))
        headless = _headless_rows(self._headless)
        if headless:
            lines = _headless_echo_heads(lines, headless, self._headed)
        lines = _drop_input_boxes(_without_restored_rows(lines))
        return _join_broken_tokens(_join_wide_wraps(_join_reflowed(fold_reprints(_fold_cut_short(lines), HEADER))), self._alt_widths)

    def _learn_tasks(self, frame: Frame) -> None:
        """Remember each task of the task list (2.1.197) by the time it first
        shows. A task the model made (TaskCreate) draws no row in the
        conversation: the list over the input box is all the screen shows of
        the call."""
        top = self._frame_box_top(frame)
        if top is None:
            return
        lines = frame.lines
        scrolled = self._scrolled(frame)
        # what the rows above the box show (the last echo's key, the tasks listed)
        # is read once per such rows: the same rows come back frame after frame
        key = (tuple(lines[:top]), scrolled)
        got = _TASKS_SEEN.get(key)
        if got is None:
            panel = _task_panel(lines, top)
            echo = next((ln for ln in reversed(lines[1 if scrolled else 0:panel]) if ln.startswith("❯ ")), None)
            tasks = [TASK_ROW_TEXT.sub("", ln).strip() for ln in lines[panel:top] if TASK_ROW.match(ln)]
            if len(_TASKS_SEEN) > 4096:
                _TASKS_SEEN.clear()
            got = _TASKS_SEEN[key] = (_markless(echo[2:]) if echo is not None else None, tuple(t for t in tasks if t))
        echo_key, tasks = got
        if echo_key is not None:
            self._last_echo = echo_key
        for task in tasks:
            if task not in self._tasks:
                self._tasks[task] = (frame.time, self._last_echo)

    def reconstruct(self, frames: Iterable[Frame], header: object = None) -> tuple[list[Turn], list[Labeled]]:
        self._last_echo = ""
        turns, labeled = super().reconstruct(frames, header)  # type: ignore[arg-type]
        late: list[Turn] = []
        for task, (t, echo) in sorted(getattr(self, "_tasks", {}).items(), key=lambda kv: kv[1][0]):
            call = Turn("tool_call", task, name="TaskCreate", time=t)
            # after the turn of the prompt last echoed when the task showed (an inline
            # turn's time is when its rows reached the history, not when they were drawn)
            users = [i for i, u in enumerate(turns) if u.role == "user" and echo and _markless(u.text).startswith(echo)]
            if users:
                i = users[-1] + 1
                while i < len(turns) and turns[i].role != "user":
                    i += 1
                turns.insert(i, call)
            else:
                late.append(call)
        if late:
            turns = _insert_by_time(turns, late)
        return turns, labeled

    # -- turns ------------------------------------------------------------
    def label(self, lines: list[TLine]) -> list[Labeled]:
        labeled = super().label(lines)
        # `⎿` under a slash command is that command's output, not a tool's.
        prev = None
        above: Labeled | None = None
        for lb in labeled:
            if lb.kind == "tool_result" and prev == "system":
                lb.kind = "cont"
            # a tip wrapped at a narrow width: its next rows are the tip's too;
            # so are the rows of a slash-menu entry whose description wrapped
            # (indented to the description's column)
            # (a tip's wrapped rows are indented to its text, past `  ⎿  `; a row
            # indented less is the conversation the stitcher put after it)
            if (lb.kind == "cont" and above is not None and above.kind == "chrome"
                    and ((above.rule == "tip" and lb.line.text.startswith(" " * 5))
                         or (above.rule == "slash-menu" and lb.line.text.startswith(" " * 8)))):
                lb.kind = "chrome"
                lb.rule = above.rule
            # the header's model and directory rows, their mascot cells blanked
            # (`_still_mascot`), start at the header text's column: chrome as the
            # row above, also where a /clear draws the header again after an answer
            elif (lb.kind == "cont" and above is not None and above.kind == "chrome"
                  and above.rule in ("logo", "logo-still", "logo-continued")
                  and lb.line.text.startswith(" " * _HEADER_TEXT) and lb.line.text[_HEADER_TEXT:_HEADER_TEXT + 1].strip()):
                lb.kind = "chrome"
                lb.rule = "logo-continued"
            above = lb
            if lb.kind not in ("blank", "chrome", "cont"):
                prev = lb.kind
        _groups_as_run(labeled, getattr(self, "_groups", {}))
        _records_to_tables(labeled)
        _prompts_that_look_like_commands(labeled)
        _unknown_commands(labeled)
        _answers_without_marker(labeled)
        _running_commands(labeled)
        _task_rows(labeled)
        _rule_left_under_prompt(labeled)
        _unfolded_reprints(labeled)
        return labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        if kind == "tool_call":
            text = "\n".join(KEY_HINT.sub("", ln) for ln in text.splitlines())
            first = members[0]
            if first.rule == "tool-summary":
                return _summary_turns(text)
            if first.rule == "tool-running":
                return Turn("tool_call", first.body, name="Bash")
            m = TOOL_CALL.match(first.line.text.strip() if "\n" not in text else "● " + " ".join(
                ln.strip() for ln in text.splitlines()))
            if m:
                name = m.group("name")
                return Turn("tool_call", m.group("arg").strip(), name=DISPLAY_TOOL.get(name, name))
            name, _, arg = text.partition("(")
            return Turn("tool_call", arg.rstrip(")").strip(), name=name.strip() or None)
        if kind == "tool_result":
            return Turn("tool_result", text)
        if kind == "user" and members and members[0].rule == "bang-command":
            return Turn(kind, "!" + text)  # as typed: `!` then the command (the echo puts a space between)
        if kind == "user":
            key = _markless(text)
            pasted = getattr(self, "_pasted", {}).get(key)
            if pasted is None and members and members[0].line.text.startswith(_HEADLESS):
                # an echo whose first rows never were in the view: the paste it ends
                pasted = next((v for k, v in getattr(self, "_pasted", {}).items()
                               if len(key) >= 12 and k.endswith(key)), None)
            if pasted is not None:
                # the recording's input events hold the pasted text itself: the echo
                # renders it (a fence row drawn as nothing, a list item's next line indented)
                return Turn(kind, pasted)
            # the box as typed first; else the marks the echo's styles stand for
            # (a list item typed `* item` is echoed `- item`: the box still holds the `*`)
            unbulleted = _ECHO_BULLET.sub(r"\1", text)
            for echo, rows in ((text, getattr(self, "_boxed", {}).get(key)),
                               (text, getattr(self, "_typed", {}).get(key)),
                               (unbulleted, getattr(self, "_boxed", {}).get(_markless(unbulleted))
                                if unbulleted != text else None)):
                typed = _typed_markdown(echo, rows) if rows is not None else None
                if typed:
                    text = typed
                    break
            else:  # no box with marks, no echo with styled marks: where the box's rows end
                boxed = getattr(self, "_wide_box", {}).get(key)
                if boxed is not None:
                    text = _box_lines(*boxed)
                else:
                    text = _echo_lines(text, members)
        if kind == "assistant":
            # inline, history keeps old layouts; full screen, a table relaid at a new
            # width whose words the join could not follow (its cells wrapped anew)
            text = _without_record_copies(_without_stale_tables(text))
            text = _one_row_per_record(_nested_numbers(text))
        return Turn(kind, _close_vs16_shadows(text) if kind != "tool_call" else text)


VS16_SHADOW = regex.compile(r"(?<=(.)\ufe0f) ")


def _close_vs16_shadows(text: str) -> str:
    """`text` without the blank Claude Code leaves after each one-column
    character that carries U+FE0F (`🛠️`, `⚠️`): it counts the pair two
    columns wide, writes a space in the second column, the character in the
    first, then moves the cursor past both. A terminal that keeps the
    character one column wide shows that space: `🛠️:` is drawn `🛠️ :`,
    `🛠️ word` is drawn `🛠️  word`. (A wide character with U+FE0F, `✅️`,
    covers both columns: nothing to close.)"""
    if "\ufe0f " not in text:
        return text
    return VS16_SHADOW.sub(lambda m: "" if wcwidth(m.group(1)) == 1 else " ", text)


#: Rows drawn only once a prompt was sent: the spinner/status line, the tip
#: under it, the thinking time.
WORKING_RULES = frozenset({"status-star", "status-star-tokens", "tip", "thinking-time"})


def _running_commands(labeled: list[Labeled]) -> None:
    """A running group's row left as it was last drawn: its latest shell
    command's description (`● Scan the notes`, the bullet blinking) over the
    command (`⎿  $ head -n 5 notes.md`) is that call, not an answer and its
    output. It stays so when nothing was drawn over it again: a permission
    dialog taller than the screen covered the rest of the turn. When the
    group's closing row follows (past the working status), the pair is that
    group as it ran, left over by the stitching: chrome, the closing row
    counts the call."""
    for y in range(len(labeled) - 1):
        lb, below = labeled[y], labeled[y + 1]
        if not GROUP_COMMAND.match(below.line.text):
            continue
        text = lb.line.text
        if not ((lb.rule == "answer" and text.startswith("●"))
                or (lb.kind == "cont" and y and labeled[y - 1].kind == "blank")) or not GROUP_DESCRIBED.match(text):
            continue
        nxt = next((m for m in labeled[y + 2:] if m.kind not in ("blank", "chrome")), None)
        if nxt is not None and nxt.rule == "tool-summary":
            lb.kind, lb.rule, lb.body = "chrome", "tool-running", ""
        else:
            lb.kind, lb.rule, lb.body = "tool_call", "tool-running", below.line.text.strip()[1:].strip()[2:].strip()
        below.kind, below.rule, below.body = "chrome", "tool-running", ""


def _answers_without_marker(labeled: list[Labeled]) -> None:
    """Text after a prompt and the working status under it is an answer even
    when its `●` row was never on screen.

    A burst of output (a long answer arriving at once) can scroll the
    answer's first rows, marker included, out of the full-screen view before
    any frame shows them; what was drawn follows the spinner row of the
    prompt. Taken as `cont` it would join the prompt. The prompt's own
    continuation rows come right under it, never after the status line.
    The same after a tool call or its result: an answer that arrived whole
    while the agent was stopped (Ctrl+Z) is drawn at once when `fg` brings
    it back, its first rows above the view; a call's own rows also come
    right under it. (There the row must sit at the answer's indent: a job
    message the shell printed once the agent's screen was gone starts at
    the margin.) A finished group's row with a blank row under it is as
    good as the status line: the group draws nothing of its own below.
    """
    in_prompt = working = False
    after_call = False
    group_done = False
    for lb in labeled:
        if lb.kind in ("user", "assistant", "tool_call", "tool_result", "thinking", "system"):
            in_prompt, working = lb.kind in ("user", "tool_call", "tool_result"), False
            after_call = lb.kind != "user"
            # a finished group's row (`Ran 1 shell command`) has no rows of its own
            # under a blank one: what comes after the blank is the answer (a table
            # relaid as it grew in a short view, its `●` row left above the view)
            group_done = lb.rule == "tool-summary" and not lb.line.text.rstrip().endswith("…")
        elif lb.kind == "chrome" and in_prompt and lb.rule in WORKING_RULES:
            working = True
        elif lb.kind == "blank" and group_done and in_prompt:
            working = True
        elif group_done and working and lb.kind == "cont" and TOOL_CALL.match("●" + lb.line.text[1:]):
            # the next call's row caught with its blinking bullet off (`  Update(notes.txt)`)
            working = group_done = False
        elif (lb.kind == "cont" and in_prompt and working and lb.body.strip()
              and (not after_call or (lb.line.text[:2] == "  " and lb.line.text[2:3].strip()))):
            lb.kind, lb.rule = "assistant", "answer-without-marker"
            lb.body = lb.body[2:] if lb.body.startswith("  ") else lb.body  # the answer's indent
            in_prompt = working = False


_THINKING_HEAD = regex.compile(r"^\s{0,4}⎿\s+\S")
#: the row of a running group right above its thinking: its counts, or the call it runs
_RUNNING_ROW = regex.compile(r"^(?:●\s|\s{2})(?:Thinking for \d+[smh], |)(?:Reading|Running|Searching|Listing|Writing"
                             r"|Editing|Updating|Creating|Fetching|Finding)\b")


def _running_thinking(frame: Frame, end: int) -> set[int]:
    """Rows of the thinking the full-screen renderer shows under a running
    group (`Thinking for 8s, reading 1 file…` / `⎿  <the thinking, italic>`):
    a `⎿` row whose text is italic, and the rows under it at its text's
    indent, italic too. Once the group closes (`Thought for 8s, read 1
    file`) they are gone; placed as conversation, a dozen rows that vanish
    leave the next view nothing to join on but the prompt, and the turn
    comes back twice."""
    lines = frame.lines
    out: set[int] = set()
    y = 0
    while y < end:
        ln = lines[y]
        if "⎿" not in ln[:6] or not _THINKING_HEAD.match(ln):
            y += 1
            continue
        at = ln.index("⎿") + 1
        while at < len(ln) and ln[at] == " ":
            at += 1
        if not _italic_at(frame, y, at) or not (y and _RUNNING_ROW.match(lines[y - 1])):
            y += 1
            continue
        k = y + 1
        while k < end and lines[k][:at].strip() == "" and len(lines[k]) > at and lines[k][at] != " " \
                and _italic_at(frame, k, at):
            k += 1
        if k - y >= 3:  # a row or two vanishing the stitcher joins over (2.1.197 keeps them)
            out.update(range(y, k))
        y = k
    return out


def _italic_at(frame: Frame, y: int, x: int) -> bool:
    """The cell at column `x` of row `y` is drawn italic."""
    try:
        spans = frame.styles[y]
    except (IndexError, TypeError):
        return False
    return any(a <= x < b and flags & FLAG_ITALIC for a, b, _fg, _bg, flags in spans)


def _fresh_clear(lines: list[str], end: int) -> bool:
    """The full-screen view right after `/clear`: the header, then the
    command's echo and nothing under it but its output row."""
    # the echo (`❯ /clear`) is a row above `end`: most views hold none
    if not any(map(str.startswith, lines[:end], repeat("❯ /"))):
        return False
    y = 0
    while y < end and not lines[y].strip():
        y += 1
    if y >= end or y > 3 or not (HEADER.match(lines[y]) or _HEADER_FIRST.match(lines[y])):
        return False
    while y < end and (not lines[y].strip() or HEADER.match(lines[y]) or _HEADER_FIRST.match(lines[y])
                       or lines[y].startswith(" " * _HEADER_TEXT)):
        y += 1
    if y >= end or not CLEAR_ECHO.match(lines[y]):
        return False
    return all(not ln.strip() or ln.lstrip().startswith("⎿") for ln in lines[y + 1:end])


#: rows of chrome whose words change from frame to frame (a spinner's time and
#: tokens, the tip under it): no new text of the conversation
_STATUS_RULES = frozenset({"status-star", "status-star-tokens", "tip", "thinking-time"})
_SPINNER = regex.compile(rf"^\s*{STAR}\s+\S")


#: the hint drawn at the right end of the row over the input box while the draft
#: runs over several rows (`ctrl+g to edit in Vim`)
_EDIT_HINT = regex.compile(r"^\s{8,}ctrl\+g to edit in \S+\s*$")


def _withheld_tail(lines: list[str], end: int) -> bool:
    """A full-screen view (the input box at row `end`) that leaves three blank
    rows or more between the conversation's last row and the box (or the
    spinner and its tip above it), the header not in view.

    A conversation taller than the view is drawn down to the box, one blank
    row above it; after a resize, Claude Code 2.1.197 draws it anew at the
    new width and may leave out the last message (the answer still
    streaming, or just streamed), its rows blank: the view ends at the
    prompt or the call row above it, and stays so until the next render.
    Placed as a view, the rows above the blank stretch are an older part of
    the conversation that the new layout already drew below (a copy of the
    prompt, of a whole turn); a later render draws the message again.
    `_new_text_only` leaves such views out while they show nothing new."""
    y = end - 1
    if y >= 0 and _EDIT_HINT.match(lines[y]):
        y -= 1  # the hint a long draft brings, right-aligned over the box: no conversation
    while y >= 0 and not lines[y].strip():
        y -= 1
    gap = end - 1 - y
    z = y
    while z >= 0 and lines[z].lstrip().startswith("⎿"):
        z -= 1
    if z >= 0 and _SPINNER.match(lines[z]):
        y = z - 1
        while y >= 0 and not lines[y].strip():
            y -= 1
        gap = z - 1 - y
    if y < 0 or gap < 3:
        return False
    return not any(HEADER.match(ln) or _HEADER_FIRST.match(ln) for ln in lines[:y + 1])


def _task_panel(lines: list[str], end: int) -> int:
    """The first row of the task list drawn right above row `end` (the input
    box), `end` when there is none. The list (2.1.197, once the model made
    tasks) stays under every view while the conversation scrolls: as
    conversation rows it would close each view with the same rows, which
    anchor the join of a new layout (after a resize) on themselves."""
    y = end
    while y > 0 and not lines[y - 1].strip():
        y -= 1
    k = y
    while k > 0 and TASK_ROW.match(lines[k - 1]):
        k -= 1
    if k == y:
        return end
    if k > 0 and TASK_HEAD.match(lines[k - 1]):
        return k - 1
    if lines[k].lstrip().startswith("⎿"):
        return k  # hung off the working status row above it
    return end


#: a table's middle rule (`├───┼───┤`) alone on its row
_MIDDLE_RULE = regex.compile(r"^\s*├[─┼]+┤\s*$")


def _rule_left_under_prompt(labeled: list[Labeled]) -> None:
    """A table's middle rule right under a prompt's echo, on the row where the
    blank row between the echo and the answer belongs (the answer's `●` on the
    next row), is a row of the answer's table that a redraw after a resize left
    behind, not the prompt's: a table the user typed into a prompt ends in its
    bottom rule, and a blank row comes before the answer."""
    for y in range(1, len(labeled) - 1):
        lb = labeled[y]
        if lb.kind != "cont" or labeled[y + 1].kind != "assistant" or not _MIDDLE_RULE.match(lb.line.text):
            continue
        top = y - 1
        while top > 0 and labeled[top].kind == "cont":
            top -= 1
        if labeled[top].kind == "user":
            lb.kind = "chrome"
            lb.rule = "stale-table-rule"


_TURN_KINDS = ("user", "system")


def _prompt_at(labeled: list[Labeled], i: int) -> str:
    """The text of the prompt (or command) whose echo opens at row i, its rows
    joined, as `_markless` keys it."""
    parts = [labeled[i].body]
    j = i + 1
    while j < len(labeled) and labeled[j].kind == "cont":
        parts.append(labeled[j].body)
        j += 1
    return _markless(" ".join(parts))


def _unfolded_reprints(labeled: list[Labeled]) -> None:
    """A reprint the fold could not lay over its older copy, left out.

    After a resize, or as a dialog (`/help`) closes, the inline renderer
    wipes its live area and draws it again at the current width, from a
    prompt's echo (or the `/clear` before it) on. A table laid out anew
    there reads in another order (drawn as `key: value` records at the old
    width, as a box at the new one), a word the narrower width cut in two
    reads as two: the reprint holds the old copy's words out of order and
    `fold_redraws` keeps both, so the same prompts (and commands) come
    twice. The older run goes when the same run of prompts and commands
    follows it at once, and every word of the older run is a word of the
    newer one (or of the turn before the run, whose last rows the reprint
    may open with; a word cut in two counts whole): an answer the model
    gave to a prompt sent again says something of its own."""
    opens = [i for i, lb in enumerate(labeled) if lb.kind in _TURN_KINDS]
    keys = [(labeled[i].kind, _prompt_at(labeled, i)) for i in opens]
    a = 0
    while a < len(opens):
        b = next((b for b in range(a + 1, len(opens)) if keys[b] == keys[a]), None)
        if b is None:
            a += 1
            continue
        n = b - a
        if b + n > len(opens) or keys[b:b + n] != keys[a:b] or not keys[a][1]:
            a += 1
            continue
        end = opens[b + n] if b + n < len(opens) else len(labeled)
        old = set(WORD_RE.findall(" ".join(lb.body for lb in labeled[opens[a]:opens[b]] if lb.kind != "chrome")))
        drawn = WORD_RE.findall(" ".join(lb.body for lb in labeled[opens[b]:end] if lb.kind != "chrome"))
        # (a word the narrower width cut in two, `seas` / `k?`, is that word)
        new = set(drawn) | set(map(str.__add__, drawn, drawn[1:]))
        # (the reprint may open with the last rows of the answer before the run: the
        # older copy then ends in them)
        before = set(WORD_RE.findall(" ".join(lb.body for lb in labeled[opens[a - 1] if a else 0:opens[a]]
                                              if lb.kind != "chrome")))
        if not old <= new | before:
            a += 1
            continue
        for lb in labeled[opens[a]:opens[b]]:
            if lb.kind != "blank":
                lb.kind, lb.rule = "chrome", "unfolded-reprint"
        a = b


def _task_rows(labeled: list[Labeled]) -> None:
    """The rows of the task list (2.1.197) are chrome: the box glyph rows right
    under its head, or under the working status while the model works (the
    list hangs off it under `⎿`). The list sits between the conversation and
    the input box; taken as text it ends the answer above it."""
    under = False
    for lb in labeled:
        if lb.kind == "chrome" and (lb.rule == "task-list" or lb.rule in WORKING_RULES):
            under = True
        elif under and lb.kind != "blank" and TASK_ROW.match(lb.line.text):
            lb.kind, lb.rule = "chrome", "task-list"
        elif lb.kind != "blank":
            under = False


SLASH_NAME = regex.compile(r"^/[\w:-]+(?=\s|$)")


def _prompts_that_look_like_commands(labeled: list[Labeled]) -> None:
    """`❯ /something` is a slash command the CLI ran, or a prompt that starts
    with a slash (a path: `/var/log keeps growing`) which the CLI sent to the
    model. A command's name is one token (`/compact`, `/review:pr`); and a
    local command draws its output under `⎿`, never an answer. A row whose
    first token is no command name (a second slash), or a sentence the model
    answers (the next block is an answer, a tool call or thinking), is a
    prompt."""
    for k, lb in enumerate(labeled):
        if lb.kind != "system" or lb.rule != "slash-command":
            continue
        following = next((x for x in labeled[k + 1:] if x.kind not in ("blank", "chrome", "cont")), None)
        # (a command that expands into a prompt, `/init`, is answered too: it
        # takes a sentence after the slash word to read an answered row as one)
        if not SLASH_NAME.match(lb.body) or (len(lb.body.split()) >= 3 and following is not None
                                              and following.kind in ("assistant", "tool_call", "thinking")):
            lb.kind, lb.rule = "user", "prompt"


#: what Claude Code draws, in place of the prompt's echo, for a prompt that
#: opens with a slash word that names no command or skill (2.1.197 adds
#: `. Did you mean /name?`)
UNKNOWN_COMMAND = regex.compile(r"^Unknown command: (?P<name>/[\w:-]+)(?:\.(?:\s+Did you mean\s.*)?)?\s*$")
UNKNOWN_ARGS = regex.compile(r"^Args from unknown skill: (?P<args>.*)$")


def _unknown_commands(labeled: list[Labeled]) -> None:
    """A prompt opening with `/word` that is no command is never echoed as
    `❯ /word …`: Claude Code (full screen and inline) draws `● Unknown
    command: /word` and, when words followed, `● Args from unknown skill:
    <the words>`, the two with an answer's marker. Such a pair not under a prompt of its own
    (an answer's row comes under its prompt, its thinking or a tool) is the
    prompt as typed: the slash word, a space and the words; `Unknown
    command: /word` alone is the command typed, refused by the CLI itself
    (a system turn, as a local command is). A local
    command's row above (`❯ /model` and its `⎿` output) is no prompt the
    pair could answer."""
    last = None  # the kind of the last turn-opening row
    for k, lb in enumerate(labeled):
        if lb.kind in ("blank", "chrome", "cont"):
            continue
        m = UNKNOWN_COMMAND.match(lb.body) if lb.kind == "assistant" and lb.rule == "answer" else None
        if m is not None and last != "user":
            lb.kind, lb.rule, lb.body = "user", "unknown-command", m.group("name")
            j = next((j for j in range(k + 1, len(labeled)) if labeled[j].kind not in ("blank", "chrome")), None)
            nxt = labeled[j] if j is not None else None
            a = UNKNOWN_ARGS.match(nxt.body) if nxt is not None and nxt.kind == "assistant" else None
            if a is not None:
                lb.body += " " + a.group("args")
                nxt.kind, nxt.rule = "chrome", "unknown-args"
                for x in labeled[k + 1:j]:  # the blank between the two rows is no line of the prompt
                    if x.kind == "blank":
                        x.kind, x.rule = "chrome", "unknown-args"
            else:
                # the slash word alone: a command typed that the CLI refused itself,
                # as it runs `/help` itself (a system turn), never a prompt
                lb.kind = "system"
        # (nothing answers a prompt no command took: an `Unknown command` right
        # under it is the next such prompt)
        last = "unknown-command" if lb.rule == "unknown-command" else lb.kind


NESTED_ITEM = regex.compile(r"^(?P<indent> +)(?P<mark>[a-z]{1,3})\. (?=\S)")
_ROMAN = ((10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def _letters(k: int) -> str:
    out = ""
    while k > 0:
        k -= 1
        out = chr(97 + k % 26) + out
        k //= 26
    return out


def _roman(k: int) -> str:
    out = ""
    for v, r in _ROMAN:
        while k >= v:
            out, k = out + r, k - v
    return out


def _nested_numbers(text: str) -> str:
    """A numbered list inside another list is drawn with letters (`a.`,
    `b.`) one level down and roman numerals (`i.`, `ii.`) two levels down;
    the answer wrote numbers. Indented siblings whose markers count a, b,
    c... or i, ii, iii... from the first are read back as 1, 2, 3."""
    lines = text.split("\n")
    done: set[int] = set()
    for start, ln in enumerate(lines):
        m = NESTED_ITEM.match(ln)
        if start in done or not m or m.group("mark") not in ("a", "i"):
            continue
        indent = len(m.group("indent"))
        count = _letters if m.group("mark") == "a" else _roman
        siblings = []
        for y in range(start, len(lines)):
            row = lines[y]
            lead = len(row) - len(row.lstrip(" "))
            if row.strip() and lead < indent:
                break
            s = NESTED_ITEM.match(row)
            if s and len(s.group("indent")) == indent:
                if s.group("mark") != count(len(siblings) + 1):
                    break
                siblings.append(y)
        for k, y in enumerate(siblings, 1):
            row = lines[y]
            lines[y] = " " * indent + str(k) + row[NESTED_ITEM.match(row).end() - 2:]
            done.add(y)
    return "\n".join(lines)


#: a row of box-drawing glyphs only (a table's border)
BOX_ONLY = regex.compile(r"^\s*[─┌┬┐├┼┤└┴┘│]{3,}[\s─┌┬┐├┼┤└┴┘│]*$")
# A row of a table drawn as records: "  key: value" (the value may be empty).
RECORD_ROW = regex.compile(r"^\s*(?P<key>[^\s:][^:]{0,60}?):(?:\s+(?P<value>.*?))?\s*$")


def _records_to_tables(labeled: list[Labeled]) -> None:
    """A markdown table too wide for the screen is drawn as records: each
    row of the table becomes `key: value` rows (one per column, keys from the
    header) and a rule separates the records. Read back as a table, header
    first, so the words come in the order the answer wrote them.

    Only inside an answer, with at least two records holding the same keys
    in the same order (a list of `key: value` lines alone is left as it is).
    A row that does not read `key: value` continues the value above it (a
    value the width wrapped)."""
    n = len(labeled)
    i = 0
    while i < n:
        lb = labeled[i]
        if not (lb.kind == "chrome" and lb.rule == "rule"):
            i += 1
            continue
        # the record above this rule: back to a blank row or the answer's marker row
        j = i
        while j > 0:
            if labeled[j - 1].kind in ("cont", "assistant") and labeled[j - 1].body.strip():
                j -= 1
                if labeled[j].kind == "assistant":
                    break
            elif _blank_in_value(labeled, j - 1):
                j -= 1
            else:
                break
        # (above it: the answer's marker, a blank row, or the rule of a record
        # that scrolled away before a frame showed it)
        if j == i or not (labeled[j].kind == "assistant" or (j > 0 and (
                labeled[j - 1].kind == "blank" or (labeled[j - 1].kind == "chrome"
                                                   and labeled[j - 1].rule == "rule")))):
            i += 1
            continue
        if labeled[j].kind != "assistant" and not _inside_answer(labeled, j):
            i += 1
            continue
        # (inline, a table first drawn as a box and relaid as records once it grew
        # too wide: the box's top rows that had scrolled into history stay above
        # the records; they are the same table's)
        lead = j
        while lead < i and BOX_ONLY.match(labeled[lead].body):
            lead += 1
        first = _record(labeled[lead:i])
        if first is None:
            i += 1
            continue
        keys = [k for k, _ in first]
        records = [first]
        members = list(range(j, i + 1))
        k = i + 1
        while True:
            e = k
            while e < n and (labeled[e].kind == "cont" and labeled[e].body.strip() or _blank_in_value(labeled, e)):
                e += 1
            rec = _record(labeled[k:e]) if e > k else None
            if rec is None:
                break
            have = [kk for kk, _ in rec]
            if have != keys:
                # the first record short of its first keys: relaid in place, its top
                # rows fell above the screen's top, where the renderer cannot write
                if len(records) == 1 and len(have) > len(keys) and have[len(have) - len(keys):] == keys:
                    records[0] = [(kk, "") for kk in have[:len(have) - len(keys)]] + records[0]
                    keys = have
                else:
                    break
            records.append(rec)
            members += range(k, e)
            if e < n and labeled[e].kind == "chrome" and labeled[e].rule == "rule":
                members.append(e)
                k = e + 1
                continue
            break
        if len(records) < 2:
            i += 1
            continue
        table = ["| " + " | ".join(keys) + " |"] + ["| " + " | ".join(v for _, v in r) + " |" for r in records]
        head = labeled[members[0]]
        head.body = "\n".join(table)
        for m in members[1:]:
            labeled[m].kind, labeled[m].rule, labeled[m].body = "chrome", "table-record", ""
        i = members[-1] + 1


def _blank_in_value(labeled: list[Labeled], b: int) -> bool:
    """The blank row at b sits inside a record's wrapped value: a value row that
    filled the width to its last column is followed by an empty row before the
    value goes on (2.1.197 draws `Key: … word` / `` / `    more.`). The row
    below is no `key: value` row and starts right of the key of the nearest
    `key: value` row above."""
    if not (0 < b < len(labeled) - 1 and labeled[b].kind == "blank"):
        return False
    below = labeled[b + 1]
    if below.kind != "cont" or not below.body.strip() or RECORD_ROW.match(below.body):
        return False
    for lb in reversed(labeled[:b]):
        if lb.kind not in ("cont", "assistant") or not lb.body.strip():
            return False
        m = RECORD_ROW.match(lb.body)
        if m and m.group("value"):
            ind = lambda t: len(t) - len(t.lstrip())
            return ind(below.body) > ind(lb.body)
    return False


def _inside_answer(labeled: list[Labeled], j: int) -> bool:
    """The row at j continues an answer (the last marker above it opened one)."""
    for lb in reversed(labeled[:j]):
        if lb.kind in ("blank", "cont", "chrome"):
            continue
        return lb.kind == "assistant"
    return False


def _record(rows: list[Labeled]) -> list[tuple[str, str]] | None:
    """`key: value` pairs of one record's rows, or None when the rows are no record."""
    out: list[tuple[str, str]] = []
    # the keys' column: where the rows with a value start (the first row may follow
    # the answer's marker); a key with an empty cell (`Dour:`) starts there too, a
    # wrapped value's row ending in a colon further right
    cols = [len(lb.body) - len(lb.body.lstrip()) for lb in rows[1:] if (m := RECORD_ROW.match(lb.body)) and m.group("value")]
    key_col = min(cols) if cols else 0
    for lb in rows:
        m = RECORD_ROW.match(lb.body)
        if m and not (out and len(lb.body) - len(lb.body.lstrip()) > key_col and not m.group("value")):
            out.append((m.group("key").strip(), (m.group("value") or "").strip()))
        elif out:
            out[-1] = (out[-1][0], (out[-1][1] + " " + lb.body.strip()).strip())
        else:
            return None
    return out if len(out) >= 2 else None


#: a collapsed group while its calls run: `Reading 1 file, running 1 shell command…`
GROUP_RUNNING = regex.compile(r"^\s*(?:●\s+)?(?:(?i:thinking|thought)\b[^,]{0,30},\s+)?"
                              r"(?i:reading|listing|searching for|searching|running|fetching|finding)\s+\d+\s.*…")
def _group_anchor(rows: "list[str]", y: int) -> str | None:
    """What a collapsed group row at `y` sits under: the nearest row above with
    text (its marker and key hint left out), or None at the top."""
    for k in range(y - 1, -1, -1):
        r = rows[k]
        if r and r.strip():
            return KEY_HINT.sub("", r).strip().removeprefix("●").strip()
    return None


#: the row under a running group's row naming its latest shell command (`⎿  $ head -n 5 a.md`)
GROUP_COMMAND = regex.compile(r"^\s{2,4}⎿\s+\$ \S")
#: a running group's row that shows its latest shell command's description instead of its
#: counts (`● Scan the notes` / `  Scan the notes`, its bullet blinking): words at the
#: bullet's column, no call's `Name(…)`
GROUP_DESCRIBED = regex.compile(r"^(?:●| ) \S(?!.*\)\s*$)")


def _learn_groups(rows: "list[str]", groups: "dict[str, set[str]]", frame: "Frame | None" = None) -> None:
    """Remember, per row a collapsed group sits under, the calls its running
    row named under it (`⎿  $ wc -l notes.md`, `⎿  notes.md`), one at a time.
    The running row is its counts (`Reading 1 file…`) or, while a shell command
    runs, that command's description with the command under it. The model's
    thinking shown there meanwhile (italic, `frame`'s styles) names no call."""
    # a call's row under the group's starts with `⎿` (stripped): only the rows
    # right above such a row are read (the rows are tested in C, every frame)
    for y in compress(count(-1), map(contains, rows, repeat("⎿"))):
        r = rows[y] if y >= 0 else ""
        if not r:
            continue
        below = rows[y + 1]
        if "…" in r and GROUP_RUNNING.match(r):
            pass
        elif not (GROUP_COMMAND.match(below) and GROUP_DESCRIBED.match(r)):
            continue
        detail = below.strip()
        if not detail.startswith("⎿"):
            continue
        if frame is not None and _italic_at(frame, y + 1, len(below) - len(below.lstrip()) + len(detail)
                                            - len(detail[1:].lstrip())):
            continue  # the model's thinking (italic), not a call
        anchor = _group_anchor(rows, y)
        if anchor is None:
            continue
        groups.setdefault(anchor, set()).add(detail[1:].strip())


def _distinct_calls(named: "set[str]") -> int:
    """How many calls a running group named: a name cut at the width (`…`) after a
    resize is the same call as a longer one it begins."""
    keys = sorted({n.rstrip("…").rstrip() for n in named}, key=len, reverse=True)
    kept: list[str] = []
    for k in keys:
        if not any(o.startswith(k) for o in kept):
            kept.append(k)
    return len(kept)


def _groups_as_run(labeled: list[Labeled], groups: "dict[str, set[str]]") -> None:
    """A collapsed group's closing row counts fewer calls than ran.

    Once its calls are done, Claude Code no longer counts a shell command that
    read a file (`head`, `wc`) next to a Read (`Read 1 file` for both), nor a
    failing one but as `· 1 failed`. While they run, the group names each call
    under it (`⎿  $ wc -l notes.md`, `⎿  notes.md`), one at a time
    (`_learn_groups`). The distinct calls named, less those the closing row
    counts, were shell commands: `ran N shell commands` is added to the closing
    row, so each call drawn is a call replayed. (The running row's own counts
    are no evidence: a `wc` counts as a file read and a shell command at once.)
    The running row is told from others by the row it sits under."""
    if not groups:
        return
    texts = [lb.line.text for lb in labeled]
    for y, lb in enumerate(labeled):
        if lb.rule != "tool-summary":
            continue
        ran = _distinct_calls(groups.get(_group_anchor(texts, y) or "", set()))
        closed = sum(int(m.group(2)) for m in SUMMARY.finditer(lb.body))
        if ran <= closed:
            continue
        k = ran - closed
        extra = "ran %d shell command%s" % (k, "s" if k > 1 else "")
        # before the `· 1 failed` and the key hint
        cut = regex.search(r"\s+·\s+\d+\s+failed|\s+\((?i:ctrl|shift|alt|meta|cmd)\+|…|\s*$", lb.body)
        at = cut.start() if cut else len(lb.body)
        lb.body = lb.body[:at] + ", " + extra + lb.body[at:]


def _summary_turns(text: str) -> list[Turn]:  # type: ignore[return]
    """One tool_call per call a collapsed summary line stands for."""
    turns: list[Turn] = []
    for m in SUMMARY.finditer(text):
        verb, n = m.group(1).lower(), int(m.group(2))
        name = SUMMARY_TOOL.get(verb, verb.title())
        for _ in range(min(n, 50)):
            turns.append(Turn("tool_call", text.splitlines()[0].strip(), name=name))
    return turns or [Turn("tool_call", text.strip(), name=None)]


def _drawn_wider(frame: Frame) -> bool:
    """An inline frame laid out for a wider terminal than the screen is.

    The inline renderer places every row itself (column moves, CR LF) and
    never lets a row run into the next one: a rule of the input box that
    autowrapped was drawn for an older, wider width (two resizes in quick
    succession: the TUI redraws the whole conversation at the width it saw
    first, its rows piling up at the right edge), or the terminal rewrapped
    an older wider layout when it shrank. Either way the rows, and what the
    drawing pushed into history, are no text of the conversation; the
    redraw at the real width follows.
    """
    wrapped = frame.row_wrapped
    if not wrapped or True not in wrapped:  # most frames wrap no row
        return False
    return any(w and _RULE_RUN in ln and RULE.match(ln) for ln, w in zip(frame.lines, wrapped))


def _opens_with_header(rows: list[str]) -> bool:
    """The first row with text is the header's (the logo)."""
    first = next((r for r in rows if r.strip()), "")
    return bool(LOGO.match(first) or LOGO_STILL.match(first))


_DIALOG_TITLE = regex.compile(r"^ [A-Z][a-z]+(?: [a-z]+){0,3}$")
_DIALOG_DASHES = regex.compile(r"^╌{20,}$")
_DIALOG_END = regex.compile(r"^\s*(Esc to cancel|Do you want to )")


def _dialog_rows(rows: list[str], columns: int) -> set[int]:
    """Rows of file permission dialogs among history rows (see `_without_dialogs`):
    from the dialog's full-width rule to its `Esc to cancel` row, or to the last row."""
    out: set[int] = set()
    n = len(rows)
    i = 0
    while i < n:
        ln = rows[i].rstrip()
        if (len(ln) >= columns - 1 and ln.startswith("─") and RULE.match(ln) and i + 1 < n
                and _DIALOG_TITLE.match(rows[i + 1].rstrip())
                and any(_DIALOG_DASHES.match(r.rstrip()) and len(r.rstrip()) >= columns - 1
                        for r in rows[i + 2:i + 6])):
            j = i + 1
            while j < n and not _DIALOG_END.match(rows[j]):
                j += 1
            while j + 1 < n and rows[j + 1].strip() and not rows[j + 1].startswith(("●", "❯")):
                j += 1  # the question's options and the hint row under them
            out.update(range(i, min(j + 1, n)))
            i = j + 1
            continue
        i += 1
    return out


def _without_scrolled(f: Frame, drop: set[int]) -> Frame:
    """`f` without the history rows at the indices `drop` (its marks moved up)."""
    keep = [k for k in range(len(f.scrolled)) if k not in drop]

    def pick(xs: list) -> list:
        return [xs[k] for k in keep] if len(xs) == len(f.scrolled) else xs
    return dataclasses.replace(
        f, scrolled=pick(f.scrolled), widths=pick(f.widths), wrapped=pick(f.wrapped),
        scrolled_lines=pick(f.scrolled_lines),
        marks=[(off - sum(1 for k in drop if k < off), why) for off, why in f.marks])


def _starts_over(rows: list[str]) -> bool:
    """Rows drawn after a wipe open a new conversation: the header, then a
    command's echo (`❯ /clear`) with at most its output under it, and no
    prompt or message of a conversation drawn again (a resize's reprint,
    the redraw a permission dialog's answer makes, go on with those)."""
    body = [r for r in rows if r.strip()]
    if not body or not (LOGO.match(body[0]) or LOGO_STILL.match(body[0])):
        return False
    body = [r for r in body if not HEADER.match(r)]
    box = next((i for i, r in enumerate(body) if RULE.match(r)), len(body))
    body = body[:box]
    return bool(body) and bool(_SLASH_ECHO.match(body[0])) and not any(
        r.startswith(("❯ ", "● ")) for r in body[1:])


_SLASH_ECHO = regex.compile(r"^❯\s+/[\w:-]+(\s|$)")


def _history_before_resize(frame: Frame, held: Frame | None) -> Frame | None:
    """What of a left-out frame's history is conversation: the rows that left
    the screen before its last resize (laid out at the old width, before any
    redraw at the wrong one); rows pushed out after it belong to the
    mis-laid-out drawing."""
    cut = max((off for off, why in frame.marks if why == "resize"), default=0)
    if cut == 0:
        return held
    part = dataclasses.replace(frame, scrolled=frame.scrolled[:cut], widths=frame.widths[:cut],
                               wrapped=frame.wrapped[:cut], marks=[m for m in frame.marks if m[0] <= cut])
    return part if held is None else _with_history_before(part, held)


#: the head given to an echo whose `❯ ` row was never in the view (`_headless_echo_heads`)
_HEADLESS = "❯ "


def _learn_headless_echo(frame: Frame, bgs: set[str], tails: set[tuple[str, ...]],
                         headed: dict[str, tuple[str, ...]]) -> None:
    """A sent prompt taller than the full-screen view (a paste of many lines
    at few rows): the render after Enter scrolls its echo's first rows,
    `❯ ` and all, above the view's top before any frame shows them; what is
    drawn is the echo's tail at the top of the view, rows indented two on
    the echo's own background from the first cell. Kept by text: the rows
    of such a tail (the background one an echo's `❯ ` row was seen on) go in
    `tails`, and in `headed` each echo seen with its `❯ ` row (its rows, by
    their words): a tail an echo with its head holds is that echo's (its
    last rows at the top of a later view, or a view grown taller showing
    it whole at another width)."""
    lines, styles = frame.lines, frame.styles

    def block(y: int, bg: str | None) -> list[str]:
        got: list[str] = []
        while y < len(lines):
            ln, sp = lines[y], styles[y] if y < len(styles) else ()
            if not (sp and sp[0][0] == 0 and sp[0][3] != "default" and (bg is None or sp[0][3] == bg)
                    and ln.startswith("  ")):
                break
            bg = sp[0][3]
            if ln.strip():
                got.append(ln)
            y += 1
        return got

    for y in compress(count(), map(_ECHO_START, lines)):  # (the rows tested in C: every frame)
        sp = styles[y] if y < len(styles) else ()
        if sp and sp[0][0] == 0 and sp[0][3] != "default":
            bgs.add(sp[0][3])
            rows = tuple([lines[y]] + block(y + 1, sp[0][3]))
            headed.setdefault(_words(rows), rows)
    if not bgs:
        return
    y = 0
    while y < len(lines) and not lines[y].strip():
        y += 1
    sp = styles[y] if y < len(styles) else ()
    if sp and sp[0][3] in bgs and not lines[y].startswith("❯"):
        got = block(y, sp[0][3])
        if got:
            tails.add(tuple(got))


def _words(rows: Iterable[str]) -> str:
    return " ".join(" ".join(rows).split())


def _fold_cut_short(lines: list[TLine], compare: int = 6) -> list[TLine]:
    """Drop an older copy of the conversation cut short while a turn ran.

    A resize right after a prompt puts the screen into history as it was:
    the header, the prompts, and under them the working status (`✽ Choreographing…`)
    and its tip, which no finished conversation holds. The renderer then
    draws the conversation again. `fold_reprints` misses that copy: its
    rows differ from the reprint's at the status, and the reprint's own
    header can be gone (pulled back by a taller window, then cleared). A
    stretch opening at the header whose rows above the status (at least
    two) are the very rows that come next, once the status and its tip (an
    indented `⎿` row) are left out and blanks and header rows skipped, is
    that older copy: it goes, up to where the next copy begins (within the
    stretch), or whole (when the next header's stretch is that copy).
    """
    hit = [bool(HEADER.search(ln.text)) for ln in lines]
    starts = [i for i, h in enumerate(hit) if h and not (i > 0 and hit[i - 1])]
    if not starts:
        return lines
    bounds = starts + [len(lines)]
    drop: set[int] = set()
    for k, s in enumerate(starts):
        e = bounds[k + 1]
        body = [j for j in range(s, e) if not hit[j] and lines[j].text.strip()]
        at = next((n for n, j in enumerate(body) if WORKING_STATUS.search(lines[j].text)), None)
        if at is None or at < 2:
            continue
        before = [lines[j].text for j in body[:at]]
        end = at
        if end + 1 < len(body) and lines[body[end + 1]].text[:1].isspace() and "⎿" in lines[body[end + 1]].text:
            end += 1  # the status's tip
        rest = body[end + 1:]
        if [lines[j].text for j in rest[:len(before)]] == before:
            drop.update(range(s, body[end] + 1))  # the copy drawn again within the stretch
            continue
        if k + 1 < len(starts):
            a = (before + [lines[j].text for j in rest])[:compare]
            nxt = [lines[j].text for j in range(e, bounds[k + 2]) if not hit[j] and lines[j].text.strip()]
            if nxt[:len(a)] == a:
                drop.update(range(s, e))  # the next header's stretch is the copy drawn again
    if not drop:
        return lines
    return [ln for i, ln in enumerate(lines) if i not in drop]


def _headless_rows(tails: set[tuple[str, ...]]) -> set[str]:
    """The rows of the tails (`_learn_headless_echo`)."""
    return {r for tail in tails for r in tail}


def _headless_echo_heads(lines: list[TLine], rows: set[str], headed: dict[str, tuple[str, ...]]) -> list[TLine]:
    """Each run of an echo's tail rows (`_learn_headless_echo`) with no `❯ `
    row of its echo above it (through blank rows, the tail's own and the
    echo's) is the prompt, not the end of the answer above: drawn whole with
    its head elsewhere (at another width), the run becomes that drawing
    (once; a later run of the same echo goes); never drawn with its head,
    its first row becomes its head."""
    out: list[TLine] = []
    done: set[tuple[str, ...]] = set()
    y, n = 0, len(lines)
    while y < n:
        ln = lines[y]
        if ln.source != "alt" or ln.text not in rows:
            out.append(ln)
            y += 1
            continue
        end = y
        k = y
        while k < n and (lines[k].text in rows or not lines[k].text.strip()):
            if lines[k].text in rows:
                end = k + 1
            k += 1
        words = _words(r.text for r in lines[y:end])
        whole = next((rs for w, rs in headed.items() if words in w), None)
        ws = _words(whole) if whole else ""
        k = len(out) - 1
        while k >= 0 and (not out[k].text.strip() or out[k].text in rows
                          or (ws and out[k].text.startswith("  ") and _words([out[k].text]) in ws)):
            k -= 1
        if k >= 0 and out[k].text.startswith("❯ ") and (not ws or ws.startswith(_words([out[k].text]))):
            out.extend(lines[y:end])
        elif whole is not None:
            if whole not in done:
                done.add(whole)
                out.extend(dataclasses.replace(ln, text=r) for r in whole)
        else:
            out.append(dataclasses.replace(ln, text=_HEADLESS + ln.text[2:]))
            out.extend(lines[y + 1:end])
        y = end
    return out


def _with_history_before(frame: Frame, held: Frame) -> Frame:
    """`frame` with the history `held` scrolled before its own."""
    n = len(held.scrolled)
    return dataclasses.replace(
        frame, scrolled=held.scrolled + frame.scrolled,
        widths=(held.widths or [held.columns] * n) + (frame.widths or [frame.columns] * len(frame.scrolled)),
        wrapped=(held.wrapped or [False] * n) + (frame.wrapped or [False] * len(frame.scrolled)),
        marks=list(held.marks) + [(off + n, why) for off, why in frame.marks])


def _echo_blocks(texts: list[str], spans_of: Callable[[int], tuple]) -> list[list[tuple[str, tuple]]]:
    """Prompt echoes among rows (their texts, and style spans per row asked
    of `spans_of`, only of the rows that may be in an echo): a row opening
    with `❯ ` on a background colour from the first cell, and the rows under
    it on the same background from the first cell, indented two (or blank).
    Returns each echo's rows as (text, spans)."""
    out: list[list[tuple[str, tuple]]] = []
    y, n = 0, len(texts)
    while y < n:
        text = texts[y]
        if not text.startswith("❯ "):
            y += 1
            continue
        spans = spans_of(y)
        if not (spans and spans[0][0] == 0 and spans[0][3] != "default"):
            y += 1
            continue
        bg = spans[0][3]
        block = [(text, spans)]
        y += 1
        # (a row the terminal's own wrap carried on, not indented, ends it)
        while y < n:
            sp = spans_of(y)
            if not (sp and sp[0][0] == 0 and sp[0][3] == bg
                    and (texts[y].startswith("  ") or not texts[y].strip())):
                break
            block.append((texts[y], sp))
            y += 1
        out.append(block)
    return out


#: echo block -> (its `_markless` key, `_echo_rows`) or None: a prompt's echo
#: stays on screen frame after frame, and is read once
_ECHO_MEMO: dict[tuple, tuple[str, tuple[str, ...]] | None] = {}


def _echo_memo(block: list[tuple[str, tuple]]) -> tuple[str, tuple[str, ...]] | None:
    key = tuple(block)
    try:
        return _ECHO_MEMO[key]
    except KeyError:
        pass
    marked = _echo_rows(block)
    got = None if marked is None else (_markless("".join(marked)), tuple(marked))
    if len(_ECHO_MEMO) >= 4096:
        _ECHO_MEMO.clear()
    _ECHO_MEMO[key] = got
    return got


def _echo_rows(block: list[tuple[str, tuple]]) -> list[str] | None:
    """A prompt echo's rows with the markdown marks its styles stand for
    (see ClaudeCodeProfile._learn_echo_marks), the `❯ ` / indent left out;
    None when it shows no mark. Inline code is a colour other than the
    text's own, and only where the block has one such colour."""
    rows = []
    for text, spans in block:
        cells = []
        for ch in text:
            cells.append(ch)
            if wcwidth(ch) == 2:
                cells.append("")
        rows.append((cells, [(max(lo, 2), min(hi, len(cells)), fg, fl) for lo, hi, fg, _bg, fl in spans
                             if hi > 2 and lo < len(cells)]))
    # the text's own colour: the prompt's first letter's, unless the first
    # row opens with inline code (`x` is ...): the run of another colour
    # that holds a space between words is the text
    colours: list[str] = []
    first_row: list[tuple[str, str]] = []  # (colour, text) runs of the first inked row
    for cells, spans in rows:
        runs = [(fg, "".join(cells[lo:hi])) for lo, hi, fg, _fl in spans if fg != "default"
                and any(c.strip() for c in cells[lo:hi])]
        for fg, _t in runs:
            if fg not in colours:
                colours.append(fg)
        if not first_row and runs:
            first_row = runs
    if not colours:
        return None
    base = first_row[0][0]
    worded = {fg for fg, t in first_row if " " in t.strip()}
    if base not in worded and len(worded) == 1:
        base = next(iter(worded))
    others = [fg for fg in colours if fg != base]
    code = others[0] if len(others) == 1 else None
    out: list[str] = []
    skip_blank = False
    changed = False
    fenced = False

    def close_fence() -> None:
        blanks = 0
        while out and out[-1] == "":
            out.pop()
            blanks += 1
        out.append("```")
        out.extend([""] * blanks)

    for k, (cells, spans) in enumerate(rows):
        body = "".join(cells[2:]).rstrip()
        if not body.strip():
            if not skip_blank:
                out.append("")
            skip_blank = False
            continue
        skip_blank = False
        inked = [(lo, hi, fg, fl) for lo, hi, fg, fl in spans if any(c.strip() for c in cells[lo:hi])]
        if code is not None and inked and all(fg == code and not fl for _lo, _hi, fg, fl in inked):
            if not fenced:
                out.append("```")
                fenced = changed = True
            out.append(body)
            continue
        if fenced:
            close_fence()
            fenced = False
        nxt_blank = k + 1 < len(rows) and not "".join(rows[k + 1][0][2:]).strip()
        if inked and all(fl & 7 == 7 for *_x, fl in inked):
            out.append("# " + body.strip())
            skip_blank = changed = True
            continue
        if inked and nxt_blank and all(fl & 1 for *_x, fl in inked):
            out.append("## " + body.strip())
            skip_blank = changed = True
            continue
        runs: list[list] = []
        for lo, hi, fg, fl in spans:
            kind = ("***" if fl & 3 == 3 else "**" if fl & 1 else "*" if fl & 2
                    else "`" if code is not None and fg == code else None)
            if kind is None:
                continue
            if runs and runs[-1][1] == lo and runs[-1][2] == kind:
                runs[-1][1] = hi
            else:
                runs.append([lo, hi, kind])
        marks: dict[int, str] = {}
        for lo, hi, kind in runs:
            while lo < hi and not cells[lo].strip():
                lo += 1
            while hi > lo and not cells[hi - 1].strip():
                hi -= 1
            if lo < hi:
                marks[lo] = marks.get(lo, "") + kind
                marks[hi] = kind + marks.get(hi, "")
        changed = changed or bool(marks)
        n = len(body) + 2 + sum(1 for c in cells[2:] if c == "")
        out.append("".join(marks.get(x, "") + c for x, c in enumerate(cells[:n]) if x >= 2) + marks.get(n, ""))
    if fenced:
        close_fence()
    return out if changed else None


#: a list item's bullet as the echo draws it (`-`, for an item typed `* item` too)
_ECHO_BULLET = regex.compile(r"(?m)^([ \t]*)- (?=\S)")


def _typed_markdown(echo: str, rows: list[str]) -> str | None:
    """The prompt as typed: the input box's rows (`rows`, marks included),
    joined where the echo says. The box wraps a long line at its own width
    and the echo at another (the marks it drops take no room), so a break
    between two box rows is a line break only where the echo has one after
    the same character, a space where the echo has a space, else nothing
    (a word cut by the wrap). Every character of the echo must be the
    box's, in order; the box may hold more only as markdown marks. None
    when they do not match, or the echo kept every mark."""
    chars = [(i, c) for i, c in enumerate(echo) if not c.isspace()]
    j = 0
    last: list[int | None] = []  # per row: index in `echo` of its last character the echo kept
    for r in rows:
        end = None
        for c in r:
            if c.isspace():
                continue
            if j < len(chars) and chars[j][1] == c:
                end = chars[j][0]
                j += 1
            elif c in MD_MARKS:
                continue
            else:
                return None
        last.append(end)
    if j != len(chars) or sum(1 for r in rows for c in r if not c.isspace()) == len(chars):
        return None
    out = rows[0]
    for k in range(1, len(rows)):
        end = last[k - 1]
        if not rows[k - 1].strip() or end is None or not rows[k].strip(MD_MARKS_TEXT):
            sep = "\n"
        else:
            gap = regex.match(r"\s*", echo[end + 1:]).group()
            sep = "\n" if "\n" in gap else " " if gap else ""
        nxt = rows[k]
        if rows[k - 1].strip() and nxt.strip():  # a run a wrap cut in two: one run again
            for m in ("***", "**", "*", "`"):
                if out.endswith(m) and nxt.startswith(m):
                    out, nxt = out[:-len(m)], nxt[len(m):]
                    break
        out += sep + nxt
    return out


#: a code fence's own row (```lang or ~~~): the echo draws it as nothing
_FENCE_ROW = regex.compile(r"(?m)^[ \t]*(?:```|~~~)[^\n`]*$")


@functools.lru_cache(maxsize=4096)
def _markless(text: str) -> str:
    """A prompt's text without markdown marks or spacing: the key under which
    its echo, its input box and its turn find each other. (Kept per text: the
    last echo is read again on every frame.)"""
    return "".join(text.translate(_NO_MARKS).split())  # split(): at what isspace() is


#: a row opens with a prompt's echo (`❯ `), as a function of the row
_ECHO_START = methodcaller("startswith", "❯ ")

_NO_MARKS = str.maketrans("", "", MD_MARKS_TEXT)


def _rule_rows(lines: list[str]) -> list[int]:
    """The rows that are full-width rules (`RULE`), top down (each row text
    tested once: nearly every row of a frame was a row of the frame before)."""
    seen = _RULE_SEEN
    if len(seen) > 8192:
        seen.clear()
    flags = list(map(seen.get, lines))  # (in C: nearly every row was a row of the frame before)
    if None in flags:
        flags = [_is_rule(ln) if f is None else f for f, ln in zip(flags, lines)]
    return list(compress(count(), flags))


def _is_rule(ln: str) -> bool:
    got = _RULE_SEEN[ln] = bool(_RULE_RUN in ln and RULE.match(ln))
    return got


#: (rows above the input box, scrolled back) -> (the last echo's key or None, the
#: tasks listed): what `_learn_tasks` reads of them
_TASKS_SEEN: dict[tuple[tuple[str, ...], bool], tuple[str | None, tuple[str, ...]]] = {}

#: row text -> it is a full-width rule (`_rule_rows`)
_RULE_SEEN: dict[str, bool] = {}


def _box_lesson(box: tuple[str, ...]) -> tuple[str | None, str, tuple[str, ...]]:
    """What the input box's rows (`❯ ` row first, down to the rule below) teach
    `_learn_box`: ("boxed", key, rows) for a text with markdown marks, ("wide",
    key, rows) for a wrapped one with wide characters, else (None, "", ())."""
    rows = (box[0][2:].rstrip(),) + tuple(ln[2:].rstrip() if ln.startswith("  ") else ln.rstrip()
                                         for ln in box[1:])
    text = "".join(rows)
    if not MD_MARKS.isdisjoint(text):  # a box without marks teaches nothing
        key = _markless(text)
        if key:
            return "boxed", key, rows
    elif len(rows) > 1 and not text.isascii():
        # ... but where its rows end: Chinese or Japanese rows of the echo
        # may look wrapped (`_join_wide_wraps`), the box's width is known
        key = _markless(text)
        if key:
            return "wide", key, rows
    return None, "", ()


#: `_box_lesson` per input box drawn (its rows), shared by replays (a pure function of the rows)
_BOX_MEMO: dict[tuple[str, ...], tuple[str | None, str, tuple[str, ...]]] = {}


def _without_history(frame: Frame) -> Frame:
    """`frame` without the rows that scrolled into history before it.

    Ctrl+O in the inline renderer draws the detailed transcript (tool
    output in full, thinking, time stamps) over the screen, and what
    overflows scrolls into history; Ctrl+O again redraws the normal view
    in place, which goes on from where the history left it. The rows that
    scrolled while the detailed view was up (on a frame that shows its
    footer) are a second copy. Told by the frame, not by its time: with
    no pauses every frame has the same time."""
    return dataclasses.replace(frame, scrolled=[], widths=[], wrapped=[], scrolled_lines=[],
                               marks=[(0, why) for _off, why in frame.marks])


def _without_restored_rows(lines: list[TLine]) -> list[TLine]:
    """Leave out main-screen rows after the full-screen view that repeat it.

    Leaving the alternate screen brings the main screen back as the
    terminal kept it; after resizes while the full-screen view was up that
    can hold rows of the conversation as the view last drew them (tmux and
    our screen agree). Claude Code itself prints only its resume hint
    there, so a row after the view that is a row of the view, exactly, is
    that restored copy, not new output.
    """
    alt = {ln.text.strip() for ln in lines if ln.source == "alt"}
    if not alt:
        return lines
    first_alt = min(ln.block for ln in lines if ln.source == "alt")
    return [ln for ln in lines
            if ln.source == "alt" or ln.block <= first_alt or ln.text.strip() not in alt
            or not ln.text.strip()]


def _drop_input_boxes(lines: list[TLine]) -> list[TLine]:
    """Leave out input boxes (rule, prompt rows, rule) and the hint rows under
    them wherever they landed in the transcript (a clear can push a whole
    screen, box included, into history)."""
    out: list[TLine] = []
    i, n = 0, len(lines)
    while i < n:
        if RULE.match(lines[i].text):
            j = i + 1
            while j < n and j - i <= 12 and not RULE.match(lines[j].text):
                j += 1
            if j < n and RULE.match(lines[j].text) and lines[i + 1].text.startswith("❯"):
                k = j + 1
                # hint rows under the box run to the next blank row
                while k < n and lines[k].text.strip() and not lines[k].text.startswith(("❯", "●")):
                    k += 1
                i = k
                continue
        out.append(lines[i])
        i += 1
    return out


PROFILE = ClaudeCodeProfile()


#: the top edge of a full-screen dialog drawn in place of the input box (2.1.197's
#: `/help`, its `/model` picker)
_EDGE = regex.compile(r"^\s*▔{20,}\s*$")


def _dialog_edge(lines: list[str]) -> int | None:
    """The row of a full-screen dialog's top edge, a row of `▔` with the
    dialog's rows under it (2.1.197 draws `/help` and the `/model` picker
    so, in place of the input box, with the conversation cut short above
    it). Its rows are no part of the conversation: taken as conversation,
    the dialog's text goes into the answer above it (h23-sh-cc197-s2314:
    the picker's rows in an answer, a call row after them lost), and the
    view under the dialog, laid over the document, puts the turn in view in
    again after it (h22-cc197-s2214: the prompt and the table's top twice)."""
    y = next((y for y, ln in enumerate(lines) if "▔▔▔▔" in ln and _EDGE.match(ln)), None)
    return y if y is not None and any(ln.strip() for ln in lines[y + 1:]) else None


def _dialog_rule(lines: list[str]) -> int | None:
    """The top rule of a dialog the full-screen renderer draws in place of
    the input box (the start-up "Make auto mode your default permission
    mode?", a permission question): one full-width rule with the dialog's
    rows under it, no second rule closing a box.

    Its rows are no part of the conversation. Taken as conversation, they
    stay in the stitched document after the dialog closes (the next view
    ends in blank padding where they were, and blank rows erase nothing),
    and every later view, which no longer shows them, looks like a page
    back: the first prompt and answer were never placed.
    """
    rules = [i for i, ln in enumerate(lines) if _RULE_RUN in ln and RULE.match(ln)]
    if len(rules) != 1:
        return None
    y = rules[0]
    below = [ln for ln in lines[y + 1:] if ln.strip()]
    return y if below else None


_QUESTION = regex.compile(r"^\s*Do you want to (?:proceed\?|make this edit|create )")
_CANCEL = regex.compile(r"^\s*(?:↑ \d+ more lines?\s*)?Esc to cancel\b")


def _dialog_only(lines: list[str]) -> bool:
    """A permission dialog taller than the full-screen view: no input box,
    and above its question no rule (the dialog's own went off the top with
    its title); under the question its options and `Esc to cancel`. Every
    row of such a view is the dialog's (the file's rows, the diff)."""
    q = next((y for y, ln in enumerate(lines) if _QUESTION.match(ln)), None)
    if q is None or any(_RULE_RUN in ln and RULE.match(ln) for ln in lines[:q]):
        return False
    return any(_CANCEL.match(ln) for ln in lines[q + 1:q + 9])


def _echo_lines(text: str, members: list[Labeled]) -> str:
    """A prompt's echo rows (`text`, from `members`' rows on the main screen)
    with the breaks the echo wrapped at joined again (`unwrap_words`): the
    echo wraps before a word that would have run past the row's last column
    but one; a break inside a run of wide characters (cut where the row was
    full) joins with nothing between. Rows of unknown width, or an echo
    with an empty row, stay as they are."""
    parts = text.split("\n")
    rows = [m.line for m in members if m.line.text.strip()]
    if len(parts) < 2 or len(rows) != len(parts) or any(not ln.width or ln.source == "alt" for ln in rows):
        return text
    return unwrap_words(parts, [wcswidth(ln.text.rstrip()) for ln in rows], [ln.width - 1 for ln in rows],
                        glue=lambda a, b: wide(a) and wide(b))


def _box_lines(rows: list[str], columns: int) -> str:
    """The prompt an input box of `columns` held in `rows` (`❯ ` and the
    indent left out): a row with room left for the next row's first
    word ended at a line break the user typed (the newline key); a
    full row was wrapped by the box, and goes on with nothing between wide
    characters (or a wide and a narrow one inside a run longer than a row),
    else a space."""
    out = rows[0]
    for prev, row in zip(rows, rows[1:]):
        head = row.lstrip()[:1]
        room = columns - 2 - wcswidth(prev) - (wcwidth(head) if head else 1)
        # the box wraps at a space, before a word that would run past its
        # row's last column but two: a row the next row's first word would
        # have fitted on ended at a typed line break
        fits = 2 + wcswidth(prev) + 1 + wcswidth(row.lstrip().split(" ", 1)[0]) <= columns - 3
        if (room >= 2 and fits) or not prev.strip() or not head:
            out += "\n" + row
        elif wide(prev[-1]) and wide(head) and room < 2:
            out += row.lstrip()
        elif wide(prev[-1]) or wide(head):
            # a wide character next to a narrow one: cut with nothing between
            # only inside a run of text longer than a row (a break where the row is
            # full); a shorter run went to the next row whole, at the space before it
            body = row.lstrip()
            run = wcswidth(prev.rsplit(" ", 1)[-1]) + wcswidth(body.split(" ", 1)[0])
            out += body if run > columns - 6 else " " + body
        else:
            out += " " + row.lstrip()
    return out


def _ideograph_bold(frame: Frame, end: int) -> list[str]:
    """The frame's rows with bold set between ideographs marked (`是**玉露** 🌿`):
    its marks are the only word boundary there (`cjk_bold`). Rows from `end`
    (the input box) down, and echoed prompts (their marks are read from
    their styles, `_learn_echo_marks`), stay as drawn."""
    lines, cells = frame.lines, frame.cells
    if not cells:
        return lines
    return [ln if ln.isascii() or y >= end or ln.startswith("❯") or cells[y] is None
            else _BOLD_SEEN.get(cells[y], ln, marked_ideograph_bold, ln, cells[y])
            for y, ln in enumerate(lines)]


_BOLD_SEEN = IdentityMemo(8192)  # an unchanged row is the same cell tuple frame after frame


def _menu_top(lines: list[str], end: int) -> int:
    """The first row of a slash-command menu drawn right above the input box
    (row `end`): entries (`/name   description`) and their descriptions'
    wrapped rows (indented to the description), and the blank rows right above
    them (the menu keeps its height as fewer commands match, and the rows it
    leaves are blanked, not given back to the conversation); `end` when there
    is none."""
    top = end
    y = end - 1
    while y >= 0:
        ln = lines[y]
        if "/" in ln and SLASH_ENTRY.match(ln):
            top = y
        elif not (ln.startswith(" " * 8) and ln.strip()):
            break
        y -= 1
    while 0 < top < end and not lines[top - 1].strip():
        top -= 1
    return top


def _still_mascot(lines: list[str], end: int) -> list[str]:
    """The full-screen header with its mascot's cells blanked.

    While a start-up dialog waits, the mascot left of the header animates:
    it changes glyphs and hops a row down and back, so the header's rows
    ("Claude Code vX", the model, the directory) come in several versions,
    each shifted or re-glyphed. The stitcher takes every version for new
    rows, and that pile of headers makes the first prompt's view look like
    a page back. The text right of the mascot never moves: with the
    mascot's columns blank every version is the same rows.
    """
    head = next((y for y, ln in enumerate(lines[:min(end, 8)]) if "Claude Code v" in ln), None)
    if head is None:
        return lines
    out = lines  # copied when a row changes
    for y in range(max(0, head - 1), min(end, head + 4)):
        still = _stilled(out[y])
        if still is not None:
            if out is lines:
                out = list(lines)
            out[y] = still
    return out


@functools.lru_cache(maxsize=1024)
def _stilled(ln: str) -> str | None:
    """`ln` with the mascot's columns blank, when they hold the mascot; else None."""
    if len(ln) > _MASCOT_COLS + 1 and set(ln[:_MASCOT_COLS + 1]) <= _MASCOT and ln[:_MASCOT_COLS + 1].strip():
        return " " * (_MASCOT_COLS + 1) + ln[_MASCOT_COLS + 1:]
    return None


def _join_reflowed(lines: list[TLine]) -> list[TLine]:
    """Rows the terminal split when it narrowed, joined again.

    Claude Code ends every row it draws with a line break of its own; a row
    the screen marks as autowrapped was cut by the terminal itself, which
    re-wraps the rows of its history at the new width when the window
    shrinks (as tmux does). The cut falls at the column edge, inside a word
    or a run of Japanese: the text goes on, with nothing between, on the
    next row.
    """
    out: list[TLine] = []
    glue = False
    above: TLine | None = None  # the row before, as drawn (not joined)
    for ln in lines:
        if glue and out and above is not None and _same_screen(ln, out[-1]):
            head = out[-1]
            out[-1] = dataclasses.replace(head, text=head.text + _reflow_gap(above, ln) + ln.text, wrapped=ln.wrapped)
        else:
            out.append(ln)
        glue = ln.wrapped and bool(ln.text.strip())
        above = ln
    return out


def _reflow_gap(row: TLine, ln: TLine) -> str:
    """What stood between a row the terminal re-wrapped and its next row:
    the cut fills the row to its last column, so a row whose text (trailing
    blanks dropped) stops short of its width was cut at a space the text
    had (`… woozospzhaim ` / `briolt`: two words, not one). One cell short
    before a wide character is the character that did not fit."""
    width = row.width
    if not width or not ln.text[:1].strip():
        return ""
    text = row.text.rstrip()
    cells = len(text) if text.isascii() else wcswidth(text)
    if cells >= width or (cells == width - 1 and wide(ln.text[0])):
        return ""
    return " "


def _same_screen(a: TLine, b: TLine) -> bool:
    """Both rows of the main screen (history and the last screen go on from
    each other: a wrapped row may end history and go on on the screen), or
    both of the alternate one."""
    return (a.source == "alt") == (b.source == "alt")


_LEAD = regex.compile(r"^(\s*)(?:[●❯⎿]\s+|[-*•]\s+|\d+\.\s+)?")


def _join_wide_wraps(lines: list[TLine]) -> list[TLine]:
    """Rows Claude Code wrapped inside a run of Chinese or Japanese, joined.

    That text has no spaces, so Claude Code breaks it wherever the row is
    full: between two characters, inside a word. A row that ends in a wide
    character within two cells of its width (the next wide character did
    not fit), followed by a row that opens with one at the column the
    first row's text starts at, is one line: joined with nothing between.
    A shorter row ended where the text had a line break. The width is the
    terminal's when the row was drawn, or (full screen, where it is not
    kept) the widest row of the paragraph.
    """
    if not any(not ln.text.isascii() for ln in lines):
        return lines
    out: list[TLine] = []
    top = 0  # widest row of the current paragraph
    for ln in lines:
        text = ln.text.rstrip()
        if not text:
            top = 0
            out.append(ln)
            continue
        cells = wcswidth(text)
        top = max(top, cells)
        prev = out[-1] if out else None
        if prev is not None and _same_screen(prev, ln) and prev.text.strip():
            p = prev.text.rstrip()
            body = text.lstrip()
            indent = len(text) - len(body)
            lead = _LEAD.match(p)
            starts = {len(lead.group(1)), lead.end()} if lead else {0}
            limit = min(prev.width, top) if prev.width else top
            if (body and wide(p[-1]) and wide(body[0]) and indent in starts and indent > 0
                    and wcswidth(p) >= limit - 2):
                out[-1] = dataclasses.replace(prev, text=p + body, wrapped=ln.wrapped)
                continue
        out.append(ln)
    return out


def _join_broken_tokens(lines: list[TLine], widths: "set[int] | frozenset[int]" = frozenset()) -> list[TLine]:
    """A token longer than the row (a URL, a digest, a base64 blob), joined
    again where Claude Code broke it.

    Claude Code wraps prose at spaces; a word longer than the width is cut
    where the row is full and goes on, with nothing between, at the next
    row's text column. A row filled to within one cell of its width whose
    last run of non-blank characters, with the next row's first, is longer
    than the text column holds (no word wrapped at a space is) is one line
    (see wraps.broken_token). The width is the terminal's when the row was
    drawn, or (full screen, where rows keep none) a width the alternate
    screen had (`widths`) that the row reaches.
    """
    out: list[TLine] = []
    drawn = 0  # cells of the last row drawn (a joined line's last row)
    for ln in lines:
        text = ln.text.rstrip()
        if not text:
            out.append(ln)
            continue
        prev = out[-1] if out else None
        if prev is not None and _same_screen(prev, ln) and prev.text.strip():
            p = prev.text.rstrip()
            # (full screen: the row is cut where it reaches a width the screen had)
            limit = prev.width or next((w for w in widths if w - 1 <= drawn <= w), 0)
            body = text.lstrip()
            indent = len(text) - len(body)
            if indent > 0 and broken_token(p, body, limit, limit - indent, drawn=drawn) \
                    and indent in _text_columns(p):
                out[-1] = dataclasses.replace(prev, text=p + body, wrapped=ln.wrapped)
                drawn = len(text) if text.isascii() else wcswidth(text)
                continue
        out.append(ln)
        drawn = len(text) if text.isascii() else wcswidth(text)
    return out


def _text_columns(row: str) -> tuple[int, int]:
    """Where a row's text starts, and where its marker's text does (`● `, `❯ `, `- `)."""
    lead = _LEAD.match(row)
    return (len(lead.group(1)), lead.end()) if lead else (0, 0)


_BOX_ROW = regex.compile(r"^\s*│.*│\s*$")


_GRID = regex.compile(r"^\s*[┌├└│]")
_TABLE_WORD = regex.compile(r"\w+")
_RELAID_WORDS = 12  # words of a redraw's opening looked up in the rows it wiped


def _relaid_at(shown: list[str], drawn: list[str]) -> int | None:
    """The row of `shown` where the redraw `drawn` starts when the redraw
    lays the same text out anew (a screen drawn at a stale width after a
    resize, then wiped and drawn at the terminal's): the first row whose
    words, read on through the rows under it, open with the redraw's first
    words (`_RELAID_WORDS` of them, at least half that many). The redraw's
    last row is left out (cut by the screen's edge, it may end mid-word)."""
    dw = _TABLE_WORD.findall(" ".join(drawn[:-1]))[:_RELAID_WORDS]
    if len(dw) < _RELAID_WORDS // 2:
        return None
    for y, row in enumerate(shown):
        first = _TABLE_WORD.findall(row)
        if not first or first[0] != dw[0]:
            continue
        sw = _TABLE_WORD.findall(" ".join(shown[y:]))[:len(dw)]
        if sw == dw:
            return y
    return None


def _junctions(row: str) -> tuple[int, ...]:
    """Cell columns of a grid row's column borders (wide characters take two)."""
    out, x = [], 0
    for ch in row:
        if ch in "┌┬┐├┼┤└┴┘│":
            out.append(x)
        x += 2 if wide(ch) else 1
    return tuple(out)


#: a table read back from records (`_records_to_tables`): `| a | b |` rows
_RECORD_ROW = regex.compile(r"^\s*\|.*\|\s*$")


def _without_record_copies(text: str) -> str:
    """A table read back from records whose every word is in a box table of
    the same answer, left out: the same table in another layout.

    Inline, a table that streamed through a resize is drawn at each width:
    as a box where it fits, as records (`key: value` rows) where it does
    not. The renderer's reprint after the resize opens inside the table in
    its new layout, and its words come in another order than the box's
    (a box wraps a cell onto rows of its own), so the older copy is not
    folded: the answer held the table twice, once as a box and once (read
    back from its records) as `|` rows, often a part of it (the records the
    reprint began below). The box, holding every word, stays."""
    if "└" not in text or "|" not in text:
        return text
    lines = text.split("\n")
    boxed = {w for ln in lines if _GRID.match(ln) for w in _TABLE_WORD.findall(ln)}
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and _RECORD_ROW.match(lines[j]):
            j += 1
        if j - i >= 2:
            words = {w for ln in lines[i:j] for w in _TABLE_WORD.findall(ln)}
            if words and words <= boxed:
                if out and not out[-1].strip() and (j == len(lines) or not lines[j].strip()):
                    out.pop()  # the blank row above it goes with it
                i = j
                continue
        out.extend(lines[i:max(j, i + 1)])
        i = max(j, i + 1)
    return "\n".join(out)


def _without_stale_tables(text: str) -> str:
    """Copies of a box table the answer drew before its last layout, left out.

    Claude Code lays a streamed table out again as rows arrive (the columns
    widen) and again at each resize; in the inline renderer the rows a
    layout pushed into history stay there, so an answer whose table
    streamed through a resize holds partial copies at other widths above
    the table as last drawn, and rows where two layouts overlap. A table
    is a grid closed by `└`, up through the rows whose column borders sit
    where that `└` row has them. In the stretch of grid rows above it (up
    to the text before the first grid), a row whose words are all the
    table's goes, a row with words of its own stays once (a header or
    records the last layout no longer showed), with the rules next to it.
    When most rows there are rows of their own, the stretch is another
    table and nothing changes; a table whose last layout holds fewer than
    two worded rows (one copy, its last row redrawn) is left as it is.
    Every table of the answer, the last first."""
    if "└" not in text:
        return text
    lines = text.split("\n")
    ends = [i for i, ln in enumerate(lines) if ln.lstrip().startswith("└")]
    for end in reversed(ends):
        lines = _drop_stale_copies(lines, end)
    return "\n".join(lines)


def _drop_stale_copies(lines: list[str], end: int) -> list[str]:
    grid = [bool(_GRID.match(ln)) for ln in lines]
    cols = _junctions(lines[end])
    start = end
    while start > 0 and grid[start - 1] and _junctions(lines[start - 1]) == cols:
        start -= 1
    vocab = set(_TABLE_WORD.findall("\n".join(lines[start:end + 1])))
    if sum(1 for ln in lines[start:end] if _TABLE_WORD.search(ln)) < 2:
        return lines  # no table in that layout: one copy, its last row redrawn
    k = start
    while k > 0 and (grid[k - 1] or not lines[k - 1].strip()):
        k -= 1
    stretch = [i for i in range(k, start) if lines[i].strip()]
    if not any(grid[i] for i in stretch):
        return lines
    verdict: dict[int, bool] = {}  # worded rows: kept?
    seen: set[str] = set()
    for i in stretch:
        words = set(_TABLE_WORD.findall(lines[i]))
        if not words and grid[i]:
            continue
        # (a word cut short where the cell stopped streaming is the start of the table's)
        own = {w for w in words - vocab - seen if not any(v.startswith(w) for v in vocab)}
        verdict[i] = bool(own) or not grid[i]
        if verdict[i]:
            seen |= words - vocab
    dropped = sum(1 for v in verdict.values() if not v)
    if not dropped or dropped <= sum(verdict.values()):
        return lines  # nothing again, or mostly rows of their own: another table
    keep: list[str] = []
    for n, i in enumerate(stretch):
        if i in verdict:
            if verdict[i]:
                keep.append(lines[i])
            continue
        # a rule: kept between kept rows (or above the first kept one)
        above = next((verdict[j] for j in reversed(stretch[:n]) if j in verdict), None)
        below = next((verdict[j] for j in stretch[n + 1:] if j in verdict), True)
        if below and above is not False:
            keep.append(lines[i])
    head = lines[:k] + ([""] if k > 0 and lines[k - 1].strip() else [])
    return head + keep + lines[start:]


_TABLE_TOP = regex.compile(r"^\s*┌[─┬]*┐\s*$")
_TABLE_MID = regex.compile(r"^\s*├[─┼]*┤\s*$")
_TABLE_BOTTOM = regex.compile(r"^\s*└[─┴]*┘\s*$")


def _in_drawn_table(lines: list[str], i: int, j: int) -> bool:
    """Rows i..j-1 sit in a table as Claude Code draws one: rows and `├─┼─┤`
    rules up to a `┌─┬─┐` top and down to a `└─┴─┘` bottom. A box the
    model drew itself with other corners (`╭─╮`, a `├──┤` under a rounded
    top) holds one line per row."""
    up = i - 1
    while up >= 0 and (_BOX_ROW.match(lines[up]) or _TABLE_MID.match(lines[up])):
        up -= 1
    down = j
    while down < len(lines) and (_BOX_ROW.match(lines[down]) or _TABLE_MID.match(lines[down])):
        down += 1
    return (up >= 0 and bool(_TABLE_TOP.match(lines[up]))
            and down < len(lines) and bool(_TABLE_BOTTOM.match(lines[down])))


def _one_row_per_record(text: str) -> str:
    """A box-drawn table's record whose cells wrapped over several rows,
    drawn as one row.

    Claude Code wraps a cell too wide for its column inside the column: the
    record takes two or more rows, each holding a piece of every cell. Read
    row by row, the pieces of different cells interleave ("IC Basel … 100
    SBB"). The rows between two rules are one record: each cell's pieces,
    top to bottom, are joined with a space, or with nothing under a piece
    that filled its column (a word longer than the column, cut by character:
    seven columns in 61 cells leave each five; `grids.merge_cells`) unless
    the piece opens with the space the wrap fell on (a body cell's second
    leading space; header cells are centred).
    """
    if "│" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not _BOX_ROW.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and _BOX_ROW.match(lines[j]):
            j += 1
        group = lines[i:j]
        parts = [ln.strip()[1:-1].split("│") for ln in group]
        if len(group) == 1 or len({len(p) for p in parts}) != 1 or not _in_drawn_table(lines, i, j):
            out.extend(group)
        else:
            # a body cell keeps the space it wrapped at (`│  grei │` under a full
            # `│ ussni │`: a new word); the header's cells are centred, their
            # leading spaces say nothing
            header = i > 0 and lines[i - 1].lstrip().startswith("┌")
            out.append(merge_cells(group, carried_space=not header))
        i = j
    return "\n".join(out)
