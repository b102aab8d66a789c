"""OpenCode: chrome rules and turn segmentation.

Checked against OpenCode 1.18.33 (OpenTUI, full-screen on the alternate
screen, every update a full redraw in a synchronized block; resizes).

Screen anatomy:
- home screen: the block-letter logo, a centred input box with a
  placeholder (`Ask anything… "Fix broken tests"`), tips (`● Tip …`);
- conversation: a submitted prompt is a bar `┃  text` whose `┃` is drawn
  in the accent colour; a bash call is a bar whose `┃` has the page
  colour (so it shows as a panel edge): `$ cmd`, then the output, `…` and
  `Click to expand`; other tools are one row `→ Read file`, `✱ Glob …`,
  `← Edit …`; answers are plain text indented under the bars; each turn
  ends with `▣  Build · Model · 4.0s`;
- a sidebar on wide terminals (session title, context, LSP) in its own
  background colour at the right;
- the input box at the bottom (bars, `Build · Model`, `╹▀▀▀`), the status
  row under it (`esc interrupt`, `ctrl+p commands`, version), the slash
  command menu above it;
- at exit, on the main screen: the logo and `Continue  opencode -s …`.

The two kinds of bar differ only in colour, so `rows()` rewrites a tool
bar's `┃` as `│` before the rules see the text.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Iterable

import regex
from wcwidth import wcswidth

from agents_chrome.grids import drop_row_drafts, merge_grid_layouts
from agents_chrome.profile import ChromeProfile, per_frame
from agents_chrome.rules import Labeled, LineRule
from agents_chrome.segment import segment
from agents_chrome.transcript import TLine
from agents_chrome.turns import Turn
from agents_chrome.wraps import broken_token
from screen.cast import CastHeader
from screen.frames import Frame
from screen.memo import IdentityMemo

BOX_BOTTOM = regex.compile(r"^\s*╹▀{10,}")
#: the input box's bottom edge, to its last cell
BOX_EDGE = regex.compile(r"^\s*╹▀+")
BAR = "┃"
#: a row holding nothing but the rest of the input box's bottom edge
WRAPPED_EDGE = regex.compile(r"^▀{4,}\s*$")
TOOL_ICON = regex.compile(r"^\s*(?P<icon>[→←✱⚙◇%⊕⟳✎])\s+(?P<name>[A-Z][\w-]*)\s*(?P<arg>.*)$")
#: the title row opening a tool panel other than bash's (`# Wrote plan.md`,
#: `← Edit notes.txt`): an icon, a capitalised verb, its argument
PANEL_HEAD = regex.compile(r"^\s*│\s\s(?P<icon>[#→←✱⚙◇%⊕⟳✎])\s(?P<name>[A-Z][\w-]*)(\s+(?P<arg>\S.*))?$")
#: a tool's one-row title while it runs (not bash's panel): a spinner where
#: its icon settles
RUNNING_TOOL = regex.compile(r"^\s*[\u2800-\u28ff]\s+(?P<name>[A-Z][\w-]*)\s*(?P<arg>.*)$")
#: a bash panel's title while the command runs: a spinner where `$` settles
RUNNING_BASH = regex.compile(r"^\s*│\s\s[\u2800-\u28ff]\s+(?P<cmd>\S.*)$")
#: a tool panel's edge: its bar in the conversation's margin (the prompt
#: bar's column). An answer's own `│` (a tree's branch, a box's side, a
#: blockquote) stands at the answer column or further in
PANEL = r"^\s{0,3}│"
PANEL_OUTPUT = regex.compile(PANEL + r"\s\s(?P<body>.*)$")
#: a row of the slash-command menu drawn above the input box
SLASH_MENU_ROW = regex.compile(r"^\s*┃\s/[\w-]+\s")
#: panel titles that name the tool by what it did
PANEL_VERBS = {"wrote": "write", "todos": "todowrite"}


#: a row of a table drawn as a box grid in an answer: its cells, or a border
GRID_CELLS = regex.compile(r"^(?P<ind>\s+)│(?P<cells>(?:[^│]*│){2,})$")
RULE_ROW = regex.compile(r"^(?P<ind>\s{3,})─{3,}$")
_BOLD_MEMO_MAX = 8192  # rows remembered by `_bold_marked_memo` (a few screens' worth of distinct rows)
_ROW_MEMO_MAX = 8192  # rows remembered by `OpenCodeProfile.rows`, the same way
GRID_BORDER = regex.compile(r"^(?P<ind>\s+)[┌├└][─┬┼┴]+[┐┤┘]$")
#: the column an answer's text starts at (under the prompt bar's text, like
#: the turn footer's `▣`), at every width
ANSWER_COLUMN = 5
#: a bash call's row before its panel opens, at the answer column
PENDING_BASH = " " * ANSWER_COLUMN + "$ "


def _table_row(text: str) -> str:
    """A box-grid table row with its cells' padding squeezed to one space.

    OpenCode sizes a table's columns to the rows it has so far and widens
    them as more stream in, so one table is drawn at several column widths
    while its answer streams; squeezed, every drawing of a row is the same
    text, and the stitcher sees one table.
    """
    if "│" not in text and "─" not in text and "┌" not in text and "├" not in text and "└" not in text:
        return text  # every pattern below needs one of them
    m = GRID_CELLS.match(text)
    if m:
        cells = [c.strip() for c in m.group("cells").split("│")[:-1]]
        return m.group("ind") + "│ " + " │ ".join(cells) + " │"
    m = RULE_ROW.match(text)
    if m:
        # a markdown thematic break (`---`), drawn as a rule the width of the
        # answer column: its source, the same at every width
        return m.group("ind") + "---"
    m = GRID_BORDER.match(text)
    if m:
        # A rule is the same row under every table row and moves down under
        # the last while the table streams: kept to its two corners, it is too
        # short to anchor a view's place (rules alone would align a view that
        # jumped past a whole screen with the rows it replaced)
        edge = text.strip()
        return m.group("ind") + edge[0] + edge[-1]
    return text


Cells = tuple[str, ...]


class _GridSeen(dict[tuple[Cells, ...], tuple[Cells, ...]]):
    """`_merge_grid_rows`' `seen` for one transcript, counting the writes that
    change it (`version`): a frame's rows read again are the rows read before
    only while it did not change (`OpenCodeProfile.rows`)."""

    version = 0

    def __setitem__(self, key: tuple[Cells, ...], value: tuple[Cells, ...]) -> None:
        if self.get(key) != value:
            self.version += 1
            super().__setitem__(key, value)


def _merge_grid_rows(rows: list[str], seen: dict[tuple[Cells, ...], tuple[Cells, ...]] | None = None
                     ) -> list[str | None]:
    """Rows of a box-grid table with each table row on one screen row.

    OpenCode draws a rule (`├─┼─┤`) between every two table rows, so
    consecutive cell rows with no rule between are one table row whose
    cells were too long for their columns: the text goes on, cut by
    character (a space kept where it fell), in the same column of the rows
    under it. Joined cell by cell, a row reads the same at every width; a
    narrow terminal otherwise draws it as rows that exist at no other width,
    and the stitcher cannot align the table's drawings while it streams.

    A table row at the very top of the screen may be cut: its first drawn
    rows scrolled off. `seen` (kept across the frames of one recording)
    maps the last drawn rows of every whole table row met so far to all of
    them, so a cut row that was once drawn whole is read whole.
    """
    out: list[str | None] = []
    group: list[tuple[str, Cells]] = []

    def flush() -> None:
        drawn = tuple(c for _, c in group)
        if group and not out:
            whole = seen.get(drawn) if seen is not None else None
            if whole is not None:
                drawn = whole
            elif not all(c.strip() for c in drawn[0]):
                # the screen's top row continues a table row cut off above it
                # (a blank cell: that cell's text ended in the part above; the
                # first row of a table row has text in every cell): what is
                # left is no row, and it may stand for any
                out.extend([None] * len(group))
                group.clear()
                return
        elif seen is not None:
            for k in range(1, len(drawn)):
                seen[drawn[k:]] = drawn
        ind = group[0][0] if group else ""
        if len(drawn) > 1 and len({len(c) for c in drawn}) == 1:
            cells = [" ".join("".join(parts).split()) for parts in zip(*drawn)]
            out.append(ind + "│" + "│".join(cells) + "│")
        else:
            out.extend(ind + "│" + "│".join(c) + "│" for c in drawn)
        group.clear()

    for text in rows:
        # a grid row has a bar in it (flushing no group does nothing)
        m = GRID_CELLS.match(text) if text is not None and "│" in text else None
        if group and (m is None or m.group("ind") != group[0][0]):
            flush()
        if m is None:
            out.append(text)
        else:
            group.append((m.group("ind"), tuple(m.group("cells").split("│")[:-1])))
    flush()
    return out


def sidebar_start(frame: Frame) -> int | None:
    """Column where a right-hand panel with its own background begins.

    Asked twice of every frame (learning each width's column, the viewport):
    worked out once, kept on the frame (`Frame.memo`)."""
    memo = frame.memo
    try:
        return memo[sidebar_start]  # type: ignore[no-any-return]
    except KeyError:
        got = memo[sidebar_start] = _sidebar_start(frame)
        return got


def _sidebar_start(frame: Frame) -> int | None:
    cols = frame.columns
    starts: Counter[int] = Counter()
    rows = 0
    for spans in frame.styles:
        if not spans:
            continue
        rows += 1
        start = _SIDEBAR_ROWS.get(spans, cols, _sidebar_row, spans, cols)
        if start is not None:
            starts[start] += 1
    if not starts or rows == 0:
        return None
    col, n = starts.most_common(1)[0]
    return col if n >= 0.4 * rows else None


#: `_sidebar_row` of a row's spans (an unchanged row is the same spans tuple in
#: every frame: `SpanCache`) and the width
_SIDEBAR_ROWS = IdentityMemo(_ROW_MEMO_MAX)


def _sidebar_row(spans: tuple, cols: int) -> int | None:
    """Where a row's right-hand panel begins, when it has one (`sidebar_start`)."""
    page_bg = spans[0][3]
    # the trailing run of spans sharing one background that differs from the page
    tail = [s for s in spans if s[1] > cols // 2]
    if not tail or tail[-1][1] < cols:
        return None
    bg = tail[-1][3]
    if bg == page_bg:
        return None
    start = tail[-1][0]
    for s in reversed(tail[:-1]):
        if s[3] == bg and s[1] == start:
            start = s[0]
        else:
            break
    return start if start > cols // 2 else None


def _box_end(spans: list, first: tuple) -> int:
    """Where the box whose leftmost span is `first` ends: the last span of
    the box's background before the page's comes back. Spans of another
    background in between are inside the box (a picker's highlighted row
    paints all but its edge cells in the accent colour), so that row is as
    wide as the box's other rows and does not split the box in two."""
    page = spans[0][3]
    end = cur = first[1]
    for t in spans:
        if t[0] < first[1]:
            continue
        if t[0] != cur or t[3] == page:
            break
        cur = t[1]
        if t[3] == first[3]:
            end = t[1]
    return end


#: OpenCode's dialogs (the ctrl+p palette, /models) are about 60 columns
#: wide at any terminal width: a third of a wide terminal is more than that,
#: so a box narrower than a third counts when it is this wide and centred
DIALOG_MIN_WIDTH = 56


def inset_panel(frame: Frame) -> tuple[int, int, int, int] | None:
    """A centred rectangle in its own background over at least 3 rows: a modal
    dialog. Returns (top, bottom, left, right)."""
    cols = frame.columns
    margin = max(4, cols // 12)
    best: tuple[int, int, int, int] | None = None
    run_start, run_key = None, None
    for y in range(len(frame.lines) + 1):
        key = None
        if y < len(frame.lines):
            spans = frame.styles[y]
            key = _PANEL_ROWS.get(spans, cols, _panel_row, spans, cols, margin)
        if key != run_key:
            if run_key is not None and run_start is not None and y - run_start >= 3:
                best = (run_start, y, run_key[0], run_key[1])
            run_start, run_key = y, key
    return best


#: `_panel_row` of a row's spans and the width (the margin is the width's), as `sidebar_start` keeps rows
_PANEL_ROWS = IdentityMemo(_ROW_MEMO_MAX)


def _panel_row(spans: tuple, cols: int, margin: int) -> tuple[int, int, str] | None:
    """(left, right, background) of the dialog box a row shows, if any (`inset_panel`)."""
    page = spans[0][3] if spans else None
    for s in spans:
        # the first span that opens a box wide enough and clear of
        # the right edge: a tool panel's own background may run
        # under the dialog's left edge on some rows
        if s[3] == page or s[0] < margin:
            continue
        end = _box_end(spans, s)
        wide = end - s[0] >= cols // 3 or (end - s[0] >= DIALOG_MIN_WIDTH
                                           and abs(s[0] - (cols - end)) <= margin)
        if wide and cols - end >= margin:
            return (s[0], end, s[3])
    return None


def answer_body(text: str) -> str:
    """An answer row's text with its indentation past the answer column.

    OpenCode draws an answer as its markdown source (marks concealed), so a
    code block's lines and a nested list's items keep the source's leading
    spaces, drawn from the answer column on. Two or more are indentation and
    stay; a single one is where a word wrap broke the row (the space between
    two words opens the next row), not indentation."""
    rest = text.rstrip()
    lead = len(rest) - len(rest.lstrip(" "))
    if lead - ANSWER_COLUMN >= 2:
        return rest[ANSWER_COLUMN:]
    return rest.lstrip()


#: characters OpenCode's word wrap may break a row after, keeping them at the
#: row's end with no space dropped (a path's dot or slash, an option's dash,
#: a call's opening bracket)
NO_SPACE_BREAK = "([{./-\\"
#: rows a wrapped command may take past its title (a longer run is output)
WRAPPED_COMMAND_ROWS = 4


def join_wrapped_commands(labeled: list[Labeled]) -> None:
    """A settled bash panel draws `$ command`, an empty bar row, then the
    output: a command too long for the panel wraps onto the bar rows before
    that empty row. Those rows are the command's tail, not its output (rule
    `bash-wrapped`, kind `cont`, so the result opens after the empty row).
    Only when the empty row follows within a few rows: output drawn right
    under a title (a running panel, a stitch that lost the empty row) stays
    output."""
    i = 0
    while i < len(labeled):
        lb = labeled[i]
        i += 1
        if lb.kind != "tool_call" or lb.rule not in ("bash", "bash-running"):
            continue
        j = i
        while j < len(labeled) and labeled[j].rule == "tool-output" and labeled[j].kind == "cont":
            j += 1
        if i < j <= i + WRAPPED_COMMAND_ROWS and j < len(labeled) and labeled[j].rule == "empty-bar":
            for tail in labeled[i:j]:
                tail.rule = "bash-wrapped"
        i = j


def _title_shaped(labeled: list[Labeled], i: int) -> bool:
    """Whether the bash row `labeled[i]` is drawn as a panel's title: an
    empty bar row right under it, or under the few rows its command wrapped
    onto, its own row then filled so that the next row's first word did
    not fit on it."""
    j = i + 1
    while j < len(labeled) and j - i <= WRAPPED_COMMAND_ROWS and labeled[j].rule in ("tool-output", "bash"):
        j += 1
    if j >= len(labeled) or labeled[j].rule != "empty-bar" or j - i > WRAPPED_COMMAND_ROWS:
        return False
    if j == i + 1:
        return True
    row = labeled[i].line.text.rstrip()
    nxt = (PANEL_OUTPUT.match(labeled[i + 1].line.text) or None)
    word = nxt.group("body").split()[0] if nxt and nxt.group("body").split() else ""
    edge = max(wcswidth(lb.line.text.rstrip()) for lb in labeled[i:j])
    k = i
    while k > 0 and labeled[k - 1].line.text.lstrip().startswith("│"):
        k -= 1
        edge = max(edge, wcswidth(labeled[k].line.text.rstrip()))
    return wcswidth(row) + 1 + wcswidth(word) > edge


#: a row of a running bash title's command wrapped under it: at the
#: command's column, two cells right of where the settled panel's rows start
RUNNING_BASH_WRAP = regex.compile(r"^(?P<bar>\s*│)\s{4}(?P<rest>\S.*)$")
#: a running bash title's spinner drawn before its command (or with the
#: command above the view's top)
RUNNING_BASH_BARE = regex.compile(r"^(?P<bar>\s*│)\s\s[\u2800-\u28ff]\s*$")


def _settle_running_bash(rows: list[str | None]) -> None:
    """A bash panel's title while the command runs, as the settled title
    reads (in place). The running title has a spinner where `$` settles, and
    a command too long for its row goes on under it at the command's own
    column (`│    …`), two cells right of the settled panel's rows: the rows
    break at other places than the settled title's do. Stitched, the running
    rows laid the view that settled them over other text, and the view went
    on as a second copy of the turn. The spinner reads as `$` and the title
    row holds the whole command (the settled title's first row is a start of
    it; a panel that scrolled away before it settled keeps its command); the
    wrapped rows, which the settled view redraws, and a spinner drawn alone,
    read as the panel's bare bar."""
    for y, row in enumerate(rows):
        if row is None:
            continue
        bare = RUNNING_BASH_BARE.match(row)
        if bare is not None:
            rows[y] = bare.group("bar")
            continue
        m = RUNNING_BASH.match(row)
        if m is None:
            continue
        x = next(k for k, ch in enumerate(row) if "\u2800" <= ch <= "\u28ff")
        parts = [m.group("cmd")]
        k = y + 1
        while k < len(rows) and k - y <= WRAPPED_COMMAND_ROWS and rows[k] is not None:
            w = RUNNING_BASH_WRAP.match(rows[k])
            if w is None:
                break
            parts.append(w.group("rest"))
            rows[k] = w.group("bar")
            k += 1
        rows[y] = row[:x] + "$ " + join_command_rows(parts)


def join_command_rows(rows: list[str]) -> str:
    """A wrapped command's rows as one line: the wrap dropped the space it
    broke at, unless it broke after a dot, slash, dash or backslash."""
    out = ""
    for r in (r.strip() for r in rows):
        if r:
            out += r if not out or out[-1] in NO_SPACE_BREAK else " " + r
    return out


VS16 = "\ufe0f"


def drop_vs16_shadow(text: str) -> str:
    """A row without the cell OpenCode leaves behind an emoji presentation
    selector. OpenCode counts a narrow character followed by VS16 (❄️, ⚠️)
    as two cells and draws what follows two cells on; the terminal (as tmux
    3.3a) gives it one, so the cell between keeps whatever was drawn there
    before (a space, or a stray character of an older frame)."""
    if VS16 not in text:
        return text
    out = []
    i = 0
    while i < len(text):
        out.append(text[i])
        if (text[i] == VS16 and 0 < i and i + 1 < len(text)
                and wcswidth(text[i - 1]) == 1 and wcswidth(text[i + 1]) == 1):
            i += 2
            continue
        i += 1
    return "".join(out)


def _crop(frame: Frame, y: int, text: str, cut: int) -> str:
    """Row `y` up to column `cut` (the sidebar's edge). A wide character (CJK,
    most emoji) takes two columns for one character of the text, so on such
    a row a column is no index into the text: the cells say which characters
    lie left of the edge (else a row of ideographs kept the sidebar's text)."""
    cells = frame.cells[y] if frame.cells and y < len(frame.cells) else None
    if cells is not None:
        return "".join(c.data for c in cells[:cut]).rstrip() if len(cells) > cut else text
    return text[:cut].rstrip() if len(text) > cut else text


#: columns between the input box's right end and the terminal's right edge
#: (or the sidebar's left edge) in a settled layout, plus slack
BOX_RIGHT_SLACK = 6


def _narrower_layout(box_row: str, right: int) -> bool:
    """A frame drawn for a narrower terminal than it is on: the first frames
    after a grow, before OpenCode has taken the new size, still draw the old
    layout (its conversation rows cut at the old width, the cells to their
    right whatever the terminal left there), and OpenCode then reprints the
    whole conversation at the new width. The conversation's input box spans
    the layout (from column 2 to two columns short of `right`: the right
    edge, or the sidebar's left edge, this frame's or the one most frames of
    its width show): one that ends well short of that is the old layout. The
    home screen's box is centred (it starts further in) and is not this."""
    start = len(box_row) - len(box_row.lstrip())
    if start > 3:
        return False
    # After a grow that brings the sidebar in, the conversation gets
    # narrower: the old layout's box then runs past the sidebar's edge
    edge = BOX_EDGE.match(box_row)
    if edge is not None and edge.end() > right:
        return True
    return len(box_row.rstrip()) < right - BOX_RIGHT_SLACK


def _box_end_column(frame: Frame) -> int | None:
    """Where the conversation's input box ends (its bottom edge's last cell),
    the lowest one on the screen; None with no such box (the home screen's
    box is centred: it starts further in)."""
    for y in range(len(frame.lines) - 1, -1, -1):
        row = frame.lines[y]
        if BOX_BOTTOM.match(row):
            if len(row) - len(row.lstrip()) > 3:
                return None
            return len(row.rstrip())
    return None


#: columns between the layout's right edge (the terminal's, or the sidebar's
#: left edge) and the last column a word may end at with more text after it
#: on its row (the wrap keeps room for the space after it; a paragraph's last
#: row may reach one column further)
WRAP_MARGIN = 3
#: an answer's rows wrap like a command's (a code line broken inside `f(x.y)`)
WRAP_AFTER = NO_SPACE_BREAK
LIST_ITEM = regex.compile(r"^(?P<ind>\s*)(?P<mark>[-*+•]|\d+[.)])\s")


#: a numbered list item's row: its indentation and its number
NUMBERED = regex.compile(r"^(?P<ind> *)(?P<num>\d{1,3})\. \S")
#: the most columns a right-aligned number is pushed in (a list of 100 and more)
MAX_NUMBER_PAD = 2


#: rows -> `_unpad_numbers` of them: `rows` reads each frame twice, and a
#: frame often shows the rows the last one did
_UNPAD_MEMO: dict[tuple[str | None, ...], tuple[str | None, ...]] = {}


def _unpad_numbers_memo(rows: list[str | None]) -> list[str | None]:
    """`_unpad_numbers`, worked out once per distinct list of rows."""
    key = tuple(rows)
    got = _UNPAD_MEMO.get(key)
    if got is None:
        if len(_UNPAD_MEMO) >= 512:
            _UNPAD_MEMO.clear()
        got = _UNPAD_MEMO[key] = tuple(_unpad_numbers(rows))
    return list(got)


def _unpad_numbers(rows: list[str | None]) -> list[str | None]:
    """Rows of a numbered list with its numbers at the answer column.

    OpenCode right-aligns a numbered list's numbers: once an item `10.`
    streams in, it redraws items 1 to 9 (and the rows their text wraps
    onto) one column further in. Rows drawn before and after differ by
    that space, so on a screen the list fills, the stitcher finds no row
    it knows and lays the list down twice. Each item goes back to where a
    list short of ten draws it, with the rows its text wraps onto: a
    list's numbers all end in one column, and an item whose number is
    narrower than its widest sibling's is pushed in by the difference.
    Wrapped rows at the top of the screen, whose item scrolled off, belong
    to the item before the first one under them."""
    out = list(rows)
    n = len(out)
    y = 0
    while y < n:
        m = NUMBERED.match(out[y] or "")
        if m is None or not 0 <= len(m.group("ind")) - ANSWER_COLUMN <= MAX_NUMBER_PAD:
            y += 1
            continue
        end_col = len(m.group("ind")) + len(m.group("num"))  # where the list's numbers end
        hang = " " * (end_col + 2)  # where the items' text (and its wrapped rows) starts

        def pad(num: int) -> int:
            return end_col - len(str(num)) - ANSWER_COLUMN

        cut: list[tuple[int, int]] = []  # (row, columns to take out)
        if y > 0 and all((out[k] or "").startswith(hang) and out[k][len(hang)] != " " for k in range(y)):
            # the screen opens inside the item before this one
            cut.extend((k, pad(int(m.group("num")) - 1)) for k in range(y))
        z, item_pad, padded = y, 0, False
        while z < n:
            r = out[z] or ""
            mm = NUMBERED.match(r)
            if mm is not None and len(mm.group("ind")) + len(mm.group("num")) == end_col:
                item_pad = pad(int(mm.group("num")))
                if not 0 <= item_pad <= MAX_NUMBER_PAD:
                    break
                padded = padded or item_pad > 0
                cut.append((z, item_pad))
            elif r.startswith(hang) and r[len(hang)] != " ":
                cut.append((z, item_pad))
            elif r.strip():
                break
            z += 1
        if padded:
            for k, p in cut:
                if p > 0:
                    out[k] = out[k][p:]
        y = max(z, y + 1)
    return out


def _wide(ch: str) -> bool:
    return wcswidth(ch) == 2


#: text written without spaces between words (Chinese, Japanese), where a
#: wrap may break between any two characters
UNSPACED = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\u3000-\u303f\uff00-\uffef]")
#: a capitalised word: after a full stop it opens a sentence (the wrap broke
#: at the space after the stop), not the rest of `csv.DictReader`
SENTENCE_GOES_ON = regex.compile(r"\s\S+\s[\w,]*[\p{L},]$")
SENTENCE_START = regex.compile(r"^\p{Lu}\p{Ll}*[,;:.!?]?(\s|$)")


def _glued(tail: str, body: str, room: int = 0) -> bool:
    """Whether a row ending in `tail` and its continuation `body` were one
    word where the wrap broke them (no space between). `room`: the columns a
    row of that layout holds from its continuation column (0: unknown).

    OpenCode's wrap moves a run without spaces down whole, CJK included; it
    breaks inside a run only after CJK punctuation, or where a run wider
    than the whole row fills it to its edge. A row that ends at a CJK
    character or before one, with a run that would have fitted on a row of
    its own, broke at a space (`语言 服务器`, `fapizel 编码`)."""
    if UNSPACED.match(tail[-1]) or UNSPACED.match(body[0]):
        if room <= 0 or tail[-1] in CJK_BREAK_AFTER:
            return True
        run = wcswidth(tail.rsplit(" ", 1)[-1]) + wcswidth(_cjk_run(body).replace("**", ""))
        return run > room
    if tail[-1] not in WRAP_AFTER:
        return False  # a word's end: the wrap broke at a space
    return not (tail[-1] == "." and SENTENCE_START.match(body))


def _first_segment(text: str) -> str:
    """The shortest run a word wrap could have moved down whole: up to the
    first space, or to and with the first break character; one wide
    character (CJK breaks between any two)."""
    if text and (_wide(text[0]) or UNSPACED.match(text[0])):
        return text[0]
    for i, ch in enumerate(text):
        if ch == " ":
            return text[:i]
        if ch in WRAP_AFTER:
            return text[:i + 1]
    return text


#: CJK punctuation OpenCode's wrap may break after, as after a space: a run
#: of CJK text between two of them moves down whole (it breaks inside a run
#: only when the run is wider than the whole row)
CJK_BREAK_AFTER = "，。、；：！？）》」』】〉"


def _cjk_run(text: str) -> str:
    """The run a wrap that broke after CJK punctuation moved down whole: to
    and with the next such mark or break character, or up to a space."""
    for i, ch in enumerate(text):
        if ch == " ":
            return text[:i]
        if ch in CJK_BREAK_AFTER or ch in WRAP_AFTER:
            return text[:i + 1]
    return text


def _drop_repeated_paragraphs(labeled: list[Labeled]) -> None:
    """A prompt whose paragraphs read twice over in a row (A, B, A, B: the
    prompt and the copy a resize redrew right under it, in one bar) keeps
    its first copy; the second is chrome."""
    i = 0
    while i < len(labeled):
        if labeled[i].rule != "prompt":
            i += 1
            continue
        end = i + 1
        while end < len(labeled) and labeled[end].rule == "prompt-row":
            end += 1
        paras: list[tuple[int, str]] = []  # (first row, text) of each paragraph
        k = i
        while k < end:
            if not labeled[k].body.strip():
                k += 1
                continue
            first, words = k, []
            while k < end and labeled[k].body.strip():
                words.append(labeled[k].body)
                k += 1
            paras.append((first, " ".join(" ".join(words).split())))
        n = len(paras)
        if n >= 2 and n % 2 == 0 and [t for _, t in paras[:n // 2]] == [t for _, t in paras[n // 2:]]:
            cut = paras[n // 2][0]
            while cut > paras[n // 2 - 1][0] and not labeled[cut - 1].body.strip():
                cut -= 1
            for lb in labeled[cut:end]:
                lb.kind, lb.rule = "chrome", "prompt-redrawn"
        i = end


def _drop_rows_drawn_again(labeled: list[Labeled]) -> None:
    """While a tool call is written, the answer so far ends in a pending row
    (`~ Writing command…`) over the turn's footer; the view that replaces
    them with the tool's panel may start on the answer's last rows, and a
    stitch that does not place it there keeps them a second time under the
    footer. Answer rows right under such chrome that repeat the answer rows
    right above it are chrome."""
    for i, lb in enumerate(labeled):
        if lb.rule not in ("turn-footer", "pending-tool"):
            continue
        j = i + 1
        while j < len(labeled) and labeled[j].kind == "blank":
            j += 1
        if j < len(labeled) and labeled[j].rule in ("turn-footer", "pending-tool"):
            continue  # the run of chrome goes on: weighed at its last row
        end = j
        while end < len(labeled) and labeled[end].rule == "answer":
            end += 1
        k = i
        while k > 0 and (labeled[k - 1].kind in ("blank", "chrome")):
            k -= 1
        n = end - j
        above = labeled[max(0, k - n):k]
        if n and len(above) == n and all(a.rule == "answer" for a in above) \
                and [a.line.text.strip() for a in above] == [b.line.text.strip() for b in labeled[j:end]]:
            for lb2 in labeled[j:end]:
                lb2.kind, lb2.rule = "chrome", "answer-redrawn"


#: characters the prompt box's wrap breaks a word after, keeping them at the
#: row's end (a URL's slashes, dashes and query mark)
PROMPT_WRAP_AFTER = NO_SPACE_BREAK + "?"


def _prompt_wrap(row: Labeled, nxt: Labeled) -> bool:
    """Whether prompt row `nxt` goes on from `row` where the wrap broke a
    word, which has no space to give back: after a slash, dash or question
    mark inside a token (a URL) when its next piece would not have fitted;
    after CJK punctuation, when the run after it would not have fitted on
    the row; or between two CJK characters of a run wider than a row, which
    the wrap fills to its edge."""
    width = row.line.width
    tail, body = row.line.text.rstrip(), nxt.body.strip()
    if not width or not tail or not body:
        return False
    limit = width - WRAP_MARGIN
    if tail[-1] in PROMPT_WRAP_AFTER and not UNSPACED.match(body[0]):
        # a token too long for the row (a URL) broken after a slash, dash or
        # question mark when what follows would not have fitted
        return wcswidth(tail) + wcswidth(_first_segment(body)) > limit
    if tail[-1] in CJK_BREAK_AFTER:
        return wcswidth(tail) + wcswidth(_cjk_run(body)) > limit
    if UNSPACED.match(tail[-1]) and UNSPACED.match(body[0]):
        return wcswidth(tail) + wcswidth(body[0]) > limit
    if not row.body.strip() or any(c.isspace() for c in row.body.strip()) or body[0].isspace():
        return False
    # a token wider than the row (a key, a hash) takes a row of its own and
    # is cut where the row is full: the row holds nothing but that token, up
    # to the limit, and the next row goes on with it
    return wcswidth(tail) + wcswidth(body[0]) > limit


def _prompt_space_wrap(row: Labeled, nxt: Labeled) -> bool:
    """Whether prompt row `nxt` goes on from `row` where the word wrap broke
    at a space: the next row's first word (with the space before it) would
    not have fitted on the row. A line the user ended (the newline key)
    leaves room for it."""
    width = row.line.width
    tail, body = row.line.text.rstrip(), nxt.body.strip()
    if not width or not tail or not body or not row.body.strip():
        return False
    if UNSPACED.match(tail[-1]) or UNSPACED.match(body[0]):
        return False  # CJK breaks between characters: `_prompt_wrap`
    return wcswidth(tail) + 1 + wcswidth(_first_segment(body)) > width - WRAP_MARGIN


@dataclasses.dataclass
class AnswerRow:
    """One drawn answer row: its text as the screen shows it (indentation
    included), the layout's right limit it was wrapped at (0: unknown), and
    the blank rows drawn under it before the next answer row."""
    raw: str
    text: str
    limit: int
    blanks: int = 0


def unwrap_answer(rows: list[AnswerRow]) -> str:
    """An answer's rows as its lines: a row OpenCode's word wrap carried on
    to the next joins it, blank rows between rows stay (a code block's empty
    lines, the gap between paragraphs).

    The wrap puts what did not fit at the row's continuation column (the
    answer column for text and code, a list item's text column for the
    item), so a row there is a continuation when the previous row was laid
    out at the same width and the next row's first segment would not have
    fitted after it. The space the wrap broke at is given back, unless it
    broke after a bracket, dot, slash or dash."""
    out: list[str] = []
    hang = -1  # the continuation column of the line being built
    in_numbered = False  # whether that line is a numbered list's item
    prev: AnswerRow | None = None
    for row in rows:
        raw = row.raw.rstrip()
        lead = len(raw) - len(raw.lstrip(" "))
        body = raw.lstrip(" ")
        soft = False
        tail = prev.raw.rstrip().replace("**", "") if prev is not None else ""  # bold marks are not drawn
        # a word that ends on the row's last column pushes the space after it
        # to the next row's start
        pushed = prev is not None and lead == hang + 1 and wcswidth(tail) > prev.limit
        if (prev is not None and prev.blanks == 0 and out and row.limit and prev.limit
                and (lead == hang or pushed) and not LIST_ITEM.match(body) and "│" not in raw and "│" not in prev.raw):
            seg = _first_segment(body)
            if tail[-1] in CJK_BREAK_AFTER and UNSPACED.match(body[0]):
                # the row ended at a break CJK punctuation gives: what went
                # down is the run up to the next one, not one character
                seg = _cjk_run(body).replace("**", "")
            # a token wider than the whole row (a digest, base64) is broken
            # by character where the row ends, full to its edge (the row
            # reaches a column past the limit): wraps.broken_token
            glue = _glued(tail, body, prev.limit + 1 - hang) or (
                lead == hang and broken_token(tail, body, prev.limit + 2, prev.limit + 1 - hang))
            if not glue and (UNSPACED.match(tail[-1]) or UNSPACED.match(body[0])):
                # the run the wrap moved down whole, up to its space
                seg = _cjk_run(body).replace("**", "")
            need = wcswidth(tail) + (0 if glue else 1) + wcswidth(seg)
            if row.limit == prev.limit:
                # a numbered item's rows may have been drawn a column further
                # in than they read (`_unpad_numbers`: items 1 to 9 of a list
                # of ten and more), which took that column from its text
                soft = need > row.limit - (1 if in_numbered else 0)
            else:
                # A seam between two layouts (a resize mid-answer): the row
                # above may be the old layout's, cut where the stream was
                # when it was replaced, or a streaming row first seen before
                # the resize; the stitch joined the new layout's rest under
                # it. A sentence that goes on (a word's end or a comma, then
                # a lower-case word) is one line, as is a row that would not
                # fit in the narrower layout.
                soft = need > min(row.limit, prev.limit) or bool(
                    lead == ANSWER_COLUMN and len(prev.raw) - len(prev.raw.lstrip(" ")) == ANSWER_COLUMN
                    and SENTENCE_GOES_ON.search(tail) and body[0].islower())
            if soft:
                out[-1] += ("" if glue else " ") + body
        if not soft:
            if prev is not None:
                out.append("\n" * prev.blanks)
            out.append(row.text)
            item = LIST_ITEM.match(body)
            # a code line's or a paragraph's rest goes on at the answer column
            hang = lead + len(item.group(0)) if item else ANSWER_COLUMN
            in_numbered = bool(item) and item.group("mark")[0].isdigit()
        prev = row
    return _join_lines(out)


def _join_lines(parts: list[str]) -> str:
    text = ""
    for i, p in enumerate(parts):
        if p.startswith("\n") or p == "":
            text += p  # blank rows: extra newlines before the next line
        else:
            text += ("\n" if text else "") + p
    return text


class _LaidTime(float):
    """A frame's time that also names the width its layout wraps at."""
    __slots__ = ("width",)

    @classmethod
    def at(cls, time: float, width: int) -> "_LaidTime":
        t = cls(time)
        t.width = width
        return t


class OpenCodeProfile(ChromeProfile):
    name = "opencode"
    checked_versions = ("1.18.33",)
    commands = ("opencode",)
    resume_words = frozenset({"--continue", "-c", "--session", "-s"})  # `opencode --continue`, `opencode -s <id>`
    screen_signatures = (r"opencode -s ses_", r"OpenCode \d+\.\d+", r"ctrl\+p commands")
    join_answers = True
    #: OpenCode reprints the whole conversation at a new width; the old
    #: width's copy of a stream on a short screen may have holes, and its
    #: last row may be cut inside a word
    #: A panel's bare bar rows stand for no row of text, and the rows still
    #: settling at the document's end are its last rows with text (a pending
    #: `~ Reading file…` row sits over a blank row and the footer)
    layout_options = {"fuller_reprint": True, "cut_words": True, "bare_rows": False, "settling_text": True}
    rules = (
        LineRule("logo", "chrome", r"^\s*[█▀▄▐▌ ]{3,}$"),
        LineRule("logo-letters", "chrome", r"^\s*(█[▀▄ █]*){3,}\s*$"),
        LineRule("turn-footer", "chrome", r"^\s*▣\s+\S.*"),
        LineRule("session-exit", "chrome", r"^\s*(Session|Continue)\s{2,}\S"),
        LineRule("placeholder", "chrome", r"^\s*┃\s+Ask anything…"),
        LineRule("input-mode", "chrome", r"^\s*┃\s+(Build|Plan|General)\s+·\s+\S"),
        LineRule("tip", "chrome", r"^\s*●\s+Tip\b"),
        LineRule("status-hints", "chrome", r"(ctrl\+p commands|esc interrupt|tab agents|ctrl\+x\b|• OpenCode \d)"),
        LineRule("spinner-dots", "chrome", r"^\s*[⬝■]{4,}"),
        # a thinking model's reasoning, folded to one row once it ends
        LineRule("thought-fold", "chrome", r"^\s*[+−-]\s+Thought:\s+[\d.]+m?s\s*$"),
        LineRule("menu-row", "chrome", r"^\s*┃\s*/[\w-]+\s{2,}.*┃?\s*$"),
        LineRule("dialog-edge", "chrome", r"^\s*┃.*\s{4,}┃\s*$"),
        LineRule("expand", "chrome", PANEL + r"\s+(Click to expand|Click to collapse|…)\s*$"),
        LineRule("empty-bar", "blank", r"^\s*┃\s*$|" + PANEL + r"\s*$"),
        # a tool header while it runs: a braille spinner where the `$` or icon settles
        LineRule("running-tool", "chrome", r"^\s*(│\s\s)?[\u2800-\u28ff]\s+\S"),
        LineRule("slash-command", "system", r"^\s*┃\s+(?P<body>/[\w-]+.*)$"),
        LineRule("prompt", "user", r"^\s*┃\s\s(?P<body>.*)$"),
        LineRule("bash", "tool_call", PANEL + r"\s\s\$\s(?P<body>.*)$"),
        LineRule("tool-output", "cont", PANEL + r"\s\s(?P<body>.*)$"),
        LineRule("tool-icon", "tool_call", TOOL_ICON.pattern),
        # a tool call the model is still writing: `~ Writing command…`,
        # replaced by the tool's row or panel once its arguments are in
        LineRule("pending-tool", "chrome", r"^\s{3,}~\s+[A-Z][a-z]+\s.*…\s*$"),
        LineRule("answer", "assistant", r"^\s{3,}(?P<body>\S.*)$"),
    )

    # -- frames -------------------------------------------------------------
    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        frames = list(frames)
        # The sidebar is not fully painted in every frame: a width's column is
        # the one most of its frames show, when most show one. Right after a
        # resize the old layout (its sidebar clipped) is still on screen, so a
        # width's first frames may show a column its settled frames never have:
        # those few must not crop the rest, but are cropped at their own
        # column where it lies left of the width's.
        # Frames of a width before its first sidebar are the home screen and
        # typing (no session yet, so no sidebar): they cast no vote, or a
        # width left soon after the first prompt (a resize mid-answer) never
        # gets its column and its first, half-painted frame keeps the
        # sidebar's text.
        seen: dict[int, Counter[int | None]] = {}
        self._own_sidebar: dict[int, int] = {}
        self._grid_seen = _GridSeen()
        for f in frames:
            if f.alternate and f.cells:
                col = sidebar_start(f)
                if col is None and f.columns not in seen:
                    continue
                seen.setdefault(f.columns, Counter())[col] += 1
                if col is not None:
                    self._own_sidebar[id(f)] = col
        # A terminal resized while OpenCode was stopped (Ctrl+Z): brought back
        # with `fg`, it is sent no SIGWINCH and paints its old layout on the
        # new screen for as long as it runs. A width none of whose frames
        # shows the conversation's input box spanning it is drawn in the
        # layout its widest box gives (a grow OpenCode took shows the wide box
        # once it reprints, and keeps its first, old frames out).
        widest: dict[int, int] = {}
        for f in frames:
            if f.alternate:
                end = _box_end_column(f)
                if end is not None:
                    widest[f.columns] = max(widest.get(f.columns, 0), end)
        self._drawn_right = {w: end + 1 for w, end in widest.items() if end < w - BOX_RIGHT_SLACK}
        self._sidebar = {}
        for w, votes in seen.items():
            bare = votes.pop(None, 0)
            if votes:
                col, n = votes.most_common(1)[0]
                if n >= bare:
                    self._sidebar[w] = col
        # Dialogs (/help, ctrl+p) become system turns placed after the prompts
        # seen before them, counted over frames in order: placing them by time
        # would depend on the recording's pauses.
        self._dialog_after: list[int] = []
        self._seen_prompts: set[str] = set()
        # A stitched row keeps the time of the frame that first drew it (in
        # its layout, or in an earlier one that drew it alike): that frame's
        # layout width (the terminal's, or up to the sidebar) is the width the
        # row was wrapped at, and an answer mixes layouts after a resize. The
        # times handed to the stitcher carry that width along (frames of one
        # instant may have two widths, so the time alone cannot say).
        for f in frames:
            if f.alternate:
                f.time = _LaidTime.at(f.time, self._sidebar.get(f.columns) or self._layout_right(f.columns))
        try:
            lines = super().transcript(frames)
        finally:
            for f in frames:
                f.time = float(f.time)
            self._dialogs = [(float(t), rows) for t, rows in getattr(self, "_dialogs", [])]
        return [dataclasses.replace(ln, time=float(ln.time), width=ln.width or getattr(ln.time, "width", 0))
                if isinstance(ln.time, _LaidTime) else ln for ln in lines]

    def _layout_right(self, columns: int) -> int:
        """The right edge OpenCode lays the conversation out to on a screen
        this wide: the terminal's, or the old width it kept (`_drawn_right`)."""
        return getattr(self, "_drawn_right", {}).get(columns, columns)

    def _conversation_frame(self, frame: Frame) -> None:
        if frame.alternate:
            self._seen_prompts.update(self._whole_prompts(frame))

    def _dialog_opened(self, frame: Frame) -> None:
        self._dialog_after.append(len(self._seen_prompts))

    def _whole_prompts(self, frame: Frame) -> list[str]:
        """Prompts shown whole in a frame's conversation (an empty bar above and
        below), whitespace-normalised so a re-wrap reads the same."""
        vp = self.viewport(frame)
        if vp is None:
            return []
        rows = self.rows(frame)[vp[0]:vp[1]]
        out, block, opened = [], [], False
        for r in rows:
            body = (r or "").lstrip()
            if not body.startswith(BAR):
                block, opened = [], False
            elif not body[1:].strip():
                if opened and block:
                    out.append(" ".join(" ".join(block).split()))
                block, opened = [], True
            elif opened:
                block.append(body[1:])
        return out

    def rows(self, frame: Frame) -> list[str | None]:  # type: ignore[override]
        """`_rows`, read once per frame while the table rows seen are unchanged.

        Each frame is read twice (`_whole_prompts`, then the stitcher's view),
        and all `_rows` depends on besides the frame is the profile's layout
        (set once per `transcript`) and `_grid_seen`: a second reading is the
        first while that is the same mapping and no reading since changed it
        (the first one included: it is what the first reading ran with)."""
        seen = getattr(self, "_grid_seen", None)
        version = seen.version if seen is not None else 0
        key = (OpenCodeProfile.rows, self)
        hit = frame.memo.pop(key, None)  # (kept for the second reading only: a frame is read twice)
        if hit is not None and hit[0] is seen and hit[1] == version:
            return list(hit[2])
        got = self._rows(frame)
        if seen is None or seen.version == version:  # (else the next reading may differ)
            frame.memo[key] = (seen, version, tuple(got))
        return got

    def _rows(self, frame: Frame) -> list[str | None]:
        # A width OpenCode draws in an older, narrower layout (`_drawn_right`)
        # shows the conversation up to that layout's right edge (the box ends
        # two columns short of it); cells past it are what the terminal left
        # there (a re-wrap's leftovers after a grow in a shell): cropped too.
        kept = getattr(self, "_drawn_right", {}).get(frame.columns)
        cuts = [c for c in (getattr(self, "_own_sidebar", {}).get(id(frame)),
                            getattr(self, "_sidebar", {}).get(frame.columns),
                            kept + 1 if kept is not None else None) if c is not None]
        cut = min(cuts) if cuts else None
        # A row's reading depends on nothing but its cells, text and cut: an
        # unchanged row is the very same cell tuple in every frame, so it is
        # read once, not once per frame (and `rows` runs twice per frame).
        memo = self.__dict__.get("_rows_memo")
        if memo is None:
            memo = self._rows_memo = IdentityMemo(_ROW_MEMO_MAX)
        get, read = memo.get, self._row
        grid = frame.cells or []
        lines = frame.lines
        if len(grid) < len(lines):  # no cells kept (or fewer): rows without are read each time
            grid = list(grid) + [None] * (len(lines) - len(grid))
        out = [read(frame, y, text, cut) if cells is None else get(cells, (text, cut), read, frame, y, text, cut)
               for y, (text, cells) in enumerate(zip(lines, grid))]
        _settle_running_bash(out)
        vp = self.viewport(frame)
        end = vp[1] if vp is not None else len(out)
        # A table row drawn over several screen rows becomes one; the rows it
        # gives up go blank at the conversation's foot (its trailing blanks are
        # not conversation), so the viewport still ends where it did.
        seen = getattr(self, "_grid_seen", None)
        conv = [r if r is None else _table_row(r) for r in _unpad_numbers_memo(_merge_grid_rows(out[:end], seen))]
        return conv + [""] * (end - len(conv)) + [_table_row(r) for r in out[end:]]

    def _row(self, frame: Frame, y: int, text: str, cut: int | None) -> str:
        """Row `y` as the rules see it: cropped at the sidebar, the prompt bar
        told from a box edge, bold words marked."""
        if cut is not None:
            text = _crop(frame, y, text, cut)
        if BAR in text[:4] and frame.cells and frame.cells[y] is not None:
            x = text.index(BAR)
            cells = frame.cells[y]
            if x < len(cells) and cells[x].fg == cells[0].bg:
                text = text[:x] + "│" + text[x + 1:]
            elif x + 3 < len(cells) and cells[x + 3].bg == cells[x].fg:
                # a prompt's attachment row: a badge in the bar's own colour
                # where the prompt's text starts (` File ` and the path a
                # `@` mention picked) names what rode along, not what was
                # typed: the bar's empty row
                text = text[:x + 1]
        elif (frame.cells and frame.cells[y] is not None and text.startswith(PENDING_BASH)
              and len(frame.cells[y]) > ANSWER_COLUMN + 1
              and frame.cells[y][ANSWER_COLUMN].fg != frame.cells[y][ANSWER_COLUMN + 1].fg):
            # A bash call not yet in its panel: `$ cmd` at the answer column,
            # the `$` and the command two drawn pieces (the blank between them
            # in the page's colour). A `$ cmd` line of the answer (a console
            # block) is one run of its text colour. Read as the panel's title
            # row it turns into.
            text = "  │  " + text[ANSWER_COLUMN:]
        elif frame.cells and frame.cells[y] is not None and "*" not in text:
            text = self._bold_marked_memo(frame, y, text, cut)
        return drop_vs16_shadow(text).rstrip()

    def _bold_marked_memo(self, frame: Frame, y: int, text: str, cut: int | None) -> str:
        """`_bold_marked`, worked out once per row snapshot: an unchanged row is
        the very same cell tuple in every frame (the screen re-reads only dirty
        rows), and the answer depends on nothing else than its cells, text and
        cut (the rules are the class's): `IdentityMemo`."""
        memo = self.__dict__.get("_bold_memo")
        if memo is None:
            memo = self._bold_memo = IdentityMemo(_BOLD_MEMO_MAX)
        return memo.get(frame.cells[y], (text, cut), self._bold_marked, frame, y, text, cut)

    def _bold_marked(self, frame: Frame, y: int, text: str, cut: int | None) -> str:
        """An answer row with its bold words between `**`, as the answer's
        markdown source has them: OpenCode draws `**word**` bold without the
        marks, which joins a bold phrase to the text around it where no space
        parts them (CJK: 面团的**最后发酵**不是 reads as one word). A row all
        bold (a heading) is left as drawn. Italics are not marked: syntax
        colouring sets keywords in code blocks in italics too."""
        spans = frame.styles[y]
        if not any(s[4] & 1 for s in spans):
            return text
        rule = next((r for r in self.rules if r.match(text)), None)
        if rule is None or rule.name != "answer" or GRID_CELLS.match(text) or GRID_BORDER.match(text):
            return text  # chrome, or a table (its header row is bold of itself)
        cells = frame.cells[y]
        end = len(cells) if cut is None else min(cut, len(cells))
        weight = [False] * end  # spans leave out cells of the default style
        for start, stop, _fg, _bg, flags in spans:
            if flags & 1:
                weight[start:min(stop, end)] = [True] * max(0, min(stop, end) - start)
        parts: list[tuple[bool, str]] = []
        for x in range(end):
            bold, ch = weight[x], cells[x].data
            if parts and parts[-1][0] == bold:
                parts[-1] = (bold, parts[-1][1] + ch)
            else:
                parts.append((bold, ch))
        if not any(b and t.strip() for b, t in parts) or not any(not b and t.strip() for b, t in parts):
            return text  # a heading or a row all of one weight: nothing to set apart
        out = []
        for bold, chunk in parts:
            core = chunk.strip()
            if bold and core:
                lead = chunk[:len(chunk) - len(chunk.lstrip())]
                tail = chunk[len(chunk.rstrip()):]
                chunk = lead + "**" + core + "**" + tail
            out.append(chunk)
        return "".join(out)

    def dialog(self, frame: Frame) -> list[str] | None:
        box = inset_panel(frame)
        if box is None:
            return None
        top, bottom, left, right = box
        if frame.lines[top][left - 1:left] == BAR:
            return None  # the centred input box of the home screen
        if self.viewport(frame) is None:
            # a frame caught between a resize and OpenCode's redraw: the old
            # layout's sidebar, cut or shifted, can look like a panel in the
            # middle of the screen; a dialog opens over a settled layout
            return None
        if all(SLASH_MENU_ROW.match(frame.lines[y]) for y in range(top, bottom)):
            # a bar then `/command` on every row: the slash-command menu growing
            # out of the input box, not a dialog over the conversation
            return None
        rows = [frame.lines[y][left:right].strip() for y in range(top, bottom)]
        rows = [r for r in rows if r and not regex.fullmatch(r"(esc|enter|ok|cancel)(/\w+)?", r)]
        return [regex.sub(r"\s{4,}(esc|enter)(/\w+)?$", "", r) for r in rows] or None

    @per_frame
    def viewport(self, frame: Frame) -> tuple[int, int] | None:
        n = len(frame.lines)
        for y in range(n - 1, -1, -1):
            if BOX_BOTTOM.match(frame.lines[y]):
                if y + 1 < n and WRAPPED_EDGE.match(frame.lines[y + 1]):
                    # the box's bottom edge runs on to the next row: the terminal
                    # re-wrapped a wider layout after a shrink and OpenCode has
                    # not redrawn yet; its rows are the old layout, broken
                    return None
                if len(frame.lines[y].rstrip()) >= frame.columns:
                    # the box's bottom edge runs to the last column, where
                    # OpenCode ends it two columns short: a wider layout the
                    # terminal cut at its right edge after a shrink (each row
                    # cut, the rows OpenCode redraws in place patched in) and
                    # not redrawn yet
                    return None
                edges = [sidebar_start(frame) if frame.cells else None,
                         getattr(self, "_sidebar", {}).get(frame.columns)]
                if _narrower_layout(frame.lines[y], min([self._layout_right(frame.columns)] + [e for e in edges if e])):
                    return None
                top = y
                while top > 0 and frame.lines[top - 1].lstrip().startswith(BAR):
                    top -= 1
                return (0, top)
        # OpenCode draws its input box on every screen; a frame without one
        # is a resize caught before the redraw (the old layout, cut)
        return None

    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        """The main screen is never conversation (the exit banner, or rows a
        resize left behind from the alternate screen): left out."""
        return None

    # -- turns ------------------------------------------------------------
    def label(self, lines: list[TLine]) -> list[Labeled]:
        labeled = super().label(lines)
        for lb in labeled:
            if lb.rule == "answer":
                lb.body = answer_body(lb.line.text)
        # A tool panel is a run of `│` rows; the first row with text is its
        # title: `$ cmd` for bash, else an icon and a verb (write, edit). A
        # row of output that merely looks like a title (`# Heading` printed
        # by cat) is never a panel's first row.
        title_due = in_panel = False
        for i, lb in enumerate(labeled):
            was_in, in_panel = in_panel, lb.line.text.lstrip().startswith("│")
            if in_panel and not was_in:
                title_due = True
            if not in_panel or lb.kind == "blank" or lb.rule == "running-tool":
                continue  # (a title drawn while the tool runs gives way to the settled one)
            if title_due and lb.rule == "tool-output" and PANEL_HEAD.match(lb.line.text):
                lb.kind, lb.rule = "tool_call", "panel-tool"
            elif not title_due and lb.rule == "bash" and not _title_shaped(labeled, i):
                # output that prints a `$ word` row (a shell transcript, the
                # agent's own glyphs echoed) is no second command: a panel
                # has one title, its first row. (A stitch that lost the rows
                # between two panels runs the next title on: a title has its
                # empty bar row under it, right away or after the rows of
                # its command's wrap.)
                body = PANEL_OUTPUT.match(lb.line.text)
                lb.kind, lb.rule = "cont", "tool-output"
                lb.body = body.group("body") if body else lb.body
            title_due = False
        # Before its panel, a write or edit shows one row, `← Write plan.md`.
        # When the panel's first drawing jumps past it (a long file fills the
        # screen at once) both rows stay: the row the panel took over is no
        # second call.
        for i, lb in enumerate(labeled):
            m = PANEL_HEAD.match(lb.line.text) if lb.rule == "panel-tool" else None
            if not m:
                continue
            name = m.group("name").lower()
            call = (PANEL_VERBS.get(name, name), (m.group("arg") or "").strip())
            for before in reversed(labeled[:i]):
                if before.kind in ("blank", "chrome"):
                    continue
                t = TOOL_ICON.match(before.line.text) if before.rule == "tool-icon" else None
                if t and (t.group("name").lower(), t.group("arg").strip()) == call:
                    before.kind, before.rule = "chrome", "tool-pending"
                break
        # While a table's first rows stream, OpenCode shows its markdown source
        # (`| Bed | Crop |`, cut where the stream is), then draws the grid in its
        # place. When the grid's first drawing jumps past a whole screen, the
        # source rows stay just above the grid: rows that spell the start of
        # the grid's header are not answer text.
        for i, lb in enumerate(labeled):
            if lb.line.text.strip() != "┌┐" or i + 1 >= len(labeled):
                continue
            header = GRID_CELLS.match(labeled[i + 1].line.text)
            if header is None:
                continue
            want = "".join(header.group("cells").replace("│", "").split())
            end = i
            while end > 0 and labeled[end - 1].kind == "blank" and i - end < 2:
                end -= 1
            k = end
            while k > 0 and labeled[k - 1].kind == "assistant" and end - k < 6:
                k -= 1
            for j in range(k, end):
                if not labeled[j].line.text.lstrip().startswith("|"):
                    continue
                got = "".join("".join(lb2.line.text for lb2 in labeled[j:end]).replace("|", "").split())
                if len(got) >= 3 and want.startswith(got.rstrip("-:")):
                    for lb2 in labeled[j:end]:
                        lb2.kind, lb2.rule = "chrome", "table-source"
                break
        # A bash panel still running shows a spinner for its `$`. When its
        # finished title never reached the screen (the panel scrolled out on
        # a short screen before it settled), the running title is the call.
        for i, lb in enumerate(labeled):
            m = RUNNING_BASH.match(lb.line.text) if lb.rule == "running-tool" else None
            if not m:
                continue
            cmd = m.group("cmd").strip()
            settled = False
            for later in labeled[i + 1:]:
                if later.kind == "user":
                    break
                if later.rule == "bash" and later.body.strip() == cmd:
                    settled = True
                    break
            if not settled:
                lb.kind, lb.rule, lb.body = "tool_call", "bash-running", cmd
        # Any other tool's row shows the same spinner where its icon settles
        # (`⠋ Read notes.md` before `→ Read notes.md`). When the settled row
        # never took its place in the transcript, the running row is the call.
        for i, lb in enumerate(labeled):
            m = RUNNING_TOOL.match(lb.line.text) if lb.rule == "running-tool" else None
            if not m:
                continue
            key = (m.group("name"), m.group("arg").strip())
            settled = False
            for later in labeled[i + 1:]:
                if later.kind == "user":
                    break
                s2 = TOOL_ICON.match(later.line.text) if later.kind == "tool_call" else None
                if s2 and (s2.group("name"), s2.group("arg").strip()) == key:
                    settled = True
                    break
            if not settled:
                lb.kind, lb.rule = "tool_call", "tool-running"
        # The first row of output under a bash call opens its result (the
        # rows of a wrapped command are the call's).
        join_wrapped_commands(labeled)
        prev = None
        for lb in labeled:
            if lb.kind == "cont" and lb.rule == "tool-output" and prev in ("tool_call", "assistant"):
                # (under an answer: a panel whose title the stitch lost, a
                # resize while its command ran; its rows are output, never
                # the answer's text)
                lb.kind = "tool_result"
            if lb.kind not in ("blank", "chrome") and lb.rule != "bash-wrapped":
                prev = lb.kind
        # Rows of one bar are one prompt: only the first opens a turn (a row
        # of the bar that opens with a slash there is a line of the prompt, a
        # pasted path, not a slash command).
        for a, b in zip(labeled, labeled[1:]):
            if b.rule in ("prompt", "slash-command") and a.rule in ("prompt", "prompt-row"):
                b.kind, b.rule = "cont", "prompt-row"
        # A prompt waiting for its answer has only chrome under it (the turn
        # footer). A resize then redraws it in the new layout, which the
        # stitcher may keep as new rows: the same prompt block again with
        # nothing but blanks and chrome between is that prompt, redrawn.
        def block(i: int) -> tuple[int, str]:
            j = i + 1
            while j < len(labeled) and labeled[j].rule == "prompt-row":
                j += 1
            rows = [lb.line.text.strip().lstrip(BAR) for lb in labeled[i:j]]
            return j, " ".join(" ".join(rows).split())

        i = 0
        while i < len(labeled):
            if labeled[i].rule != "prompt":
                i += 1
                continue
            end, text = block(i)
            k = end
            while k < len(labeled) and labeled[k].kind in ("blank", "chrome"):
                k += 1
            while k < len(labeled) and labeled[k].rule == "prompt" and block(k)[1] == text:
                again, _ = block(k)
                for lb in labeled[k:again]:
                    lb.kind, lb.rule = "chrome", "prompt-redrawn"
                k = again
                while k < len(labeled) and labeled[k].kind in ("blank", "chrome"):
                    k += 1
            i = end
        # The bar runs unbroken down a prompt's blank lines (a pasted prompt's
        # paragraphs, a fenced block set apart), drawn as empty bar rows; two
        # prompts' bars are apart, a row without the bar between. A prompt
        # redrawn by a resize was set aside above; a prompt of several
        # paragraphs redrawn that way reads as its paragraphs twice over.
        last = None  # the prompt row the run of empty bar rows follows
        for i, b in enumerate(labeled):
            if b.rule in ("prompt", "slash-command") and last is not None:
                for lb in labeled[last + 1:i]:
                    lb.kind, lb.rule, lb.body = "cont", "prompt-row", ""
                b.kind, b.rule = "cont", "prompt-row"
            if b.rule in ("prompt", "prompt-row"):
                last = i
            elif b.rule != "empty-bar" or BAR not in b.line.text:
                last = None
        _drop_repeated_paragraphs(labeled)
        _drop_rows_drawn_again(labeled)
        # A prompt row OpenCode's wrap broke inside a word (a URL after its
        # slash, CJK text after its punctuation or inside a run too wide for
        # a whole row) goes on with no space between: the next row is joined
        # to it; the row after that is weighed against the one it follows.
        prev: Labeled | None = None
        last: Labeled | None = None
        for lb in labeled:
            if lb.rule not in ("prompt", "prompt-row") or not lb.body.strip():
                prev = last = None
                continue
            if prev is not None and last is not None and _prompt_wrap(last, lb):
                prev.body = prev.body.rstrip() + lb.body.strip()
                lb.kind, lb.rule = "chrome", "prompt-wrapped"
                last = lb
                continue
            if prev is not None and last is not None and _prompt_space_wrap(last, lb):
                prev.body = prev.body.rstrip() + " " + lb.body.strip()
                lb.kind, lb.rule = "chrome", "prompt-wrapped"
                last = lb
                continue
            prev = last = lb
        # A command typed in shell mode (`!` on an empty prompt) is drawn as a
        # bash panel with no prompt of its own: it opens right under the turn
        # footer (`▣`) of the answer before, where a call of the model's
        # follows its prompt or its answer text. It is the user's turn.
        prev = None
        for lb in labeled:
            # (the footer of a finished answer: `▣  Build · Mock Model · 7.0s`;
            # one drawn while the turn runs has no time, and a stitch may keep
            # it above the turn's own next call)
            if lb.kind == "tool_call" and lb.rule in ("bash", "bash-running") and prev is not None \
                    and prev.rule == "turn-footer" and prev.line.text.count("·") >= 2:
                lb.rule = "bash-typed"
            if lb.kind != "blank":
                prev = lb
        return labeled

    def reconstruct(self, frames: Iterable[Frame], header: CastHeader | None = None
                    ) -> tuple[list[Turn], list[Labeled]]:
        labeled = self.label(self.transcript(frames))
        turns = self.turns(labeled)
        out: list[Turn] = []
        pending = [(after, Turn("system", "\n".join(rows).strip(), time=t))
                   for (t, rows), after in zip(self._dialogs, self._dialog_after)]
        users = 0
        for t in turns:
            if t.role == "user":
                while pending and pending[0][0] <= users:
                    out.append(pending.pop(0)[1])
                users += 1
            out.append(t)
        return out + [d for _, d in pending], labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        rule = members[0].rule if members else ""
        if kind == "tool_call":
            if rule in ("bash", "bash-running", "bash-typed"):
                head = [text.splitlines()[0].strip()]
                head += [m.body.strip() for m in members[1:] if m.rule == "bash-wrapped"]
                call = Turn("tool_call", join_command_rows(head), name="bash")
                return [Turn("user", call.text), call] if rule == "bash-typed" else call
            m = (PANEL_HEAD if rule == "panel-tool" else RUNNING_TOOL if rule == "tool-running"
                 else TOOL_ICON).match(members[0].line.text)
            if m:
                name = m.group("name").lower()
                return Turn("tool_call", (m.group("arg") or "").strip(), name=PANEL_VERBS.get(name, name))
        if kind == "assistant":
            # an answer comes one block per drawn row; `turns` joins them
            turn = Turn("assistant", text)
            if members and members[0].rule == "answer" and all(m.kind == "blank" for m in members[1:]):
                ln = members[0].line
                turn._row = AnswerRow(ln.text, text, (ln.width - WRAP_MARGIN) if ln.width else 0,
                                      len(members) - 1)  # type: ignore[attr-defined]
            return turn
        return Turn(kind, text)

    def turns(self, labeled: list[Labeled]) -> list[Turn]:
        """Turns with each answer's drawn rows joined into its lines
        (`unwrap_answer`); a block that is not one answer row (a row under
        another rule) is kept as its own line."""
        out: list[Turn] = []
        rows: list[AnswerRow] = []

        def close() -> None:
            if rows and out:
                # a box table streamed taller than the screen: the views that
                # caught its last rows at other points are one table
                out[-1].text = merge_grid_layouts(drop_row_drafts(unwrap_answer(rows)))
            rows.clear()

        for t in segment(labeled, self.make_turn):
            row = getattr(t, "_row", None) or AnswerRow("", t.text, 0)
            if t.role == "assistant" and out and out[-1].role == "assistant":
                out[-1].partial = out[-1].partial or t.partial
                rows.append(row)
                continue
            close()
            out.append(t)
            if t.role == "assistant":
                rows.append(row)
        close()
        return out



PROFILE = OpenCodeProfile()
