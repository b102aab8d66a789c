"""Mistral Vibe: chrome rules and turn segmentation.

Checked against Mistral Vibe 3.0.2 (the `vibe-rs` full-screen TUI):
everything is drawn on the alternate screen with synchronized output, so
the conversation is stitched from successive views of its viewport.

Screen anatomy (top to bottom):
- the conversation viewport, one column narrower than the terminal: its
  last column holds the scrollbar thumb (`▁▂▃▄▅▆▇█`), stripped from every
  row before anything else;
  - the welcome logo (braille art) with `Mistral Vibe vX`, the model name
    and `Type /help for more information`;
  - a prompt `> text` (continuation rows under it), closed by a rule of
    `─` one column short of the terminal width;
  - answers indented two columns (headings centred, lists `•`, code);
  - tool lines `⏵ Verb argument` when settled (`⏷` when expanded, `□`
    while running: `□ Running ls src`), e.g. `⏵ Ran ls src`, `⏵ Read 12
    lines from a.py`, `⏵ Edited a.py`; consecutive calls of one kind are
    folded into a summary `⏵ Ran 2 commands` once they settle;
  - the spinner `⠏  Generating… (1s Esc/Ctrl+C to interrupt)` (or
    `Running command…`) just above the input box;
- a completion popup (a `┌ … ┐` box) above the input box while a slash
  command is typed;
- the input box: a rule with the mode at its right (`── accept edits ·
  auto-approve ─`), the input rows (`> …`), a plain rule;
- the footer: cwd, `[PID n]`, `n/200k tokens (n%)`.
At exit the main screen shows `Total tokens used this session: …` and
`To continue this session, run: vibe --continue`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import regex
from wcwidth import wcswidth, wcwidth

from agents_chrome.input_line import InputLine
from agents_chrome.profile import ChromeProfile
from agents_chrome.rules import Labeled, LineRule
from agents_chrome.transcript import TLine
from agents_chrome.turns import Turn
from agents_chrome.wraps import broken_token
from agents_chrome.cjk_bold import marked_ideograph_bold as _marked_ideograph_bold
from agents_chrome.grids import grid_spans
from agents_chrome.grids import merge_grid_layouts as _merge_grid_layouts
from agents_chrome.grids import merge_grid_rows as _merge_grid_rows
from agents_chrome.relayout import LayoutStitcher
from screen.frames import Frame
from screen.memo import IdentityMemo

# Textual lays out a one-column character with an emoji presentation
# selector (`🗂️`, `⛰️`) two columns wide and puts the next cell after both;
# the terminal gives the character one column and leaves the second blank
VS16_GAP = regex.compile(r"(?<=(.)\ufe0f) ")


#: a long paste as Vibe draws it, in the input box and in the history alike
PASTED = regex.compile(r"\[Pasted (\d+) characters?\]")


def _with_pastes(text: str, unused: list[str]) -> str:
    """A prompt with each `[Pasted N characters]` put back as pasted: the
    first paste of the recording's keys not used yet that is N characters
    long (Vibe counts the text with `\\n` line ends). Without keys (a
    recording without input, `--screen-only`) the placeholder stays."""
    def back(m: regex.Match) -> str:
        n = int(m.group(1))
        k = next((k for k, p in enumerate(unused) if len(p) == n), None)
        return m.group(0) if k is None else unused.pop(k)
    return PASTED.sub(back, text) if "[Pasted " in text else text


def _close_vs16_gaps(text: str) -> str:
    """`text` without the blank the terminal left after each one-column
    character that carries U+FE0F (`src/ 🗂️ ;` drawn for `src/ 🗂️;`)."""
    if "\ufe0f " not in text:
        return text
    return VS16_GAP.sub(lambda m: "" if wcwidth(m.group(1)) == 1 else " ", text)


# Vibe wraps Chinese and Japanese prose between any two ideographs: such a row
# break (the next row under the same indent) is no word break
HAN_BREAK = regex.compile(r"(?<=[\p{Han}\p{Hiragana}\p{Katakana}\u3000-\u303f\uff00-\uffef])\n[ \t]*(?=[\p{Han}\p{Hiragana}\p{Katakana}\uff00-\uffef])")
SCROLL_THUMB = "▁▂▃▄▅▆▇█▔▀"
RULE = regex.compile(r"^─{8,}$")
# the input box's top rule carries the agent mode at its right end
MODE_RULE = regex.compile(r"^─{4,}\s+\S.*\S\s+─{1,3}$")
BOX_ROW = regex.compile(r"^[┌│└].*[┐│┘]$")
#: the todo list's progress row above the input box: a mark, `N/M · `, the step
PLAN_ROW = regex.compile(r"^[^\w\s]\s\d+/\d+\s·\s")
# the spinner; while a tool waits for approval and keys were just typed, a
# note follows it: `… (0s Esc/Ctrl+C to interrupt) typing detected, waiting…`
SPINNER = regex.compile(r"^[\u2800-\u28ff ]{1,3}\s*\S.*…\s*\(.*(Esc|Ctrl\+C).*\)(\s+[^()]*…)?\s*$")
# tool icons: settled (collapsed / expanded), running, failed
#: `□`/`■` blink on a running call (a resize mid-call can leave the `■` row in history)
TOOL_LINE = regex.compile(r"^(?P<icon>[⏵⏷□■✕✗✓⚠])\s+(?P<verb>[A-Z][a-z]+)\b\s*(?P<arg>.*)$")
THOUGHT = regex.compile(r"^[⏵⏷□■]\s+(?P<body>Thought|Thinking)\s*$")
#: a further part of a summary row: `read 2 files`, `updated todos 1 time`
FOLDED_PART = regex.compile(r"^(?P<verb>[a-z]+)\s+(?:(?P<what>[a-z]+)\s+(?P<times>\d+)\s+times?|(?P<n>\d+)\s+\w+s?)$")
#: what a todo call's row names (`Updated 3 todos`): the items of one call, not a count of calls
TODO_ARG = regex.compile(r"^\d+\s+todos?$")
#: a summary's first part that counts the calls on one thing: `todos 2 times`
TIMES_PART = regex.compile(r"^(?P<what>[a-z]+)\s+(?P<n>\d+)\s+times?$")
#: the thing a `<verb> <thing> N times` part names -> the tool
THING_TOOL = {"todos": "todo"}
SUMMARY = regex.compile(r"^(?P<n>\d+)\s+(?P<what>commands|files|searches|pages|processes|edits|skills|"
                        r"queries|questions|items|\w+s|"
                        # one call folded with a thought: `Ran 1 search, thought`
                        r"command|file|search|page|process|edit|skill|query|question|item)$")

# verb (settled or running) -> the tool that shows it
VERB_TOOL = {
    "Ran": "bash", "Running": "bash",
    "Read": "read_file", "Reading": "read_file",
    "Created": "write_file", "Updated": "write_file", "Writing": "write_file", "Creating": "write_file",
    "Wrote": "write_file",
    "Edited": "edit", "Editing": "edit",
    # 3.0.2 offers no grep tool: a search row is its bash tool running grep/rg
    # (`grep -rn 'todo' .` shows as `Searched todo (1 match)`)
    "Searched": "bash", "Searching": "bash",
    "Fetched": "web_fetch", "Fetching": "web_fetch",
    "Loaded": "skill", "Loading": "skill",
    "Started": "bash", "Stopped": "bash", "Listed": "bash",
    "Retrieved": "todo", "Retrieving": "todo",
    "Asked": "ask_user_question", "Asking": "ask_user_question", "Answered": "ask_user_question",
}
SETTLED = {"Running": "Ran", "Reading": "Read", "Writing": "Created", "Creating": "Created",
           "Editing": "Edited", "Searching": "Searched", "Fetching": "Fetched", "Loading": "Loaded",
           "Retrieving": "Retrieved", "Updating": "Updated", "Asking": "Asked"}


WIDE_RANGE = regex.compile("[\u2e80-\U0010ffff]")


#: a row's marks, by its cells (the same tuple in every frame until the row
#: changes) and text: each drawn row is marked once
_BOLD_SEEN = IdentityMemo(8192)


def _mark_ideograph_bold(text: str, cells: "tuple | None") -> str:
    """`_marked_ideograph_bold`, once per drawn row."""
    if cells is None:
        return text
    return _BOLD_SEEN.get(cells, text, _marked_ideograph_bold, text, cells)


def strip_scrollbar(text: str, columns: int) -> str:
    """Drop a scrollbar glyph drawn in the last column of the viewport."""
    if text and text[-1] in SCROLL_THUMB and wcswidth(text) >= columns:
        text = text[:-1]
    return text.rstrip()


def scroll_position(frame: Frame, bottom: int | None) -> str | None:
    """Where the scrollbar in the viewport's last column (a thumb of
    eighth-block glyphs and reverse-video cells on a track of cells of its
    own background) puts the view: "back" when the thumb ends above rows of
    its track, "end" when it ends on the track's last row, None when no
    track is drawn (the conversation fits the view) or the rows looked at
    (above `bottom`) end inside it."""
    if not bottom:
        return None
    col = frame.columns - 1
    kinds: list[str] = []  # per row: "t" thumb, "k" track, "." anything else
    bgs: dict[str, int] = {}
    for y in range(min(bottom, len(frame.cells))):
        row = frame.cells[y]
        c = row[col] if row is not None and len(row) > col else None
        if c is None:
            kinds.append(".")
        elif c.data in SCROLL_THUMB and c.data.strip() or (c.reverse and not c.data.strip()):
            kinds.append("t")
        elif not c.data.strip() and c.bg != "default":
            kinds.append("k")
            bgs[c.bg] = bgs.get(c.bg, 0) + 1
        else:
            kinds.append(".")
    if "t" not in kinds or not bgs:
        return None
    last_thumb = max(y for y, k in enumerate(kinds) if k == "t")
    below = kinds[last_thumb + 1:]
    # the track runs on under the thumb to the bottom of the viewport's scroll region;
    # at the end, the thumb ends on the track's last row, the row under it no track
    # (none scanned: the rows looked at stop inside the track, which tells nothing)
    return "back" if below[:1] == ["k"] else "end" if below else None


def scrolled_back(frame: Frame, bottom: int | None) -> bool:
    """The user has scrolled the conversation back (`scroll_position`).

    Such a view stays where the user left it while the answer goes on out of
    sight. As the stitcher's newest view it would pass for the live tail and
    cut the rows under it (the answer streamed so far) from the document.
    """
    return scroll_position(frame, bottom) == "back"


@dataclass
class VLine(TLine):
    #: the index of the frame the row was first seen in: which turn a folded
    #: tool call or a width belongs to is told by frame order, never by time.
    #: Carried by the line itself (a key by object identity breaks as soon
    #: as a line is copied or its id reused)
    order: int = -1


WORDS = regex.compile(r"\w+")


def _ends_past(view: list[str], doc: list[str], rewrapped: bool = False) -> bool:
    """The view's last distinct row is not in the document yet. `rewrapped`:
    the terminal was resized while paged back, so the view shows the same
    words wrapped at another width; then a view ending in a row with words
    (a rule differs at every width and tells nothing) is new only when the
    run of all its words is nowhere in the document."""
    if not rewrapped:
        last = next((r for r in reversed(view) if len(r.strip()) >= 3), None)
        return last is not None and last not in set(doc)
    worded = [r for r in view if len(r.strip()) >= 3 and regex.search(r"\w", r)]
    if not worded or worded[-1] in set(doc):
        return False
    # all the view's words, in order: a row's or a paragraph's can recur in a repetitive answer
    words = " ".join(WORDS.findall("\n".join(view)))
    return f" {words} " not in " " + " ".join(WORDS.findall("\n".join(doc))) + " "


class VibeProfile(ChromeProfile):
    name = "vibe"
    checked_versions = ("3.0.2",)
    commands = ("vibe", "vibe-rs", "mistral-vibe")
    #: `vibe --continue`, `vibe --resume <id>`: the earlier session's turns are drawn again first
    resume_words = frozenset({"--continue", "-c", "--resume"})
    screen_signatures = (r"Mistral Vibe v\d", r"accept edits · auto-approve", r"vibe --continue")
    rules = (
        LineRule("spinner", "chrome", SPINNER.pattern),
        LineRule("logo", "chrome", r"^\s{0,3}[\u2800-\u28ff][\u2800-\u28ff ]*(\s{2,}\S.*)?$"),
        LineRule("logo-title", "chrome", r"^\s*Mistral Vibe v\d[\w.\-]*\s*$"),
        LineRule("welcome-hint", "chrome", r"^\s*Type /help for more information\s*$"),
        LineRule("initializing", "chrome", r"^\s*[\u2800-\u28ff]*\s*Initializing…\s*$"),
        LineRule("prompt-rule", "chrome", RULE.pattern),
        LineRule("mode-rule", "chrome", MODE_RULE.pattern),
        LineRule("box", "chrome", r"^\s*[┌├└╭╰][─┬┼┴]*[┐┤┘╮╯]\s*$"),
        LineRule("exit-tokens", "chrome", r"^Total tokens used this session:"),
        LineRule("exit-resume", "chrome", r"^(To continue this session, run: vibe\b|Or: vibe --resume\b)"),
        # `vibe --continue` / `--resume`: the notice above the earlier session's turns drawn again
        LineRule("resume-notice", "chrome", r"^\s*[⎡⎢⎣]?\s*(Resuming session…|Resumed session [\w-]+)\s*$"),
        LineRule("interrupt-hint", "chrome", r"(?i)\b(esc|ctrl\+c)\b.{0,20}\b(to )?(interrupt|cancel)\b"),
        LineRule("slash-command", "system", r"^(?:>\s)?(?P<body>/\s?[a-z][\w-]*(\s.*)?)$"),
        # what a slash command printed, in a bracket `⎡ ⎢ ⎣` down its left side
        LineRule("command-output", "system", r"^\s*[⎡⎢⎣](?P<body>.*)$"),
        LineRule("prompt", "user", r"^>\s(?P<body>.*)$"),
        # a reasoning model's thinking folds into one `⏵ Thought` row (`□ Thinking` while it streams)
        LineRule("thought", "thinking", THOUGHT.pattern),
        LineRule("tool", "tool_call", TOOL_LINE.pattern),
    )

    # -- frames -----------------------------------------------------------
    def rows(self, frame: Frame) -> list[str]:
        if not frame.alternate:
            return frame.lines
        memo = getattr(self, "_rows_memo", None)
        if memo is not None and memo[0] is frame:
            return memo[1]  # viewport, the stitcher and the input box all read the same frame
        cells = frame.cells
        # ideographs all sit at U+2E80 and above (box rules, bullets and the scrollbar below it)
        rows = [strip_scrollbar(_mark_ideograph_bold(t, cells[y]) if not t.isascii() and WIDE_RANGE.search(t)
                                and y < len(cells) else t, frame.columns) for y, t in enumerate(frame.lines)]
        self._rows_memo = (frame, rows)
        return rows

    def _input_top(self, lines: list[str]) -> int | None:
        """Row of the input box's top rule (the one naming the mode), if drawn."""
        for y in range(len(lines) - 1, -1, -1):
            if MODE_RULE.match(lines[y]):
                return y
        # no mode label: the second plain full rule from the bottom
        seen = 0
        for y in range(len(lines) - 1, -1, -1):
            if RULE.match(lines[y]) and wcswidth(lines[y]) >= 40:
                seen += 1
                if seen == 2:
                    return y
        return None

    def viewport(self, frame: Frame) -> tuple[int, int] | None:
        lines = self.rows(frame)
        end = self._input_top(lines)
        if end is None:
            return None  # not the conversation screen (a picker, a dialog)
        if wcswidth(lines[end]) < frame.columns - 1:
            # the input box's rule spans the terminal: a narrower one is the old
            # layout still on screen after the terminal grew, not yet redrawn
            return None
        # the plan's progress row (`▶ 1/4 · step`, `☐ 2/3 · step`) sits right
        # on top of the input box once the agent keeps a todo list
        while end > 0 and PLAN_ROW.match(lines[end - 1]):
            end -= 1
        # a completion popup sits on top of the input box (or of the plan row)
        y = end
        while y > 0 and BOX_ROW.match(lines[y - 1].strip() or " "):
            y -= 1
        end = y
        # the spinner row
        while end > 0 and (not lines[end - 1].strip() or SPINNER.match(lines[end - 1])):
            end -= 1
        self._note_tools(lines[:end], frame.index)
        return (0, end)

    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        return None  # the main screen holds only the exit summary

    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        """Alternate-screen stretches stitched (tail first); the main screen is not conversation.

        Each stretch goes through a `LayoutStitcher`: a resize re-wraps the
        whole conversation, so rows of one width never anchor rows of
        another; each width is stitched by rows and the widths are joined
        by words (the only thing two layouts share).
        """
        # Which tool lines belong to which turn is told by frame order, never
        # by recording time: the same bytes written faster have the same
        # order and no usable times (tests/test_timing.py).
        # individual tool lines as they were first shown (before folding into a summary)
        self._tools_seen: list[tuple[int, str, str]] = []
        self._tools_set: set[tuple[str, str]] = set()
        self._dialogs = []
        self._widths: list[tuple[float, int]] = []
        self._submitted: list[tuple[float, str]] = []
        keys = InputLine()
        self._pastes = keys.pastes  # filled as the frames' keys are fed
        held: str | None = None
        pending: tuple[float, str] | None = None
        slashed = False  # the last thing sent from the input box was a slash command
        out: list[TLine] = []
        times: dict[int, float] = {}
        block = 0
        added_width = 0  # the width of the last view given to the stitcher
        st: LayoutStitcher | None = None
        for f in frames:
            keys.feed(f.inputs)
            if not self._widths or self._widths[-1][1] != f.columns:
                self._widths.append((f.index, f.columns))
            if f.alternate:
                typed = self._input_text(f)
                if held and typed == "":
                    pending = (f.time, held)  # sent, or cleared: sent once the agent starts working
                    # a slash command sent: what it prints comes at the end, and nothing the
                    # agent runs folds rows there until the next prompt is sent
                    slashed = held.lstrip().startswith("/")
                if typed is not None:
                    held = typed
                if pending and f.time - pending[0] > 5.0:
                    pending = None
                if pending and any(SPINNER.match(r) for r in self.rows(f)):
                    self._submitted.append(pending)
                    pending = None
                if st is None:
                    block += 1
                    # cell-diff redraws drop blanks next to wide characters: keep rows as first drawn
                    st = LayoutStitcher(first_drawn=True, reach="view", relaid_grids=True)
                vp = self.viewport(f)
                view = self.rows(f)[vp[0]:vp[1]] if vp is not None else None
                # scrolled back, a view may bring rows streamed out of sight (its bottom row is
                # new) but never stands for the live tail: one that ends inside the document
                # would cut the rows under it
                pos = scroll_position(f, self._input_top(self.rows(f))) if view is not None else None
                if view is not None and (pos != "back" or _ends_past(view, st.doc, f.columns != added_width)):
                    times[f.index] = f.time
                    # at the end, the view pages nowhere: rows it shares only with an
                    # older copy of themselves (`/help` printed again) are new; after a
                    # slash command nothing folds away at the end (no tool runs), so such
                    # a copy is new even near the tail of a short document (`printed`)
                    st.add(view, f.index, width=f.columns, live=pos == "end", printed=slashed)
                    added_width = f.columns
            elif st is not None:
                out.extend(self._stitched(st, block, times))
                st = None
        if st is not None:
            out.extend(self._stitched(st, block, times))
        return out

    def _input_text(self, frame: Frame) -> str | None:
        """What the input box holds ("" when empty), None when it is not drawn.
        Rows under the mode rule: `> text`, continuation rows indented two,
        down to the box's bottom rule (None without it); soft wraps joined as
        in the history."""
        lines = self.rows(frame)
        top = self._input_top(lines)
        if top is None or top + 1 >= len(lines) or not MODE_RULE.match(lines[top]):
            return None
        rows: list[str] = []
        closed = False
        for r in lines[top + 1:]:
            if RULE.match(r):
                closed = True
                break
            rows.append(r)
        # (a box without its bottom rule is a frame caught half painted while
        # a resize redraws the screen: its rows may hold what was drawn there
        # before, a table cell's digits under the `>`)
        # (a slash command being typed takes the `>` marker's place: `/ help`)
        if not closed or not rows or not rows[0].startswith((">", "/ ")):
            return None
        slash = "/" if rows[0].startswith("/") else ""
        rows = [rows[0][2:]] + [r[2:] if r.startswith("  ") else r for r in rows[1:]]
        while rows and not rows[-1].strip():
            rows.pop()
        return slash + _join_prompt_rows(rows, frame.columns - 1) if rows else slash

    def _stitched(self, st: LayoutStitcher, block: int, times: dict[int, float]) -> list[TLine]:
        """The stitched rows, each with the time of the frame it was first seen in
        (the stitcher was given frame indices) and that index kept aside."""
        out = []
        for t, k in zip(st.doc, st.times):
            out.append(VLine(t, times.get(int(k), 0.0), "alt", block, order=int(k)))
        return out

    @staticmethod
    def _seq(line: TLine) -> int:
        return getattr(line, "order", -1)

    def _width_at(self, time: int) -> int:
        width = 80
        for t, w in getattr(self, "_widths", []):
            if t <= time + 1e-6 or width == 80:
                width = w
        return width

    def _note_tools(self, rows: list[str], time: int) -> None:
        # a row is one call however many frames show it; under the prompt last
        # sent, once that prompt is drawn, it is this turn's call even when an
        # earlier turn ran the same command (`ls -1` twice in a session)
        turn = len(getattr(self, "_submitted", []))
        below = _below_prompt(rows, self._submitted[-1][1]) if turn else len(rows)
        for n, r in enumerate(rows):
            m = TOOL_LINE.match(r)
            arg = m.group("arg").strip() if m else ""
            first = arg.split(",")[0].strip()
            if not m or m.group("icon") in "□■" or THOUGHT.match(r) or (
                    all(SUMMARY.match(p.strip()) for p in first.split(" and ")) and not TODO_ARG.match(arg)):
                continue
            key = (m.group("verb"), m.group("arg").strip())
            if key not in self._tools_set or (n >= below and (*key, turn) not in self._tools_set):
                self._tools_set.update((key, (*key, turn)))
                self._tools_seen.append((time, *key))

    # -- turns ------------------------------------------------------------
    def label(self, lines: list[TLine]) -> list[Labeled]:
        labeled = super().label(lines)
        state = None  # "prompt" until the prompt's rule, then "after"
        prev = None  # last marker kind
        for lb in labeled:
            if lb.rule == "command-output":
                if prev == "system":
                    lb.kind = "cont"
                state, prev = "after", "system"
                continue
            if lb.kind in ("user", "system"):
                state, prev = "prompt", lb.kind
                continue
            if state == "prompt":
                if lb.rule == "prompt-rule":
                    state = "after"
                elif lb.kind in ("cont", "blank"):
                    lb.body = lb.line.text
                    continue
                elif lb.kind == "tool_call":
                    lb.kind, lb.rule, lb.body = "cont", "prompt-row", lb.line.text
                    continue
            if lb.kind in ("tool_call", "thinking"):
                prev = lb.kind
                continue
            if lb.rule == "box" and prev == "assistant":
                lb.kind = "cont"  # a table's grid edge inside an answer, not a popup
                continue
            if lb.kind == "cont" and prev == "system" and state == "after":
                continue  # more of what the command printed
            if lb.kind == "cont" and prev != "assistant":
                lb.kind, lb.rule = "assistant", "answer"
                prev = "assistant"
            elif lb.kind == "cont":
                pass
        _drop_relaid_tool_rows(labeled)
        return labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        if kind == "user":
            self._turn_start = self._seq(members[0].line)
            # prompt rows: the marker row, then rows indented under it
            rows = [members[0].body] + [m.line.text for m in members[1:]]
            rows = [r[2:] if r.startswith("  ") else r for r in rows]
            while rows and not rows[-1].strip():
                rows.pop()
            width = self._width_at(self._seq(members[0].line)) - 1  # the scrollbar column
            return Turn("user", _join_prompt_rows(rows, width))
        if kind == "tool_call":
            m = TOOL_LINE.match(members[0].line.text)
            if not m:
                return Turn("tool_call", text)
            verb, arg = m.group("verb"), m.group("arg").strip()
            verb = SETTLED.get(verb, verb)
            name = VERB_TOOL.get(verb, verb.lower())
            if TODO_ARG.match(arg):
                return Turn("tool_call", arg, name="todo", extra={"verb": verb})
            s = SUMMARY.match(arg)
            if s:
                return self._expand_summary(verb, name, int(s.group("n")), self._seq(members[0].line))
            folded = self._folded_summary(verb, name, arg, self._seq(members[0].line))
            if folded is not None:
                return folded
            self._shown_alone(m.group("verb"), arg, self._seq(members[0].line))
            return Turn("tool_call", arg, name=name, extra={"verb": verb})
        if kind == "system":
            rows = [regex.sub(r"^\s*[⎡⎢⎣] ?", "", m.line.text) for m in members]
            rows[0] = regex.sub(r"^(?:>\s)?/\s(?=[a-z])", "/", rows[0])  # `/ status` is drawn in two styles
            return Turn("system", "\n".join(r.rstrip() for r in rows).strip())
        if kind == "assistant":
            if members:
                # answers wrap two columns short of the viewport (the scrollbar's column left out)
                # each row at the width it was laid out at (an answer streamed
                # across a resize holds rows of several layouts)
                widths = [self._width_at(self._seq(m.line)) - 1 - ANSWER_MARGIN for m in members]
                body = "\n".join(_join_broken_tokens([m.line.text for m in members], widths)).strip("\n")
            else:
                body = text
            return Turn("assistant", _close_vs16_gaps(HAN_BREAK.sub("", body)))
        return Turn(kind, text)

    def _with_unseen_prompts(self, turns: list[Turn]) -> list[Turn]:
        """Scrolled back while an answer streams, Vibe's view stays where the
        user left it: the turns that follow are appended out of sight and may
        never be drawn. What was typed was drawn in the input box, though: a
        prompt submitted there (the box held it, then emptied) that the
        history never showed becomes a user turn at the time it was sent.
        Slash commands are left to their own rows."""
        subs = [(tm, t) for tm, t in getattr(self, "_submitted", []) if t.strip() and not t.lstrip().startswith("/")]
        if not subs:
            return turns
        key = lambda s: "".join(s.split())  # noqa: E731  (wraps differ between box and history)
        users = [n for n, t in enumerate(turns) if t.role == "user"]
        shown = [key(turns[n].text) for n in users]
        # where each unseen prompt goes: after the block of the last prompt the history did show
        # (line times are no guide: a layout redrawn after a resize is "first seen" late)
        inserts: list[tuple[int, str, float]] = []
        j, last = 0, None
        for tm, text in subs:
            k = next((n for n in range(j, len(shown)) if shown[n] == key(text)), None)
            if k is not None:
                j, last = k + 1, k
                continue
            at = (users[last + 1] if last + 1 < len(users) else len(turns)) if last is not None else \
                (users[0] if users else len(turns))
            inserts.append((at, text, tm))
        if not inserts:
            return turns
        out: list[Turn] = []
        pending = sorted(inserts, key=lambda x: x[0])
        for n, t in enumerate(turns + [None]):  # type: ignore[operator]
            while pending and pending[0][0] == n:
                _, text, tm = pending.pop(0)
                out.append(Turn("user", text, time=tm, extra={"seen": "input box"}))
            if t is not None:
                out.append(t)
        return out

    def _folded_summary(self, verb: str, name: str, arg: str, time: int) -> list[Turn] | None:
        """A summary row that also folds what came between the calls, its
        parts after commas: `Ran 3 commands, thought` (the thinking of a
        reasoning model; `thinking` while it streams), `Ran 2 commands, read 1
        file`. None when the row is not such a list."""
        # counts of one verb joined by `and` (`Ran 1 search and 1 command`,
        # `read 1 file, ran 1 search and 1 command`) are parts of their own,
        # each counting calls under that part's verb
        parts = []
        for n, part in enumerate(p.strip() for p in arg.split(",")):
            pieces = [p.strip() for p in part.split(" and ")]
            head = FOLDED_PART.match(pieces[0]) if n else None
            v = verb.lower() if n == 0 else (head.group("verb") if head else None)
            if len(pieces) > 1 and v and all(SUMMARY.match(p) for p in pieces[1:]):
                parts += [pieces[0]] + [v + " " + p for p in pieces[1:]]
            else:
                parts.append(part)
        first = (SUMMARY.match(parts[0]) or TIMES_PART.match(parts[0])) if len(parts) > 1 else None
        if first is None:
            return None
        what = first.groupdict().get("what")
        out = self._expand_summary(verb, THING_TOOL.get(what, name), int(first.group("n")), time)
        for part in parts[1:]:
            if part in ("thought", "thinking"):
                out.append(Turn("thinking", "Thought"))
                continue
            m = FOLDED_PART.match(part)
            if m is None:
                return None
            v = SETTLED.get(m.group("verb").capitalize(), m.group("verb").capitalize())
            tool = THING_TOOL.get(m.group("what") or "", VERB_TOOL.get(v, v.lower()))
            out.extend(self._expand_summary(v, tool, int(m.group("n") or m.group("times")), time))
        return out

    def _shown_alone(self, verb: str, arg: str, time: int) -> None:
        """A call row the history kept as it is: its sighting (this turn's
        latest of that row) is no call a summary row of the turn folded."""
        seen = getattr(self, "_tools_seen", [])
        used = getattr(self, "_tools_used", set())
        start = getattr(self, "_turn_start", float("-inf"))
        mine = [i for i, (t, v, a) in enumerate(seen)
                if v == verb and a == arg and i not in used and start - 1e-6 <= t <= time + 1e-6]
        if mine:
            self._tools_used = used | {mine[-1]}

    def _expand_summary(self, verb: str, name: str, n: int, time: int) -> list[Turn]:
        seen = getattr(self, "_tools_seen", [])
        used = getattr(self, "_tools_used", set())
        # only calls shown since this turn's prompt: a call run and folded before it was ever drawn
        # alone is not to be filled in with an older turn's call
        start = getattr(self, "_turn_start", float("-inf"))
        todo = name == "todo"  # `Updated 2 todos` and `Updated notes.txt` share the verb
        picks = [i for i, (t, v, a) in enumerate(seen)
                 if v == verb and i not in used and start - 1e-6 <= t <= time + 1e-6
                 and bool(TODO_ARG.match(a)) == todo]
        picks = picks[-n:] if len(picks) >= n else picks
        self._tools_used = used | set(picks)
        out = [Turn("tool_call", seen[i][2], name=name, extra={"verb": verb}) for i in picks]
        while len(out) < n:  # a call folded into the summary before it was ever shown alone
            out.append(Turn("tool_call", "", name=name, extra={"verb": verb, "summary": f"{verb} {n} items"}))
        return out

    def turns(self, labeled: list[Labeled]) -> list[Turn]:
        self._tools_used = set()
        self._turn_start = float("-inf")
        out: list[Turn] = []
        made = self._with_unseen_prompts(super().turns(labeled))
        unused = list(getattr(self, "_pastes", []))
        for t in made:
            if t.role == "user":
                t.text = _with_pastes(t.text, unused)
            if t.role == "assistant":
                import textwrap
                raw = textwrap.dedent(t.text)
                t.text = _tidy_grids(raw)
                if not t.text:
                    continue
                if out and out[-1].role == "assistant":
                    # blocks of one answer (a tool row drawn again between
                    # two layouts of its table): the grid rules read them
                    # together
                    raw = getattr(out[-1], "_raw", out[-1].text) + "\n\n" + raw
                    out[-1].text = _tidy_grids(raw)
                    out[-1]._raw = raw  # type: ignore[attr-defined]
                    continue
                t._raw = raw  # type: ignore[attr-defined]
            out.append(t)
        return out


def _below_prompt(rows: list[str], sent: str) -> int:
    """The index of the first row under the history's drawing of the prompt
    `sent` (its `> ` row, rows indented under it, its rule), the last such
    prompt in `rows`; len(rows) when it is not drawn there (not yet, or
    scrolled away)."""
    want = "".join(sent.split())
    for i in range(len(rows) - 1, -1, -1):
        if not rows[i].startswith("> "):
            continue
        j = i + 1
        while j < len(rows) and rows[j].startswith("  ") and not RULE.match(rows[j]):
            j += 1
        head = "".join(rows[i][2:].split())
        if j < len(rows) and RULE.match(rows[j]) and head and want.startswith(head):
            return j + 1
        return len(rows)
    return len(rows)


def _join_prompt_rows(rows: list[str], width: int) -> str:
    """Prompt rows (marker and indent removed) as typed: a row the next row's
    first word would not have fitted on was soft-wrapped, any other break was
    typed; a row holding one token up to the edge broke that token (a URL
    wider than the row) and goes on with no space."""
    text = rows[0].rstrip() if rows else ""
    for prev, row in zip(rows, rows[1:]):
        nxt = row.split()
        soft = nxt and wcswidth("> " + prev.rstrip()) + 1 + wcswidth(nxt[0]) > width
        # the marker's two columns and the text up to the edge (wraps.broken_token)
        broken = soft and broken_token(("> " + prev).rstrip(), row.strip(), width, width - 2)
        text += ("" if broken else " " if soft else "\n") + (row.strip() if broken else row.rstrip())
    return text


#: columns an answer's rows stop short of the viewport's right edge
ANSWER_MARGIN = 2

def _join_broken_tokens(rows: list[str], width: int | list[int]) -> list[str]:
    """Answer rows with each token the wrap cut at the edge (a row drawn up to
    its width, going on at the same indent under it: wraps.broken_token)
    joined again. `width`: one for all rows, or each row's own."""
    widths = width if isinstance(width, list) else [width] * len(rows)
    out: list[str] = []
    last = ""  # the screen row last joined into out[-1]
    last_w = 0
    indent = 0
    for row, w in zip(rows, widths):
        ind = len(row) - len(row.lstrip())
        if last and row.strip() and ind == indent and broken_token(last, row.strip(), last_w, last_w - indent):
            out[-1] = out[-1].rstrip() + row.strip()
        else:
            out.append(row)
            indent = ind
        last, last_w = row.rstrip(), w
    return out


def _grid_head(labeled: list[Labeled], i: int) -> str | None:
    """The first content row of the box grid opening at or after `labeled[i]`
    (blank rows skipped), its cells' padding squeezed; None when no grid
    opens there."""
    while i < len(labeled) and labeled[i].kind == "blank":
        i += 1
    if i >= len(labeled) or not labeled[i].line.text.lstrip().startswith("┌"):
        return None
    row = labeled[i + 1].line.text.strip() if i + 1 < len(labeled) else ""
    return " ".join(row.split()) if row.startswith("│") else None


def _drop_relaid_tool_rows(labeled: list[Labeled]) -> None:
    """An answer that opens with a table taller than the view is laid out
    again while it streams, and each layout's view shows the tool row above
    the table (`⏵ Ran cat x`): stitched, the row comes back right under the
    earlier layout's bottom edge, the next layout under it. That row is the
    same call drawn again (chrome); the two grids are then one answer's
    layouts, which the answer's grid rules join."""
    last_tool: str | None = None
    first_head: str | None = None
    for i, lb in enumerate(labeled):
        if lb.kind == "user":
            last_tool = first_head = None
            continue
        if lb.kind != "tool_call":
            continue
        text = lb.line.text.strip()
        k = i - 1
        while k >= 0 and labeled[k].kind == "blank":
            k -= 1
        under_grid = k >= 0 and labeled[k].line.text.lstrip().startswith("└")
        head = _grid_head(labeled, i + 1)
        if text == last_tool and under_grid and head is not None and first_head is not None \
                and head.split("│")[1].strip() == first_head.split("│")[1].strip():
            lb.kind, lb.rule = "chrome", "tool-relaid"
            continue
        last_tool, first_head = text, head


def _grid_cells(rows: list[str]) -> list[list[str]]:
    """The cell texts of a box grid's content rows (border rows left out)."""
    return [[" ".join(c.split()) for c in r.strip()[1:-1].split("│")] for r in rows if r.strip().startswith("│")]


def _is_draft(early: list[list[str]], late: list[list[str]]) -> bool:
    """`early` is `late` caught while its rows streamed in: same header, no more
    rows, each cell a prefix of the later one's (the last row may still be a
    fragment of markdown being typed)."""
    def bare(row: list[str]) -> list[str]:  # a cell wrapped at another width joins its pieces either way
        return [c.replace(" ", "") for c in row]
    if early and late and len(early) >= 2 and early[0] != late[0] and bare(early[1]) == bare(late[0]):
        early = early[1:]  # the later layout's header scrolled away before it was stitched
    if not early or not late or len(early) > len(late) or bare(early[0]) != bare(late[0]):
        return False
    checked = early[:-1] if len(early) > 2 else early
    return all(len(a) == len(b) and all(y.startswith(x) for x, y in zip(bare(a), bare(b)))
               for a, b in zip(checked, late))


def _tidy_grids(raw: str) -> str:
    """An answer's text with its tables read whole: each grid row drawn over
    several rows as one (a word too long for its column starts a row of its
    own: `cut_alone`), a table's layouts as one, its drafts dropped."""
    return _drop_grid_drafts(_merge_grid_layouts(_merge_grid_rows(raw, cut_alone=True))).strip()


def _drop_grid_drafts(text: str) -> str:
    """A table streams row by row and Vibe lays the grid out again as rows
    arrive (columns widen); when the table is taller than the viewport the
    earlier layouts scroll away and are stitched as grids of their own. A grid
    followed in the same answer by a fuller layout of itself goes, and so does
    the lead-in paragraph it left repeated."""
    lines = text.split("\n")
    spans = grid_spans(lines)
    if len(spans) < 2:
        return text
    cells = [_grid_cells(lines[a:b]) for a, b in spans]
    drop: set[int] = set()
    headed: set[int] = set()  # later layouts given the header of a draft
    for k, (a, b) in enumerate(spans):
        late = next((m for m in range(k + 1, len(spans)) if _is_draft(cells[k], cells[m])), None)
        if late is None:
            continue
        rows = range(a, b)
        if cells[k][0] != cells[late][0] and late not in headed \
                and any(lines[y].lstrip().startswith("├") for y in rows):
            # the later layout lost its header (scrolled away): keep the draft's, above it
            rule = next(y for y in rows if lines[y].lstrip().startswith("├"))
            rows = range(rule, b)
            headed.add(late)
        drop.update(rows)
    if not drop:
        return text
    # a dropped grid leaves a mark: the rows drawn right under it are a view
    # of the same answer laid out again (the lead-in's last rows above the
    # next layout of the grid)
    kept = "\n".join(ln if n not in drop else ("\x00" if n - 1 not in drop else None)
                     for n, ln in enumerate(lines) if n not in drop or n - 1 not in drop)
    out: list[str] = []
    after_draft = False
    for para in regex.split(r"\n\s*\n", kept):
        rows = para.split("\n")
        if rows[0] == "\x00":
            after_draft = True
        mark = rows[-1] == "\x00"
        para = "\n".join(ln for ln in rows if ln != "\x00")
        words = para.split()
        if out and words:
            prev = out[-1].split()
            # the same paragraph again; right under a dropped grid, its tail
            # (its first rows had scrolled out of the view that drew it)
            if words == prev or (after_draft and len(words) < len(prev) and prev[-len(words):] == words):
                after_draft = mark
                continue
        after_draft = mark
        if para.strip() or not mark:
            out.append(para)
    return "\n\n".join(out)


PROFILE = VibeProfile()
