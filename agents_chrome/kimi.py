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
the next one before any rule sees it. A cut that falls on a space drops
it: at the last column the row ends one short (`…then set` at 59 of 60),
right after it the row is full and the next opens with the next word.
"""
from __future__ import annotations

import functools
import textwrap
import unicodedata
from dataclasses import dataclass
from itertools import compress, count
from operator import not_
from typing import Iterable

import regex
from wcwidth import wcwidth

from agents_chrome.cjk_bold import marked_ideograph_bold
from agents_chrome.input_line import InputLine
from agents_chrome.links import merged_links, with_link_targets
from agents_chrome.profile import ChromeProfile
from agents_chrome.rules import COMMON_CHROME, Labeled, LineRule
from agents_chrome.transcript import TLine, fold_redraws
from agents_chrome.turns import Turn
from screen.cast import CastHeader
from screen.frames import Frame
from screen.vscreen import FLAG_ITALIC, FLAG_UNDERLINE

INPUT_RULE = regex.compile(r"^── input ─+")
PAGER_STATUS = regex.compile(r"^\s*(line \d+|\(END\)|lines? \d+.*)?\s*\(?press h for help or q to quit\)?\s*$|^:\s*$")
TOOL = regex.compile(r"^•\s+(?P<verb>Used|Using)\s+(?P<name>[A-Za-z_][\w.:-]*)(?:\s+\((?P<arg>.*)\))?\s*$")
MOON = "🌑🌒🌓🌔🌕🌖🌗🌘"
#: a tool call's header row whose argument's parenthesis is not closed on it: cut at the width
TOOL_OPEN = regex.compile(r"^•\s+(?:Used|Using)\s+[A-Za-z_][\w.:-]*\s+\((?!.*\)\s*$)")
# a bullet or list marker that sets a wrapped row's hanging indent
HANG = regex.compile(r"^(?P<sp>\s*)(?P<mk>(?:[•◦▪‣\-*]|\d+[.)]|✨|\$)\s)?")
# a prompt echo opens a block of its own: it never continues the row above.
# kimi-cli 1.51 echoes every prompt with `✨` (`render_user_echo`); its other
# prompt symbols (`💫` thinking, `📋` plan) are never drawn, so a row opening
# with one is the rest of a row cut before that emoji (a prompt typed with
# `… sheloxka 💫 数据 …` wrapped right before it)
PROMPT_ECHO = regex.compile(r"^✨ ")
#: the first row of a quote: the bar, under the answer's bullet when the answer opens with it
QUOTE_HEAD = regex.compile(r"^\s*(?:•\s)?▌ ")
#: a quote's bars, one a level, drawn again at the start of each row the quote wraps onto
QUOTE_BARS = regex.compile(r"^\s*(?:•\s)?((?:▌ )+)")


def _quote_depth(row: str) -> int:
    """How many quotes the row is nested in (`▌ ▌ …`: two)."""
    m = QUOTE_BARS.match(row)
    return len(m.group(1)) // 2 if m else 0


BOX_EDGE = "│╮╯┐┘┤║"
#: Kimi cuts a rendered row wider than the terminal to one cell short and
#: puts `…` in the last column (`_truncate_to_display_width`): a paragraph
#: row is one cell too wide when its last word ends in the last column and
#: the space after it still counts, so a full row ending in `…` and going on
#: at the hanging indent lost the word's last letter and the space
#: (`Zer urida…` / `oxlo` for `Zer uridar oxlo`)
ELLIPSIS_CUT = "…"
#: punctuation that can end a row Rich cut one short of the width, the space
#: after it skipped at the fold (`the slow close:` / `every port is…`)
SPACE_CUT_END = ",.;:!?)"


@dataclass
class KLine(TLine):
    #: every width the terminal had up to the frame the row was read from:
    #: Kimi hard-wraps at the width it has, so a row as long as one of
    #: those was cut there, even after a resize laid it out again
    seen: frozenset[int] = frozenset()
    #: the row opens a thinking block: a grey bullet with an italic body
    thinking: bool = False
    #: first drawn after a slash command was sent and before the next prompt
    #: echo: what the command printed, not an answer
    slash: bool = False
    #: the ordinal of the frame the row was first drawn in: orders rows and
    #: dialogs without leaning on the recording's timing
    order: int = 0
    #: the narrowest width the terminal had between the prompt echo above
    #: the row and the row's first drawing (0: not known). Kimi cuts an
    #: answer's rows at the widths it has while it streams, so a row can have
    #: been cut at an earlier width only if it is at least this wide: a code
    #: row 61 long first drawn at 63 columns, in a turn that never had 61,
    #: was not cut at the 61 columns of a turn long before
    drawn: int = 0
    #: a `• ` row whose bullet was drawn in the terminal's default colour: an
    #: answer's bullet; Kimi colours a tool call's by its outcome (green, red),
    #: so `• Using uv (astral)` in that colour is an answer, not a call
    plain: bool = False


def _kimi_marker(cell: object) -> str:
    """Kimi draws **bold** as bold cells in the default colour and `code` as
    bold cells in a colour: the markdown each stands for."""
    if not getattr(cell, "bold", False):
        return ""
    return "**" if getattr(cell, "fg", "default") == "default" else "`"


def _plain_bullet(cells: tuple | None) -> bool:
    """The row's first cell (its bullet) is drawn in the default colour."""
    return bool(cells) and getattr(cells[0], "fg", "default") == "default"


def _cells(text: str) -> int:
    """Columns `text` took on the screen, a character at a time as the
    terminal lays it out: `⚠️` (a narrow sign and VS16) is one column there,
    two to a width function that reads the sequence."""
    if text.isascii():
        return len(text)
    return _wide_cells(text)


@functools.lru_cache(maxsize=8192)
def _wide_cells(text: str) -> int:
    """`_cells` of a text that is not all ASCII, worked out once per text
    (the same rows are measured again by every pass over them)."""
    return sum(max(wcwidth(ch), 0) for ch in text)


def _same_flow(a: KLine, b: KLine) -> bool:
    """`b` follows `a` in the same drawing: the same source, or the top row of
    the last screen right under the last row that scrolled into history."""
    return a.source == b.source or (a.source, b.source) == ("history", "screen")


def _cut_at(n: int, ln: KLine) -> bool:
    """A row `n` cells wide reaches a width Kimi cut it at: the width it was
    read at, or one the terminal had before that is not narrower than the
    width the row was first drawn at."""
    return n == ln.width or (n in ln.seen and n >= ln.drawn)


def drop_regrown_halves(lines: list[KLine]) -> list[KLine]:
    """Drop the first half of a row that a narrower terminal wrapped and a
    wider one joined again.

    A shrink wraps a long row (`…the wa` / `y a wheat…`); when the first half
    scrolls into history and the terminal then grows, the half comes back
    into view, the reflow joins it with the rest, and the whole row scrolls
    off again later: the history holds the half (soft-wrapped, at the narrow
    width) and, next after it, the whole row at a wider width that starts
    with the half's text."""
    out: list[KLine] = []
    for k, ln in enumerate(lines):
        nxt = lines[k + 1] if k + 1 < len(lines) else None
        head = ln.text.rstrip()
        if (ln.wrapped and ln.source == "history" and nxt is not None and nxt.source == "history"
                and head and (nxt.width or 0) > (ln.width or 0) and nxt.text.startswith(head)
                and _cells(nxt.text.rstrip()) > _cells(head)):
            continue
        out.append(ln)
    return out


def join_soft_wrapped(lines: list[KLine]) -> list[KLine]:
    """Join rows the terminal wrapped (autowrap, or a resize laying a long row
    out again) back into the row the program drew."""
    out: list[KLine] = []
    raw: KLine | None = None  # the row read before `ln`, as read
    for ln in drop_regrown_halves(lines):
        prev = out[-1] if out else None
        if prev is not None and prev.wrapped and _same_flow(prev, ln):
            gap = max(0, (prev.width or 0) - _cells(prev.text))
            if gap == 1 and _cells(ln.text[:1]) == 2:
                gap = 0  # a wide character did not fit in the last column: the terminal left it empty
            pad = " " * gap
            text = ln.text
            if raw is not None and raw.width and ln.width and raw.width > ln.width and not pad:
                # the head scrolled off wrapped at a wider width; a shrink then
                # wrapped the whole row again at the narrower one, so this tail
                # starts that many cells before the head's end (`…blades in` /
                # `s in warm spells` at 45 then 41 columns): the cells twice over go
                k = raw.width - ln.width
                if _cells(raw.text) == raw.width and _cells(text[:k]) == k and raw.text.endswith(text[:k]):
                    text = text[k:]
            out[-1] = KLine(prev.text + pad + text, prev.time, prev.source, prev.block, prev.width,
                            ln.wrapped, prev.seen | ln.seen, prev.thinking, prev.slash, prev.order,
                            prev.drawn, prev.plain)
        else:
            out.append(ln)
        raw = ln
    return out


WORD_END = regex.compile(r"(\p{L}+)\W*$")
WORD_START = regex.compile(r"^(\p{L}+)")  # a row opening with punctuation was cut before it
LETTERS = regex.compile(r"\p{L}+")
#: a word of the session: a run of letters, but not the tail of a contraction
#: or a possessive (`keeper's`, `don't`) nor a unit after a number (`1s`): a
#: lone `s` counted as a word made `keep|s` at a fold read as two words; nor a
#: file name's extension (`install.sh` in Kimi's farewell made `ordnance
#: sh|eets` two words)
TOKEN = regex.compile(r"(?<!\p{L}['’]|\p{N}|[\p{L}\p{N}]\.)\p{L}+")


def _lexicon(lines: list[KLine]) -> dict[str, int]:
    """How often each word is drawn in the session (lower case, letters only),
    leaving out the words at a fold (the last of a row that reaches a width
    it was drawn at, the first of the row after it): those may be halves."""
    counts: dict[str, int] = {}
    folded = False
    for ln in lines:
        words = TOKEN.findall(ln.text.lower())
        n = _cells(ln.text)
        full = bool(ln.width) and _cut_at(n, ln)
        lo, hi = (1 if folded else 0), (len(words) - 1 if full else len(words))
        for w in words[lo:hi]:
            counts[w] = counts.get(w, 0) + 1
        folded = full
    return counts


def _in_token(left: str, a: regex.Match, right: str, b: regex.Match) -> bool:
    """The letters at the fold are part of a run of letters AND digits (a hash,
    an id: `…b19e` / `c912…`): the fold cut that run, no space fell there.
    A word of the session is a run of letters (`TOKEN` leaves out letters
    after a digit), so a half glued to a digit is no word either."""
    before = left[a.start(1) - 1:a.start(1)]
    after = right[b.end(1):b.end(1) + 1]
    return (before.isdigit() or after.isdigit()) and a.end(1) == len(left) and b.start(1) == 0


def _lost_space(left: str, right: str, lexicon: dict[str, int]) -> bool:
    """Kimi folds a long row at the width by character and drops a space that
    falls on the fold, so a row that reaches the last column ends either
    inside a word (`met|res`) or at the end of one (`and|any`, the space
    lost): nothing on the screen tells them apart. The session's own words
    do: when the two halves are each drawn elsewhere as words and their
    join never is, the fold ate a space."""
    a, b = WORD_END.search(left), WORD_START.match(right)
    if not a or not b or right[:1].isspace() or not (a.group(1).isascii() and b.group(1).isascii()):
        return False
    if _in_token(left, a, right, b):
        return False
    lw, rw = a.group(1).lower(), b.group(1).lower()
    if lexicon.get(lw + rw, 0) > 0:
        return False
    if lexicon.get(lw, 0) < 1:
        return False
    if lexicon.get(rw, 0) >= (3 if len(rw) == 1 else 1):
        # a one-letter right half is a word only when the session draws it
        # as one often (`a`), not a name in a code row or two (`s, f, w`)
        return True
    # a word drawn only at this fold: a left half that is a word of the
    # session and a right half of four letters or more that ends no word of
    # the session (`the|flame`, `it|appends`; a cut word's tail such as
    # `sta|tion` ends others) was two words
    return (len(rw) >= 4 and (len(lw) >= 3 or (len(lw) == 2 and lexicon[lw] >= 2))
            and not any(len(w) > len(rw) and w.endswith(rw) for w in lexicon))


def _lost_space_in_row(left: str, right: str, lexicon: dict[str, int]) -> bool:
    """`_lost_space` at the fold of an answer's row (not a table cell's):
    also when the left half is drawn nowhere but at this fold. Rich folds a
    paragraph row at the width by character and skips a space that falls
    on the fold; the drawing is the same for `project|is` (a space skipped)
    and `headl|and` (a word cut), so the session's words decide: a left half
    of four letters or more that is no word of the session and starts none
    (a cut word's head starts the whole word when that is drawn elsewhere),
    before a right half the session draws as a word at least twice, was a
    word of its own. A table's narrow column cuts words far more often than
    a row does (`exposed headl|and` in a 13-cell column), so a cell's fold
    keeps to `_lost_space`."""
    if _lost_space(left, right, lexicon):
        return True
    a, b = WORD_END.search(left), WORD_START.match(right)
    if not a or not b or right[:1].isspace() or not (a.group(1).isascii() and b.group(1).isascii()):
        return False
    if _in_token(left, a, right, b):
        return False
    lw, rw = a.group(1).lower(), b.group(1).lower()
    if lexicon.get(lw + rw, 0) > 0 or lexicon.get(lw, 0) > 0 or len(lw) < 4:
        return False
    if len(rw) < 2 or lexicon.get(rw, 0) < 2:
        return False
    return not any(len(w) > len(lw) and w.startswith(lw) for w in lexicon)


def _symbol_after_space(row: str, nxt: str, ln: KLine) -> bool:
    """`row` stops one column short of a width it was cut at and `nxt` opens
    with a wide symbol (an emoji, not an ideograph): the space before the
    symbol fell in the last column and was dropped (`trox` / `✅ dast…`).
    A wide character glued to the word before it does not fit either, but
    Rich keeps a word and a symbol written together on one row; a run of
    ideographs is folded anywhere, so a row ending before an ideograph
    goes on with no space."""
    head = nxt.lstrip(" ")[:1]
    last = row.rstrip()[-1:]
    return (bool(head) and bool(last) and last == row[-1:] and _cells(head) == 2 and _cells(last) == 1
            and unicodedata.category(head) == "So" and not _cut_at(_cells(row), ln)
            and _cut_at(_cells(row) + 1, ln))


def _word_moved_down(row: str, nxt: str, hang: int) -> bool:
    """`row` ends in a narrow character and `nxt` opens (at the block's
    hanging indent) with an ideograph: Rich breaks a row only at a space,
    and moves a word that does not fit down whole, so the ideograph's word
    was written apart from the one ending `row` (`Tsudov torshel` /
    `折り返し tordar…`). Only a word wider than the row is folded anywhere,
    and such a word's pieces start a row of their own: a row holding a
    space before its last word was not one of them."""
    body = nxt[hang:] if nxt[:hang].strip() == "" else ""
    head, last = body[:1], row.rstrip()[-1:]
    return (bool(head) and bool(last) and _cells(head) == 2 and _cells(last) == 1
            and unicodedata.category(head) == "Lo" and (last.isalnum() or last in ".,;:!?)")
            and " " in row[hang:].strip())


def join_wrapped(lines: list[KLine]) -> list[KLine]:
    """Join rows that were hard-wrapped at the terminal width.

    A row whose text reaches the last column (of the width it was drawn at)
    continues on the next row, which is indented by the block's hanging
    indent (the bullet's width). A row opening with Kimi's bullet at the
    first column starts a block of its own (a tool call's `• Used …` drawn
    right under the footer of a live area that scrolled into history, whose
    right-aligned `context: …` reaches the last column).
    """
    lines = join_soft_wrapped(lines)
    lexicon = _lexicon(lines)
    out: list[KLine] = []
    i = 0

    def full(row: str, ln: KLine, nxt: KLine) -> bool:
        n = _cells(row)
        if not ln.width:
            return False
        if _cut_at(n, ln):
            return True
        depth = _quote_depth(row)
        if depth and _cut_at(n + 2 * depth, ln):
            return True  # Rich lays a quote out two columns short of the block's width, a level
        # a wide character does not fit in the last column: the row stops one
        # short and the character opens the next row
        head = nxt.text.lstrip(" ")[:1]
        return bool(head) and _cells(head) == 2 and _cut_at(n + 1, ln)

    def space_cut(row: str, ln: KLine, nxt: KLine, hang: int) -> bool:
        """Rich cut the row right after a word and dropped the space that
        fell in the last column: a row one short of a width it was cut at,
        ending in a letter or in punctuation (`…the slow close:`), and the
        next row opening with a letter at the block's hanging indent (a code
        row keeps its own indent)."""
        body = nxt.text[hang:]
        # a tool call's header whose argument goes on (`• Used Shell (… exit` / `  2)`):
        # the argument's next word may open with any character
        opens = body[:1].isalpha() or (bool(body[:1].strip()) and TOOL_OPEN.match(row) is not None)
        return (bool(ln.width) and _cut_at(_cells(row) + 1, ln) and (row[-1:].isalpha() or row[-1:] in SPACE_CUT_END)
                and _cells(row[-1:]) == 1
                and nxt.text[:hang].strip() == "" and opens and _cells(body[:1]) == 1)

    def sibling(nxt: KLine, m: regex.Match, hang: int) -> bool:
        """`nxt` opens at the column of the list marker `m` found on the row
        being joined (`  • …season` / `  Measured…`): a paragraph after the list, never
        the rest of the item, whose rows hang under the item's text. A row as
        long as a width the terminal had while a window edge was dragged
        reads as cut there, though Kimi drew it at a wider one."""
        if not m.group("mk") or m.group("mk")[0] in "✨$":
            return False
        lead = len(nxt.text) - len(nxt.text.lstrip(" "))
        return lead == len(m.group("sp")) and lead < hang

    while i < len(lines):
        cur = lines[i]
        text, row = cur.text, cur.text
        m = HANG.match(text)
        hang = _cells(m.group("sp") + (m.group("mk") or ""))
        while (i + 1 < len(lines)
               and (full(row, lines[i], lines[i + 1]) or space_cut(row, lines[i], lines[i + 1], hang))
               and not sibling(lines[i + 1], m, hang)
               and row.rstrip()[-1:] not in BOX_EDGE and not RULE_ROW.match(row)
               and lines[i + 1].text.strip() and _same_flow(lines[i], lines[i + 1])
               and not PROMPT_ECHO.match(lines[i + 1].text) and not lines[i + 1].text.startswith("• ")
               and lines[i + 1].text != "•"):
            spaced = (not full(row, lines[i], lines[i + 1]) or _symbol_after_space(row, lines[i + 1].text, lines[i])
                      or _word_moved_down(row, lines[i + 1].text, hang))
            row = lines[i + 1].text
            bar = QUOTE_BARS.match(row)  # every level's bar of a nested quote
            if spaced:
                # the hanging indent is blank cells; a prompt's rows go on at column 0
                lead = len(row) - len(row.lstrip(" "))
                text += " " + row[min(hang, lead):]
            elif bar and QUOTE_HEAD.match(cur.text):
                rest = row[bar.end():]
                a, b = WORD_END.search(text), WORD_START.match(rest)
                halves = bool(a and b and min(len(a.group(1)), len(b.group(1))) >= 2)
                text += (" " if halves and _lost_space_in_row(text, rest, lexicon) else "") + rest
            else:
                lead = len(row) - len(row.lstrip(" "))
                nxt = row[min(hang, lead):]
                cut = text.endswith(ELLIPSIS_CUT) and nxt[:1].isalnum()
                text += (" " if lead <= hang and (cut or _lost_space_in_row(text, nxt, lexicon)) else "") + nxt
            i += 1
        out.append(KLine(text, cur.time, cur.source, cur.block, cur.width, False, cur.seen, cur.thinking,
                         cur.slash, cur.order, cur.drawn, cur.plain))
        i += 1
    return out


def is_thinking_row(frame: Frame, y: int) -> bool:
    """A `• ` row drawn as a thinking block: the bullet in a colour and the
    body in italics (an answer's bullet has the default colour; a notice's
    grey body is upright)."""
    return thinking_spans(frame.styles[y])


def thinking_spans(spans) -> bool:
    """`is_thinking_row` on a row's style spans (a visible row's, or one
    read from history)."""
    bullet = next((sp for sp in spans if sp[0] <= 0 < sp[1]), None)
    body = next((sp for sp in spans if sp[0] <= 2 < sp[1]), None)
    return (bullet is not None and bullet[2] != "default" and body is not None
            and bool(body[4] & FLAG_ITALIC))


THINKING_SPINNER = regex.compile(r"^\s*[\u2800-\u28ff]\s+Thinking\.\.\.")
#: a typed slash command in the input box
SLASH_TYPED = regex.compile(r"^/[\w:-]+(\s.*)?$")


def _link_row(frame: Frame, label: str, seen: dict[str, float]) -> str | None:
    """The row a link is drawn on: new on the frame (Kimi prints a finished
    block whole), its text there underlined (Rich underlines a link's text)."""
    for y, t in enumerate(frame.lines):
        if t in seen or label not in t:
            continue
        spans = frame.styles[y]
        at = t.find(label)
        while at >= 0:
            col = _cells(t[:at])
            if any(sp[0] <= col < sp[1] and sp[4] & FLAG_UNDERLINE for sp in spans):
                return t
            at = t.find(label, at + 1)
    return None


def input_rule_row(frame: Frame) -> int | None:
    """The `── input ──` row of the live input box on a frame (kept per frame:
    the box's text, its slash command and the rows above it all start from it).

    The live box is the last such row: the box's first row under it holds
    its text one column in (or nothing), and a rule at column 0 closes it
    (the status bar follows). A resize while the box was drawn can leave a
    copy of its top rule in the history, right above the prompt echo and
    the answer that come next, at column 0; closed by nothing (an answer's
    rules are indented under its bullet) that copy is no box, and a frame
    holding only such a copy (the live area between two redraws) has none."""
    memo = frame.memo
    if "kimi-input-rule" not in memo:
        lines = frame.lines
        # INPUT_RULE is `^── input ─+`: a row that starts so matches
        top = next((y for y in range(len(lines) - 1, -1, -1) if lines[y].startswith("── input ─")), None)
        if top is not None and top + 1 < len(lines) and lines[top + 1][:1].strip() and \
                not any(t.startswith("───") and BOX_CLOSE.match(t) for t in lines[top + 1:]):
            top = None
        memo["kimi-input-rule"] = top
    return memo["kimi-input-rule"]


#: the rule that closes the live input box: at column 0, nothing but the rule
BOX_CLOSE = regex.compile(r"^─{3,}\s*$")


def thinking_preview(frame: Frame) -> str | None:
    """The start of the thinking text the live area previews while it
    streams: the italic row under the `⠋ Thinking...` spinner (cut with
    `...` where it is longer than the row)."""
    lines = frame.lines
    for y, t in enumerate(lines):
        if "Thinking..." in t and THINKING_SPINNER.match(t) and y + 1 < len(lines) and lines[y + 1].strip():
            spans = frame.styles[y + 1]
            if spans and all(sp[4] & FLAG_ITALIC for sp in spans):
                text = lines[y + 1].strip()
                return text[:-3] if text.endswith("...") else text
    return None


def opens_thinking(row: str, previews: set[str]) -> bool:
    """A `• ` row whose text starts the way a previewed thinking text did:
    the first row of that block, also where it scrolled out of sight in the
    frame that drew it (its style was never seen)."""
    if not row.startswith("• "):
        return False
    body = row[2:]
    for p in previews:
        n = min(len(body), len(p))
        if n >= 12 and body[:n] == p[:n]:
            return True
    return False


def box_text(frame: Frame) -> str | None:
    """What the input box holds, None when no box is drawn.

    prompt_toolkit wraps the box's text by character, keeping every space in
    its cell: the first row after a one-column margin, later rows from
    column 0. A row that reaches the last column goes on in the next one; a
    shorter row ended with a typed newline.
    """
    top = input_rule_row(frame)
    if top is None:
        return None
    # the same box (and the rows under it) comes back frame after frame: read once
    key = (tuple(frame.lines[top + 1:]), frame.columns)
    got = _BOX_TEXT.get(key)
    if got is None:
        if len(_BOX_TEXT) >= 4096:
            _BOX_TEXT.clear()
        got = _BOX_TEXT[key] = _box_rows_text(*key)
    return got


#: (the rows under the input box's top rule, the width) -> `box_text`
_BOX_TEXT: dict[tuple[tuple[str, ...], int], str] = {}


def _box_rows_text(lines: tuple[str, ...], columns: int) -> str:
    """`box_text` of the rows under the box's top rule, at that width."""
    rows: list[str] = []
    for t in lines:
        if RULE_ROW.match(t):
            break
        rows.append(t)
    while rows and not rows[-1].strip():
        rows.pop()
    out = ""
    for k, row in enumerate(rows):
        text, avail = (row[1:], columns - 1) if k == 0 else (row, columns)
        out += text
        if k + 1 < len(rows) and _cells(text) < avail:
            out += "\n"
    return out


def _flat(text: str) -> str:
    return "".join(text.split())


def _box_lines(boxes: list[str], k: int, first: str) -> tuple[int, list[str]]:
    """The input box (from `boxes[k]` on) a prompt echo opening with the line
    `first` was typed in, and that box's lines after the first: what Kimi
    prints under the echo at column 0. No box holds it (a session drawn
    again by `--continue`): (k, [])."""
    key = _flat(first)
    for j in range(k, len(boxes)):
        lines = boxes[j].split("\n")
        if key and _flat(lines[0]) == key:
            return j + 1, lines[1:]
    return k, []


def _prompt_lines(prompts: Iterable[str], first: str) -> list[str]:
    """The lines after the first of the prompt (of `prompts`, given before)
    whose first line is `first`: what Kimi draws again under its echo."""
    key = _flat(first)
    for p in prompts:
        lines = p.split("\n")
        if len(lines) > 1 and key and _flat(lines[0]) == key:
            return lines[1:]
    return []


def merge_prompt(echo: str, box: str) -> str:
    """The typed prompt from its echo and the input box it was typed in.

    The echo is word-wrapped (a space at the break is dropped) and keeps the
    typed line breaks; the box is wrapped by character and keeps every space
    but loses spaces that ended a row. The box shows the echo's characters
    apart from white space (or the first of them: keys typed in the frame
    that sent the prompt may never be drawn in it); between two characters
    the box's white space wins unless it is a line break the echo does not
    have.
    """
    def gaps(s: str) -> tuple[str, list[str]]:
        chars, ws, cur = [], [], ""
        for ch in s.strip():
            if ch.isspace():
                cur += ch
            else:
                chars.append(ch)
                ws.append(cur)
                cur = ""
        return "".join(chars), ws
    ec, eg = gaps(echo)
    bc, bg = gaps(box)
    if not bc or not ec.startswith(bc):
        return echo
    # the box as last seen may lack the last keys (typed in the frame that sent
    # the prompt): the echo's own white space stands for the rest
    bg = bg + eg[len(bg):]
    out = []
    for ch, e, b in zip(ec, eg, bg):
        if "\n" in b and "\n" not in e:
            gap = e or " "
        elif "\n" in b:
            gap = e
        else:
            gap = b
        out.append(gap + ch)
    return "".join(out)


TABLE_RULE = regex.compile(r"^\s*[┌├└╞╘╭╰][─━┬┼┴═╪╤╧]+[┐┤┘╡╛╮╯]\s*$")
# a top rule where an answer's row draws it, after the answer's bullet or indent
TABLE_RULE_AT = regex.compile(r"^(?:•\s|\s)*(?=[┌╭][─━┬]+[┐╮]\s*$)")
TABLE_ROW = regex.compile(r"^(?P<sp>\s*)│(?P<cells>.*)│\s*$")


def _wraps_into(above: str, below: str) -> bool:
    """The text of cell `below` can be the rest of cell `above`, one column
    of a table row drawn on two rows: `above` reaches its column's edge (a
    cut by character), or the first word of `below` would not have fitted
    after it (a wrap at a word). Both cells as drawn, with their padding."""
    width = _cells(above) - 2
    text = above.strip()
    if _cells(above.rstrip()) >= _cells(above) - 1:
        return True
    first = below.split()[0] if below.split() else ""
    return _cells(text) + 1 + _cells(first) > width


def _cut_at_edge(above: str, below: str) -> bool:
    """Cell `above` (as drawn, with its padding) fills its column to the last
    cell with a letter or digit and `below` opens with one: a word cut by
    character at the column's edge, the sign of a row going on."""
    inner = above[1:-1] if len(above) >= 2 else above
    return (bool(inner) and _cells(inner.rstrip()) == _cells(inner) and inner.rstrip()[-1:].isalnum()
            and below.strip()[:1].isalnum())


def _folded_word(above: str, below: str, lexicon: dict[str, int]) -> bool:
    """Cell `above` ends at its column's edge inside a word that `below`
    goes on with: letters on both sides of the fold (a number, a CJK run
    or a punctuation mark may open a row of its own), and a join the
    session draws as a word, or halves it draws as words nowhere
    (`staistf|lainggong`); a half drawn as a word elsewhere (`trus|pexhoum`)
    may as well end one row and open the next."""
    if not _cut_at_edge(above, below):
        return False
    a, b = WORD_END.search(above.rstrip()), WORD_START.match(below.strip())
    if a is None or b is None or not (a.group(1).isascii() and b.group(1).isascii()):
        return False
    lw, rw = a.group(1).lower(), b.group(1).lower()
    return lexicon.get(lw + rw, 0) > 0 or (lexicon.get(lw, 0) == 0 and lexicon.get(rw, 0) == 0)


def _squeezed_columns(rows: list[str]) -> set[int]:
    """The columns of a table whose cells wrap: a drawn row that leaves some
    cell empty (so it continues a row, or ends one) has text in the column
    under text in the same column. Kimi folds such a cell by character;
    a column never seen doing so holds each of its cells on one row."""
    out: set[int] = set()
    prev: list[str] | None = None
    for row in rows:
        m = TABLE_ROW.match(row)
        if m is None:
            prev = None
            continue
        cells = m.group("cells").split("│")
        if prev is not None and len(prev) == len(cells) and any(not c.strip() for c in cells):
            out.update(c for c in range(len(cells)) if cells[c].strip() and prev[c].strip())
        prev = cells
    return out


def _cell_glue(left: str, right: str, lexicon: dict[str, int]) -> str:
    """What goes between a cell's text so far and its next drawn row when the
    row above filled its column: Rich wraps a cell at a word, so a word that
    ends exactly at the column's edge loses its space to the fold. A number
    or a comma followed by a letter (`39|C`, `20|kg`, `oiled,|basket`) was
    two words; letters on both sides were one word unless the session's
    words say otherwise."""
    if (left[-1:].isdigit() or left[-1:] in ",;") and right[:1].isalpha():
        return " "  # `39|C`, `oiled,|basket`: Rich's own text has a space there
    if _cells(left[-1:]) == 2 and _cells(right[:1]) == 2:
        return ""  # ideographs: Rich folds a run of them anywhere, with no space to lose
    a, b = WORD_END.search(left), WORD_START.match(right)
    if a is None or b is None or min(len(a.group(1)), len(b.group(1))) < 2:
        return ""  # a letter alone at a cell's fold is a word's end or start, not a word
    if _lost_space(left, right, lexicon):
        return " "
    # a left half no word of the session starts, before a right half of four
    # letters or more the session draws as a word twice (`thinned|with`,
    # `pressed|into`), was a word of its own; a shorter right half is too
    # often a cut word's tail (`headl|and`)
    return " " if len(b.group(1)) >= 4 and _lost_space_in_row(left, right, lexicon) else ""


def _word_on(group: list[list[str]], k: int, c: int) -> str:
    """Cell `c` of drawn row `k` from its text on, with its first word whole:
    a cell that is one run of letters to its column's edge (a word longer
    than the column, cut by character again) goes on with the first word of
    the row under it (`ri|rtyrkcl|oos` is `rirtyrkcloos`, which the session
    draws: no space before `rtyrkcl`)."""
    body = group[k][c].strip()
    word = body
    while k + 1 < len(group) and LETTERS.fullmatch(body) and _cut_at_edge(group[k][c], group[k + 1][c]):
        k += 1
        body = group[k][c].strip()
        m = WORD_START.match(body)
        if m is None:
            break
        word += m.group(1)
        if m.group(1) != body:
            break
    return word


def unfold_table_rows(rows: list[str], lexicon: dict[str, int] | None = None,
                      full: frozenset[str] = frozenset()) -> list[str]:
    """One row per table row: a cell too long for its column goes on, cut
    by character, in the same column of the rows under it. The table's
    rules are left out.

    Every drawn row between the top rule and the header rule is the header
    (Rich aligns a header to the bottom of its rows). Rich's grid has no
    rule between body rows, so a drawn row continues the one above when its
    first cell is empty and every cell both fill continues the cell above
    (a cell wrapped at a word: its first word would not have fitted; a
    table row may open with an empty cell), or when one of the two
    rows leaves a cell empty and every cell both fill continues the cell
    above (cut by character at the column's edge, or wrapped at a word that
    would not have fitted). A row that fills every column under a row that
    fills every column is an ordinary row, unless every column both fill
    wraps elsewhere in the table (`_squeezed_columns`), every cell can
    continue the one above and one is a word cut at its column's edge. A
    table as wide as the terminal (its top rule in `full`, stripped) had its
    columns narrowed to fit: there a full row under a full row goes on when
    every cell can continue the one above, none opens with a capital (a
    row's first words: `Jazz │ November`), and one, in a column that wraps
    elsewhere, is a word the fold cut (`_folded_word`), whichever other
    columns wrapped. A row that continues nothing is kept as drawn.
    """
    out: list[str] = []
    group: list[list[str]] = []  # the drawn rows of one table row, split into cells
    indent = ""
    header = False  # between a top rule and the header rule
    body = False  # under the header rule
    squeezed: set[int] = _squeezed_columns(rows)  # of the table under the last top rule (all rows before one)
    narrowed = False  # the table under the last top rule fills the terminal's width

    def flush() -> None:
        if not group:
            return
        if len(group) == 1:
            out.append(indent + "│" + "│".join(group[0]) + "│")
        else:
            merged = [""] * len(group[0])
            for k, cells in enumerate(group):
                for c, cell in enumerate(cells):
                    body = cell[1:].rstrip() if cell.startswith(" ") else cell.rstrip()
                    if not body:
                        continue
                    above = group[k - 1][c] if k else ""
                    # a wide character that would not fit in the last cell goes on the next row
                    edge = k and _cells(above) >= 2 and _cells(above.rstrip()) >= _cells(above) - (
                        2 if _cells(body[:1]) == 2 and _cells(above.rstrip()[-1:]) == 2 else 1)
                    glue = _cell_glue(merged[c], _word_on(group, k, c), lexicon or {}) if edge else " "
                    merged[c] = (merged[c] + glue + body) if merged[c] else body
            out.append(indent + "│ " + " │ ".join(merged) + " │")
        group.clear()

    for i, row in enumerate(rows):
        if TABLE_RULE.match(row):
            flush()
            header = row.lstrip()[:1] in "┌╭"
            body = row.lstrip()[:1] in "├╞"
            if header:
                narrowed = row.strip() in full
                # this table's columns only: an answer's other tables wrap other columns
                end = next((j for j in range(i + 1, len(rows)) if rows[j].lstrip()[:1] in "└╰┌╭"
                            and TABLE_RULE.match(rows[j])), len(rows))
                squeezed = _squeezed_columns(rows[i:end])
            continue
        m = TABLE_ROW.match(row)
        if m is None:
            flush()
            header = body = False
            out.append(row)
            continue
        cells = m.group("cells").split("│")
        if group and len(cells) == len(group[-1]) and m.group("sp") == indent:
            above = group[-1]
            filled = [c for c, cell in enumerate(cells) if cell.strip()]
            both = [c for c in filled if above[c].strip()]
            gaps = len(filled) < len(cells) or (len(group) == 1 and any(not cell.strip() for cell in above))
            wraps = all(_wraps_into(above[c], cells[c]) for c in both)
            # body cells are aligned to the top: text in a column that a drawn
            # row of this table row left blank (the cell had ended, or was
            # empty) opens the next row, whether its first cell is empty or not
            restart = body and any(cells[c].strip() and any(not g[c].strip() for g in group)
                                   for c in range(len(cells)))
            if filled and not restart and (header or (not cells[0].strip() and wraps) or (gaps and wraps)
                           or (wraps and both and all(c in squeezed for c in both)
                               and any(_cut_at_edge(above[c], cells[c]) for c in both))
                           or (wraps and both and narrowed
                               and not any(cell.strip()[:1].isupper() for cell in cells)
                               and any(c in squeezed and _folded_word(above[c], cells[c], lexicon or {})
                                       for c in both))):
                group.append(cells)
                continue
        flush()
        indent = m.group("sp")
        group.append(cells)
    flush()
    return out


BYE = regex.compile(r"^Bye!\s*$")
#: the chrome rules shared by every agent, and Kimi's spinner and box rules: what
#: they match indented under an answer's bullet is what the model wrote
SHARED_CHROME = frozenset({r.name for r in COMMON_CHROME} | {"moon-spinner", "box-rule"})
#: a row holding a word (a letter or a digit), not only box or rule glyphs
WORDY = regex.compile(r"[\p{L}\p{N}]")
RULE_ROW = regex.compile(r"^\s*[─━═]+\s*$|^── input ─")


WELCOME = regex.compile(r"^│.*Welcome to Kimi Code CLI")


def welcome_start(labeled: list[Labeled]) -> int:
    """Index of the top edge of the first welcome box (0 when there is none
    or nothing comes before it)."""
    for k, lb in enumerate(labeled[:400]):
        if WELCOME.match(lb.line.text):
            top = k
            while top > 0 and not labeled[top].line.text.startswith("╭") and k - top < 6:
                top -= 1
            return top if labeled[top].line.text.startswith("╭") else 0
    return 0


class KimiProfile(ChromeProfile):
    name = "kimi"
    checked_versions = ("1.51.0",)
    commands = ("kimi", "kimi-cli")
    #: `kimi --continue`, `kimi -r <id>`: the earlier session's turns are drawn again first
    resume_words = frozenset({"--continue", "-C", "--session", "--resume", "-S", "-r"})
    screen_signatures = (r"Welcome to Kimi Code CLI", r"── input ─{5,}", r"To resume this session: kimi -r")
    rules = (
        LineRule("loading", "chrome", r"^\s*[\u2800-\u28ff]\s+Loading configuration\.\.\.\s*$"),
        LineRule("welcome-box", "chrome", r"^│.*│$"),
        # a table's rules stay in the answer (as continuation rows) so that the
        # table's rows can be told apart: Rich draws every row between the top
        # rule and the header rule as ONE header row; the rules are left out
        # of the turn text when its table is put back together
        LineRule("table-rule", "cont", r"^\s*[┌├└][─┬┼┴]+[┐┤┘]\s*$"),
        LineRule("box-rule", "chrome", r"^\s*[┌├└╞╘╭╰][─━┬┼┴═╪╤╧]+[┐┤┘╡╛╮╯]\s*$"),
        *COMMON_CHROME,
        LineRule("moon-spinner", "chrome", rf"^\s*[{MOON}]\s*(\S.*)?$"),
        LineRule("input-rule", "chrome", INPUT_RULE.pattern),
        LineRule("status-bar", "chrome", r"^\s*(yolo\s+)?(agent|shell|plan)\s+\(.*\)\s{2,}"),
        LineRule("context", "chrome", r"^\s*context:\s+[\d.]+%\s+\(.*\)\s*$"),
        LineRule("bye", "chrome", r"^Bye!\s*$"),
        LineRule("exit-tip", "chrome", r"^(Tip: The new Kimi Code\b|Install: curl\b|upgrade next time\)|To resume this session: kimi -r\b)"),
        LineRule("slash-echo", "system", r"^✨\s(?P<body>/[\w:-]+(\s.*)?)$"),
        LineRule("prompt", "user", r"^✨\s(?P<body>.*)$"),
        LineRule("shell-prompt", "user", r"^\$\s(?P<body>.*)$"),
        LineRule("tool", "tool_call", TOOL.pattern),
        # an answer that opens with a code block: its bullet alone on the row, the code under it
        LineRule("answer", "assistant", r"^•(?:\s(?P<body>.*))?$"),
        LineRule("notice", "system", r"^[•●]\s(?P<body>.*)$"),
    )

    # -- frames -----------------------------------------------------------
    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        y = input_rule_row(frame)
        return (0, len(frame.lines) if y is None else y)

    def dialog(self, frame: Frame) -> list[str] | None:
        rows = [r for r in frame.lines if not PAGER_STATUS.match(r)]
        while rows and not rows[-1].strip():
            rows.pop()
        return rows or None

    def _note_bold(self, row: str, cells: tuple | None) -> None:
        """Remember a drawn row whose bold runs sit against ideographs, with
        their `**` put back (the turn text gets them in `_with_bold`): the
        rows themselves stay as drawn, their widths tell where Kimi folded."""
        marked = marked_ideograph_bold(row, cells, _kimi_marker)
        if marked != row:
            self._bold[row.strip().removeprefix("• ")] = marked.strip().removeprefix("• ")

    def _with_bold(self, text: str) -> str:
        """`text` with the bold runs of its drawn rows marked (`_note_bold`); a
        run cut by a fold is marked on both rows, and the halves are one run."""
        for row, marked in getattr(self, "_bold", {}).items():
            if row and row in text:
                text = text.replace(row, marked)
        return text.replace("****", "").replace("``", "")

    def transcript(self, frames: Iterable[Frame]) -> list[TLine]:
        self._bold: dict[str, str] = {}
        out: list[KLine] = []
        self._dialogs = []
        last_main: Frame | None = None
        typed: str | None = None  # a slash command left in the input box
        pager: list[str] | None = None  # the command that opened the pager on screen
        pager_rows: list[str] | None = None
        first_seen: dict[str, float] = {}
        first_order: dict[str, int] = {}
        first_width: dict[str, int] = {}
        turn_min = 1 << 30  # the narrowest width since the last prompt echo was drawn
        self._dialog_orders: list[int] = []
        thinking: dict[str, bool] = {}  # `• ` row text -> drawn as thinking
        plain: dict[str, bool] = {}  # `• Used X (…)` row text -> its bullet in the default colour
        previews: set[str] = set()  # starts of thinking texts the live area previewed
        self._boxes: list[str] = []  # the input box's text each time it was emptied
        held: str | None = None
        slash_rows: set[str] = set()  # rows first drawn while a slash command's output was due
        slash_open = False
        marks: list[tuple[int, int]] = []
        seen: frozenset[int] = frozenset()
        nth = 0
        self._links: list[tuple[int, str, str]] = []  # (frame ordinal, target, text) of OSC 8 links
        self._links_used: set[int] = set()  # those placed in an answer
        self._link_rows: dict[int, str] = {}  # link index -> the row it was drawn on
        # a link drawn again counts once a prompt (the live area redraws the rows it holds);
        # the same link in a later turn's answer (an answer opening like an earlier one) is
        # a link of its own
        link_keys: set[tuple[str, str, int]] = set()
        prompts_seen = 0  # prompt echo rows drawn so far
        keys = InputLine()
        self._pasted: list[str] = []  # each prompt sent with a paste in it, as the keys typed it
        for nth, f in enumerate(frames):
            if f.inputs:
                self._pasted.extend(keys.feed(f.inputs))
            seen = seen | {f.columns} if f.columns not in seen else seen
            if f.links:
                for url, label in merged_links(f.links):
                    if (url, label, prompts_seen) not in link_keys:
                        link_keys.add((url, label, prompts_seen))
                        self._links.append((nth, url, label))
                        row = _link_row(f, label, first_seen)
                        if row is not None:
                            self._link_rows[len(self._links) - 1] = row.strip().removeprefix("• ")
            turn_min = min(turn_min, f.columns)
            # Only clears mark a reprint: on a resize kimi-cli redraws just its live area
            # (spinner, input box, footer) and leaves the printed answer to the terminal's
            # reflow. A resize mark made fold_redraws take the next paragraphs of an answer
            # whose paragraphs read alike for a reprint of the ones before and drop those.
            marks.extend((len(out) + off, f.rows) for off, why in f.marks if why != "resize")
            widths = f.widths or [f.columns] * len(f.scrolled)
            wraps = f.wrapped or [False] * len(f.scrolled)
            again = [getattr(h, "again", False) for h in f.scrolled_lines] or [False] * len(f.scrolled)
            for k, (ln, w, wr, rep) in enumerate(zip(f.scrolled, widths, wraps, again)):
                if ln not in plain and ln.startswith("• ") and TOOL.match(ln) and k < len(f.scrolled_lines):
                    plain[ln] = _plain_bullet(f.scrolled_lines[k].cells)  # scrolled off between two frames
                if ln not in thinking and ln.startswith("• ") and k < len(f.scrolled_lines):
                    # a thinking block that scrolled off between two frames (a resumed session
                    # drawing its conversation again, taller than the screen)
                    thinking[ln] = thinking_spans(f.scrolled_lines[k].spans)
                if rep:
                    # a blank row a grow brought back from history, scrolling off again:
                    # Kimi never reprints on a resize, so it is the same blank, recorded
                    # already where it first left; kept, it cut a paragraph whose rows a
                    # shrink had wrapped (`which g` / blank / `ives the steam`)
                    continue
                # timed from when the row was first drawn, not when it scrolled away (a
                # dialog opened in between is placed after it)
                out.append(KLine(ln, first_seen.get(ln, f.time), "history", 0, w, wr, seen,
                                 thinking.get(ln) or opens_thinking(ln, previews),
                                 ln in slash_rows, first_order.get(ln, nth), first_width.get(ln, 0),
                                 plain.get(ln, False)))
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
                    self._dialog_orders.append(nth)
                pager_rows = rows
                continue
            pager, pager_rows = None, None
            # the terminal changed size: the rows on this frame are the old ones laid
            # out anew (Kimi redraws only its live area), never a slash command's output
            resized = last_main is not None and last_main.columns != f.columns
            last_main = f
            preview = thinking_preview(f)
            if preview and len(preview) >= 12:
                previews.add(preview)
            box = self._input_text(f)
            if typed and not box:
                # the slash command left the box, or the box itself went while the
                # command ran (the first one of a session): it was sent
                slash_open = True
            held_now = box_text(f)
            if held and held_now is not None and not held_now.strip() and not SLASH_TYPED.match(held.strip()):
                # a prompt left the box: what comes now is its turn, even when its
                # echo repeats an earlier prompt's (a row drawn before is not new)
                slash_open = False
            box_top = input_rule_row(f)
            if box_top is None:
                box_top = len(f.lines)
            # A row already met on an earlier frame (most of a frame's rows) was
            # read then: it is in `first_seen` and, opening with a bullet, in
            # `thinking`. Only rows new to the session are visited (told in C,
            # each as the walk reaches it: a row twice on this frame counts once).
            lines_f = f.lines
            for y in compress(count(), map(not_, map(first_seen.__contains__, lines_f))):
                t = lines_f[y]
                above_box = y < box_top
                if t not in first_seen:
                    first_seen[t] = f.time
                    first_order[t] = nth
                    if above_box and PROMPT_ECHO.match(t):
                        turn_min = f.columns  # an answer is cut at the widths it streams at
                        prompts_seen += 1
                    first_width[t] = turn_min
                    if above_box and not t.isascii() and y < len(f.cells):
                        self._note_bold(t, f.cells[y])
                    if above_box and PROMPT_ECHO.match(t):
                        slash_open = False
                    elif above_box and slash_open and t.strip() and not resized:
                        slash_rows.add(t)
                if t.startswith("• ") and t not in thinking:
                    thinking[t] = is_thinking_row(f, y)
                    if t not in plain and TOOL.match(t) and y < len(f.cells):
                        plain[t] = _plain_bullet(f.cells[y])
            if box is not None:
                typed = box or None
            if held_now is not None:
                if held_now.strip():
                    held = held_now
                elif held is not None:
                    self._boxes.append(held)
                    held = None
        if last_main is not None:
            vp = self.main_viewport(last_main)
            if vp is not None:
                final = last_main.lines[vp[0]:vp[1]]
                while final and not final[-1].strip():
                    final.pop()
                if typed and any(BYE.match(t) for t in final):
                    self._dialogs.append((last_main.time + 1e-3, [typed]))  # the exit command
                    self._dialog_orders.append(nth + 1)
                wraps = last_main.row_wrapped[vp[0]:vp[1]]
                out.extend(KLine(t, first_seen.get(t, last_main.time), "screen", 1, last_main.columns,
                                 wraps[k] if k < len(wraps) else False, seen,
                                 thinking.get(t) or opens_thinking(t, previews),
                                 t in slash_rows, first_order.get(t, nth), first_width.get(t, 0),
                                 plain.get(t, False))
                           for k, t in enumerate(final))
        self._box_next = 0
        joined = join_wrapped(fold_redraws(out, marks))  # type: ignore[arg-type]
        # the session's words outside tables: whether a table cell's fold ate a space
        self._cell_words = _lexicon([ln for ln in joined if "│" not in ln.text])
        return joined

    def _typed(self, echo: str) -> str:
        """The prompt as typed: its echo made exact by the input box it was
        typed in (the next box emptied with the same characters). A prompt
        sent with a paste in it is the keys' line when the recording has
        them: a typed line exactly as wide as the terminal, then a line break,
        is drawn (echo and box) like a longer line wrapped there."""
        boxes = getattr(self, "_boxes", [])
        key = "".join(echo.split())
        pasted = getattr(self, "_pasted", [])
        for k in range(getattr(self, "_pasted_next", 0), len(pasted)):
            keyed = "".join(pasted[k].split())
            # keys a pager or dialog took (the `q` that closed `/help`) may open the line
            if key and keyed.endswith(key):
                self._pasted_next = k + 1
                i, extra = 0, len(keyed) - len(key)
                while extra:
                    extra -= not pasted[k][i].isspace()
                    i += 1
                return pasted[k][i:].strip()
        for k in range(getattr(self, "_box_next", 0), len(boxes)):
            held = "".join(boxes[k].split())
            if held and key.startswith(held) and 2 * len(held) >= len(key):
                self._box_next = k + 1
                return merge_prompt(echo, boxes[k])
        return echo

    @staticmethod
    def _input_text(frame: Frame) -> str | None:
        """The input box's slash command ("" for other text), None when no box is drawn."""
        y = input_rule_row(frame)
        if y is None or y + 1 >= len(frame.lines):
            return None
        s = frame.lines[y + 1].strip()
        return s if SLASH_TYPED.match(s) else ""

    # -- turns ------------------------------------------------------------
    def label(self, lines: list[TLine]) -> list[Labeled]:
        labeled = super().label(lines)
        prev = None
        in_prompt = False
        in_box = False  # under an `── input ──` rule the history kept
        after_bye = False
        start = welcome_start(labeled)
        boxes = getattr(self, "_boxes", [])
        box_k = 0  # the next input box a prompt echo may have been typed in
        rest: list[str] = []  # the lines of the echoed prompt's box still to come under it
        for k, lb in enumerate(labeled):
            if in_prompt and rest and k >= start:
                # a row of the prompt as its input box held it (a pasted `$ make`,
                # `• flash the card`, `╭─ checklist ─╮` at column 0): the prompt's,
                # whatever a rule reads in it; a blank line of the box is the prompt's too
                want = rest.pop(0)
                if (lb.kind == "blank") == (not want.strip()) and _flat(lb.line.text) == _flat(want):
                    if lb.kind != "blank":
                        lb.kind, lb.rule, lb.body = "cont", "prompt-row", lb.line.text
                    continue
                rest = []
            if k < start:
                # drawn before kimi's welcome box: what ran in the terminal before
                # it (a shell), never the conversation
                if lb.kind not in ("blank", "chrome"):
                    lb.kind, lb.rule = ("cont" if prev == "system" else "system"), "before-kimi"
                    lb.body = lb.line.text
                    prev = "system"
                continue
            if k == start:
                prev = None
            if lb.rule == "input-rule":
                in_box = True
                continue
            if (lb.kind == "cont" and k and labeled[k - 1].rule == "braille-spinner"
                    and THINKING_SPINNER.match(labeled[k - 1].line.text) and not lb.line.text[:1].isspace()):
                # the live area's preview of a thinking text under its `⠏ Thinking...`
                # spinner, left in the history by a resize while the model thought
                lb.kind, lb.rule = "chrome", "thinking-preview"
                continue
            if in_box:
                # the input box under its rule, left in the history by a resize (the
                # terminal laid the live area out anew as a prompt was sent): the box
                # draws its text one column in (` drurksta …`), where an answer's rows
                # are two in and a prompt's echo none
                text = lb.line.text
                if lb.kind == "cont" and text[:1] == " " and text[1:2].strip():
                    lb.kind, lb.rule = "chrome", "input-box"
                    continue
                if lb.kind != "blank":
                    in_box = False
            if lb.kind == "tool_call" and getattr(lb.line, "plain", False):
                # `• Using uv (astral)` with the bullet in the default colour: an answer
                lb.kind, lb.rule, lb.body = "assistant", "answer", lb.line.text[2:]
            elif (lb.kind == "chrome" and prev in ("assistant", "thinking") and lb.rule in SHARED_CHROME
                  and lb.line.text.startswith("  ")
                  and (WORDY.search(lb.line.text) or lb.rule in ("box-border", "box-rule"))):
                # a row indented under an answer's bullet is the answer's text: Kimi draws
                # its own chrome (spinners, rules, boxes) at column 0 or below the input
                # rule, so a box edge with a label (`╭─ shadow pool ─╮`), a moon-phase
                # list, `Press Ctrl+C to cancel …` or a `████░░ 80%` bar written by the
                # model stays, and so do a diagram's bare box edges; a heading's
                # underline (a rule with no words) is still no text
                lb.kind, lb.rule, lb.body = "cont", "answer-row", lb.line.text
            if lb.rule == "bye":
                after_bye = True
            if after_bye:  # the farewell and its tips
                lb.kind = "chrome" if lb.kind != "blank" else "blank"
                continue
            if getattr(lb.line, "slash", False) and lb.kind not in ("user", "blank", "chrome"):
                # what a slash command printed: one system block
                lb.kind, lb.rule = ("cont" if prev == "system" else "system"), "command-output"
                lb.body = lb.line.text if lb.kind == "cont" else lb.body or lb.line.text
                in_prompt, prev = False, "system"
                continue
            if lb.kind in ("user", "system"):
                in_prompt = lb.kind == "user"
                prev = lb.kind
                if lb.rule == "prompt":
                    box_k, rest = _box_lines(boxes, box_k, lb.body)
                    if not rest:
                        # a session drawn again by `--continue`: no box holds its prompts,
                        # the earlier run's prompts do
                        rest = _prompt_lines(self.prompts_before, lb.body)
                continue
            if in_prompt:
                # a prompt runs to a `• ` answer or tool row (a session resumed with
                # `kimi --continue` is drawn again with each answer right under its
                # prompt), or to a blank row with no more of the prompt under it: a
                # prompt's own rows start at column 0 and hold no bullet, so a blank
                # row under which such a row comes is a blank line typed (pasted) in
                # the prompt; what a slash command printed is no prompt row
                if lb.kind == "blank":
                    in_prompt = self._prompt_goes_on(labeled, k)
                    continue
                if lb.kind in ("assistant", "tool_call"):
                    in_prompt = False
                else:
                    lb.kind, lb.rule, lb.body = "cont", "prompt-row", lb.line.text
                    continue
            if lb.kind == "tool_call":
                prev = "tool_call"
                continue
            if lb.kind == "assistant" and getattr(lb.line, "thinking", False):
                lb.kind, lb.rule = "thinking", "thinking"
                prev = "thinking"
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

    @staticmethod
    def _prompt_goes_on(labeled: list[Labeled], k: int) -> bool:
        """Whether the blank row labeled[k], under a prompt's rows, is a blank line
        of that prompt: the next row that is not blank is an unlabeled row at
        column 0, drawn with the prompt (not a slash command's output)."""
        for lb in labeled[k + 1:]:
            if lb.kind == "blank":
                continue
            ln = lb.line
            return (lb.kind == "cont" and not getattr(ln, "slash", False)
                    and not ln.text[:1].isspace() and not getattr(ln, "thinking", False))
        return False

    def reconstruct(self, frames: Iterable[Frame], header: CastHeader | None = None
                    ) -> tuple[list[Turn], list[Labeled]]:
        """Turns, with each dialog (a pager, the exit command) placed after
        the turns drawn before it opened, by frame order rather than by time
        (a recording whose pauses were cut has many rows at one instant)."""
        self._turn_order: dict[int, int] = {}
        labeled = self.label(self.transcript(frames))
        turns = self.turns(labeled)
        pending = [(o, Turn("system", "\n".join(rows).strip(), time=t))
                   for o, (t, rows) in zip(self._dialog_orders, self._dialogs)]
        out: list[Turn] = []
        for t in turns:
            o = self._turn_order.get(id(t))
            while pending and o is not None and pending[0][0] < o:
                out.append(pending.pop(0)[1])
            out.append(t)
        return out + [d for _o, d in pending], labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        made = self._make_turn(kind, text, members)
        if members:
            first = min((getattr(m.line, "order", 0) for m in members if m.line.text.strip()), default=0)
            orders = self.__dict__.setdefault("_turn_order", {})
            for t in (made if isinstance(made, list) else [made] if made is not None else []):
                orders[id(t)] = first
        return made

    def _make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        if kind == "user":
            rows = [members[0].body] + [m.line.text for m in members[1:]]
            while rows and not rows[-1].strip():
                rows.pop()
            return Turn("user", self._typed("\n".join(r.rstrip() for r in rows)))
        if kind == "tool_call":
            m = TOOL.match(members[0].line.text)
            if m:
                return Turn("tool_call", (m.group("arg") or "").strip(), name=m.group("name"))
        if kind == "assistant" and getattr(self, "_bold", None):
            text = self._with_bold(text)
        if kind == "assistant" and getattr(self, "_links", None):
            text = self._with_links(text, members)
        if kind == "assistant" and ("│" in text or "┌" in text):
            # a top rule that reaches the edge of a width the terminal had: Rich narrowed the table
            full = frozenset(TABLE_RULE_AT.sub("", m.line.text).strip() for m in members
                             if TABLE_RULE_AT.search(m.line.text) and _cells(m.line.text.rstrip()) in m.line.seen)
            return Turn(kind, "\n".join(unfold_table_rows(text.split("\n"), getattr(self, "_cell_words", None),
                                                           full)))
        if kind == "tool_result":
            rows = [m.line.text for m in members if not TABLE_RULE.match(m.line.text)]
            return Turn("tool_result", textwrap.dedent("\n".join(rows)).strip())
        if "┌" in text or "├" in text or "└" in text:
            text = "\n".join(r for r in text.split("\n") if not TABLE_RULE.match(r)).strip()
        return Turn(kind, text)

    def _with_links(self, text: str, members: list[Labeled]) -> str:
        """The answer with each link's target after its text, as Markdown
        has it: Rich draws a link's text (underlined) and hands the target
        to the terminal (OSC 8), so no row shows it. A link belongs to the
        first answer, in order, that shows its text and whose rows were drawn
        by the frame it was drawn in or later: a resize lays an answer's rows
        out anew, and the new rows are first seen after the link was drawn."""
        orders = [getattr(m.line, "order", 0) for m in members if m.line.text.strip()]
        if not orders:
            return text
        hi = max(orders) + 1
        for k, (when, url, label) in enumerate(self._links):
            # a link whose text the answer shows more than once (`crin` in a sentence
            # and again as the link of `See crin for …`): the target goes on the row
            # the link was drawn on
            row = self._link_rows.get(k)
            if k in self._links_used or when > hi or not row or url in text:
                continue
            at = text.find(row)
            words = regex.compile(r"(?<!\w)" + regex.escape(label) + r"(?!\w)")
            if at < 0 or len(words.findall(text)) < 2:
                continue
            m = words.search(text, at, at + len(row))
            if m is not None:
                self._links_used.add(k)
                text = text[:m.end()] + " (" + url + ")" + text[m.end():]
        return with_link_targets(text, self._links, self._links_used, float("-inf"), hi)

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
