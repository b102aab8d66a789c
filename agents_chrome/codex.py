"""Codex CLI: chrome rules and turn segmentation.

Checked against Codex CLI 0.169.0 (Ratatui): full-screen on the alternate
screen by default, inline with `--no-alt-screen` (history inserted above
the live area with scroll regions), resizes mid-session.

Screen anatomy:
- header card: `>_ OpenAI Codex (vX)`, directory, model, `permissions: …`;
- a submitted prompt is a card of full-width background rows, `› text`
  (continuation rows indented two); when the conversation scrolls, the
  current prompt stays pinned as one background row at the top (a sticky
  header: not conversation);
- `• answer` with indented continuation; `• Ran <cmd>` (`• Exited (status N) <cmd>` when it
  failed) with its output under `└`, and any bullet with a `└` row right
  under it is a call; `• Explored` with one `└ List/Read/Search …` row per call;
  `+ N lines (^t to expand)` and `+ Show details` fold markers;
- status: `• Working (0s • esc to interrupt)`, `Worked for 1s • 07:24`,
  tips `└ Tip: …`, `↓ Back to bottom · esc` while paging;
- the composer at the bottom (a background card, `› Ask Codex to do
  anything`) with footer rows under it, and while `/…` is typed a popup of
  commands right above it (`/name   description`, the selected row on a
  highlight background); slash commands echo as `/status`
  followed by their panel (a system turn);
- at exit: `Token usage: …`, `To continue this session, run: codex resume …`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import lru_cache
from typing import Iterable, Sequence

import regex
from wcwidth import wcswidth, wcwidth

from agents_chrome.profile import ChromeProfile
from agents_chrome.rules import MARKERS as MARKER_KINDS, Labeled, LineRule
from agents_chrome.transcript import TLine
from agents_chrome.turns import Turn
from agents_chrome.wraps import by_runs, join_broken_tokens, wide
from screen.frames import Frame
from screen.memo import IdentityMemo
from screen.vscreen import FLAG_BOLD, FLAG_ITALIC

# A list typed in a prompt, as Codex renders the prompt's markdown: under the
# prompt and a blank row, indented two, with a bullet or a number.
PROMPT_LIST_ROW = regex.compile(r"^  (?P<mk>[•◦▪\-*]|\d+[.)])\s+\S")
# The slash-command popup drawn right above the composer while `/…` is
# typed: `/name   description` rows (the selected one on a highlight
# background), long descriptions wrapped under their column.
MENU_ROW = regex.compile(r"^(?:›\s|\s\s)/[a-z][\w-]*\s{2,}\S")
MENU_CONT = regex.compile(r"^\s{6,}\S")
# A call as the compact history draws it, and as the expanded one (Ctrl-T) does.
COMPACT_CALL = regex.compile(r"^[•◦]\s+(Ran|Explored|Exited\s+\(status\s+\d+\))(\s|$)")
EXPANDED_CALL = regex.compile(r"^(\$\s\S|[✓✗]\s.*•\s*[\d.]+\s*(ms|s|m)\b)")
EDIT_COUNT = regex.compile(r"\(\+\d+\s+-\d+\)")
EXPLORE_ITEM = regex.compile(r"^\s*(?:└\s+)?(?P<verb>List|Read|Search|Find|Grep|Glob|Open|View)\s+(?P<arg>.+)$")
# A row at a call output's indent (past the `└` column).
OUTPUT_ROW = regex.compile(r"^\s{4}\S")
# A command still running, as Codex draws it before `• Ran` / `• You ran`.
RUNNING_ROW = regex.compile(r"^[•◦]\s+Running\s+(?P<cmd>\S.*?)\s*$")
#: the header of a group of reads while it runs (`• Exploring`, bold, its
#: `└ Read …` rows under it); `• Explored` once they are done
EXPLORING_ROW = regex.compile(r"^[•◦] Exploring\s*$")
#: the status row over the composer while a turn runs: `◦ Working (3s • esc
#: to interrupt)`, the reasoning's title in place of `Working`, a note of
#: background terminals after it, cut at the width
STATUS_ROW = regex.compile(r"^[•◦] \S.*\(\d+[hms](?: \d+[hms])* • esc to\b")
#: a row of the logo Codex draws at start-up (braille cells), replaced by its
#: header card a moment later
LOGO_ROW = regex.compile(r"^[\s\u2800-\u28ff]*[\u2801-\u28ff][\s\u2800-\u28ff]*$")
# A row that opens an answer, a call or a notice: conversation, never the
# composer's footer.
TURN_ROW = regex.compile(r"^[•◦■](?:\s|$)")
# A fence row of a code block (```lang, ~~~): typed in the composer, not
# drawn in the prompt's card, which renders the block's rows alone.
FENCE_ROW = regex.compile(r"^\s*(```|~~~)")
# What a prompt's card drops or draws anew (markdown marks, bullets, spacing):
# left out of the key under which the card and the composer find each other.
CARD_MARKS = frozenset("#*_`~>•◦▪-")
# Markdown typed in a prompt that its card renders anew: a list, quote or
# heading row, bold, inline code.
TYPED_MARKDOWN = regex.compile(r"^\s*(?:[-*+•]\s|\d+[.)]\s|>\s|#{1,6}\s)|\*\*\S|`[^`]+`")


def full_bg(frame: Frame, y: int) -> str | None:
    """The row's background colour when one non-default background spans it."""
    spans = frame.styles[y]
    if not spans or spans[0][0] != 0 or spans[-1][1] < frame.columns - 1:
        return None
    bgs = {s[3] for s in spans}
    if len(bgs) != 1 or "default" in bgs:
        return None
    for a, b in zip(spans, spans[1:]):
        if a[1] != b[0] and not _orphan_gap(frame, y, a[1], b[0]):
            return None
    return next(iter(bgs))


def _orphan_gap(frame: Frame, y: int, lo: int, hi: int) -> bool:
    """Cells lo..hi of row y, left out of the row's background, are one blank
    cell: the half of a wide character that a narrower write overwrote. The
    terminal blanks such a half in the default colours (tmux does), and Codex,
    diffing its cells, does not draw it again: the row is still one card row."""
    if hi - lo != 1:
        return False
    cells = frame.cells[y] if y < len(frame.cells) else None
    return cells is None or (lo < len(cells) and cells[lo].data in (" ", ""))


def _bg_run(frame: Frame, y: int) -> int | None:
    """Where a row's one background run from column 0 ends (exclusive), when
    nothing past it is styled: a card row, whatever width it was drawn at."""
    spans = frame.styles[y]
    if not spans or spans[0][0] != 0 or len({s[3] for s in spans}) != 1 or spans[0][3] == "default":
        return None
    for a, b in zip(spans, spans[1:]):
        if a[1] != b[0] and not _orphan_gap(frame, y, a[1], b[0]):
            return None
    return spans[-1][1]


# A prompt card's rows after its `› ` row are marked with this character
# (never drawn by Codex) so the labels can keep them in the prompt; rows()
# adds it, label() takes it off.
CARD_MARK = "\ue0c0"
# A reasoning summary shown in the history (after Ctrl-T): `• text` with the
# whole text in italics, its wrapped rows (indented two) too. rows() marks
# such rows, for label() to call them thinking: the stitched rows keep no styles.
THINK_MARK = "\ue0c1"


def _italic_from(frame: Frame, y: int, x0: int) -> bool:
    """Every letter of row y from column x0 on is drawn in plain italics: in
    the default colour, not bold (a markdown heading is bold italics in a
    colour of its own)."""
    text = frame.lines[y].rstrip()
    if len(text) <= x0 or y >= len(frame.styles):
        return False
    covered = [False] * len(text)
    for sp in frame.styles[y]:
        if sp[4] & (FLAG_ITALIC | FLAG_BOLD) == FLAG_ITALIC and sp[2] == "default":
            for x in range(max(sp[0], x0), min(sp[1], len(text))):
                covered[x] = True
    return all(covered[x] or text[x] == " " for x in range(x0, len(text)))


def _bold_at(frame: Frame, y: int, x: int) -> bool:
    """The cell at column x of row y is drawn bold."""
    return y < len(frame.styles) and any(sp[0] <= x < sp[1] and sp[4] & FLAG_BOLD for sp in frame.styles[y])


# Answers about one row snapshot: an unchanged row is the very same cell
# tuple in every frame (the screen re-reads only dirty rows), and the card
# colour and the card's markdown depend on nothing but its cells, its text and
# the width (`IdentityMemo`). Asked for every row of every frame
# (_learn_inline_cards, rows()): a quarter of a long inline Codex replay.
_ROWS = IdentityMemo(16384)


def _wide_bold_row(ln: str, styles: Sequence, y: int) -> str | None:
    """`_wide_bold_of` row `y`, whose text is `ln`; a row without a CJK letter as it is."""
    return _wide_bold_of(ln, styles[y]) if IDEOGRAPH.search(ln) else ln


def _wide_bold_of(ln: str, spans: tuple) -> str | None:
    """`_marked_wide_bold` of a row with a bold or coloured span; None for a row without."""
    if not any(sp[4] & FLAG_BOLD or sp[2] != "default" for sp in spans):
        return None
    return _marked_wide_bold(ln, spans)


@lru_cache(maxsize=8192)
def _status_or_logo(ln: str) -> bool:
    """`STATUS_ROW` or `LOGO_ROW` matches the row, asked once per row text
    (`rows` asks it of every row of every view, nearly all drawn before)."""
    return bool(STATUS_ROW.match(ln) or LOGO_ROW.match(ln))


def _card_bg(frame: Frame, y: int) -> str | None:
    """The row's background when it is a card row (one background across the width)."""
    cells = frame.cells[y] if y < len(frame.cells) else None
    if cells is None:
        return full_bg(frame, y)
    if not cells or cells[0].bg == "default":
        return None  # no background at its first cell (cheap: most rows)
    return _ROWS.get(cells, ("bg", frame.columns), full_bg, frame, y)


def _card_markdown(frame: Frame, y: int) -> str:
    """`_card_markdown_of`, once per row snapshot (see `_ROWS`)."""
    cells = frame.cells[y] if y < len(frame.cells) else None
    if cells is None:
        return _card_markdown_of(frame, y)
    return _ROWS.get(cells, ("md", frame.lines[y]), _card_markdown_of, frame, y)


def _card_markdown_of(frame: Frame, y: int) -> str:
    """A prompt card row with the markdown Codex rendered written back.

    Codex renders the markdown of a submitted prompt in its card: `**b**`
    shows bold, `*i*` italic, `` `c` `` as a run in another colour than the
    row's own (default, or a quote's). A bold run that opens the row with
    `#` is a heading (its `#` is drawn). A coloured run is inline code only
    on a row that mixes it with text in the row's own colour and has one
    such colour: a highlighted code block colours several tokens. Positions are terminal cells (a wide
    character takes two); the `› ` marker cells are not the prompt's.
    """
    text = frame.lines[y]
    cells = _cols(text)
    n = len(cells)
    spans = [(max(lo, 2), min(hi, n), fg, flags) for lo, hi, fg, _bg, flags in frame.styles[y] if hi > 2 and lo < n]
    if not spans:
        return text
    lead = next((x for x in range(2, n) if cells[x] != " "), n)
    marker = regex.match(r"(?:[•◦▪]|\d+[.)])\s", "".join(cells[lead:lead + 4]))
    body_from = lead + (len(marker.group()) if marker else 0)
    # the row's own colour: the one its body opens in; a quote (`> `) has
    # its own, a highlighted code block's row has none (all tokens coloured)
    base = next((fg for lo, hi, fg, flags in spans if lo <= body_from < hi), "default")
    if base != "default" and "".join(cells[body_from:body_from + 2]) != "> ":
        # a body that opens with inline code (`- `x` and y`) still has its
        # own default-coloured text after it; a code block's row has none
        base = "default" if _default_text(cells, spans, body_from) else "\0"
    plain = any(cells[x].strip() for lo, hi, fg, flags in spans if fg == base and not flags
                for x in range(max(lo, body_from), hi))
    plain = plain or (base == "default" and any(cells[x].strip() for x in range(body_from, n)
                                                 if not any(lo <= x < hi for lo, hi, _f, _g in spans)))
    colours = {fg for lo, hi, fg, flags in spans if fg not in ("default", base) and not flags and hi > body_from}
    runs: list[list] = []  # [lo, hi, kind]
    for lo, hi, fg, flags in spans:
        kind = ("**" if flags & FLAG_BOLD else "*" if flags & FLAG_ITALIC
                else "`" if fg in colours and plain and len(colours) == 1 and lo >= body_from else None)
        if kind is None:
            continue
        if runs and runs[-1][1] == lo and runs[-1][2] == kind:
            runs[-1][1] = hi
        else:
            runs.append([lo, hi, kind])
    marks: dict[int, str] = {}
    for lo, hi, kind in runs:
        while lo < hi and cells[lo] == " ":
            lo += 1
        while hi > lo and cells[hi - 1] == " ":
            hi -= 1
        if lo >= hi or (kind == "**" and lo == lead and cells[lo] == "#"):
            continue  # a heading: its `#` is drawn, the bold is the heading's
        marks[lo] = marks.get(lo, "") + kind
        marks[hi] = kind + marks.get(hi, "")
    if not marks:
        return text
    return "".join(marks.get(x, "") + c for x, c in enumerate(cells)) + marks.get(n, "")


def _default_text(cells: list[str], spans: list[tuple], start: int) -> bool:
    """Whether a row holds a letter in the default colour from `start` on:
    in a default-coloured span, or in no span at all."""
    for x in range(start, len(cells)):
        if not cells[x].strip():
            continue
        fgs = [(fg, flags) for lo, hi, fg, flags in spans if lo <= x < hi]
        if not fgs or fgs[0][0] == "default":
            return True
    return False


def _stale(frame: Frame) -> bool:
    """An alternate-screen frame taken after a resize, before Codex drew again.

    Codex paints its composer card across the whole width on the screen's
    last rows (only its footer under it). Right after the terminal grows,
    before the redraw, the screen still holds the old drawing: a composer
    that ends at the old width, or one with the new rows empty under it.
    Such a view is no layout of the conversation (the composer and its
    footer sit where text goes): it is left out.
    """
    if not frame.alternate:
        return False
    memo = getattr(frame, "memo", None)
    if memo is not None and "codex-stale" in memo:
        return memo["codex-stale"]
    lines, n = frame.lines, len(frame.lines)
    y = n - 1
    while y >= 0 and not lines[y].strip() and not frame.styles[y]:
        y -= 1
    stale = False
    for k in range(y, max(y - 5, -1), -1):
        end = _bg_run(frame, k)
        if end is not None:
            # short of the right edge: drawn for a narrower screen; empty
            # rows under its footer: drawn for a shorter one
            stale = end < frame.columns or n - 1 - y > 2
            break
    if memo is not None:
        memo["codex-stale"] = stale
    return stale


class CodexProfile(ChromeProfile):
    name = "codex"
    checked_versions = ("0.169.0",)
    commands = ("codex",)
    screen_signatures = (r">_ OpenAI Codex", r"\bcodex resume\b")
    resume_words = frozenset({"resume"})  # `codex resume --last`, `codex resume <id>`
    prompt_ends_at_blank = True
    rules = (
        LineRule("placeholder", "chrome", r"^›\s+(Ask Codex to do anything|Implement \{feature\}|Write tests for @filename|"
                                          r"Explain this codebase|Summarize recent commits|Find and fix a bug in @filename|"
                                          r"Improve documentation in @filename|Run /review on my current changes|"
                                          r"Use /skills to list available skills)\s*$"),
        LineRule("status-line", "chrome", r"^\s*\S+\s+(default|minimal|low|medium|high|xhigh|none)\s+·\s+[~/]"),
        LineRule("approval", "chrome", r"^\s*(Would you like to (run|make|apply)|Press enter to confirm|"
                                       r"(›\s*)?\d\.\s+(Yes|No)\b)"),
        LineRule("header", "chrome", r"^\s*(│\s*)?>_ OpenAI Codex\b"),
        LineRule("header-fields", "chrome", r"^\s*(│\s*)?(model|directory|permissions|approval|sandbox|session):\s"),
        LineRule("working", "chrome", r"^\s*[•◦·]\s+Working\s*\(.*\)\s*$"),
        LineRule("worked-for", "chrome", r"^\s*(─+\s*)?Worked for\s+<?\d+\w*(\s+\d+\w*)?\s*(•.*)?(─+)?\s*$"),
        LineRule("back-to-bottom", "chrome", r"↓\s*Back to bottom"),
        LineRule("tip", "chrome", r"^\s*(└\s+)?Tip:\s"),
        LineRule("fold", "chrome", r"^\s*(…\s*)?\+\s*(\d+\s+lines?\b.*|Show details)\s*$"),
        LineRule("fold-hint", "chrome", r"^\s*…\s*\+\d+ lines"),
        LineRule("token-usage", "chrome", r"^\s*Token usage:\s"),
        LineRule("resume-hint", "chrome", r"^\s*(To continue this session, run:|codex resume\b.*|Or run codex resume\b.*)$"),
        LineRule("footer", "chrome", r"(\? for shortcuts|\? shortcuts|← for agents|enter/esc latest|esc to interrupt)"),
        LineRule("warning", "chrome", r"^\s*⚠\s"),
        # `■ Conversation interrupted - …` after Esc / Ctrl+C (or a refused
        # approval), and `■ <error>` when a turn fails: Codex's notice, not the answer's
        LineRule("notice", "chrome", r"^■\s"),
        # the decision on an approval popup, left in the history as `✔ You
        # approved codex to run …` (`✗ You …` when refused): the user's act,
        # not the answer's words
        LineRule("approval-decision", "system", r"^[✔✗]\s+(?P<body>You\s.+)$"),
        LineRule("slash-command", "system", r"^(›\s)?(?P<body>/[a-z][\w-]*)(\s.*)?$"),
        LineRule("prompt", "user", r"^›\s(?P<body>.*)$"),
        LineRule("ran", "tool_call", r"^[•◦]\s+(?P<body>(Ran|Exited\s+\(status\s+\d+\))\s+.+)$"),
        # a command the user ran in shell mode (`!cmd`): `• You ran <cmd>`, its output under `└`
        LineRule("you-ran", "tool_call", r"^•\s+You\s+ran\s+(?P<body>\S.*)$"),
        # after Ctrl-T (the expanded view), a command is drawn as `$ <cmd>` at
        # the left edge, its output under it and `✓ • 12ms` (`✗ …` when it
        # failed) closing it: the call, and its status row (chrome)
        LineRule("ran-shell", "tool_call", r"^\$\s(?P<body>\S.*)$"),
        LineRule("ran-status", "chrome", r"^[✓✗]\s.*•\s*[\d.]+\s*(ms|s|m)\b.*$"),
        LineRule("explored", "tool_call", r"^[•◦]\s+(?P<body>(Explored|Exploring)\b.*)$"),
        LineRule("tool-other", "tool_call", r"^[•◦]\s+(?P<body>(Called|Calling|Edited|Added|Deleted|Updated|Searched|"
                                             r"Read|Waited|Applied patch)\b.*)$"),
        # (`└` alone: the first output row Codex shows is blank, the rest below it)
        LineRule("tool-output", "tool_result", r"^\s{2,4}└(?:\s(?P<body>.*))?$"),
        # (`•` alone: the answer's first row is blank, a code block's empty first line)
        LineRule("answer", "assistant", r"^•(?:\s(?P<body>.*))?$"),
    )

    # -- regions ----------------------------------------------------------
    def viewport(self, frame: Frame) -> tuple[int, int] | None:
        memo = getattr(frame, "memo", None)
        if memo is None:
            return self._viewport(frame)
        if "codex-vp" not in memo:  # asked by rows() and by the transcript
            memo["codex-vp"] = self._viewport(frame)
        return memo["codex-vp"]

    def _viewport(self, frame: Frame) -> tuple[int, int] | None:
        if _stale(frame):
            return None
        n = len(frame.lines)
        end = n
        # The composer: the last background card, with footer rows under it.
        # (`_card_bg` is `full_bg`, answered once per row snapshot)
        # A card with an answer or a call under it is a prompt's: in
        # inline mode, once Codex has shut down (`/quit`), its live area is
        # cleared and the last prompt's card may sit this near the bottom.
        y = n - 1
        while y >= 0 and _card_bg(frame, y) is None and n - y <= 6:
            y -= 1
        if (y >= 0 and _card_bg(frame, y) is not None
                and not any(TURN_ROW.match(frame.lines[k]) for k in range(y + 1, n))):
            while y > 0 and _card_bg(frame, y - 1) is not None:
                y -= 1
            end = _above_menu(frame, y)
            end = _above_mentions(frame, end)
            if end == 0:
                return None  # the popup fills the view: no conversation row shows
        # While the user has scrolled back, `New activity · ↓ Back to bottom
        # · esc` sits on the view's last rows, over the conversation: the
        # view ends above it, so the hint never enters the document and the
        # rows it covers are taken from later views.
        for k in range(end - 1, max(end - 3, 0) - 1, -1):
            if "↓ Back to bottom" in frame.lines[k]:
                end = k
                # Scrolled back after the terminal changed width: older
                # history laid out anew, in the middle of a document laid
                # out at the old width, where no row of it lines up. It
                # holds nothing the live views did not show: left out.
                if frame.columns != getattr(self, "_live_width", frame.columns):
                    return None
                break
        start = 0
        # A sticky header: one background row at the top, no card of its
        # colour around it (a diff row of another colour may sit under it).
        top = full_bg(frame, 0) if n > 1 and frame.lines[0].strip() else None
        if top is not None and full_bg(frame, 1) != top:
            start = 1
        return (start, end)

    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        return self.viewport(frame)

    def layout(self, frame: Frame) -> object:
        """Ctrl-T switches the history between two views of the same turns:
        compact (`• Ran <cmd>` with `└` output, `• Explored`) and expanded
        (`$ <cmd>` at the left edge, its whole output, `✓ • 12ms`, and the
        reasoning). Rows of one view never line up with the other's, so a
        switch is a new layout, joined to the old one by words like a width
        change. A view showing no call of either kind is taken as the one
        before it."""
        vp = self.viewport(frame)
        if vp is None:
            return None
        compact = expanded = False
        for ln in frame.lines[vp[0]:vp[1]]:
            if not ln:
                continue
            c = ln[0]
            if c == "$" or c == "✓" or c == "✗":
                expanded = expanded or bool(EXPANDED_CALL.match(ln))
            elif c == "•" or c == "◦":
                compact = compact or bool(COMPACT_CALL.match(ln))
        if compact == expanded:
            return None
        return "expanded" if expanded else "compact"

    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        self._live_width: int | None = None
        self._card_bgs: set[str] = set()
        self._inline_marks: dict[str, str] = {}
        self._full_alt: set[str] = set()
        self._near_alt: set[str] = set()
        self._wide_bold: dict[str, str] = {}
        self._intact_rows: set[str] = set()
        #: runs of wide letters some frame drew whole inside a row (`_learn_intact`)
        self._intact: set[str] = set()
        #: the rows and cells `_learn_wide_bold` read last (a frame's; never changed)
        self._wide_bold_last: tuple[list[str], list] = ([], [])
        self._typed: dict[str, str] = {}
        self._composer_was: tuple[bool, str] | None = None
        self._bangs: list[str] = []
        self._bangs_used: set[int] = set()
        self._bang_open: int | None = None
        self._bang_rows: dict[str, int] = {}
        return super().transcript(frames)

    def _conversation_frame(self, frame: Frame) -> None:
        """The width of the last view at the bottom of the conversation (not
        scrolled back); on the main screen, the markdown of prompt cards seen."""
        self._learn_wide_bold(frame)
        self._learn_intact(frame)
        self._learn_composer(frame)
        self._learn_shell_composer(frame)
        if frame.alternate:
            if not _stale(frame) and not any("↓ Back to bottom" in ln for ln in frame.lines[-8:]):
                self._live_width = frame.columns
        elif frame.cells:
            self._learn_inline_cards(frame)

    def _learn_intact(self, frame: Frame) -> None:
        """Runs of wide letters (CJK) a frame drew whole inside a row, text on
        both sides of them on the row, remembered for make_turn: a run Codex
        cut at a row's end in one layout (`カタカ` / `ナ`) may show whole in
        another (a resize reprints the conversation), and there was then no
        space inside it (see _join_wide_wraps)."""
        seen = self._intact_rows
        for ln in frame.lines:
            if ln in seen or ln.isascii():
                continue
            seen.add(ln)
            for m in INTACT_RUN.finditer(ln.rstrip()):
                words = m.group(1).split(" ")
                self._intact.update(words)
                self._intact.update(f"{x} {y}" for x, y in zip(words, words[1:]))

    def _learn_wide_bold(self, frame: Frame) -> None:
        """Rows where a bold run touches a CJK letter, with their `**` back
        (see _marked_wide_bold), remembered by their text for make_turn: the
        stitched and scrolled rows keep no styles."""
        styles = frame.styles
        grid = frame.cells
        # a row the frame before held (the same text, the same cell tuple) was
        # read then: what it teaches is learned (most rows of most frames)
        last_lines, last_grid = self._wide_bold_last
        self._wide_bold_last = (frame.lines, grid)
        for y, ln in enumerate(frame.lines):
            if ln.isascii() or y >= len(styles):
                continue
            cells = grid[y] if y < len(grid) else None
            if cells is not None and y < len(last_grid) and last_grid[y] is cells and last_lines[y] == ln:
                continue
            if cells is None:
                if not any(sp[4] & FLAG_BOLD or sp[2] != "default" for sp in styles[y]):
                    continue
                marked = _marked_wide_bold(ln, styles[y])
            else:
                # once per row snapshot (its styles and marks): a row without
                # CJK bold is asked again every frame
                # (marks go only next to a CJK letter: a row without one
                # has none to set, and its styles are left unread)
                marked = _ROWS.get(cells, ("wb", ln), _wide_bold_row, ln, styles, y)
                if marked is None:
                    continue
            key = ln.strip()
            if key in self._wide_bold:
                continue
            if marked != ln:
                self._wide_bold[key] = marked.strip()

    def _learn_composer(self, frame: Frame) -> None:
        """A prompt holding a fenced code block, as typed in the composer.

        The composer (the last background card, footer rows under it) shows
        the prompt as typed, fence rows (```python) included; once sent, its
        card renders the markdown: the block's rows without the fences, so
        the fences and their language are drawn only here. The composer's
        rows (a row the composer wrapped joined back to the next) are
        remembered under the words of their rows that are not fences, for
        make_turn to give the prompt its fences back.

        The same for a prompt with other markdown typed in (`- item`, `1. `,
        `> `, `# `, `**bold**`, `` `code` ``): its card draws bullets,
        drops the marks and spaces the list from the text, and the composer
        is again the only drawing of it as typed."""
        lines = frame.lines
        box = _composer(frame)
        if box is None:
            return
        y, end = box
        top = next((k for k in range(y, end) if lines[k].startswith("› ")), None)
        if top is None or not any(FENCE_ROW.match(lines[k][2:]) or TYPED_MARKDOWN.search(lines[k][2:])
                                  for k in range(top, end)):
            return
        rows = [lines[k][2:].rstrip() for k in range(top, end)]
        while rows and not rows[-1].strip():
            rows.pop()
        width = frame.columns - 3
        typed: list[str] = []
        for r in rows:
            prev = typed[-1] if typed else None
            word = r.split(" ", 1)[0]
            if (prev and r.strip() and not r.startswith(" ") and not FENCE_ROW.match(r)
                    and not FENCE_ROW.match(prev) and wcswidth(prev) + 1 + wcswidth(word) > width):
                typed[-1] = prev + " " + r  # wrapped by the composer: the word did not fit
            else:
                typed.append(r)
        key = _card_key("\n".join(r for r in typed if not FENCE_ROW.match(r)))
        text = "\n".join(typed)
        # a frame that draws the sent card where the composer goes (before
        # the composer is back) holds fewer marks: the composer's stay
        if key and (key not in self._typed or _marks(text) >= _marks(self._typed[key])):
            self._typed[key] = text

    def _learn_shell_composer(self, frame: Frame) -> None:
        """Commands sent from the composer in shell mode, and the output
        rows drawn after each.

        Typed after `!`, the composer is in shell mode: its first row opens
        with `! ` in place of `› ` (continuation rows indented two). Once
        sent, the command is drawn as `• Running <cmd>`, then `• You ran
        <cmd>` with its output under it; output taller than the screen drawn
        in one frame pushes those rows off the top before any frame shows
        them: then the composer is the only drawing of the command. The
        last text it held is taken as sent when it next shows something
        else; until the composer sends again, rows at the output's indent
        that frames show are remembered as that command's (see _bang_for).
        Frames, not times: the same bytes written at any pace give the same."""
        lines = frame.lines
        box = _composer(frame)
        if box is None:
            return  # no composer in view: nothing to learn
        y, end = box
        top = next((k for k in range(y, end) if lines[k].startswith(("› ", "! "))), None)
        if top is None:
            return
        rows = [lines[top][2:].rstrip()] + [lines[k][2:].rstrip() for k in range(top + 1, end)
                                             if lines[k].startswith("  ")]
        width, typed, last = frame.columns - 3, "", ""
        for r in rows:
            if r.strip():  # a row the composer filled to its edge broke a token there
                typed += r.strip() if not typed or wcswidth(last) >= width else " " + r.strip()
                last = r
        now = (lines[top][0] == "!", typed)
        prev = self._composer_was
        if prev and prev[1] and now != prev and not (now[0] == prev[0] and now[1].startswith(prev[1])):
            # what it held is gone: sent (or given up); a prompt sent ends
            # the command's window too
            self._bang_open = None
            if prev[0]:
                self._bangs.append(prev[1])
                self._bang_open = len(self._bangs) - 1
        self._composer_was = now
        if self._bang_open is not None:
            for ln in lines[:y]:
                if OUTPUT_ROW.match(ln):
                    self._bang_rows.setdefault(ln.strip(), self._bang_open)

    def _bang_for(self, cmd: str | None = None, row: str | None = None) -> str | None:
        """A command sent from the composer in shell mode, not yet given to
        a turn: the first one reading `cmd` (a row that drew it), or the one
        in whose window output `row` was drawn (output whose head was cut)."""
        if cmd is not None:
            want = "".join(cmd.split())
            k = next((k for k, c in enumerate(self._bangs)
                      if k not in self._bangs_used and "".join(c.split()) == want), None)
        else:
            k = self._bang_rows.get((row or "").strip())
        if k is None or k in self._bangs_used:
            return None
        self._bangs_used.add(k)
        return self._bangs[k]

    def _bang_sent(self, cmd: str) -> bool:
        """Whether `cmd` was sent from the composer in shell mode."""
        want = "".join(cmd.split())
        return any("".join(c.split()) == want for c in getattr(self, "_bangs", ()))

    def _learn_inline_cards(self, frame: Frame) -> None:
        """Inline mode: a prompt card is drawn with its styles before it
        scrolls into history, where only its text is kept (and a resize
        reprints it wrapped anew). A card whose styles say markdown (see
        _card_markdown) is remembered by its words, for make_turn to give
        the prompt its markdown back. The composer (the last card: what is
        being typed) is no prompt yet."""
        lines = frame.lines
        bgs = {y: bg for y in range(len(lines)) if (bg := _card_bg(frame, y)) is not None}
        opens = [y for y in bgs if lines[y].startswith("› ")]
        for y0 in opens[:-1]:  # the last `› ` card is the composer
            plain, marked = [], []
            y = y0
            while y in bgs and bgs[y] == bgs[y0]:
                if lines[y].strip():
                    plain.append(lines[y])
                    marked.append(_card_markdown(frame, y))
                y += 1
            if marked != plain:
                key = " ".join(" ".join(plain)[2:].split())
                self._inline_marks[key] = "\n".join(marked)[2:]

    def rows(self, frame: Frame) -> list[str]:
        """Alternate-screen rows with the empty stretch inside the view closed up.

        On a tall terminal Codex draws a short conversation with the header
        card at the top and the newest prompt down by the composer, empty
        rows between; a moment later the same text sits packed at the top.
        Closing up runs of empty rows (the removed ones go to the top of the
        view, so every row keeps its distance from the composer) makes both
        views the same text for the stitcher.
        """
        lines = frame.lines
        vp = self.viewport(frame) if frame.alternate else None
        if vp is None:
            return lines
        a, b = vp
        # a row whose first cell has no background is no card row
        # (`_card_bg` None: `_card_row` gives its text), told without the calls
        grid = frame.cells
        seg = [lines[y] if (cells := grid[y] if y < len(grid) else None) is not None
               and (not cells or cells[0].bg == "default") else self._card_row(frame, y)
               for y in range(a, b)]
        thinking = False
        for y in range(a, b):
            ln = lines[y]
            if ln.startswith("• ") and ln[2:3].strip():
                thinking = _italic_from(frame, y, 2)
            elif not (thinking and ln.startswith("  ") and ln[2:3].strip() and _italic_from(frame, y, 2)):
                thinking = False
            if thinking:
                seg[y - a] = THINK_MARK + seg[y - a]
        for y in range(a, b):
            # The status row goes: it changes every second and sits where
            # the next rows of the turn will be drawn (the start-up logo
            # too: the header card takes its place). Left in, a view
            # taken a moment later lays the turn's new rows over it, a
            # conflict that sends the view onto an older copy of the same
            # rows (a prompt sent again, whose reads repeat an earlier
            # turn's), and the new rows are lost.
            if _status_or_logo(lines[y]):
                seg[y - a] = ""
        for y in range(a, b - 1):
            # A running group of reads is the same row as the finished one:
            # `• Exploring` becomes `• Explored` in place. Left as drawn, a
            # view taken just after the change lays that row over another
            # text and, when the prompt and the reads repeat an earlier
            # turn's, the stitcher takes the view for a new stretch of the
            # document (the prompt twice).
            if ("Exploring" in lines[y] and EXPLORING_ROW.match(lines[y]) and lines[y + 1].startswith("  └ ")
                    and _bold_at(frame, y, 2)):
                seg[y - a] = "• Explored"
        for ln in lines[a:b]:
            # rows of wide text drawn to the last cell (the stitched view keeps no width);
            # ASCII rows that close (a long token cut there: see wraps.join_broken_tokens)
            if len(ln) >= frame.columns - NEAR_EDGE and ln.isascii():
                self._near_alt.add(ln.strip())
            elif not ln.isascii() and len(ln) * 2 >= frame.columns - NEAR_EDGE:
                if _to_last_cell(ln, frame.columns):
                    self._full_alt.add(ln.strip())
                if wcswidth(ln.rstrip()) >= frame.columns - NEAR_EDGE:
                    self._near_alt.add(ln.strip())
        out: list[str] = []
        removed = 0
        run = 0
        seen_text = False
        for ln in seg:
            if ln.strip():
                if run > 2 and seen_text:
                    out.append("")
                    removed += run - 1
                elif run:
                    out.extend([""] * run)
                run = 0
                seen_text = True
                out.append(ln)
            else:
                run += 1
        out.extend([""] * run)
        return lines[:a] + [""] * removed + out + lines[b:]

    def _card_row(self, frame: Frame, y: int) -> str:
        """A row of the view; a prompt card's row with its markdown written back,
        its rows after the `› ` row marked (CARD_MARK) as the prompt's.

        The card's background is learned from rows that open with `› ` (the
        prompt's first row), so a card whose first row scrolled away is
        still known by its colour; diff rows have cards of other colours.
        """
        text = frame.lines[y]
        bg = _card_bg(frame, y)
        if bg is None:
            return text
        if text.startswith("› "):
            self._card_bgs.add(bg)
            return _card_markdown(frame, y)
        if bg not in self._card_bgs or not text.strip():
            return text
        return CARD_MARK + _card_markdown(frame, y)

    # -- turns ------------------------------------------------------------
    def label(self, lines: list[TLine]) -> list[Labeled]:
        think = [ln.text.startswith(THINK_MARK) for ln in lines]
        lines = [replace(ln, text=ln.text[len(THINK_MARK):]) if t else ln for ln, t in zip(lines, think)]
        card = [ln.text.startswith(CARD_MARK) for ln in lines]
        lines = [replace(ln, text=ln.text[len(CARD_MARK):]) if c else ln for ln, c in zip(lines, card)]
        labeled = super().label(lines)
        for lb, t in zip(labeled, think):
            if t and lb.kind in ("assistant", "cont"):
                lb.kind, lb.rule = ("thinking", "thinking") if lb.kind == "assistant" else ("cont", "thinking")
        _card_rows(labeled, card)
        _inline_card_rows(labeled)
        _drop_reprinted(labeled)
        # a tip wrapped onto more rows: its rows indented under its text, to the blank row
        tip = None
        for lb in labeled:
            if lb.rule == "tip":
                tip = len(lb.line.text) - len(lb.line.text.lstrip(" └"))
            elif tip is not None and lb.kind == "cont" and lb.line.text.strip() and (
                    len(lb.line.text) - len(lb.line.text.lstrip()) >= tip):
                lb.kind, lb.rule, lb.body = "chrome", "tip", ""
            else:
                tip = None
        # On a narrow screen a notice (`■ Conversation interrupted - …`)
        # goes on over more rows, wrapped by Codex: its rows up to the next
        # blank or labelled row. The exit lines (`Token usage: …`, `codex
        # resume <id>`), printed after the TUI let go, are wrapped by the
        # terminal: the rows the autowrap carried them on to. (The `/status`
        # panel has a `Token usage:` field too, with fields of its own under it.)
        _resume_rows_in_answer(labeled)
        wrapping = None
        prev: Labeled | None = None
        for lb in labeled:
            if lb.rule == "notice" or (lb.rule in ("token-usage", "resume-hint") and lb.line.wrapped):
                wrapping = lb.rule
            elif (wrapping is not None and lb.kind == "cont" and lb.line.text.strip()
                  and (wrapping == "notice" or (prev is not None and prev.line.wrapped))):
                lb.kind, lb.rule, lb.body = "chrome", wrapping, ""
            else:
                wrapping = None
            prev = lb
        _prompt_lists(labeled)
        _answer_rows_like_output(labeled)
        # The header card's rows under `>_ OpenAI Codex` (the directory, with
        # no field name in 0.169) run to its first blank row.
        in_header = False
        for lb in labeled:
            if lb.rule == "header":
                in_header = True
            elif lb.kind == "blank" or lb.kind in ("user", "system"):
                in_header = False
            elif in_header:
                lb.kind, lb.rule = "chrome", "header-row"
        # A bullet opening with a tool verb (`• Called`, `• Edited`, `• Ran`,
        # `• Explored`, …) is a call only when a call's body follows: `└`
        # rows, or the `(+N -M)` count of an edit. An answer may open with
        # the same word (`• Read all three: …`, `• Ran the extractor twice; …`).
        for k, lb in enumerate(labeled):
            if lb.rule not in ("tool-other", "ran", "explored", "you-ran"):
                continue
            j = _past_body(labeled, k)
            if (j < len(labeled) and labeled[j].kind == "tool_result") or EDIT_COUNT.search(lb.line.text):
                continue
            lb.kind, lb.rule, lb.body = "assistant", "answer", lb.line.text.split(None, 1)[1]
        # A bullet with `└` output right under it is a call, whatever its
        # verb: an answer never has one.
        for k, lb in enumerate(labeled):
            if lb.rule != "answer":
                continue
            j = _past_body(labeled, k)
            if j < len(labeled) and labeled[j].kind == "tool_result":
                lb.kind, lb.rule = "tool_call", "tool-other"
        _drop_redrawn_tables(labeled)
        # Output longer than the screen, drawn in one frame, pushes its call's
        # bullet (`• You ran seq …`) and first rows off the top: what is left
        # opens right under the `Worked for` row of the turn before with rows
        # at the output's indent (`└` column and past), where an answer's
        # rows sit at two columns. They are a call's output, not the answer's.
        after_turn = False
        for lb in labeled:
            if lb.rule in ("worked-for", "header", "header-row"):  # the session's first command too
                after_turn = True
            elif lb.kind == "blank":
                continue
            elif after_turn and lb.kind == "cont" and regex.match(r"^\s{4}\S", lb.line.text):
                lb.kind, lb.rule, lb.body = "tool_result", "output-cut", lb.line.text.strip()
                after_turn = False
            else:
                after_turn = False
        # A command sent from the composer in shell mode is drawn as
        # `• Running <cmd>` until it ends (then `• You ran <cmd>`); output
        # taller than the screen can push that row off the top before it is
        # drawn again, leaving only its output at the output's indent under
        # it. A row naming the command the composer sent last (see
        # _learn_shell_composer) is the user's turn and its call.
        n = len(labeled)
        for k, lb in enumerate(labeled):
            m = RUNNING_ROW.match(lb.line.text) if lb.rule == "answer" else None
            if m is None:
                continue
            j, cmd = k + 1, m.group("cmd")
            while j < n and labeled[j].kind == "cont" and regex.match(r"^  \S", labeled[j].line.text):
                cmd += " " + labeled[j].line.text.strip()  # the command wrapped by Codex
                j += 1
            if not self._bang_sent(cmd):
                continue
            lb.kind, lb.rule, lb.body = "tool_call", "you-running", cmd
            for x in labeled[k + 1:j]:
                x.kind, x.rule, x.body = "cont", "you-running", x.line.text.strip()
            while j < n and labeled[j].kind == "blank":
                j += 1
            if j < n and labeled[j].kind == "cont" and regex.match(r"^\s{4}\S", labeled[j].line.text):
                labeled[j].kind, labeled[j].rule, labeled[j].body = "tool_result", "output-cut", labeled[j].line.text.strip()
        # `• Running <cmd>` is a call's status while it runs or while its
        # approval waits; the call then settles to `• Ran <cmd>`, in place or
        # further down (after the approval's decision, after calls run beside
        # it), and the status row may stay in the history above. A `Running`
        # row left as an answer whose command a later `• Ran` row of the same
        # turn names is that status: chrome.
        ran: dict[str, list[int]] = {}
        for k, lb in enumerate(labeled):
            if lb.rule == "ran":
                ran.setdefault(regex.sub(r"^[•◦]\s+Ran\s+", "", lb.line.text).strip(), []).append(k)
        if ran:
            turn_end = n
            for k in range(n - 1, -1, -1):
                lb = labeled[k]
                if lb.kind == "user":
                    turn_end = k
                    continue
                m = RUNNING_ROW.match(lb.line.text) if lb.rule == "answer" else None
                if m is None:
                    continue
                if not any(k < at < turn_end for at in ran.get(m.group("cmd").strip(), ())):
                    continue
                lb.kind, lb.rule, lb.body = "chrome", "running-status", ""
                j = k + 1
                while j < n and labeled[j].kind == "cont" and regex.match(r"^  \S", labeled[j].line.text):
                    labeled[j].kind, labeled[j].rule, labeled[j].body = "chrome", "running-status", ""
                    j += 1
        # `└` rows under `• Explored` are calls, not output.
        group = None
        for lb in labeled:
            if lb.kind in ("tool_call", "user", "assistant", "system"):
                group = lb.rule
            if lb.kind == "tool_result" and group == "explored":
                lb.kind, lb.rule = "tool_call", "explored-item"
            elif lb.kind == "cont" and group == "explored" and EXPLORE_ITEM.match(lb.line.text):
                lb.kind, lb.rule, lb.body = "tool_call", "explored-item", lb.line.text.strip()
        # A `• ` block right under a turn's `Worked for` row, with no prompt
        # between, is Codex's own notice (`• Unrecognized command '/x'. …`
        # for an unknown slash command): the model speaks only inside a turn,
        # and its last answer comes before the `Worked for` row. The notice
        # and its wrapped rows are a system turn. (Last: a row still an answer
        # here is no call, status or `!` command of the passes above.)
        ended = False
        notice = False
        for lb in labeled:
            if lb.rule == "worked-for":
                ended, notice = True, False
            elif lb.kind == "blank":
                notice = False
            elif ended and lb.rule == "answer":
                lb.kind, lb.rule = "system", "cli-notice"
                ended, notice = False, True
            elif notice and lb.kind == "cont":
                lb.rule = "cli-notice"
            else:
                ended = notice = False
        return labeled

    def turns(self, labeled: list[Labeled]) -> list[Turn]:
        """An answer Codex drew again from its first row (a width change
        while a table streamed: the grid so far, then the whole answer as
        records) comes out as two answers in a row, the first opening on
        the same row as the second and holding none of its own words: the
        first is the older, cut drawing."""
        out: list[Turn] = []
        for t in super().turns(labeled):
            if (t.role == "assistant" and out and out[-1].role == "assistant"
                    and _redrawn_by(out[-1].text, t.text)):
                t.partial = t.partial or out[-1].partial
                out.pop()
            out.append(t)
        return out

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        rule = members[0].rule if members else ""
        if kind == "tool_call":
            first = text.splitlines()[0].strip() if text else ""
            if rule == "explored":
                rest = text.splitlines()[1:]
                calls: list[Turn] = []
                for r in rest:
                    c = _explore_call(r) if r.strip() else None
                    calls.extend(c if isinstance(c, list) else [c] if c else [])
                return calls or None
            if rule == "explored-item":
                return _explore_call(first)
            if rule == "ran-shell":
                return Turn("tool_call", first, name="shell")
            if rule in ("you-ran", "you-running"):
                # the user's turn, as typed (`!` and the command), then the call
                cmd = " ".join(ln.strip() for ln in text.splitlines())
                if rule == "you-running" and hasattr(self, "_bangs"):
                    cmd = self._bang_for(cmd) or cmd  # as typed (a wrap's break)
                    return [Turn("user", "!" + cmd), Turn("tool_call", cmd, name="shell")]
                if members and hasattr(self, "_bangs"):
                    self._bang_for(cmd)  # drawn: no cut output's
                return [Turn("user", "!" + cmd), Turn("tool_call", cmd, name="shell")]
            if rule == "ran":
                # a command wrapped by Codex goes on under a `│ ` gutter
                lines = text.splitlines()
                cmd = " ".join([ln.strip() for ln in lines[:1]] + [regex.sub(r"^\s*│\s", "", ln).strip()
                                                                   for ln in lines[1:]])
                cmd = regex.sub(r"^(Ran|Exited\s+\(status\s+\d+\))\s+", "", cmd)
                return Turn("tool_call", cmd, name="shell")
            return Turn("tool_call", first, name=first.split()[0] if first else None)
        if kind == "system":
            return Turn("system", text)
        if kind == "tool_result" and rule == "output-cut" and hasattr(self, "_bangs"):
            # output whose `• You ran` row went off the top unseen: the
            # command as the composer showed it before it was sent
            cmd = self._bang_for(row=members[0].line.text)
            if cmd is not None:
                return [Turn("user", "!" + cmd), Turn("tool_call", cmd, name="shell"), Turn(kind, text)]
        if kind == "user":
            # inline mode: the markdown its card showed before it scrolled away
            text = getattr(self, "_inline_marks", {}).get(" ".join(text.split()), text)
            # a rendered bullet stands for the `- ` it was typed as
            joined = _join_wide_wraps(text, _full_rows(members, getattr(self, "_full_alt", ())),
                                      _wrappable_rows(members, getattr(self, "_near_alt", ())),
                                      frozenset(getattr(self, "_intact", ())))
            joined = join_broken_tokens(joined, _cut_by(members, getattr(self, "_near_alt", ())))
            rows = [regex.sub(r"^(\s*)[•◦▪]\s", r"\1- ", r) for r in joined.splitlines()]
            # a bold run the card wrapped is one run: `**a**` / `**b**` -> `**a` / `b**`
            text = regex.sub(r"\*\*\n(\s*)\*\*", r"\n\1", "\n".join(r for r in rows if r.strip()))
            # a fenced code block: the prompt as the composer showed it (see _learn_composer)
            return Turn("user", getattr(self, "_typed", {}).get(_card_key(text), text))
        if kind == "assistant":
            full = _full_rows(members, getattr(self, "_full_alt", ()))
            text = _with_wide_bold(_quote_wraps(_records_as_markdown(_tables_as_markdown(text))), getattr(self, "_wide_bold", {}))
            text = _join_wide_wraps(text, full, _wrappable_rows(members, getattr(self, "_near_alt", ())),
                                    frozenset(getattr(self, "_intact", ())))
            return Turn(kind, join_broken_tokens(text, _cut_by(members, getattr(self, "_near_alt", ()))))
        return Turn(kind, text)


def _composer(frame: Frame) -> tuple[int, int] | None:
    """The composer's rows (start, end): the last background card, within
    eight rows of the last row with text (the footer under it). On the
    alternate screen that is the bottom; inline, the live area sits right
    under the history, blank rows below it until the screen fills."""
    lines = frame.lines
    last = len(lines) - 1
    while last >= 0 and not lines[last].strip():
        last -= 1
    y = last
    while y >= 0 and last - y < 8 and _card_bg(frame, y) is None:
        y -= 1
    if y < 0 or last - y >= 8:
        return None
    bg, end = _card_bg(frame, y), y + 1
    while y > 0 and _card_bg(frame, y - 1) == bg:
        y -= 1
    return y, end


def _marks(text: str) -> int:
    return sum(1 for c in text if c in CARD_MARKS)


def _card_key(text: str) -> str:
    """A prompt's words without what its card drops or draws anew (see CARD_MARKS)."""
    return "".join(c for c in text if not c.isspace() and c not in CARD_MARKS)


def _redrawn_by(old: str, new: str) -> bool:
    """`new` is `old` drawn again: the same first row, and `old`'s words
    are `new`'s, in order."""
    first_old, first_new = old.strip().split("\n", 1)[0].strip(), new.strip().split("\n", 1)[0].strip()
    if not first_old or first_old != first_new:
        return False
    later = iter(TABLE_WORD.findall(new))
    return all(w in later for w in TABLE_WORD.findall(old))


def _spaced(text: str) -> bool:
    """Wide letters with spaces between them (Korean), not once but as a habit."""
    pairs = regex.findall(r"(\p{L}) (?=(\p{L}))", text)
    return sum(1 for a, b in pairs if wide(a) and wide(b)) >= 2


#: a pictograph (emoji): drawn two cells wide like a CJK letter, but no letter
PICTOGRAPH = regex.compile(r"\p{Extended_Pictographic}")
_PICT_SPACED = regex.compile(r"\p{Extended_Pictographic}\ufe0f? (?=\S)|(?<=\S) \p{Extended_Pictographic}")
_PICT_TIGHT = regex.compile(r"\p{Extended_Pictographic}\ufe0f?(?=[^\s\p{Extended_Pictographic}])"
                            r"|(?<=[^\s\p{Extended_Pictographic}\ufe0f])\p{Extended_Pictographic}")


def _emoji_spaced(text: str) -> bool:
    """The text sets its emoji off with spaces at least as often as it runs
    them into the words beside them (row ends not counted)."""
    return len(_PICT_SPACED.findall(text)) >= len(_PICT_TIGHT.findall(text))


#: a run of wide letters with text on both sides of it on its row (group 1)
INTACT_RUN = regex.compile(r"(?<=\S\s*)([\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}ー]+(?: [\p{Han}\p{Hiragana}"
                           r"\p{Katakana}\p{Hangul}ー]+)*)(?=\s*[^\s\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}ー])")
WIDE_TAIL = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}ー]+$")
WIDE_HEAD = regex.compile(r"^[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}ー]+")
IDEOGRAPH = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\u3000-\u303f\uff00-\uffef]")


def _marked_wide_bold(text: str, spans: list[tuple]) -> str:
    """Bold set against a CJK letter with no space (`离地铁站不远，**地铁**最省`)
    is a word of its own only through its `**`, which Codex draws as bold
    cells: such a run gets its `**` back; other bold is left as drawn. The
    same for inline code (`` `tinyhttp`를 ``): a run in the one other colour
    of a row that has default-coloured text of its own (a highlighted code
    block's row has several colours, or none of the default)."""
    cells = _cols(text)
    n = len(cells)
    marks: dict[int, str] = {}
    lead = next((x for x in range(n) if cells[x].strip()), n)
    body = lead + (2 if "".join(cells[lead:lead + 2]) in ("• ", "- ") else 0)
    colours = {fg for lo, hi, fg, _bg, flags in spans if fg != "default" and not flags and hi > body}
    code = next(iter(colours)) if len(colours) == 1 and _default_text(
        cells, [(lo, hi, fg, flags) for lo, hi, fg, _bg, flags in spans], body) else None
    for lo, hi, fg, _bg, flags in spans:
        kind = "**" if flags & FLAG_BOLD else "`" if code is not None and fg == code and lo >= body else None
        if kind is None:
            continue
        lo, hi = max(lo, 0), min(hi, n)
        while lo < hi and not cells[lo].strip():
            lo += 1
        while hi > lo and not cells[hi - 1].strip():
            hi -= 1
        if lo >= hi:
            continue
        before = next((cells[x] for x in range(lo - 1, max(lo - 3, -1), -1) if cells[x]), "")
        after = cells[hi] if hi < n else ""
        if IDEOGRAPH.match(before) or IDEOGRAPH.match(after):
            marks[lo] = marks.get(lo, "") + kind
            marks[hi] = kind + marks.get(hi, "")
    if not marks:
        return text
    return "".join(marks.get(x, "") + c for x, c in enumerate(cells)) + marks.get(n, "")


def _with_wide_bold(text: str, marked: dict[str, str]) -> str:
    """The turn's rows with the `**` their drawing showed (see _learn_wide_bold)."""
    if not marked or text.isascii():
        return text
    out = []
    for r in text.split("\n"):
        key = r.strip()
        got = marked.get(key) or marked.get("• " + key)
        if got is not None:
            got = got[2:] if got.startswith("• ") and not key.startswith("• ") else got
            r = r[:len(r) - len(r.lstrip())] + got
        out.append(r)
    return "\n".join(out)


def _full_rows(members: list[Labeled], alt: "set[str] | frozenset[str]" = frozenset()) -> frozenset[str]:
    """The texts of a turn's rows drawn up to the terminal's last cell: by
    the row's width when it has one, else (alternate screen) by `alt`."""
    return frozenset(t for lb in members if (t := lb.line.text.strip()) and (
        _to_last_cell(lb.line.text, lb.line.width) if lb.line.width else t in alt))


#: how far from the terminal's edge a row Codex cut may end: its text is laid
#: out a cell or two narrower than the screen, and a wide character that did
#: not fit leaves one or two more (h7-cjk-alt-e: 74 cells of 77)
NEAR_EDGE = 4


def _wrappable_rows(members: list[Labeled], alt: "set[str] | frozenset[str]") -> frozenset[str]:
    """The texts of a turn's rows that may have been cut by the width: within
    NEAR_EDGE cells of the width they were laid out at; on the alternate screen, where a
    stitched row keeps no width, a row some view drew that close to its
    last cell (`alt`). A row that ended further from the edge ended where
    its text had a line break."""
    return frozenset(t for lb in members if (t := lb.line.text.strip()) and (
        wcswidth(lb.line.text.rstrip()) >= lb.line.width - NEAR_EDGE if lb.line.width else t in alt))


def _cut_by(members: list[Labeled], alt: "set[str] | frozenset[str]"):
    """Whether a row of a turn's text (its indent and bullet off) may have
    been cut by the width (see _wrappable_rows), asked only of rows that
    break a long token."""
    def cut(row: str) -> bool:
        return any(w.endswith(row) for w in _wrappable_rows(members, alt))
    return cut


def _to_last_cell(row: str, columns: int) -> bool:
    """The row was drawn up to the terminal's last cell. (One cell short,
    ending in a wide character, is no sign: r3-cjk-alt-g at 67 columns has
    such a row end on a word, a space after it.)"""
    return wcswidth(row.rstrip()) >= columns


def _join_wide_wraps(text: str, full: frozenset[str] = frozenset(),
                     wrappable: frozenset[str] | None = None, intact: frozenset[str] = frozenset()) -> str:
    """Rows Codex wrapped inside a run of wide characters, joined again.

    CJK text has no spaces: Codex breaks it wherever the row is full, so
    the break falls inside a word. A row that ends and a row that starts
    with a wide character, the first as wide as the widest row of its
    paragraph (within the one wide cell it could not fit), is one line cut
    by the width; a shorter row ended where the text had a line break.
    Given `wrappable` (see _wrappable_rows), a row not in it was not cut
    however wide its paragraph: a prompt typed on two short rows.
    Given `intact` (runs of wide letters some frame drew whole inside a
    row), a cut whose two sides make such a run, and whose spaced form no
    frame drew, had no space in it, however the text spaces its words: a
    layout at another width showed the run whole.
    """
    rows = text.split("\n")
    if len(rows) < 2 or not any(wide(c) for c in text):
        return text
    bare = {_unmarked(f) for f in full}
    cut = None if wrappable is None else {_unmarked(w) for w in wrappable}

    def join(para: list[str]) -> list[str]:
        out: list[str] = []
        top = max(wcswidth(r.rstrip()) for r in para)
        # Chinese and Japanese run on, so their wraps fall between two
        # characters. Korean spaces its words, but Codex may break between
        # any two syllables too: a row filled to the terminal's last cell
        # was cut inside a word (a word ending exactly there is rarer); a
        # shorter one ended on a word and the space after it
        spaced = _spaced("\n".join(r.strip() for r in para))
        # an emoji is no letter of a CJK run: where the text spaces its
        # emoji off (`配置 📂 bruquo`), a wrap beside one fell on a space
        pict = _emoji_spaced("\n".join(r.strip() for r in para))
        cur = para[0]
        for prev, nxt in zip(para, para[1:]):
            p, q = prev.rstrip(), nxt.lstrip()
            if p and q and wide(p[-1]) and wide(q[0]) and wcswidth(p) >= top - 2 and (
                    cut is None or any(w.endswith(_unmarked(p.strip())) for w in cut)):
                # (a full row's text may keep its bullet: compare the ends)
                emoji = bool(PICTOGRAPH.match(p[-1]) or PICTOGRAPH.match(q[0]))
                sep = " " if (pict if emoji else spaced) and not any(
                    f.endswith(_unmarked(p.strip())) for f in bare) else ""
                if sep and not emoji and intact:
                    a, b = WIDE_TAIL.search(p), WIDE_HEAD.match(q)
                    if a and b and a.group() + b.group() in intact and f"{a.group()} {b.group()}" not in intact:
                        sep = ""
                cur = cur.rstrip() + sep + q
            else:
                out.append(cur)
                cur = nxt
        out.append(cur)
        return out

    return "\n".join(by_runs(rows, str.strip, join))


QUOTE_ROW = regex.compile(r"^(\s*)> (\S.*)$")
#: a quote row's marks, one `> ` for each level (`> > ` nested)
QUOTE_MARKS = regex.compile(r"^\s*(?:> )+")


def _quote_wraps(text: str) -> str:
    """A quote's rows wrapped by the width, one quoted line again.

    Codex draws `> ` in front of every row of a blockquote, also the rows
    its wrap made; the served line had one. A quote row whose first word
    would not have fitted after the row above it (as wide as the quote's
    widest row) is that row's wrap: it joins it. A row the word would have
    fitted after was a line of its own and keeps its `> `. A nested quote
    draws `> > ` on each row: a row joins only a row of its own level.
    """
    rows = text.split("\n")
    if sum(1 for r in rows if QUOTE_ROW.match(r)) < 2:
        return text

    def join(block: list[str]) -> list[str]:
        top = max(wcswidth(r.rstrip()) for r in block)
        last = block[0].rstrip()
        lines: list[str] = []
        for nxt in block[1:]:
            mark = QUOTE_MARKS.match(nxt).group()
            body = nxt[len(mark):].rstrip()
            if (mark == QUOTE_MARKS.match(last).group()
                    and wcswidth(last) + 1 + wcswidth(body.split()[0]) > top):
                lines.append(body)  # joined below, after the row above
            else:
                lines.append("\n" + nxt.rstrip())
            last = nxt.rstrip()
        return [block[0].rstrip() + "".join(x if x.startswith("\n") else " " + x for x in lines)]

    return "\n".join(by_runs(rows, QUOTE_ROW.match, join))


def _unmarked(text: str) -> str:
    """The row as drawn: without the `**` and backticks given back to it."""
    return text.replace("`", "").replace("**", "")


#: the key hint closing the `@` popup (files, directories, skills to mention),
#: over the composer, and the popup's title row
MENTION_HINT = regex.compile(r"^\s+enter/tab insert · esc close\b")
MENTION_TOP = regex.compile(r"^  Mentions\s*$")


def _above_mentions(frame: Frame, end: int) -> int:
    """Where the conversation ends when the `@` popup sits on the composer:
    above its title row, or at the view's top when the popup fills the view
    (its title scrolled away: on a short screen it is taller than the room
    above the composer), else `end`."""
    lines = frame.lines
    k = end - 1
    while k > 0 and not lines[k].strip():
        k -= 1
    if k < 0 or not MENTION_HINT.match(lines[k]):
        return end
    for y in range(k - 1, -1, -1):
        if MENTION_TOP.match(lines[y]):
            return y
    return 0


def _above_menu(frame: Frame, end: int) -> int:
    """Where the conversation ends when a slash-command popup sits on the
    composer: above the popup's rows (one of them highlighted), else `end`."""
    lines = frame.lines
    y, top, lit = end, None, False
    while y > 0 and (MENU_ROW.match(lines[y - 1]) or MENU_CONT.match(lines[y - 1])):
        y -= 1
        lit = lit or full_bg(frame, y) is not None
        if MENU_ROW.match(lines[y]):
            top = y
    return top if top is not None and lit else end


# A markdown table as Codex draws it: a header row over a heavy rule
# (`━━━━  ━━━━`), light rules (`────  ────`) between body rows.
TABLE_HEAVY = regex.compile(r"^\s*━[━\s]*$")
TABLE_LIGHT = regex.compile(r"^\s*─[─\s]*$")
TABLE_WORD = regex.compile(r"\w+")


RULE_RUN = regex.compile(r"[━─]+")


CELL_TEXT = regex.compile(r"(?:(?<=^\s*)|(?<=\s\s))\S.*?(?=\s\s|\s*$)")

Geometry = tuple[tuple[int, int], ...]


def _geometry(text: str) -> Geometry | None:
    """Where a rule row's runs start and end (one per column), or None for another row."""
    if not (TABLE_HEAVY.match(text) or TABLE_LIGHT.match(text)):
        return None
    return _runs(text)


def _runs(text: str) -> Geometry:
    """The (start, end) cells of a rule row's runs."""
    return tuple((m.start(), m.end()) for m in RULE_RUN.finditer(text))


def _fits(text: str, geo: Geometry) -> bool:
    """A cell row laid out on these columns: each cell sits inside a rule
    run, one cell in from its start (left-aligned) or from its end (a column
    the markdown aligned right, `--:`). (Centred cells are not taken: the
    tail of a cell wrapped in another layout would pass for one.)"""
    return all(any(_aligned(m.start(), m.end(), s, e) for s, e in geo) for m in CELL_TEXT.finditer(text))


def _aligned(lo: int, hi: int, s: int, e: int) -> bool:
    """The cell text at [lo, hi) is aligned in the column whose rule run is [s, e)."""
    if lo < s + 1 or hi > e - 1:
        return False
    return lo == s + 1 or hi == e - 1


def _drawings(labeled: list[Labeled], lo: int, hi: int) -> list[list[int]]:
    """The rows of one run of table rows, split where the column layout changes.

    A cell row between the last rule of one layout and the first of the next
    belongs to the first while its cells sit on the first's columns
    (positions in terminal cells: read by characters, a CJK cell row sat on
    no rule and went to the next layout, leaving its header and heavy rule
    alone to be taken for an older copy).
    """
    out: list[list[int]] = [[]]
    geo: Geometry | None = None
    pending: list[int] = []  # cell rows since the last rule
    for i in range(lo, hi):
        g = _geometry(_cols_text(labeled[i].line.text))
        if g is None:
            pending.append(i)
            continue
        if geo is not None and g != geo:
            k = 0
            while k < len(pending) and _fits(_cols_text(labeled[pending[k]].line.text), geo):
                k += 1
            out[-1].extend(pending[:k])
            out.append(pending[k:])
        else:
            out[-1].extend(pending)
        pending = []
        out[-1].append(i)
        geo = g
    out[-1].extend(pending)
    return [d for d in out if d]


def _drop_redrawn_tables(labeled: list[Labeled]) -> None:
    """Rows of a table Codex drew again go, in their older drawing.

    While an answer streams, Codex lays a table out anew as rows arrive
    (columns widen, cells wrap elsewhere). In a short view no row of the
    new drawing equals one of the old, so the stitcher keeps both, one
    after the other; the new one may lack its top rows, which had scrolled
    away. The older drawing's rows from the end back, as long as their
    words all come back in the later drawings, are that older copy: they
    go; the rows before them are the top the later drawing lacks.
    """
    n = len(labeled)

    def body(k: int) -> bool:
        return bool(labeled[k].line.text.strip()) and labeled[k].kind in ("cont", "assistant")

    i = 0
    while i < n:
        if not body(i):
            i += 1
            continue
        j = i
        while j < n and body(j):
            j += 1
        draws = _drawings(labeled, i, j)
        # Inline mode: a live area taller than the screen is pushed into
        # history whole, composer included, and drawn again under it. Rows
        # after such a pushed composer (blank and chrome rows between) go on
        # the same run, as the next drawing.
        while j < n and labeled[j].line.source != "alt":
            k, composer = j, False
            while k < n and not body(k) and labeled[k].kind in ("blank", "chrome"):
                composer = composer or labeled[k].rule == "placeholder"
                k += 1
            if not composer or k >= n or not body(k) or labeled[k].kind != "cont":
                break
            for g in range(j, k):
                if labeled[g].kind == "blank":
                    labeled[g].kind, labeled[g].rule = "chrome", "live-area"
            j = k
            while j < n and body(j):
                j += 1
            draws += _drawings(labeled, k, j)
        for d, rows in enumerate(draws[:-1]):
            later = Counter(w for e in draws[d + 1:] for r in e
                            for w in TABLE_WORD.findall(labeled[r].line.text))
            kept = len(rows)
            for k in range(len(rows) - 1, -1, -1):
                words = Counter(TABLE_WORD.findall(labeled[rows[k]].line.text))
                if words - later:
                    break
                later -= words
                kept = k
            # The rules right under the last row kept stay with it when the
            # next drawing opens on a cell row (its own rule above it scrolled
            # away): a rule holds no words, so it always "comes back" later,
            # but it is the kept rows' own (the header's heavy rule, the
            # light rule closing a body row), and without it they are read
            # as no table at all.
            nxt = draws[d + 1][0]
            while (0 < kept < len(rows) and _geometry(_cols_text(labeled[nxt].line.text)) is None
                   and _geometry(_cols_text(labeled[rows[kept]].line.text)) is not None):
                kept += 1
            for r in rows[kept:]:
                lb = labeled[r]
                if lb.kind == "assistant":
                    lb.body = ""  # the answer's marker row: the turn stays open
                else:
                    lb.kind, lb.rule, lb.body = "chrome", "table-redrawn", ""
        i = j


def _cols(text: str) -> list[str]:
    """The row as terminal cells: a wide character, then '' for its second cell."""
    if text.isascii():
        return list(text)  # no ASCII character is wide
    out: list[str] = []
    for ch in text:
        out.append(ch)
        if wcwidth(ch) == 2:
            out.append("")
    return out


def _slice(cells: list[str], lo: int, hi: int | None) -> str:
    return "".join(cells[lo:hi]).strip()


def _tables_as_markdown(text: str) -> str:
    """A table drawn as a box grid, read back as the markdown it came from.

    Codex draws a markdown table as columns under a heavy rule, wrapping a
    long cell onto the rows under it, inside its own column, and puts a
    light rule between table rows. Read row by row, the wrapped cells of a
    row interleave; read column by column between two rules (positions
    from the rule's runs, in terminal cells), each cell comes back whole:
    `| a | b |` rows, the header over `|---|`.
    """
    rows = text.split("\n")
    if not any(TABLE_HEAVY.match(r) for r in rows):
        return text
    out: list[str] = []
    i = 0
    while i < len(rows):
        if i + 1 < len(rows) and rows[i].strip() and TABLE_HEAVY.match(rows[i + 1]):
            geo = _runs(_cols_text(rows[i + 1]))
            # every row read as cells must sit on a rule's columns. The rows
            # of one table may come from two drawings (the older one's top,
            # the newer one's rest): each row is read on the columns of the
            # rule it sits on.
            head = _header_cells(rows, i, geo)
            if head is not None:
                ncol = len(geo)
                # a header cell wrapped: the header's rows above, right over
                # it, on the rule's columns (a blank row parts the table from
                # the text before it)
                above: list[list[str]] = []
                while (out and out[-1].strip() and not out[-1].lstrip().startswith("|")
                       and _fits(_cols_text(out[-1]), geo)):
                    above.insert(0, _cells(out.pop(), geo))
                groups: list[list[list[str]]] = [above + [head], []]
                j = i + 2
                while j < len(rows) and rows[j].strip():
                    g = _geometry(_cols_text(rows[j]))
                    if TABLE_HEAVY.match(rows[j]) or (g is not None and len(g) != ncol):
                        break  # the next table
                    if g is not None:
                        geo = g
                        groups.append([])
                    else:
                        on = geo if _fits(_cols_text(rows[j]), geo) else _next_rule(rows, j, ncol)
                        if on is None or not _fits(_cols_text(rows[j]), on):
                            break  # the text after the table
                        groups[-1].append(_cells(rows[j], on))
                    j += 1
                for n, group in enumerate(grp for grp in groups if grp):
                    texts = [_join_cell([r[c] for r in group]) for c in range(ncol)]
                    out.append("| " + " | ".join(texts) + " |")
                    if n == 0:
                        out.append("|" + "|".join("---" for _ in range(ncol)) + "|")
                i = j
                continue
        out.append(rows[i])
        i += 1
    return "\n".join(out)


# A record row of a table too wide for the screen: the column name at one
# cell past the rule's start, the cell text after a gap of two or more.
RECORD_ROW = regex.compile(r"^(?P<key>\S(?:\S| (?! ))*)(?:\s{2,}(?P<val>\S.*?))?\s*$")


def _record_row(cells: str, col: int) -> tuple[str, str, int] | None:
    """(name, text, text column) of a record row whose name starts at `col`,
    or None."""
    if len(cells) <= col or cells[:col].strip() or cells[col] == " ":
        return None
    m = RECORD_ROW.match(cells[col:])
    if m is None:
        return None
    # the text without the fillers `_cols_text` put after wide characters
    return (m.group("key").replace("\x00", ""), (m.group("val") or "").replace("\x00", ""),
            col + m.start("val") if m.group("val") else -1)


def _records_as_markdown(text: str) -> str:
    """A table too wide for the screen, read back as the markdown it came from.

    When a table's columns cannot fit the width, Codex draws each body row
    as a record instead: one row per column, the column's name (bold, in
    the accent colour) one cell in from the rule's start, its cell text at
    one column for the whole table (a long cell wraps under itself), and a
    light rule as wide as the body between two records. Read back: the
    names of the first record are the header, each record one `| a | b |`
    row. Taken only when every record names the same columns in the same
    order, with at least two records and two columns.
    """
    rows = text.split("\n")
    if not any(TABLE_LIGHT.match(r) for r in rows):
        return text
    cols = [_cols_text(r) for r in rows]
    out: list[str] = []
    done = 0  # rows before this one are in `out` already, converted or not
    i = 0
    while i < len(rows):
        g = _geometry(cols[i]) if TABLE_LIGHT.match(rows[i]) else None
        if g is None or len(g) != 1:
            out.append(rows[i])
            i += 1
            continue
        rule, col = g, g[0][0] + 1
        # the first record: the rows right above the rule, from its first name row
        lo = i
        while (lo > done and rows[lo - 1].strip() and not TABLE_LIGHT.match(rows[lo - 1])
               and not cols[lo - 1][:col].strip()):
            lo -= 1
        while lo < i and _record_row(cols[lo], col) is None:
            lo += 1
        records: list[list[list[str]]] = [[]]
        vcol = None
        j, ok = lo, True
        while j < len(rows) and rows[j].strip():
            if TABLE_LIGHT.match(rows[j]):
                if _geometry(cols[j]) != rule:
                    break
                records.append([])
                j += 1
                continue
            rec = _record_row(cols[j], col)
            if rec is not None:
                key, val, vc = rec
                if vc >= 0 and vcol is not None and vc != vcol:
                    ok = False
                    break
                vcol = vc if vc >= 0 else vcol
                records[-1].append([key, val])
            elif records[-1] and vcol is not None and not cols[j][:vcol].strip():
                records[-1][-1][1] = _join_cell([records[-1][-1][1], rows[j].strip()])  # a wrapped cell
            else:
                break
            j += 1
        while records and not records[-1]:
            records.pop()
        names = [[k for k, _ in r] for r in records]
        full = names[1] if len(names) > 1 else []
        # the first record may lack its top rows (scrolled away before the
        # view was kept), the last its end (the answer cut short)
        if (not ok or len(records) < 2 or len(full) < 2 or any(n != full for n in names[1:-1])
                or names[0] != full[len(full) - len(names[0]):] or names[-1] != full[:len(names[-1])]):
            out.append(rows[i])
            i += 1
            continue
        del out[len(out) - (i - lo):]
        head = "| " + " | ".join(full) + " |"
        cells = [[v for _, v in r] for r in records]
        # A shrink while the table streamed: its first rows drawn as a grid
        # (read back above as markdown, right over the records) and the
        # rest as records, whose first may repeat the grid's last row, or
        # its end only, the top having scrolled away. One table.
        k = len(out)
        while k > 0 and out[k - 1].startswith("|"):
            k -= 1
        if k < len(out) - 2 and out[k] == head and out[k + 1].startswith("|---"):
            last = [c.strip() for c in out[-1].strip()[1:-1].split(" | ")]
            if len(last) == len(full) and last[len(last) - len(cells[0]):] == cells[0]:
                cells.pop(0)
        else:
            out.append(head)
            out.append("|" + "|".join("---" for _ in full) + "|")
        for n, vals in enumerate(cells):
            pad = [""] * (len(full) - len(vals))
            out.append("| " + " | ".join(pad + vals if n == 0 and len(records) > 1 else vals + pad) + " |")
        i = done = j
    return "\n".join(out)


def _header_cells(rows: list[str], i: int, geo: Geometry) -> list[str] | None:
    """The cells of the header row `i` over the heavy rule laid out at `geo`,
    or None when the rows are no table.

    While a table streams Codex lays it out again as rows arrive (columns
    widen); on a short screen the header of an older layout may have
    scrolled away before the last layout was drawn, so the stitched view
    holds an older header over the newer rule. Such a header still parts
    its cells by gaps of two blanks: when it has one per column and the row
    under the rule sits on the rule's columns, those are its cells.
    """
    if len(geo) < 2:
        return None
    head = _cols_text(rows[i])
    if _fits(head, geo):
        return _cells(rows[i], geo)
    parts = [m.group().replace("\x00", "") for m in CELL_TEXT.finditer(head)]
    below = rows[i + 2] if i + 2 < len(rows) else ""
    if len(parts) == len(geo) and below.strip() and _fits(_cols_text(below), geo):
        return parts
    return None


def _cells(row: str, geo: Geometry) -> list[str]:
    """The row's text in each column of a rule laid out at `geo` (terminal cells)."""
    cells = _cols(row)
    starts = [s for s, _ in geo]
    return [_slice(cells, lo, hi) for lo, hi in zip(starts, starts[1:] + [None])]


def _next_rule(rows: list[str], j: int, ncol: int) -> Geometry | None:
    """The columns of the next rule row with `ncol` runs, within the table."""
    for k in range(j + 1, len(rows)):
        if not rows[k].strip():
            return None
        g = _geometry(_cols_text(rows[k]))
        if g is not None:
            return g if len(g) == ncol else None
    return None


def _join_cell(parts: list[str]) -> str:
    """A cell's rows joined: a word the wrap cut after its hyphen stays one."""
    out = ""
    for p in parts:
        if not p:
            continue
        out = out + p if out.endswith("-") or not out else out + " " + p
    return out


def _cols_text(text: str) -> str:
    """The row with a wide character counted as two cells (rule positions are
    cells); its second cell is a filler that is not a space, so a space after
    a wide character is not read as the gap between two columns."""
    return "".join(c if c else "\x00" for c in _cols(text))


# a prompt's words as a reprint at another width restates them: each wide
# ideograph is a word of its own (a run of them wraps anywhere)
PROMPT_WORD = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]|[^\W\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]+")


def _drop_reprinted(labeled: list[Labeled]) -> None:
    """Inline mode: what came before a reprinted header card is an older copy.

    With `--no-alt-screen`, Codex clears the screen and prints the whole
    conversation again, from its header card, after a resize and when a
    table it streams grows taller than the screen. The fold of reprints
    (`transcript.fold_redraws`) matches the copies by words; when the older
    copy holds the live area pushed into history by that tall table (one
    drawing of the table and the composer per push) the words no longer
    line up and both copies stay. The prompts are what a reprint restates
    for sure: a stretch from one header card to the next whose prompts
    open the next stretch, in order, is an older copy.

    A drag of the window's edge brings a resize every tenth of a second:
    each clears and starts a reprint that the next one cuts short, so the
    stretch after an older copy may be a cut reprint holding only its first
    prompts. A stretch is an older copy when any later stretch restates its
    prompts, in order; a prompt is compared by the words its first row holds
    at both widths (a narrower reprint wraps it sooner), each wide ideograph
    a word (a prompt of Chinese or Korean wraps inside a run of them).
    """
    def panel(i: int) -> bool:
        # `/status` prints a card that opens with the same header: the
        # command's panel (first row after its echo), not a reprint
        j = i - 1
        while j >= 0 and labeled[j].kind == "blank":
            j -= 1
        return j >= 0 and labeled[j].rule == "slash-command"

    heads = [i for i, lb in enumerate(labeled)
             if lb.rule == "header" and lb.line.source != "alt" and not panel(i)]
    if len(heads) < 2:
        return
    bounds = heads + [len(labeled)]

    def prompts(lo: int, hi: int) -> list[list[str]]:
        return [PROMPT_WORD.findall(labeled[i].body)[:6] for i in range(lo, hi) if labeled[i].kind == "user"]

    def typing(lo: int, hi: int) -> bool:
        # the stretch ends on its last prompt, nothing drawn under it: the
        # composer caught while the prompt was being typed (Codex clears and
        # redraws its header card at start-up, the text typed so far in the
        # composer under it), not a prompt sent
        last = next((i for i in range(hi - 1, lo - 1, -1) if labeled[i].kind not in ("blank", "chrome")), None)
        return last is not None and labeled[last].kind == "user"

    def restated(old: list[list[str]], new: list[list[str]], typed: bool) -> bool:
        if not old or len(new) < len(old):
            return False
        for k, (a, b) in enumerate(zip(old, new)):
            if typed and k == len(old) - 1 and a and "".join(b).startswith("".join(a)):
                continue  # the prompt as typed so far
            n = min(len(a), len(b))
            if a[:n] != b[:n] or (n < min(3, max(len(a), len(b)))):
                return False
        return True

    said = [prompts(bounds[k], bounds[k + 1]) for k in range(len(heads))]
    for k in range(len(heads) - 1):
        lo, mid = bounds[k], bounds[k + 1]
        typed = typing(lo, mid)
        if not any(restated(said[k], said[j], typed) for j in range(k + 1, len(heads))):
            continue
        for i in range(lo, mid):
            lb = labeled[i]
            if lb.kind != "blank":
                lb.kind, lb.rule, lb.body = "chrome", "reprinted", ""


def _card_rows(labeled: list[Labeled], card: list[bool]) -> None:
    """Rows rows() marked as a prompt card's are the prompt's, with the
    blank rows between them (Codex spaces the card's markdown blocks)."""
    last = None  # the prompt row or card row the next card row continues
    for k, lb in enumerate(labeled):
        if card[k]:
            lb.kind, lb.rule, lb.body = "cont", "prompt-card", lb.line.text
            if last is not None:
                for g in range(last + 1, k):
                    labeled[g].kind, labeled[g].rule, labeled[g].body = "cont", "prompt-card", ""
            last = k
        elif lb.kind == "user":
            last = k
        elif lb.kind != "blank":
            last = None


def _inline_card_rows(labeled: list[Labeled]) -> None:
    """Inline mode: the rows of a prompt's card after a blank row are the prompt's.

    Codex spaces the blocks of a markdown prompt (a heading, a quote, a
    list, a code block) with blank rows inside its card, every row indented
    two; in the normal scrollback the card's background is gone. Everything
    Codex draws after a prompt opens at column 0 (`• ` answers and calls,
    `■ ` notices, `✔ ` decisions) or is chrome (`Worked for`, tips): rows
    indented two before any of those are the card's.
    """
    n = len(labeled)
    for i, lb in enumerate(labeled):
        if lb.kind != "user" or lb.line.source == "alt":
            continue
        j, last = i + 1, i
        while j < n:
            t = labeled[j]
            text = t.line.text
            if t.line.source == "alt" or t.kind == "chrome" or t.kind == "user" or t.kind == "system":
                break
            if text.strip():
                if not text.startswith("  "):
                    break
                last = j
            j += 1
        for g in range(i + 1, last + 1):
            t = labeled[g]
            if t.kind == "blank" or t.kind in ("assistant", "cont", "tool_call", "tool_result"):
                t.kind, t.rule = "cont", "prompt-card"
                t.body = t.line.text if t.line.text.strip() else ""


def _prompt_lists(labeled: list[Labeled]) -> None:
    """List rows right under a prompt (after its blank row) are the prompt's.

    An answer opens with its own `• ` marker at column 0; rows indented two
    with a list marker, right after a prompt and one blank row, are the
    list the user typed, rendered. They run to the next blank row.
    """
    i, n = 0, len(labeled)
    while i < n:
        if labeled[i].kind != "user":
            i += 1
            continue
        j = i + 1
        while j < n and labeled[j].kind == "cont" and labeled[j].line.text.strip():
            j += 1  # the prompt's own continuation rows
        if j + 1 < n and labeled[j].kind == "blank" and PROMPT_LIST_ROW.match(labeled[j + 1].line.text):
            k = j + 1
            while k < n and labeled[k].line.text.strip() and labeled[k].line.text.startswith("  "):
                labeled[k].kind, labeled[k].rule, labeled[k].body = "cont", "prompt-list", labeled[k].line.text
                k += 1
            for lb in labeled[j:j + 1]:
                lb.kind, lb.rule, lb.body = "cont", "prompt-list", ""
            i = k
        else:
            i = j
    return None


def _answer_rows_like_output(labeled: list[Labeled]) -> None:
    """`  └ two frames of capped brood` after a blank row of an answer, or
    under answer rows that follow a blank row (`  • port shroud: …` /
    `  └ replace before …`), is the answer's own text (a line the model
    opened with the glyph), not a call's output: Codex draws a call's `└`
    row right under the call's marker row and its wrapped rows, never after
    a blank row."""
    opened = None  # kind of the last block opened
    for k, lb in enumerate(labeled):
        if lb.kind == "tool_result" and lb.rule == "tool-output" and opened == "assistant" and k > 0:
            up = k - 1
            while up > 0 and labeled[up].kind == "cont" and labeled[up].line.text.strip():
                up -= 1
            if labeled[up].kind == "blank":
                lb.kind, lb.rule, lb.body = "cont", "answer-row", lb.line.text
        elif lb.kind in MARKER_KINDS:
            opened = lb.kind


def _resume_rows_in_answer(labeled: list[Labeled]) -> None:
    """Codex's exit hint is three rows in a fixed order: `To continue this
    session, run:`, `  codex resume <id>`, `Or run codex resume and select
    …`. A `codex resume …` or `Or run codex resume …` row whose nearest
    non-blank row above is not the hint's row before it is the answer's own
    text (a model that tells the user how to resume), not the exit hint."""
    prev: Labeled | None = None  # the nearest hint row above, through rows the terminal's autowrap carried it on to
    carried = False
    for lb in labeled:
        if lb.kind == "blank":
            continue
        if lb.rule == "resume-hint":
            text = lb.line.text.strip()
            above = prev.line.text.strip() if prev is not None else ""
            if text.startswith("codex resume"):
                head = above.startswith("To continue this session")
            elif text.startswith("Or run"):
                head = above.startswith("codex resume")
            else:
                head = True
            if not head:
                lb.kind, lb.rule, lb.body = "cont", "answer-row", lb.line.text
                prev = None
            else:
                prev = lb
        elif not carried:
            prev = None
        carried = lb.line.wrapped


def _explore_call(row: str) -> Turn | list[Turn] | None:
    """One `└ Read a, b` row stands for one call per file: Codex folds
    consecutive reads (parallel or chained) into one row, names joined by
    `, `. Other verbs (`Search pattern in dir`) keep their row whole."""
    m = EXPLORE_ITEM.match(row)
    if not m:
        return None
    verb, arg = m.group("verb"), m.group("arg").strip()
    parts = [a.strip() for a in arg.split(", ")] if verb == "Read" else [arg]
    calls = [Turn("tool_call", f"{verb} {a}", name=verb.lower()) for a in parts if a]
    return calls[0] if len(calls) == 1 else (calls or None)


PROFILE = CodexProfile()


def _past_body(labeled: list, k: int) -> int:
    """The index after row k's non-blank continuation rows: where a call's
    `└` output would start."""
    j = k + 1
    while j < len(labeled) and labeled[j].kind == "cont" and labeled[j].line.text.strip():
        j += 1
    return j
