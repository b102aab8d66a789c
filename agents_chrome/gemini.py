"""Gemini CLI: chrome rules and turn segmentation.

Checked against Gemini CLI 0.61.0 (Ink): inline by default (finished items
scroll into history, the live area is redrawn), and with
`ui.useAlternateBuffer` on the alternate screen with synchronized output;
on exit from the alternate screen the whole conversation is printed again
on the main screen (folded back into one copy here).

Screen anatomy:
- header: the logo glyphs with `Gemini CLI vX`, `Authenticated with …`,
  `Tips for getting started:` and four numbered tips;
- a submitted prompt is a band: a `▄▄▄` row, ` > text` (continuation rows
  indented three), a `▀▀▀` row;
- answers open with `✦`, continuation rows indented two; code blocks carry
  a line-number gutter (left out: the numbers are not the answer's words);
  an answer that opens with a code block has its `1` on the `✦` row;
- with `ui.inlineThinkingMode: full`, thinking is a bare ` Thinking... `
  row and its text under a grey `│` bar one column in (a thinking turn);
- tool calls are rounded boxes: `│ ✓  Shell <cmd> │` then the output
  inside the box; the status glyph is ✓ / x / ? / a spinner;
- live area: `⠼ Thinking... (esc to cancel, 0s)`, `? for shortcuts`, a
  rule, `YOLO Ctrl+Y`, the input band (`*   Type your message or
  @path/to/file`), the workspace / sandbox / model footer;
- the CLI's notices open at column 0 with `ℹ` (`ℹ Initializing...`,
  `ℹ Request cancelled.` after a refused tool approval): chrome;
- `/quit` prints the `Agent powering down. Goodbye!` summary box.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import dataclasses
import textwrap

import regex
from wcwidth import wcswidth, wcwidth

from agents_chrome.cjk_bold import IDEOGRAPH, marked_ideograph_bold
from agents_chrome.grids import unfold_word_wrapped_rows
from agents_chrome.profile import ChromeProfile
from agents_chrome.rules import COMMON_CHROME, MARKERS, Labeled, LineRule
from agents_chrome.transcript import TLine, without_scrollbar
from agents_chrome.turns import Turn
from agents_chrome.wraps import broken_token, join_broken_tokens, unwrap_words
from screen.frames import Frame
from screen.vscreen import FLAG_BOLD

LOGO = regex.compile(r"Gemini CLI v\d")
BAND_TOP = regex.compile(r"^\s*▄{10,}\s*$")
BOX_TOP = regex.compile(r"^\s*╭─")
BOX_BOTTOM = regex.compile(r"^\s*╰─")
# a tool drawn without a box (all but the shell): `  ✓  ReadFile  README.md`
# (a one-word name, `Edit`, only with its argument after it)
BARE_TOOL = regex.compile(r"^\s{0,3}(?P<status>[✓✔xX✗?⊶⊷o◯●⠀-⣿-])\s{2}(?:(?P<name>[A-Z][a-z]+(?:[A-Z][a-z]+)+)"
                          r"(?:\s{2}(?P<arg>\S.*?))?|(?P<name>[A-Z][a-z]+)\s{2}(?P<arg>\S.*?))\s*$")
TOOL_HEAD = regex.compile(r"^\s*│\s*(?P<status>[✓✔xX✗?⊷o◯●⠀-⣿-])\s+(?P<name>[A-Z][\w]*(?:\s[A-Z]\w*)?)\s*(?P<arg>.*?)\s*│?\s*$")
SCROLLBAR = set("█▄▀▐▌▕▏│┃▁▂▃▅▆▇")
# a code block's line-number gutter: `  4` alone is an empty line of the block
GUTTER = regex.compile(r"^(?P<indent>\s*)(?P<n>\d{1,4})(?: (?P<code>.*))?$")
PROMPT_ROW = regex.compile(r"^\s?>\s+\S")
# a shell-mode command echoed in the prompt band (see _label_shell_echoes)
SHELL_ECHO = regex.compile(r"^\s?\$\s(?P<body>\S.*)$")
SLASH_ROW = regex.compile(r"^>\s+/[\w-]+")
BAND_BOTTOM = regex.compile(r"^\s*▀{10,}\s*$")
# a thinking block's row: the grey bar one column in, no border on the right (a box row has one)
THINKING_BAR = regex.compile(r"^ │(?:\s*|\s.*[^│\s]\s*)$")
FOOTER = regex.compile(r"workspace \(/directory\)|no sandbox|\bsandbox\s{3,}|/model\s*$|context left")
INPUT_ROW = regex.compile(r"^\s?[*>!]\s(?P<body>.*)$")
# a tool box's notice of the output rows it does not show (`... first 4 lines hidden (Ctrl+O to show) ...`)
HIDDEN_ROWS = regex.compile(r"^[ \t]*\.\.\. first \d+ lines? hidden \(Ctrl\+\w to show\) \.\.\.[ \t]*(?:\n|$)", regex.M)


class GeminiProfile(ChromeProfile):
    name = "gemini"
    checked_versions = ("0.61.0",)
    commands = ("gemini",)
    resume_words = frozenset({"--resume", "-r"})  # `gemini --resume latest`, `gemini -r 3`
    screen_signatures = (r"Gemini CLI v\d", r"Type your message or @path/to/file")
    rules = (
        LineRule("logo", "chrome", r"^\s*[▝▜▄▗▟▀▘▙▛▐▌ ]+(Gemini CLI v[\d.]+.*)?$"),
        LineRule("logo-version", "chrome", LOGO.pattern),
        LineRule("auth", "chrome", r"^\s*[▝▜▄▗▟▀ ]*\s*Authenticated with\s"),
        LineRule("tips", "chrome", r"^\s*Tips for getting started:"),
        LineRule("tip-lines", "chrome", r"^\d\.\s+(Create GEMINI\.md files|/help for more information|"
                                        r"Ask coding questions|Be specific for the best results)"),
        LineRule("band", "chrome", r"^\s*[▄▀]{10,}\s*$"),
        LineRule("rule", "chrome", r"^\s*─{10,}\s*$"),
        LineRule("placeholder", "chrome", r"Type your message or @path/to/file"),
        LineRule("yolo", "chrome", r"^\s*(YOLO|auto-accept edits|shell mode)\b.*(Ctrl\+\w|shift\+tab)"),
        LineRule("footer", "chrome", r"(workspace \(/directory\)|no sandbox|\bsandbox\s{3,}|/model\s*$|context left|"
                                     r"\? for shortcuts)"),
        LineRule("using", "chrome", r"^\s*Using:?\s+\d+\s+(GEMINI\.md|MCP|context)"),
        LineRule("thinking-spinner", "chrome", r"^\s*[⠀-⣿]\s+.*\(esc to cancel"),
        LineRule("summary", "chrome", r"(Agent powering down|Interaction Summary|To resume this session:)"),
        # the notice a first Ctrl+Z (or Ctrl+C, Ctrl+D) shows above the input box
        LineRule("press-again", "chrome", r"^\s*Press Ctrl\+[A-Z] again to \w+\b"),
        # the terminal's echo of control keys pressed after the CLI let go of it (^C^C)
        LineRule("key-echo", "chrome", r"^\s*(\^[A-Z@\[\\\]^_?])+\s*$"),
        # a table inside an answer is a square box grid (tool boxes are rounded): kept whole
        LineRule("table-edge", "cont", r"^\s*[┌├└][─┬┼┴]+[┐┤┘]\s*$"),
        *COMMON_CHROME,
        # a session resumed (`gemini --resume latest`) draws each user message again in a
        # prompt box; a message that holds no text but a part (the tool's output sent back)
        # is drawn as the CLI's own placeholder for that part (`[Function Response: name]`,
        # partToString's verbose form): the CLI's words, not the user's
        LineRule("part-placeholder", "chrome", r"^\s?>\s\[(Function (Call|Response): [\w.-]+|Executable Code|"
                                               r"Code Execution Result|File Data|Video Metadata)\]\s*$"),
        LineRule("slash-command", "system", r"^\s?>\s+(?P<body>/[\w-]+.*)$"),
        LineRule("prompt", "user", r"^\s?>\s(?P<body>.*)$"),
        LineRule("answer", "assistant", r"^✦\s(?P<body>.*)$"),
        # the CLI's own notices (`ℹ Initializing... Prompts will be queued.`,
        # `ℹ Request cancelled.` after a refused tool) open at column 0 with
        # `ℹ`, in the warning colour, where an answer has its `✦`: status
        # chrome, never the model's words
        LineRule("info", "chrome", r"^ℹ\s"),
        # inline thinking (ui.inlineThinkingMode full): a bare `Thinking...`
        # head one column in, its text under a bar in that column (box-row)
        LineRule("thinking-head", "thinking", r"^\s?(?P<body>Thinking\.\.\.)\s*$"),
        LineRule("box-row", "cont", r"^\s*│(?P<body>.*?)│?\s*$"),  # inside a tool box: the borders go
    )

    # -- regions ----------------------------------------------------------
    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        """The final screen down to the input band (or the live area above it)."""
        end = len(frame.lines)
        for y in range(len(frame.lines) - 1, -1, -1):
            if BAND_TOP.match(frame.lines[y]):
                end = y
                break
        return (0, end)

    viewport = main_viewport

    def rows(self, frame: Frame) -> list[str]:
        """Rows without the scrollbar the alternate-screen renderer draws at the
        right edge."""
        return without_scrollbar(frame, SCROLLBAR) if frame.alternate else frame.lines

    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        self._inputs: list[tuple[float, str]] = []
        self._code_rows: dict[str, str] = {}
        self._accent: str | None = None
        self._before_accent: list[tuple] = []
        self._code_seen: dict[int, object] = {}
        self._code_phrases: set[tuple[str, str, str]] = set()
        return _fold_reprints(_fold_alt_reprint(super().transcript(self._watch_input(frames))))

    def _watch_input(self, frames: Iterable[Frame]) -> Iterable[Frame]:
        """Note each text the input band held when it was emptied (a submission),
        and the answer rows drawn with inline code (see _learn_code_rows), as frames pass."""
        held: str | None = None
        for f in frames:
            self._learn_code_rows(f)
            text = _input_text(self.rows(f))
            if held and not text:
                self._inputs.append((f.time, held))
            held = text
            yield f

    def _learn_code_rows(self, frame: Frame) -> None:
        """Gemini draws an answer's inline code without its backticks, in the
        accent colour its `✦` answer marker has; the text around it is in the
        body colour. The history keeps only text, so each drawn row holding
        such a run is remembered by its text with the backticks back, for
        make_turn. Only rows that changed since the last frame are read (a
        row snapshot is the same cell tuple while it is unchanged)."""
        if not frame.cells:
            return
        # rows that scrolled off since the last frame first (they were above
        # the visible ones), read from the history with their colours: which
        # rows a frame caught on screen depends on the pauses, this does not
        gone = frame.scrolled_lines
        if gone and len(gone) == len(frame.scrolled):
            texts = [h.text for h in gone]
            spans = [list(h.spans) for h in gone]
            for y, ln in enumerate(texts):
                self._learn_code_row(ln, spans[y], texts, spans, y)
        seen = self._code_seen
        rows = self.rows(frame)
        for y, ln in enumerate(rows):
            cells = frame.cells[y] if y < len(frame.cells) else None
            if cells is None or not ln.strip() or seen.get(y) is cells:
                continue
            seen[y] = cells
            self._learn_code_row(ln, frame.styles[y], rows, frame.styles, y)

    def _learn_code_row(self, ln: str, row_spans: list[tuple], rows: list[str],
                        styles: "Sequence[list[tuple]]", y: int) -> None:
        """One drawn row (on screen or just scrolled off) for _learn_code_rows."""
        if not ln.strip():
            return
        if not ln.isascii() and any(sp[4] & FLAG_BOLD for sp in row_spans):
            bold = _marked_bold_row(ln, row_spans)
            if bold is not None:
                plain, got = _answer_key(ln), _answer_key(bold)
                self._code_rows.setdefault(plain, got)
        if ln.startswith("✦ ") and row_spans and row_spans[0][0] == 0 and row_spans[0][2] != "default":
            first = self._accent is None
            self._accent = row_spans[0][2]
            if first:
                # rows drawn before any `✦` was seen with its colour (which
                # rows a frame catches depends on the pauses): read them now
                early, self._before_accent = self._before_accent, []
                for args in early:
                    self._learn_code_row(*args)
        if self._accent is None:
            if len(self._before_accent) < _EARLY_ROWS and any(sp[2] != "default" and sp[3] == "default"
                                                               for sp in row_spans):
                self._before_accent.append((ln, row_spans, rows, styles, y))
            return
        if not any(sp[2] == self._accent for sp in row_spans):
            return
        marked = _marked_code_row(ln, row_spans, self._accent)
        if marked is not None and not _in_code_block(rows, styles, y):
            plain, got = _answer_key(ln), _answer_key(marked)
            if plain and got != plain:
                self._code_rows[plain] = _with_bold_runs(got, self._code_rows.get(plain))
                self._code_phrases.update(_code_phrases(got))

    def _with_code_marks(self, text: str, members: list[Labeled]) -> str:
        """The answer with the backticks its rows were drawn with (see
        _learn_code_rows): each member row's text, found in order in the
        answer, is replaced by its marked copy."""
        marked = getattr(self, "_code_rows", None)
        if not marked:
            return text
        at = 0
        for m in members:
            plain = _answer_key(m.line.text)
            got = marked.get(plain)
            if not got:
                continue
            i = text.find(plain, at)
            if i < 0:
                continue
            text = text[:i] + got + text[i + len(plain):]
            at = i + len(got)
        text = _with_code_phrases(text, getattr(self, "_code_phrases", ()))
        # a code run the width cut in two, joined again without a space
        return regex.sub(r"(?<!`)``(?!`)", "", text)

    def _complete_prompt(self, text: str) -> str:
        """Typed while Ink is still busy redrawing a large screen (right after a
        resize), the prompt can reach the history cut short: the band shows the
        text as it stood a few keys before Enter, while the input band drew it
        whole just before it was emptied. A history prompt that no submission
        equals but exactly one submission extends takes its rest from there."""
        have = " ".join(text.split())
        subs = {" ".join(t.split()) for _, t in getattr(self, "_inputs", [])}
        if not have or have in subs:
            return text
        longer = [s for s in subs if s.startswith(have) and len(s) > len(have)]
        if len(longer) == 1:
            return text.rstrip() + longer[0][len(have):]
        return text

    # -- turns ------------------------------------------------------------
    def label(self, lines: list[TLine]) -> list[Labeled]:
        lines = _band_widths(lines)
        # the width of the prompt band drawn last before each row: the width an
        # answer was laid out at, whatever width the terminal had when it was read
        self._band_w: dict[int, int] = {}
        w = 0
        for k, ln in enumerate(lines):
            if BAND_TOP.match(ln.text) and not ln.wrapped and not (k and lines[k - 1].wrapped):
                w = wcswidth(ln.text.rstrip())
            elif w:
                self._band_w[id(ln)] = w
        # the width each prompt's band was drawn at, a band the terminal later narrowed
        # (wrapped on to rows of its own) counted whole: what the prompt's echo was wrapped to
        self._echo_w: dict[int, int] = {}
        w = 0
        for k, ln in enumerate(lines):
            if BAND_TOP.match(ln.text) and not (k and lines[k - 1].wrapped):
                w, j = wcswidth(ln.text.rstrip()), k
                while lines[j].wrapped and j + 1 < len(lines) and BAND_TOP.match(lines[j + 1].text):
                    j += 1
                    w += wcswidth(lines[j].text.rstrip())
            elif w:
                self._echo_w[id(ln)] = w
        labeled = super().label(lines)
        _label_footer_values(labeled)
        _label_shell_echoes(labeled)
        _label_boxes(labeled)
        _drop_running_box_copies(labeled)
        _label_bare_tools(labeled)
        _label_answered_slashes(labeled)
        _label_prompt_edge_pieces(labeled)
        _open_unmarked_answers(labeled)
        _strip_gutters(labeled)
        _drop_stale_live_copies(labeled)
        return labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        if kind == "tool_call":
            if members[0].rule == "bare-tool":
                b = BARE_TOOL.match(members[0].line.text)
                if b:
                    return Turn("tool_call", (b.group("arg") or "").strip(), name=b.group("name"))
            # a box's header row, whole again if the terminal reflowed it
            m = TOOL_HEAD.match(members[0].body if members[0].rule == "tool-box" else members[0].line.text)
            if m:
                return Turn("tool_call", m.group("arg").strip(), name=m.group("name"))
        if kind == "tool_result":
            # the notice a box taller than its room draws over the rows it left out: the CLI's
            # words, not the command's output
            return Turn("tool_result", _without_wide_fillers(HIDDEN_ROWS.sub("", text).strip("\n")))
        if kind == "thinking":
            # the text under its bar, without the bar and its empty rows
            rows = [regex.sub(r"^\s*│\s?", "", r).rstrip() for r in text.splitlines()]
            return Turn(kind, "\n".join(r for r in rows if r))
        if kind in ("user", "assistant"):
            text = _rejoin_wrapped(text, members)
        if kind == "user":
            # with ui.useAlternateBuffer the prompt's echo breaks a long token after a
            # `-` (`…/frames/brood-` then `pattern-photographs…`), not at the width; a
            # row of base64 ending in its `=` padding short of the width ended its token
            text = join_broken_tokens(text, _NEVER_CUT, after=frozenset("-"))
            band = getattr(self, "_echo_w", {}).get(id(members[0].line)) if members else None
            return Turn(kind, self._complete_prompt(_unwrap_prompt(text, band) if band else text))
        if kind == "assistant":
            text = self._with_code_marks(_drop_rewrapped_repeats(text), members)
            text = regex.sub(r"(?<!`)``(?!`)", "", _join_wide_wraps(text))
            # a table narrowed to the width: its cells wrapped at words, one row each again
            width = max((m.line.width for m in members), default=0)
            band = getattr(self, "_band_w", {}).get(id(members[0].line)) if members else None
            # (or at a narrower width it was laid out at while the window was resized)
            laid = tuple(sorted({m.line.width for m in members if 0 < m.line.width < width}))
            text = unfold_word_wrapped_rows(text, min(width, band) if band else width, also=laid)
            # a bold run the width cut between two ideographs, joined again
            return Turn(kind, regex.sub(r"(?<!\*)\*\*\*\*(?!\*)", "", text))
        return Turn(kind, text)


#: rows in colour kept while the accent colour is not known yet
_EARLY_ROWS = 2000
#: context kept on each side of a code run (characters, cut at a word boundary)
_PHRASE_CONTEXT = 24
#: a phrase shorter than this (context and code) is too common to mark by
_PHRASE_MIN = 16


#: columns of the prompt band's echo that hold no text: ` > ` before it, one after
_ECHO_FRAME = 4


def _unwrap_prompt(text: str, band: int) -> str:
    """The prompt's echo is wrapped at its words to the band's width (less
    _ECHO_FRAME): `unwrap_words` joins the wraps and keeps the breaks the
    user typed (Shift+Enter, a pasted newline)."""
    rows = text.split("\n")
    room = band - _ECHO_FRAME
    if len(rows) < 2 or room < 8:
        return text
    # a line wider than the room ends in a token cut at the width and joined
    # again: its last drawn row is the token's last piece
    drawn = [(w % room or room) if w > room else w for w in (wcswidth(r.rstrip()) for r in rows)]
    return unwrap_words(rows, drawn, [room] * len(rows))


def _without_wide_fillers(text: str) -> str:
    """A shell's output is drawn from the CLI's own terminal emulator, which
    writes a wide character's second cell out as a space: `表 格  pelfo` on
    screen for `表格 pelfo`. When every wide character of the output has a
    space after it (or ends its row), that space is the filler and goes;
    output with a wide character followed by text is drawn as typed and
    stays as it is."""
    wide = [m for m in regex.finditer(r"\S", text) if wcwidth(m.group()) == 2]
    if not wide or any(m.end() < len(text) and text[m.end()] not in " \n" for m in wide):
        return text
    out, at = [], 0
    for m in wide:
        if m.end() < len(text) and text[m.end()] == " ":
            out.append(text[at:m.end()])
            at = m.end() + 1
    out.append(text[at:])
    return "".join(out)


def _code_phrases(marked: str) -> list[tuple[str, str, str]]:
    """Each code run of a marked row with the row's text around it (up to
    _PHRASE_CONTEXT characters a side, whole words, backticks kept)."""
    out = []
    for m in regex.finditer(r"`([^`]+)`", marked):
        left, right = marked[:m.start()], marked[m.end():]
        if len(left) > _PHRASE_CONTEXT:
            left = left[-_PHRASE_CONTEXT:]
            left = left[left.find(" ") + 1:] if " " in left else ""
        if len(right) > _PHRASE_CONTEXT:
            right = right[:_PHRASE_CONTEXT]
            right = right[:right.rfind(" ")] if " " in right else ""
        left, right = left.lstrip("✦ ").lstrip(), right.rstrip()
        if (left.strip() or right.strip()) and len(left + m.group(1) + right) >= _PHRASE_MIN:
            out.append((left, m.group(1), right))
    return out


def _loose(text: str) -> str:
    """A pattern for `text` whatever its line breaks, with or without the
    backticks already given back around its own code runs."""
    out = []
    for part in regex.split(r"(\s+)", text.replace("`", "")):
        if not part:
            continue
        out.append(r"\s+" if part.isspace() else "".join("`?" + regex.escape(c) for c in part) + "`?")
    return "".join(out)


def _with_code_phrases(text: str, phrases: "Iterable[tuple[str, str, str]]") -> str:
    """Code runs given back where the answer's rows are not the rows that were
    drawn with styles (a reprint at another width, rows that scrolled away
    in one burst): a run is marked where its drawn context surrounds it."""
    for left, code, right in sorted(phrases, key=lambda p: -len(p[0] + p[1] + p[2])):
        head = code.split()[0] if code.split() else code
        if head not in text:
            continue
        body = r"\s+".join(regex.escape(w) for w in code.split())
        # an empty side is the row's edge: the run is a whole word of the text there
        pat = regex.compile(_loose(left) + (r"(?<!`)" if left.strip() else r"(?<![^\s`])") + "(" + body + ")"
                            + (r"(?!`)" if right.strip() else r"(?![^\s`])") + _loose(right))
        text = pat.sub(lambda m: m.group(0)[:m.start(1) - m.start()] + "`" + m.group(1) + "`"
                       + m.group(0)[m.end(1) - m.start():], text)
    return text


def _answer_key(row: str) -> str:
    """A row's text as an answer holds it: no indent, no `✦ ` marker."""
    t = row.strip()
    return t[2:].lstrip() if t.startswith("✦ ") else t


# rows that are never an answer's prose: a box (tool output, a table's
# border), a spinner
_NOT_PROSE = regex.compile(r"^\s*[│╭╰┌├└┃⠀-⣿]")


def _span_fg(spans: list[tuple], x: int) -> str:
    return next((fg for lo, hi, fg, _bg, _f in spans if lo <= x < hi), "default")


def _gutter_col(row: str, spans: list[tuple]) -> int | None:
    """The column a code block's text starts at when `row` is one of its
    numbered rows: the line number is drawn in another colour than the code
    after it (a list's `1.` is body text, in the text's colour)."""
    cells = _cols(row)
    n = len(cells)
    lead = next((x for x in range(n) if cells[x].strip()), n)
    if lead >= n or not cells[lead].isdigit():
        return None
    after = next((x for x in range(lead, n) if not cells[x].isdigit()), n)
    if after < n and cells[after] != " ":
        return None
    rest = next((x for x in range(after, n) if cells[x].strip()), n)
    if rest < n and _span_fg(spans, rest) == _span_fg(spans, lead):
        return None
    return after + 1


def _in_code_block(rows: list[str], styles: "Sequence[list[tuple]]", y: int) -> bool:
    """Whether row `y` is a code block's: a numbered row, or a row the width
    wrapped under one (no number, indented to the code's column or more,
    right under it)."""
    if _gutter_col(rows[y], styles[y]) is not None:
        return True
    indent = len(rows[y]) - len(rows[y].lstrip())
    for up in range(y - 1, -1, -1):
        above = rows[up]
        if not above.strip():
            return False
        col = _gutter_col(above, styles[up])
        if col is not None:
            return indent >= col
        if len(above) - len(above.lstrip()) < indent:
            return False
    return False


def _marked_code_row(row: str, spans: list[tuple], accent: str) -> str | None:
    """The row with each run in the accent colour (on the default background,
    not the `✦` marker) between backticks; None for a row that is no answer
    prose: a box row, a spinner, a tool's row (its result is drawn in the
    accent colour)."""
    if _NOT_PROSE.match(row) or BARE_TOOL.match(row):
        return None
    cells = _cols(row)
    n = len(cells)
    lead = next((x for x in range(n) if cells[x].strip()), n)
    marks: dict[int, str] = {}
    for lo, hi, fg, bg, _flags in spans:
        if fg != accent or bg != "default":
            continue
        lo, hi = max(lo, 0), min(hi, n)
        if lo <= lead and "".join(cells[lead:lead + 2]) == "✦ ":
            lo = lead + 2
        while lo < hi and not cells[lo].strip():
            lo += 1
        while hi > lo and not cells[hi - 1].strip():
            hi -= 1
        if lo >= hi:
            continue
        marks[lo] = marks.get(lo, "") + "`"
        marks[hi] = "`" + marks.get(hi, "")
    if not marks:
        return None
    return "".join(marks.get(x, "") + c for x, c in enumerate(cells)) + marks.get(n, "")


class _Cell:
    """A drawn column for marked_ideograph_bold: its text and whether it is bold."""
    __slots__ = ("data", "bold")

    def __init__(self, data: str, bold: bool) -> None:
        self.data, self.bold = data, bold


def _marked_bold_row(row: str, spans: list[tuple]) -> str | None:
    """The row with `**` around each bold run set against ideographs with no
    space (`台湾なら**東方美人**と`): Gemini draws markdown bold as bold cells,
    and between ideographs those markers are the only word boundary. None
    when there is no such run, or for a row that is no answer prose."""
    if not IDEOGRAPH.search(row) or _NOT_PROSE.match(row) or BARE_TOOL.match(row):
        return None
    cols = _cols(row)
    bold = [False] * len(cols)
    for lo, hi, _fg, _bg, flags in spans:
        if flags & FLAG_BOLD:
            for x in range(max(lo, 0), min(hi, len(cols))):
                bold[x] = True
    marked = marked_ideograph_bold(row, tuple(_Cell(c, b) for c, b in zip(cols, bold)))
    return marked if marked != row else None


def _with_bold_runs(marked: str, bold: str | None) -> str:
    """A row marked for its code runs, with the `**` runs its bold-marked
    copy (_marked_bold_row) has, each where its text occurs once."""
    for run in regex.findall(r"\*\*(.+?)\*\*", bold or ""):
        if f"**{run}**" not in marked and marked.count(run) == 1:
            marked = marked.replace(run, f"**{run}**")
    return marked


def _cols(text: str) -> list[str]:
    """The row as terminal cells: a wide character, then '' for its second cell."""
    out: list[str] = []
    for ch in text:
        out.append(ch)
        if wcwidth(ch) == 2:
            out.append("")
    return out


def _rejoin_wrapped(text: str, members: list[Labeled]) -> str:
    """Inline, history rows drawn at one width are reflowed by the terminal
    when it narrows or widens (autowrap carries a row on to the next): such a
    row and the one it runs into are one line again, and a word the wrap cut
    in two is one word. Text without a wrapped row is left as built."""
    cuts = _token_cuts(members)
    if not cuts and not any(m.line.wrapped for m in members[:-1]):
        return text
    rows: list[str] = []
    carry = False  # the previous row wrapped into this one
    cut = False  # ... in the middle of a word
    short_wide = False  # ... from a wide character one cell short of the width
    grid_row, carry_w = False, 0  # the row being carried on is a grid's; its width
    for k, m in enumerate(members):
        # a row's text, as the terminal reflowed it; a code row's body (its
        # line number cut off by _strip_gutters) when that is what it holds
        body = m.body if m is members[0] or m.rule == "code-gutter" else m.line.text
        if carry and rows and grid_row:
            # a grid's row: the cells as drawn, the row padded to the width it wrapped at
            # (but for the cell a wide character that did not fit left empty)
            pad = 0 if short_wide and wcwidth(body[:1]) == 2 else max(0, carry_w - wcswidth(rows[-1]))
            rows[-1] = rows[-1] + " " * pad + body
        elif carry and rows:
            # (a row ending in a wide character one cell short of the width, carried on to a
            # narrow character: the cell left was a space, stripped with the row's end; only a
            # wide character that did not fit leaves that cell empty)
            glued = cut and body[:1].strip() and not (short_wide and wcwidth(body[:1]) == 1)
            rows[-1] = rows[-1].rstrip() + ("" if glued else " ") + body.lstrip()
        elif k in cuts and rows:
            rows[-1] = rows[-1].rstrip() + body.lstrip()  # the rest of a token Gemini cut at the width
        else:
            rows.append(body)
        ln = m.line
        if not carry:
            grid_row = ln.text.lstrip()[:1] in ("┌", "│", "├", "└") and m.kind == "cont"
        carry = ln.wrapped and m.kind in ("user", "assistant", "cont")
        carry_w = ln.width
        # (a row ending in a wide character one cell short of the width is
        # full too: the next wide character did not fit)
        cut = bool(ln.text) and not ln.text[-1].isspace() and (
            not ln.width or wcswidth(ln.text) >= ln.width - (wcwidth(ln.text[-1]) == 2))
        short_wide = cut and bool(ln.width) and wcswidth(ln.text) == ln.width - 1
    while len(rows) > 1 and not rows[-1].strip():
        rows.pop()
    head, rest = rows[0].rstrip(), textwrap.dedent("\n".join(r.rstrip() for r in rows[1:]))
    return head + ("\n" + rest if len(rows) > 1 else "")


def _token_cuts(members: list[Labeled]) -> set[int]:
    """Where Gemini cut a token longer than the row (a URL, a hash, base64):
    Ink breaks such a run wherever the row is full, with no space at the
    break, and the run starts a row of its own. So a row that holds one
    run and nothing else (past its indent and marker), filled to the width
    it was drawn at, goes on in the next row when that row starts at the
    same column with no space: the index of that next member is returned
    (a row of one word that short of the edge is a token that long: prose
    breaks between words).
    A row reflowed by the terminal (narrowed after it was drawn) is read
    whole, its width the widest such row of the block."""
    groups: list[list[int]] = []
    for k, m in enumerate(members):
        prev = members[k - 1] if k else None
        if prev is not None and prev.line.wrapped and prev.kind in ("user", "assistant", "cont") and groups:
            groups[-1].append(k)
        else:
            groups.append([k])
    if len(groups) < 2:
        return set()

    def body(g: list[int]) -> str:
        head = members[g[0]]
        first = head.body if (g[0] == 0 and head.body is not None) else head.line.text
        return first + "".join(members[k].line.text for k in g[1:])

    def col(g: list[int]) -> int:
        head = members[g[0]]
        if g[0] == 0 and head.body is not None:
            t = head.line.text
            return max(len(t) - len(head.body.lstrip()), 0) if t.endswith(head.body) else 0
        return len(head.line.text) - len(head.line.text.lstrip())

    widths = [wcswidth("".join(members[k].line.text for k in g)) for g in groups]
    top = max(widths)
    out: set[int] = set()
    for a, (g, nxt) in enumerate(zip(groups, groups[1:])):
        run = body(g).strip()
        head = members[nxt[0]]
        if not run or any(c.isspace() for c in run) or head.kind != "cont" or head.rule == "code-gutter" \
                or members[g[0]].rule == "code-gutter":
            continue
        last = members[g[-1]].line
        # the prompt band keeps its last column free; a wide character that did not fit leaves one more
        slack = _RIGHT_MARGIN + (1 if _wide_end(run) else 0)
        full = (last.width and widths[a] >= last.width - slack) if len(g) == 1 else \
            (widths[a] >= top - slack and widths[a] > (last.width or 0))
        t = head.line.text
        if full and len(t) - len(t.lstrip()) == col(g) and \
                broken_token(run, t.lstrip(), None, wcswidth(run), full=False):
            out.add(nxt[0])
    return out


def _NEVER_CUT(row: str) -> bool:
    """join_broken_tokens' question whether a row was drawn to the edge:
    _token_cuts has joined those already."""
    return False


def _wide_end(text: str) -> bool:
    return bool(text) and wcwidth(text[-1]) == 2


def _join_wide_wraps(text: str) -> str:
    """Rows Gemini wrapped inside a run of wide characters, joined again.

    Chinese and Japanese have no spaces, so a paragraph breaks wherever the
    row is full, inside a word. A row that ends and the next that starts
    with a wide character, the first as wide as the answer's widest row
    (less the wide cell it could not fit), is one line cut by the width.
    Widths are the drawn ones: without the backticks put back around inline
    code (_with_code_marks), which the screen never showed."""
    rows = text.split("\n")
    if len(rows) < 2 or not any(wcwidth(c) == 2 for c in text):
        return text

    def drawn(row: str) -> int:
        return wcswidth(row.rstrip().replace("`", ""))

    top = max(drawn(r) for r in rows)
    out = [rows[0]]
    for prev, nxt in zip(rows, rows[1:]):
        prev, head = prev.rstrip(), nxt.lstrip()
        if prev and head and drawn(prev) >= top - 2 and _run_outgrows(prev, head, top) and (
                (wcwidth(prev[-1]) == 2 and wcwidth(head[0]) == 2) or _cut_in_wide_run(prev, nxt)):
            out[-1] = out[-1].rstrip() + head
        else:
            out.append(nxt)
    return "\n".join(out)


def _run_outgrows(prev: str, head: str, top: int) -> bool:
    """Ink cuts a spaceless run only when it is wider than a row: a shorter
    one that did not fit moves whole to the next row, its space before it
    turned into the break (`… telzan 测试` + `中文 中文.` is `测试 中文`). The
    run across the break must outgrow the widest row (less the cells a cut
    row may leave free) for the break to be a cut."""
    run = prev.split()[-1] + head.split()[0]
    return wcswidth(run.replace("`", "")) > top - 2


def _cut_in_wide_run(prev: str, nxt: str) -> bool:
    """A full row cut inside a spaceless run holding wide characters
    (`写进calib-1.lo` + `g文件`): the next row goes on under the list
    item's text (indented past the row's own start), neither side of the
    cut is a space, and the run across the cut has a wide character (text
    without spaces, which Ink breaks at the width, not at a word)."""
    head = nxt.lstrip()
    if prev[-1].isspace() or not head or len(nxt) - len(head) <= len(prev) - len(prev.lstrip()):
        return False
    run = prev.split()[-1] + head.split()[0]
    return any(wcwidth(c) == 2 for c in run)


def _drop_rewrapped_repeats(text: str) -> str:
    """Inline, a resize mid-answer makes Ink print the live paragraph again at
    the new width after the copy that already reached the scrollback: a
    paragraph equal to the one before it but for its line breaks goes. The
    copy in the scrollback may be the paragraph as far as it had streamed
    (cut anywhere, even inside a word): a paragraph of a few words that the
    next one opens with, character for character, is that cut copy and goes
    too."""
    out: list[str] = []
    for para in regex.split(r"\n\s*\n", text):
        now = " ".join(para.split())
        if out and now:
            before = " ".join(out[-1].split())
            if now == before:
                continue
            if len(before.split()) >= _CUT_COPY_WORDS and len(now) > len(before) and now.startswith(before):
                out[-1] = para
                continue
        out.append(para)
    return "\n\n".join(out)


#: words a paragraph needs before it may be taken for a cut copy of the next
_CUT_COPY_WORDS = 4


def _input_text(rows: list[str]) -> str | None:
    """The text in the input band at the bottom of a frame (`* text` in YOLO
    mode, `> text` otherwise, continuation rows indented three), or None when
    the band is not drawn or shows its placeholder."""
    top = next((y for y in range(len(rows) - 1, -1, -1) if BAND_TOP.match(rows[y])), None)
    if top is None or top + 1 >= len(rows):
        return None
    m = INPUT_ROW.match(rows[top + 1])
    if not m or "Type your message" in rows[top + 1]:
        return None
    out = [m.group("body").rstrip()]
    end = top + 2
    while end < len(rows) and not BAND_BOTTOM.match(rows[end]) and rows[end].startswith("   "):
        out.append(rows[end][3:].rstrip())
        end += 1
    # the input band has the footer under it; a prompt band in the history does not
    if not any(FOOTER.search(r) for r in rows[end + 1:end + 4]):
        return None
    return "\n".join(out).strip()


def _fold_reprints(lines: list[TLine], compare: int = 6) -> list[TLine]:
    """`fold_reprints` at the logo, comparing drawn rows whole: a history row
    the terminal wrapped when the window narrowed (a tip cut into
    `…interacti` + `ons`) opens the older copy, the reprint at another width
    draws it on one row; they are the same copy all the same."""
    starts = [i for i, ln in enumerate(lines) if LOGO.search(ln.text)]
    if len(starts) < 2:
        return lines
    bounds = starts + [len(lines)]

    def heads(seg: list[TLine], n: int) -> list[str]:
        rows: list[str] = []
        carry = False
        for ln in seg:
            if carry and rows:
                rows[-1] += ln.text
            elif ln.text.strip():
                rows.append(ln.text)
            carry = ln.wrapped and bool(ln.text.strip())
            if len(rows) > n:
                break
        return ["".join(r.split()) for r in rows[:n]]

    keep: list[TLine] = list(lines[:starts[0]])
    for k in range(len(starts)):
        seg = lines[bounds[k]:bounds[k + 1]]
        if k + 1 < len(starts):
            a = heads(seg, compare)
            later = [lines[bounds[j]:bounds[j + 1]] for j in range(k + 1, len(starts))]
            # a later stretch reprints this one (a reprint cut short by the
            # next one is skipped over: the one after it holds the rest)
            if len(a) >= 2 and any(a == heads(nxt, len(a)) and _holds_prompts(seg, nxt) for nxt in later):
                continue
        elif k and _reprint_cut_short(seg, [lines[bounds[j]:bounds[j + 1]] for j in range(k)], heads, compare):
            continue
        keep.extend(seg)
    return keep


def _reprint_cut_short(last: list[TLine], earlier: list[list[TLine]], heads, compare: int) -> bool:
    """The last stretch under the logo reprints an earlier one only in part:
    Gemini can clear the screen and its history after its exit summary and
    reprint the whole conversation (seen after resizes), and the reprint
    stops where the process ended (the `/help` box of the
    third prompt, a shell's prompt after it). Its prompts (one or more) are
    the first prompts of an earlier stretch with the same head rows, in
    order and fewer: the earlier stretch holds the conversation, the last
    one goes. After `/clear` the stretch under the logo holds new prompts."""
    mine = [x for x in _prompt_heads(last) if not SLASH_ROW.match(x)]
    if not mine:
        return False
    a = heads(last, compare)
    for seg in earlier:
        theirs = [x for x in _prompt_heads(seg) if not SLASH_ROW.match(x)]
        if len(a) >= 2 and a == heads(seg, len(a)) and len(mine) < len(theirs) and all(
                x.startswith(y) or y.startswith(x) for x, y in zip(mine, theirs)):
            return True
    return False


def _holds_prompts(old: list[TLine], new: list[TLine]) -> bool:
    """Whether `new` draws all of `old`'s prompts again, in order (each compared where
    both copies are drawn: the rows wrap at each copy's own width).

    A reprint after a resize redraws the conversation under the logo; after
    `/clear` the logo and tips are drawn again over an empty conversation,
    so the same header alone does not make the older stretch a copy."""
    rest = iter(_prompt_heads(new))
    # in order, not one for one: a stitched copy may have lost a prompt the reprint has;
    # a slash command need not be there (the reprint Gemini prints on exit has no `/quit`)
    return all(any(x.startswith(y) or y.startswith(x) for y in rest) for x in _prompt_heads(old)
               if not SLASH_ROW.match(x))


def _prompt_heads(lines: list[TLine]) -> list[str]:
    return [" ".join(ln.text.split()) for ln in lines if PROMPT_ROW.match(ln.text)]


def _fold_alt_reprint(lines: list[TLine]) -> list[TLine]:
    """Leaving the alternate screen, Gemini prints the whole conversation again
    on the main screen, whole and in order: when what follows the stitched
    alternate-screen copy opens with the same prompts, the stitched copy goes
    (the logo that `fold_reprints` anchors on is not drawn on narrow screens)."""
    alt_idx = [i for i, ln in enumerate(lines) if ln.source == "alt"]
    if not alt_idx:
        return lines
    last = alt_idx[-1]
    alt = [lines[i] for i in alt_idx]
    a, b = _prompt_heads(alt), _prompt_heads(lines[last + 1:])
    if not a or len(b) < len(a):
        return lines
    # rows wrap at each copy's own width: compare where both are drawn
    if all(x.startswith(y) or y.startswith(x) for x, y in zip(a, b)):
        return [ln for ln in lines if ln.source != "alt"]
    return lines


#: rows a prompt band holds at most between its edges
_BAND_ROWS = 40


def _band_widths(lines: list[TLine]) -> list[TLine]:
    """The rows of a prompt band with the width they were drawn at.

    A band's edges (`▄▄▄`, `▀▀▀`) span the terminal's width as it was when
    the band was drawn. Widened later, the terminal keeps the history's rows
    as they were but reports them at the new width, and a row that a long
    token filled to the band's edge no longer reads as cut (_token_cuts).
    The rows between two edges of one width, narrower than the width they
    are read at and not wrapped by the terminal, take the edges' width."""
    out = list(lines)
    k = 0
    while k < len(out):
        ln = out[k]
        if not BAND_TOP.match(ln.text) or ln.wrapped or (k and out[k - 1].wrapped):
            k += 1
            continue
        w = wcswidth(ln.text.rstrip())
        end = next((j for j in range(k + 1, min(len(out), k + 2 + _BAND_ROWS)) if BAND_BOTTOM.match(out[j].text)), None)
        if end is None or wcswidth(out[end].text.rstrip()) != w or out[end].wrapped:
            k += 1
            continue
        for j in range(k, end + 1):
            r = out[j]
            if r.width > w and not r.wrapped and not (j > k and out[j - 1].wrapped):
                out[j] = dataclasses.replace(r, width=w)
        k = end + 1
    return out


def _logical_rows(labeled: list[Labeled]) -> list[list[int]]:
    """Indices of the rows that make one drawn row: a row the terminal
    wrapped on to the next (a history row reflowed when the window
    narrowed) and the pieces it carried on to."""
    groups: list[list[int]] = []
    for i, lb in enumerate(labeled):
        if groups and labeled[groups[-1][-1]].line.wrapped:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


#: columns the prompt band leaves free at its right end
_RIGHT_MARGIN = 1
#: the column an answer's text starts at (after `✦ `)
_ANSWER_COL = 2
#: what the model draws in answer to a prompt: its `✦` text, its thinking, a tool call
_MODEL_KINDS = ("assistant", "thinking", "tool_call")


def _label_answered_slashes(labeled: list[Labeled]) -> None:
    """A prompt band opening with `/` is a slash command, unless the CLI
    knows no such command: then it sends the text to the model as typed
    (`/sailplan for a 9 m sloop…`), and the model's answer (a `✦` row, its
    thinking, a tool call) is the first thing drawn under the band. Such a
    band is a prompt. A command's own output (a box, an `ℹ` notice, a
    cleared screen, the next prompt) never opens with the model's marks.
    A `/word` alone stays a command even when the model answers it: a
    command name mistyped (or completed twice, `/clearlear`), which the
    CLI forwards as it does any text it cannot run. The words counted are
    the band's, all its rows: `/telgolsar` with a line under it (a second
    row typed after Shift+Enter, or after an Enter the completion menu
    took) went out whole."""
    n = len(labeled)
    for i, lb in enumerate(labeled):
        if lb.rule != "slash-command":
            continue
        j = i + 1
        words = 0
        while j < n and not BAND_BOTTOM.match(labeled[j].line.text) and labeled[j].kind in ("cont", "blank"):
            words += len(labeled[j].line.text.split())
            j += 1  # the band's own rows (a long prompt wraps)
        if j >= n or not BAND_BOTTOM.match(labeled[j].line.text):
            continue
        j += 1
        while j < n and labeled[j].kind in ("blank", "chrome"):
            j += 1
        m = INPUT_ROW.match(lb.line.text)
        if m and len(m.group("body").split()) + words > 1 and j < n and labeled[j].kind in _MODEL_KINDS:
            lb.kind, lb.rule, lb.body = "user", "prompt", m.group("body")


#: a row holding nothing but a box's vertical edges
_EDGES_ONLY = regex.compile(r"^[\s│]*│[\s│]*$")


def _label_prompt_edge_pieces(labeled: list[Labeled]) -> None:
    """A narrowing reflows the history: a tool box drawn at the old width
    has each row wrapped, its right edge `│` on a row of its own. When Ink's
    erase after the resize overwrites the box's rows but for such pieces,
    they are left right under the prompt's rows (the band's bottom edge
    gone with the rest) and read as the prompt's last rows. A row of the
    prompt's run with nothing but box edges on it is chrome: a prompt row
    always has the text typed on it."""
    in_prompt = False
    for lb in labeled:
        if lb.kind == "user":
            in_prompt = True
        elif lb.kind == "cont" and in_prompt:
            if _EDGES_ONLY.match(lb.line.text):
                lb.kind, lb.rule, lb.body = "chrome", "box-piece", ""
        elif lb.kind != "blank":
            in_prompt = False


#: the footer's head row: the names of the values on the row under it
_FOOTER_HEAD = regex.compile(r"^\s?workspace \(/directory\)\s{2,}\S|\s/model\s*$")
#: the footer's values row opens with the workspace's path at the second column
_FOOTER_VALUES = regex.compile(r"^ [/~]\S*\s{2,}\S")


def _label_footer_values(labeled: list[Labeled]) -> None:
    """The footer is two rows: the names (`workspace (/directory)`,
    `sandbox`, `/model`) and under them the values (the path, `no sandbox`,
    `Auto`). A values row a resize cut short (`…/demo-app   no sa`) no
    longer reads as the footer by its words: the row under the names row is
    the footer's all the same (so is a names row cut to its end, `ox   /model`)."""
    for k, lb in enumerate(labeled[:-1]):
        nxt = labeled[k + 1]
        if (lb.kind == "chrome" and _FOOTER_HEAD.search(lb.line.text) and not lb.line.wrapped
                and nxt.kind == "cont" and _FOOTER_VALUES.match(nxt.line.text)):
            nxt.kind, nxt.rule, nxt.body = "chrome", "footer", ""


def _label_shell_echoes(labeled: list[Labeled]) -> None:
    """A command run in shell mode (`!` on an empty prompt) is echoed in the
    prompt band as a prompt is, with `$` where a prompt has `>`: ` $ ls -1`
    as the band's first row is what the user typed (Gemini's own log holds
    it as a user message, without the `!`); the command's box follows."""
    prev: Labeled | None = None
    for lb in labeled:
        if lb.kind == "blank":
            continue
        m = SHELL_ECHO.match(lb.line.text)
        if m and prev is not None and BAND_TOP.match(prev.line.text):
            lb.kind, lb.rule, lb.body = "user", "shell-echo", m.group("body")
        prev = lb


def _label_boxes(labeled: list[Labeled]) -> None:
    """A rounded box whose first row is a tool header is a call and its output;
    any other box (the exit summary, dialogs) is chrome. A box drawn at a
    width the window later narrowed from has each row reflowed over several:
    its rows are read whole again (the pieces go with their row's head)."""
    groups = _logical_rows(labeled)
    text = ["".join(labeled[k].line.text for k in g) for g in groups]

    def mark(g: list[int], kind: str, rule: str, body: str | None = None) -> None:
        head = labeled[g[0]]
        head.kind, head.rule = kind, rule
        if body is not None:
            head.body = body
        for k in g[1:]:  # the rest of a reflowed row: no text of its own
            labeled[k].kind, labeled[k].rule, labeled[k].body = "chrome", "box-piece", ""

    # the kind of the block each group's row falls in (the last marker row above it)
    open_kind: list[str | None] = []
    kind = None
    for g in groups:
        open_kind.append(kind)
        if labeled[g[0]].kind in MARKERS:
            kind = labeled[g[0]].kind

    i, n = 0, len(groups)
    while i < n:
        if BOX_TOP.match(text[i]):
            j = i + 1
            # rows a redraw after a resize left blank between the top edge and the box's rows
            while j < n and not text[j].strip() and j + 1 < n and (not text[j + 1].strip()
                                                                    or text[j + 1].lstrip().startswith("│")):
                j += 1
            while j < n and not BOX_BOTTOM.match(text[j]) and text[j].lstrip().startswith("│"):
                j += 1
            if open_kind[i] == "assistant" and len(text[i]) - len(text[i].lstrip()) >= _ANSWER_COL:
                # drawn at the answer's text column inside an answer (tool boxes and the
                # CLI's own boxes start in the first column): a diagram the model wrote
                for k in range(i, min(j + 1, n) if j < n and BOX_BOTTOM.match(text[j]) else j):
                    mark(groups[k], "cont", "answer-box", text[k].rstrip())
                i = j + 1 if j < n and BOX_BOTTOM.match(text[j]) else j
                continue
            rows = list(range(i + 1, j))
            head = next((k for k in rows if text[k].strip("│ ")), None)
            if len(groups[i]) > 1:
                mark(groups[i], "chrome", "box-border")
            if j < n and len(groups[j]) > 1 and BOX_BOTTOM.match(text[j]):
                mark(groups[j], "chrome", "box-border")
            m = TOOL_HEAD.match(text[head]) if head is not None else None
            if m:
                mark(groups[head], "tool_call", "tool-box", text[head])
                first_out = True
                for k in rows[rows.index(head) + 1:]:
                    body = text[k].strip()
                    body = body[1:] if body.startswith("│") else body
                    body = body[:-1] if body.endswith("│") else body
                    if not body.strip():
                        mark(groups[k], "blank", "blank", "")
                    elif first_out:
                        mark(groups[k], "tool_result", "tool-output", body.rstrip())
                        first_out = False
                    else:
                        mark(groups[k], "cont", "tool-output", body.rstrip())
            else:
                for k in rows:
                    mark(groups[k], "chrome", "box")
            i = j + 1
            continue
        if labeled[groups[i][0]].rule == "box-row":
            labeled[groups[i][0]].body = labeled[groups[i][0]].line.text  # a table row: the grid is the answer's
        i += 1


#: a box header's status while its tool runs (`⊷`, a braille spinner)
#: a piece of the live area's rule the terminal wrapped when it got narrower (the
#: rule's row is wider than the window: its rest is a row of `─` of its own,
#: a redraw's leftovers after it)
_RULE_PIECE = regex.compile(r"^─{8,}")
_RUNNING = frozenset("⊷") | frozenset(chr(c) for c in range(0x2801, 0x2900))


def _drop_running_box_copies(labeled: list[Labeled]) -> None:
    """A resize while a tool runs: Ink's erase misses rows (_drop_stale_live_copies)
    and the call's box, drawn running (`⊷`), stays in the history, once per
    redraw of the drag, above the box drawn again. A box whose header is
    running, followed past its own rows, blanks and chrome by a box with the
    same header (the command cut where a row ends, `…` or not), is such a copy:
    chrome (a piece of the live area's rule a narrowing wrapped, `─────`, may
    be among the rows between). A call that ran stays drawn `✓`/`x`; two running boxes of one
    command side by side end drawn settled, one box each."""
    heads = [k for k, lb in enumerate(labeled) if lb.kind == "tool_call" and lb.rule == "tool-box"]
    for a, b in zip(heads, heads[1:]):
        ma, mb = TOOL_HEAD.match(labeled[a].body or ""), TOOL_HEAD.match(labeled[b].body or "")
        if not ma or not mb or ma.group("status") not in _RUNNING or ma.group("name") != mb.group("name"):
            continue
        # (a header too long for its row ends cut, with or without `…`)
        x, y = (" ".join(m.group("arg").replace("│", " ").split()).rstrip("…") for m in (ma, mb))
        if not x or not (x.startswith(y) or y.startswith(x)):
            continue
        if any(labeled[k].kind not in ("blank", "chrome", "tool_result", "cont") or
               (labeled[k].kind == "cont" and labeled[k].rule != "tool-output"
                and not _RULE_PIECE.match(labeled[k].line.text)) for k in range(a + 1, b)):
            continue
        for k in range(a, b):  # its blank rows too: a reflowed edge piece is no blank row's text
            labeled[k].kind, labeled[k].rule, labeled[k].body = "chrome", "stale-running-box", ""


def _label_bare_tools(labeled: list[Labeled]) -> None:
    """Tools other than the shell are drawn without a box: a status glyph,
    the tool's name and its argument, two spaces apart
    (`  ✓  ReadFile  README.md`, `  ✓  WriteFile  a.py → Accepted (+5, -0)`);
    rows under it indented to the name's column or further (a written
    file's numbered lines), or opening with `→` (the result of a call whose
    row is too long to hold it), are its output; so is the rest of an output
    row the terminal wrapped (a written file's line is drawn unwrapped, so
    at a narrower width its tail goes on at column 0)."""
    i, n = 0, len(labeled)
    while i < n:
        lb = labeled[i]
        m = BARE_TOOL.match(lb.line.text) if lb.kind not in ("user", "system", "tool_call", "tool_result") else None
        if not m:
            i += 1
            continue
        lb.kind, lb.rule, lb.body = "tool_call", "bare-tool", lb.line.text.strip()
        col = m.start("name")
        j, first = i + 1, True
        while j < n:
            t = labeled[j].line.text
            if not t.strip():
                labeled[j].kind, labeled[j].rule, labeled[j].body = "blank", "blank", ""
            elif (len(t) - len(t.lstrip()) >= col or t.lstrip().startswith("→ ") or labeled[j - 1].line.wrapped) and \
                    labeled[j].kind in ("cont", "assistant"):
                labeled[j].kind = "tool_result" if first else "cont"
                labeled[j].rule, labeled[j].body, first = "tool-output", t.strip(), False
            else:
                break
            j += 1
        i = j


def _open_unmarked_answers(labeled: list[Labeled]) -> None:
    """The band's bottom row closes a prompt, and a tool's box its call:
    unmarked text right after either is an answer whose first block is not
    prose (a code block, a table), which Gemini draws without the `✦`
    marker. A tool drawn without a box is closed by its last output row,
    and an inline thinking block (its rows under the grey bar) by the first
    blank row under it."""
    in_prompt = closed = thinking = False
    fresh = False  # the row right under a band's or a box's bottom, or a tool drawn bare
    prev: Labeled | None = None  # the last row that is not blank
    for lb in labeled:
        was_fresh, fresh = fresh, False
        if lb.kind != "blank":
            prev, before = lb, prev
        else:
            before = prev
        prev_row = before
        if lb.kind == "assistant":
            thinking = False  # the `✦` text after a thinking block: the block ended
        if lb.kind in ("user", "system"):
            in_prompt, closed, thinking = True, False, False
        elif lb.kind == "tool_call":
            in_prompt, closed, thinking = True, lb.rule == "bare-tool", False
            fresh = closed
        elif lb.kind == "thinking":
            in_prompt, closed, thinking = True, False, True
        elif in_prompt and lb.rule == "tool-output":
            fresh = was_fresh
            continue
        elif in_prompt and thinking and not closed and lb.rule == "box-row":
            continue
        elif in_prompt and thinking and not closed and lb.kind == "blank":
            closed, thinking = True, False
        elif in_prompt and thinking and not closed and lb.kind == "cont" and not (
                prev_row is not None and prev_row.line.wrapped):
            # text right under the bar rows, no blank between (a code block, with the
            # alternate buffer): the block ended, an answer that opens without `✦` begins
            lb.kind, lb.rule, lb.body = "assistant", "unmarked-answer", lb.line.text.strip()
            in_prompt = thinking = False
        elif in_prompt and (BAND_BOTTOM.match(lb.line.text) or BOX_BOTTOM.match(lb.line.text)):
            closed, fresh = True, True
            continue
        elif lb.rule == "box-row" and THINKING_BAR.match(lb.line.text) and (
                was_fresh or (not lb.line.text.strip("│ ") and prev_row is not None and prev_row.rule != "box-row"
                              and prev_row.kind != "thinking")):
            # with the alternate buffer the thinking block has no `Thinking...` head: its bar
            # rows (a bar one column in, nothing on the right) right under the band or a tool
            # drawn bare are the block, and so is a run of them opening with a bare bar row
            # under an answer's text (the model thought again before its next call)
            lb.kind, lb.rule = "thinking", "thinking-bar"
            in_prompt, closed, thinking = True, False, True
        elif lb.kind == "blank" or (in_prompt and not closed):
            continue
        elif in_prompt and closed and lb.kind == "cont" and (
                (prev_row is not None and prev_row.line.wrapped and prev_row.rule in _LIVE_CHROME)
                or _hint_head(lb)):
            # the tail of a live-area row a narrowing reflowed (`?` of `? for
            # shortcuts` under a spinner row), not an answer's first row
            lb.kind, lb.rule, lb.body = "chrome", "live-fragment", ""
        elif in_prompt and closed and lb.kind == "cont":
            lb.kind, lb.rule, lb.body = "assistant", "unmarked-answer", lb.line.text.strip()
            in_prompt = False
        elif lb.kind != "chrome":
            in_prompt = False


#: rules of the live area's chrome (under the answer being written)
_LIVE_CHROME = frozenset({"thinking-spinner", "braille-spinner", "interrupt-hint", "footer", "rule", "rule-line",
                          "placeholder", "yolo", "live-fragment"})
#: the footer's hint, whose head a narrowing can leave alone on a row
_SHORTCUTS_HINT = "? for shortcuts"
#: kinds that end an answer (its `✦` rows and their continuation are one stretch)
_ANSWER_ENDS = ("user", "system", "tool_call", "tool_result", "thinking")


def _drop_stale_live_copies(labeled: list[Labeled]) -> None:
    """Inline, Ink erases its live area (the answer being written, the
    spinner, the footer) by going up as many rows as it drew. A narrowing
    window reflows those rows (a full-width rule or footer takes two rows),
    so after a resize mid-answer Ink erases too few and what it drew before
    stays in the scrollback: the answer as far as it had streamed (its last
    row cut anywhere: `- Ga`), with bits of the spinner and footer, one such
    copy per resize of a drag, then the answer drawn again, whole.

    Within an answer that has the live area's chrome in its history, or its
    `✦` row twice (the marks of such a resize), a run of answer rows that the rows right after
    it (past blank and chrome rows) repeat and go on from, compared without
    spaces (the reflow cut rows at other places), is such a copy and goes
    as chrome (after the chrome's pieces on rows of their own are known:
    _label_live_fragments)."""
    n, i = len(labeled), 0
    while i < n:
        if labeled[i].kind != "assistant":
            i += 1
            continue
        end = next((k for k in range(i + 1, n) if labeled[k].kind in _ANSWER_ENDS), n)
        if (any(lb.rule in _LIVE_CHROME for lb in labeled[i:end]) or _marker_repeated(labeled[i:end])
                or _spans_resize(labeled[i:end])):
            _label_live_fragments(labeled[i:end])
            _drop_prefix_copies(labeled[i:end])
            _drop_raw_table_drafts(labeled[i:end])
            _drop_lone_grid_rows(labeled[i:end])
        i = end


def _spans_resize(answer: list[Labeled]) -> bool:
    """The answer's rows were laid out at more than one width: the window
    was resized while it was written. Ink's erase after the resize can miss
    the whole live area and leave only the answer's rows behind (no spinner
    or footer piece, no second `✦`)."""
    return len({lb.line.width for lb in answer if lb.line.width and lb.line.text.strip()}) > 1


def _marker_repeated(answer: list[Labeled]) -> bool:
    """A `✦` row drawn again further down the same answer (no prompt or tool
    between): the live area was left behind whole, its marker row with it."""
    # a table's top border is drawn as wide as its cells were so far (a grid
    # left behind while streaming has narrower columns): its lines left out
    heads = ["".join("".join(ch for ch in lb.line.text if not _box_edge(ch)).split()) for lb in answer
             if lb.kind == "assistant"]
    return any(b.startswith(a) for k, a in enumerate(heads) for b in heads[k + 1:])


def _hint_head(lb: Labeled) -> bool:
    """The head of the footer's right-aligned hint alone on a row (`?`,
    `? for`), wrapped or far from the answer's indent."""
    text = lb.line.text.strip()
    indent = len(lb.line.text) - len(lb.line.text.lstrip())
    return bool(text) and _SHORTCUTS_HINT.startswith(text) and (lb.line.wrapped or indent >= 8)


def _label_live_fragments(answer: list[Labeled]) -> None:
    """In a disturbed answer, the pieces of the live area's chrome that the
    reflow put on rows of their own: the autowrapped tail of a chrome row
    (`shortcuts` under a spinner row ending `? for`), and the head of the
    footer's right-aligned hint alone on a row (`?`, `? for`), wrapped or
    far from the answer's indent."""
    prev: Labeled | None = None
    for lb in answer:
        if lb.kind == "cont" and prev is not None and prev.line.wrapped and prev.rule in _LIVE_CHROME:
            lb.kind, lb.rule, lb.body = "chrome", "live-fragment", ""
        elif lb.kind == "cont" and _hint_head(lb):
            lb.kind, lb.rule, lb.body = "chrome", "live-fragment", ""
        prev = lb


#: the fewest characters (spaces left out) a left-behind copy holds: a lone
#: `>` or `-` row that the next row happens to open with is no copy
_MIN_COPY = 8


_LINK_MARKS = str.maketrans("", "", "[]()")
#: the footer's pieces that a resize left drawn over the end of an answer's
#: row (Ink's erase missed it, the answer was written again over it with no
#: erase to the row's end): a column title after a gap, or a path's tail
_FOOTER_TAIL = regex.compile(r"\s{3,}(?:no sandbox|sandbox|/model|Auto|workspace \(/directory\))\s*$"
                             r"|(?<=\S)[^\s/]*(?:/[^\s/]+){2,}\s*$")


def _drop_prefix_copies(answer: list[Labeled]) -> None:
    """_drop_stale_live_copies for one disturbed answer's rows."""
    at_footer = set()  # rows the footer's rows come right under (blank rows between)
    for k, lb in enumerate(answer):
        if lb.kind in ("assistant", "cont"):
            nxt = next((x for x in answer[k + 1:] if x.kind != "blank"), None)
            if nxt is not None and nxt.rule in _LIVE_CHROME:
                at_footer.add(id(lb))
    rows = [lb for lb in answer if lb.kind in ("assistant", "cont") and lb.line.text.strip()]
    # a link streams as the model wrote it (`[text](https://ex`) and is drawn
    # `text (https://example.org/…)` once whole: brackets and parens left out;
    # a grid's lines too (a table streams with narrower columns than it gets
    # once whole: its cells' words are what is repeated); a row over which the
    # footer's rows were drawn keeps their tail (`- Golbru mo.      sandbox`,
    # `- Ber dyszan wim bruti/h23-…/demo-app`: the workspace path's end)
    keys = ["".join("".join(ch for ch in (_FOOTER_TAIL.sub("", lb.line.text) if id(lb) in at_footer
                                         else lb.line.text).translate(_LINK_MARKS)
                            if not _box_edge(ch)).split()) for lb in rows]

    def layout() -> tuple[str, list[int]]:
        at = [0]
        for k in keys:
            at.append(at[-1] + len(k))
        return "".join(keys), at

    full, at = layout()
    i = 0
    while i < len(rows) - 1:
        # the longest run of rows ending at i that the rows after it open with
        # (whole: the rows after must reach past the run's end)
        cut = at[i + 1]
        start = next((s for s in range(i + 1) if _MIN_COPY <= cut - at[s] <= len(full) - cut
                      and full.startswith(full[at[s]:cut], cut)), None)
        if start is None:
            i += 1
            continue
        while not keys[start]:  # grid lines above the copy are the rows before it's
            start += 1
        while i + 2 < len(rows) and not keys[i + 1]:  # the copy's grid lines under its last cells
            i += 1
        for lb in rows[start:i + 1]:
            lb.kind, lb.rule, lb.body = "chrome", "stale-live-copy", ""
        del rows[start:i + 1], keys[start:i + 1]
        full, at = layout()
        i = start


#: a markdown table row as the model wrote it: `| cell | cell |`
_RAW_TABLE_ROW = regex.compile(r"^\s*\|\s.*\s\|")


def _drop_raw_table_drafts(answer: list[Labeled]) -> None:
    """While a table streams, Ink shows the row being written as the model
    wrote it (`| a b | c d |`, wrapped at the width) and draws the grid
    only when the table is done. A resize leaves that draft behind
    (_drop_stale_live_copies): a run of rows opening with `| ` whose every
    word is in the grid drawn next in the same answer is chrome."""
    k, n = 0, len(answer)
    while k < n:
        lb = answer[k]
        if lb.kind not in ("assistant", "cont") or not _RAW_TABLE_ROW.match(lb.line.text):
            k += 1
            continue
        end = k + 1
        while end < n and answer[end].kind == "cont" and answer[end].line.text.strip() \
                and not answer[end].line.text.lstrip().startswith(("┌", "│")):
            end += 1
        grid = next((g for g in range(end, n) if answer[g].line.text.lstrip().startswith("┌")), None)
        if grid is None or any(answer[g].kind not in ("blank",) for g in range(end, grid)):
            k = end
            continue
        words: dict[str, int] = {}
        for g in range(grid, n):
            t = answer[g].line.text.strip()
            if not t or t[0] not in "┌│├└":
                break
            for w in t.replace("│", " ").split():
                words[w] = words.get(w, 0) + 1
        # a row the terminal wrapped (reflowed at a narrowing) goes on with no space
        draft = "".join(answer[j].line.text + ("" if answer[j].line.wrapped else " ")
                        for j in range(k, end)).replace("|", " ").split()
        for w in draft:
            words[w] = words.get(w, 0) - 1
        # the draft's last word may be cut where the stream stood
        if draft and all(v >= 0 for w, v in words.items() if w != draft[-1]) and \
                (words.get(draft[-1], 0) >= 0 or any(w.startswith(draft[-1]) for w in words)):
            for j in range(k, end):
                answer[j].kind, answer[j].rule, answer[j].body = "chrome", "stale-table-draft", ""
        k = end


#: a whole row of a grid, its top border or a row of cells (the answer's `✦` left out)
_GRID_ROW = regex.compile(r"^(?:┌[─┬]*┐|│.*│)$")

def _box_edge(ch: str) -> bool:
    """A box-drawing character (a grid's, a rounded box's, a heavy one's)."""
    return "\u2500" <= ch <= "\u257f"


def _drop_lone_grid_rows(answer: list[Labeled]) -> None:
    """A resize while Ink draws a table can leave one row of it behind at
    the old width, when its erase misses it (the table's top border just
    drawn, a row of cells): the table is then drawn whole at the new width.
    A whole grid row with no piece of a box on the answer's rows with text
    around it (a table has a border above and under its rows) holds nothing
    of the answer: chrome."""
    rows = [lb for lb in answer if lb.kind in ("assistant", "cont") and lb.line.text.strip()]

    def piece(k: int) -> bool:
        text = rows[k].line.text.strip().lstrip("✦ ") if 0 <= k < len(rows) else ""
        return bool(text) and (_box_edge(text[0]) or _box_edge(text[-1]))

    for k, lb in enumerate(rows):
        text = lb.line.text.strip().lstrip("✦ ")
        if not _GRID_ROW.match(text) or lb.line.wrapped or (k and rows[k - 1].line.wrapped):
            continue
        if text[0] == "┌":  # a top border: its grid's rows go on under it (another top is no row of it)
            nxt = rows[k + 1].line.text.strip().lstrip("✦ ") if k + 1 < len(rows) else ""
            lone = not nxt.startswith(("│", "├", "└"))
        else:
            lone = not piece(k - 1) and not piece(k + 1)
        if lone:
            lb.kind, lb.rule, lb.body = "chrome", "stale-grid-row", ""


def _gutter_follows(labeled: list[Labeled], j: int, want: int) -> bool:
    """The row at j is a code row numbered `want` (a block whose first lines
    are empty draws its `1`, `2`… alone: the first number with code under
    them tells the gutter)."""
    while j < len(labeled) and labeled[j].kind in ("cont", "blank"):
        mj = GUTTER.match(labeled[j].line.text)
        if not mj or int(mj.group("n")) != want:
            return False
        if mj.group("code") is not None:
            return True
        j, want = j + 1, want + 1
    return False


def _block_alone(labeled: list[Labeled], i: int, m: regex.Match, in_body: bool) -> bool:
    """The row at i is a code block of one row, numbered `1`, at the gutter's
    column (one in from the answer's text: ` 1` in the `✦` row's body, `   1`
    under it, where a paragraph's rows are two in), with nothing of the
    answer right under it (a blank row, the next prompt's band): a block of
    one line, or of empty lines only (`1` alone)."""
    indent = len(m.group("indent"))
    if (indent != 1) if in_body else (indent < 3):
        return False
    if not in_body and (i == 0 or labeled[i - 1].kind != "blank"):
        return False
    nxt = labeled[i + 1] if i + 1 < len(labeled) else None
    if m.group("code") is None:
        return nxt is not None and nxt.kind == "blank"
    return nxt is None or nxt.kind not in ("cont", "assistant", "blank")


def _strip_gutters(labeled: list[Labeled]) -> None:
    """Code blocks are drawn with line numbers 1, 2, 3…: keep only the code."""
    i, n = 0, len(labeled)
    while i < n:
        # an answer that opens with a code block has its first number on the
        # marker's row: the number follows the marker, in the row's body
        in_body = labeled[i].kind == "assistant" and labeled[i].body is not None
        m = GUTTER.match(labeled[i].body if in_body else labeled[i].line.text) \
            if labeled[i].kind in ("cont", "assistant") else None
        alone = m is not None and m.group("n") == "1" and _block_alone(labeled, i, m, in_body)
        if m and m.group("n") == "1" and (m.group("code") is not None or _gutter_follows(labeled, i + 1, 2)
                                          or alone):
            run = [(i, m)]
            j, want = i + 1, 2
            while j < n:
                if labeled[j - 1].line.wrapped and labeled[j].kind == "cont":
                    j += 1  # the rest of a code row the terminal reflowed: no number of its own
                    continue
                # a code row too long for the width goes on under the code
                # column with a blank gutter; the numbers resume after it
                k, col = j, len(m.group("indent")) + len(str(want - 1)) + 1
                while (k < n and labeled[k].kind == "cont" and not GUTTER.match(labeled[k].line.text)
                       and len(labeled[k].line.text) - len(labeled[k].line.text.lstrip()) >= col):
                    k += 1
                if k > j and k < n and (mk := GUTTER.match(labeled[k].line.text)) and int(mk.group("n")) == want:
                    j = k
                # blank rows between two numbered rows: a block's empty line keeps its
                # number, so they are a seam of the history (rows a resize sent there
                # apart), not the block's
                g = j
                while g < n and labeled[g].kind == "blank" and not labeled[g].line.text.strip():
                    g += 1
                if g > j and g < n and labeled[g].kind == "cont" and (mg := GUTTER.match(labeled[g].line.text)) \
                        and int(mg.group("n")) == want and want > 2:
                    for k in range(j, g):
                        labeled[k].kind, labeled[k].rule, labeled[k].body = "chrome", "code-seam", ""
                    j = g
                mj = GUTTER.match(labeled[j].line.text)
                if labeled[j].kind in ("cont", "blank") and mj and int(mj.group("n")) == want:
                    run.append((j, mj))
                    want += 1
                    j += 1
                else:
                    break
            # a block of one code line the width wrapped: its rows under the code
            # column (no number of their own), then the blank after the block
            end, col = j, len(m.group("indent")) + len(m.group("n")) + 1
            while (end < n and labeled[end].kind == "cont" and not GUTTER.match(labeled[end].line.text)
                   and len(labeled[end].line.text) - len(labeled[end].line.text.lstrip()) >= col):
                end += 1
            if len(run) >= 2 or (end < n and not labeled[end].line.text.strip()) or (alone and end == i + 1):
                for k, mk in run:
                    code = mk.group("code") or ""
                    if labeled[k].kind == "assistant":  # the block opens the answer: its head row
                        labeled[k].body = code
                    elif in_body:
                        # under a head row whose number was in its body: the
                        # code at the answer's column (the gutter is the
                        # numbers right-aligned, one column in from it), so
                        # that it keeps its indentation under the head's code
                        col0 = len(mk.group("indent")) + len(mk.group("n")) - len(str(len(run))) - 1
                        labeled[k].body = " " * max(col0, 0) + code if code else ""
                        labeled[k].rule = "code-gutter"
                    else:
                        labeled[k].body = mk.group("indent") + code if code else ""
                        labeled[k].rule = "code-gutter"
                i = j
                continue
        i += 1


PROFILE = GeminiProfile()
