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
  (`✓`/`✗`/`✕` when one failed, a braille spinner while running): `Explored 1 search ▸`,
  `$ python3 src/main.py ▸`, `Read file ▸`, …;
- the input box at the bottom: `╭── … ─ medium ─╮`, and its bottom border
  carries the state: `╰ ≈ Running Tools ──`, `Streaming 2.23k tok`,
  `thinking`, `waiting`, and the working directory;
- at exit (Ctrl+C twice), on the main screen: a small logo, the thread
  title and directory, and `amp threads continue <url>`.
"""
from __future__ import annotations

import textwrap
from typing import Iterable

import regex

from wcwidth import wcswidth

from agents_chrome.grids import merge_grid_rows
from agents_chrome.links import _flat, _whole_label, merged_links, with_stray_link_targets
from agents_chrome.overlay import popup_rows
from agents_chrome.profile import ChromeProfile
from agents_chrome.rules import Labeled, LineRule
from agents_chrome.stitch import Stitcher
from agents_chrome.transcript import TLine, without_scrollbar
from agents_chrome.turns import Turn
from agents_chrome.wraps import broken_token, wide
from screen.frames import Frame
from screen.vscreen import FLAG_BOLD, FLAG_UNDERLINE

BOX_TOP = regex.compile(r"^\s*╭─")
PROMPT_ROW = regex.compile(r"^\s?┃\s")
OVERLAY = regex.compile(r"(\s{3,}[╭╰│┃].*|[╭╰]─.*[╮╯])\s*$")
ORB_GLYPHS = set("•●·:")
SCROLLBAR = set("█▐▌▕▏▁▂▃▄▅▆▇│┃")  # the scrollbar and its track, in the last column
ORB = regex.compile(r"^\s*[•●:·.][\s•●:·.]{2,}$")
WELCOME = regex.compile(r"Welcome to Amp|Space to continue|ctrl\+o for commands")
STATUS = r"[✓✗✔✘✕×⚠◌○●⠀-⣿]"  # ✕: a tool (or a group of them) that failed
SPINNING = regex.compile(r"^\s{0,2}[⠀-⣿]\s+\S")  # a tool row whose status is a braille spinner
# what only a tool row has (see AmpProfile.rules): a spinner, or the fold mark at its end
SETTLED_TOOL = r"\s{0,2}[⠀-⣿]\s|.*▸\s*$"
SETTLED_SHELL = r"\s{0,2}[⠀-⣿]\s|.*(▸|\(exit code: -?\d+\)|\s\\)\s*$"
TOOL = regex.compile(rf"^\s{{0,2}}{STATUS}?\s*(?P<body>.*?)\s*▸?\s*$")
COUNTED = regex.compile(r"(?P<n>\d+)\s+(searches|search|files?|commands?|edits?|reads?|tools?)\b")
VERB_TOOL = {"explored": "search", "exploring": "search", "read": "Read", "reading": "Read",
             "edited": "edit_file", "editing": "edit_file", "created": "create_file", "ran": "shell_command",
             "running": "shell_command", "searched": "Grep", "searching": "Grep", "listed": "list_directory",
             "fetched": "read_web_page", "planned": "todo_write", "updated": "todo_write"}


THUMB_PARTS = set("▁▂▃▄▅▆▇█")


def thumb_at_end(frame: Frame, bottom: int) -> bool | None:
    """Whether the conversation view ends where the thread does, read from
    the scrollbar in the last column (rows above the input box): its track
    is a reverse-video block, the thumb a plain one, so the view is at the
    end when the lowest bar cell is a plain full block, and scrolled back
    when it is track. No bar at all: the thread fits, the view is the end.
    None when the cells are not known."""
    if not frame.cells:
        return None
    edge = frame.columns - 1
    low = None
    for y in range(min(bottom, len(frame.cells))):
        row = frame.cells[y]
        if row is None or len(row) <= edge:
            continue
        c = row[edge]
        if c.data in THUMB_PARTS and c.bg not in ("default", None):
            low = c
    if low is None:
        return True
    return low.data == "█" and not low.reverse


def stale_rows(first: Frame, after: Frame) -> bool:
    """`first` is `after` with old text showing through: rows where every
    character `after` draws is in place and more stand where it has blanks
    (a first drawing at a new size that wrote over old rows uncleared)."""
    n = 0
    for a, b in zip(without_scrollbar(first, SCROLLBAR), without_scrollbar(after, SCROLLBAR)):
        if a == b or len(b.strip()) < 3 or len(a) < len(b):
            continue
        if all(cb == " " or ca == cb for ca, cb in zip(a, b)) and any(
                cb == " " and ca != " " for ca, cb in zip(a, b.ljust(len(a)))):
            n += 1
    return n >= 2


#: drawings held after a height change (see AmpProfile.transcript)
_SETTLE = 5


def _left_behind(first: Frame, after: Frame) -> bool:
    """A row of `first` is a row of `after` (anywhere on it: the terminal
    moved the rows) with more text after it, where `after` has blanks: a
    drawing that wrote over an old row without clearing its tail."""
    rows = [b for b in without_scrollbar(after, SCROLLBAR) if len(b.strip()) >= 3]
    have = set(rows)
    for a in without_scrollbar(first, SCROLLBAR):
        if len(a.strip()) < 3 or a in have:
            continue
        for b in rows:
            if len(a) > len(b.rstrip()) and a.startswith(b.rstrip()) and a[len(b.rstrip()):].strip() \
                    and a[len(b.rstrip())] != " " and len(b.strip()) >= 8:
                return True
    return False


def _not_redrawn(frame: Frame, vp: tuple[int, int], width: int, before: list[str]) -> bool:
    """Widened, a frame whose rows above the input box hold, in their first
    `width` columns, exactly the rows last seen at that width: Amp has not
    laid the thread out again yet (only the box is redrawn), and what the
    terminal shows past those columns is what it kept there from before an
    earlier shrink (a table's right-hand cells, the box's old end). No view
    of the conversation at either width."""
    if not frame.cells or vp[1] - vp[0] != len(before):
        return False
    for y, old in zip(range(vp[0], vp[1]), before):
        cells = frame.cells[y] if y < len(frame.cells) else None
        if cells is None or "".join(c.data for c in cells[:width]).rstrip() != old:
            return False
    return any(old.strip() for old in before)


def _sq(s: str) -> str:
    return "".join(s.split())


def _mostly_in(rows: list[str], text: str) -> bool:
    rows = [r for r in rows if len(r.strip()) >= 3]
    return sum(1 for r in rows if _sq(r) in text) >= 0.8 * len(rows)


class AmpStitcher(Stitcher):
    """The generic stitcher, plus what a scrolled-back view can add: the rows
    of a gap (an answer's top, never on the live view) that it shows; one
    per width the thread was laid out at, spliced together at prompts."""

    width: int | None = None

    def add(self, view, time: float = 0.0, at_end: bool = False) -> None:  # type: ignore[override]
        """A live view that shows the thread's last prompt redraws its whole
        turn: every row below that prompt replaces the document's (a tool
        row drawn spinning over several rows settles into fewer, or into a
        summary row; rows change in place rather than scroll). Anything
        else goes to the generic stitcher."""
        if at_end and self._redraw_last_turn(list(view), time):
            return
        super().add(view, time, at_end=at_end)

    def _redraw_last_turn(self, view: list[str | None], time: float) -> bool:
        doc = self.doc
        if not doc or any(v is None for v in view):
            return False

        def starts(rows: list[str]) -> list[int]:
            return [i for i, r in enumerate(rows) if PROMPT_ROW.match(r) and not (i and PROMPT_ROW.match(rows[i - 1]))]

        pd, pv = starts(doc), starts(view)
        if not pd or not pv or _sq(doc[pd[-1]]) != _sq(view[pv[-1]]):
            return False
        d, v = pd[-1], pv[-1]
        # the same prompt typed again: the text row above it tells them apart
        above_d = next((r for r in reversed(doc[:d]) if len(r.strip()) >= 3), None)
        above_v = next((r for r in reversed(view[:v]) if len(r.strip()) >= 3), None)
        if above_v is not None and above_v != above_d:
            return False
        tail = list(view[v:])
        while tail and not tail[-1].strip():
            tail.pop()
        if tail == doc[d:]:
            return False  # nothing changed: the generic path keeps its memo
        times = [self.times[d + k] if d + k < len(doc) and doc[d + k] == r else time for k, r in enumerate(tail)]
        self.doc = doc[:d] + tail
        self.times = self.times[:d] + times
        self.gaps = {g for g in self.gaps if g <= d}
        self._rebuild_index()
        return True

    def _place(self, view, s, time, **kw) -> None:  # type: ignore[override]
        """The generic placing, undone when it took away a prompt the view
        does not show in any form: a view anchored on one short row that an
        older turn also drew (an answer's `---` rule) would put the end of
        an answer taller than the screen over the prompt it answers (a
        prompt wrapped over two rows is too few rows lost to refuse the
        anchor). The view then continues the document after a gap."""
        doc, times, gaps = list(self.doc), list(self.times), set(self.gaps)
        super()._place(view, s, time, **kw)
        op = self._op
        if op is None or op.gap:
            return
        shown = _sq("".join(v for v in view if v))
        kept = {_sq(r) for r in self.doc[op.start:]}
        if any(PROMPT_ROW.match(r) and _sq(r) not in kept and _sq(r) not in shown for r in doc[op.start:]):
            self.doc, self.times, self.gaps = doc, times, gaps
            self._rebuild_index()
            self._replace(len(doc), [], view, time, gap=True)

    def fork(self) -> "AmpStitcher":
        """A copy holding the document so far; this one starts afresh."""
        old = AmpStitcher(reach=self.reach)
        old.doc, old.times, old.gaps, old.width = self.doc, self.times, self.gaps, self.width
        self.doc, self.times, self.gaps = [], [], set()
        self._rebuild_index()
        return old

    def splice(self, later: "AmpStitcher") -> "AmpStitcher":
        """This document continued by `later`, stitched at another width.

        `later` starts with the end of the thread as re-laid out. The prompts
        it opens with are this document's last prompts: from the first of
        them on, each turn is taken from whichever document holds more of
        its text (the other width may have shown an answer's top, or only
        its end). When it shows none of them, its rows above its first
        prompt are the rest of this document's last answer: kept when this
        document lacks their text, left out when it holds it."""
        mine = [(r, t, i in self.gaps) for i, (r, t) in enumerate(zip(self.doc, self.times))]
        theirs = [(r, t, i in later.gaps) for i, (r, t) in enumerate(zip(later.doc, later.times))]
        # a prompt is where a run of bar rows starts: one wrapped over more
        # rows at one width than at the other is still one prompt
        b = [i for i, (r, _, _) in enumerate(mine) if PROMPT_ROW.match(r)
             and not (i and PROMPT_ROW.match(mine[i - 1][0]))]
        q = [j for j, (r, _, _) in enumerate(theirs) if PROMPT_ROW.match(r)
             and not (j and PROMPT_ROW.match(theirs[j - 1][0]))]

        def same(i: int, j: int) -> bool:
            x, y = _sq(mine[i][0]), _sq(theirs[j][0])
            return x.startswith(y) or y.startswith(x)

        # the later document may open with older turns too: its prompts from
        # some u on are this document's last ones
        shared, u = 0, 0
        for u in range(len(q)):
            shared = next((t for t in range(min(len(b), len(q) - u), 0, -1)
                           if all(same(b[len(b) - t + k], q[u + k]) for k in range(t))), 0)
            if shared:
                q = q[u:]
                break

        def text(rows: list) -> int:
            return len(_sq("".join(r for r, _, _ in rows)))

        def gaps(rows: list) -> int:
            return sum(1 for _, _, g in rows if g)

        if shared:
            bb, qq = b[len(b) - shared:] + [len(mine)], q[:shared + 1] if len(q) > shared else q[:shared] + [len(theirs)]
            rows = mine[:bb[0]]
            for k in range(shared):
                seg_mine, seg_theirs = mine[bb[k]:bb[k + 1]], theirs[qq[k]:qq[k + 1]]
                # as much text either way: the one that saw it whole (no gap)
                rows += seg_theirs if (text(seg_theirs), -gaps(seg_theirs)) >= (text(seg_mine), -gaps(seg_mine)) \
                    else seg_mine
            rows += theirs[qq[shared]:]
        else:
            k = q[0] if q else len(theirs)
            last = b[-1] if b else -1
            tail, head = [r for r, _, _ in mine[last + 1:]], [r for r, _, _ in theirs[:k]]
            if _mostly_in(head, _sq("".join(tail))):
                rows = mine + theirs[k:]
            elif b and _mostly_in(tail, _sq("".join(head))):
                # the re-laid-out end shows more of the last answer; when the
                # old width never showed that answer's top either, neither
                # does this one (it opens below the prompt): still a gap
                cut = any(g for _, _, g in mine[last + 1:])
                rows = mine[:last + 1] + [(r, t, g or (cut and j == 0)) for j, (r, t, g) in enumerate(theirs)]
            else:
                rows = mine + [(r, t, g or j == 0) for j, (r, t, g) in enumerate(theirs)]
        out = AmpStitcher(reach=self.reach)
        out.doc = [r for r, _, _ in rows]
        out.times = [t for _, t, _ in rows]
        out.gaps = {i for i, (_, _, g) in enumerate(rows) if g}
        out.width = later.width
        return out

    def reveal(self, view: list[str | None], time: float) -> None:
        """Fill in a gap from a view the user scrolled back to.

        The view must show the first row after a gap with every row below it
        exactly as the document has them; its rows above that are inserted
        there. When it also shows a row from just above the gap (the prompt),
        the gap is whole and closed. Rows are only ever added: a view whose
        upper anchor would drop document rows it does not show is an older
        copy of repeated text, and only adds what lies below that anchor."""
        view = [v or "" for v in view]
        while view and not view[-1].strip():
            view.pop()
        doc = self.doc
        for g in sorted(self.gaps, reverse=True):
            g0 = g  # the gap itself; `g` moves up to the anchor when the view closes it
            q = next((y for y in range(g, len(doc)) if len(doc[y].strip()) >= 3), None)
            if q is None:
                continue
            i = self._shown_at(view, q)
            if i is None or i == 0:
                continue
            top, keep_gap = 0, True
            shown = "".join("".join(v.split()) for v in view)
            j = next((j for j in range(i - 1, -1, -1) if len(view[j].strip()) >= 3 and view[j] in self._pos
                      and any(y < g for y in self._pos[view[j]])), None)
            if j is not None:
                r = max(y for y in self._pos[view[j]] if y < g)
                # (a tool row drawn with a spinner is shown settled, ✓ and
                # another verb, by a later view: the view's row replaces it)
                if not all("".join(d.split()) in shown for d in doc[r + 1:g]
                           if len(d.strip()) >= 3 and not SPINNING.match(d)):
                    continue  # an older copy of the rows above: where they belong is unknown
                top, keep_gap, g = j + 1, False, r + 1
            new = view[top:i]
            if not any(len(v.strip()) >= 3 for v in new):
                continue
            # every prompt was on the live view when it was sent, so a gap
            # never hides one; and what a gap hides is not (beyond the odd
            # repeated row) what the document already holds below it
            rows = [v for v in new if len(v.strip()) >= 3]
            later = sum(1 for v in rows if any(y >= g for y in self._pos.get(v, ())))
            if any(PROMPT_ROW.match(v) for v in rows) or 2 * later > len(rows):
                continue
            delta = len(new) - (q - g)
            self.doc = doc[:g] + new + doc[q:]
            self.times = self.times[:g] + [time] * len(new) + self.times[q:]
            gaps = {x if x < g else x + delta for x in self.gaps if x not in (g, g0) and not g <= x < q}
            if keep_gap:
                gaps.add(g)
            self.gaps = gaps
            self._rebuild_index()
            return
        self._reveal_top(view, time)

    def _reveal_top(self, view: list[str], time: float) -> None:
        """Scrolled back while an answer streams, a view can end inside a
        gap: it shows the row just above the gap (the prompt) and, under
        it, the answer's first rows, which no later live view draws. Those
        rows go in at the top of the gap, which stays open below them (at
        the document's end, the next live view opens it). The
        rows above the anchor must be the document's too, and none of the
        new rows may be one the document holds after the gap (then the view
        is an older copy, not the gap's top)."""
        doc = self.doc
        text = [y for y, v in enumerate(view) if len(v.strip()) >= 3]
        # the document's end is such a gap too: the view shows what no live
        # view has drawn yet (the answer under the last prompt)
        for g in [len(doc)] + sorted(self.gaps, reverse=True):
            above = [y for y in range(g) if len(doc[y].strip()) >= 3]
            if not above:
                continue
            r = above[-1]
            for j in (y for y in text if view[y] == doc[r]):
                new = view[j + 1:]
                rows = [v for v in new if len(v.strip()) >= 3]
                if not rows or any(PROMPT_ROW.match(v) for v in rows):
                    continue
                if any(v in self._pos and any(y >= g for y in self._pos[v]) for v in rows):
                    continue
                mine = [doc[y] for y in above[-4:-1]]
                theirs = [view[y] for y in text if y < j][-len(mine):] if mine else []
                if mine != theirs:
                    continue
                while new and not new[0].strip():
                    new = new[1:]
                self.doc = doc[:g] + new + doc[g:]
                self.times = self.times[:g] + [time] * len(new) + self.times[g:]
                self.gaps = {x if x < g else x + len(new) for x in self.gaps}
                self._rebuild_index()
                return

    def _shown_at(self, view: list[str], q: int) -> int | None:
        """The view row showing document row `q`, with every distinct row
        below it in the view equal to the document's row there."""
        for i, v in enumerate(view):
            if v != self.doc[q]:
                continue
            pairs = list(zip(view[i:], self.doc[q:]))
            if len(pairs) == len(view) - i and all(a == b for a, b in pairs if len(a.strip()) >= 3 or len(b.strip()) >= 3):
                return i
        return None


def _bar_coloured(frame: Frame, y: int, x: int) -> bool:
    """Whether the `┃` in cell `x` of row `y` is drawn in a colour: Amp draws
    a prompt's bar in its mode's colour; a line the model wrote opening with
    `┃` (a quote it typed so) is in the text's default colour. Such a row is
    handed on one column further in, where the prompt rule does not take
    it. Unknown styles: coloured."""
    styles = frame.styles if frame.cells else None
    if not styles or y >= len(styles):
        return True
    return any(lo <= x < hi and fg not in ("default", None) for lo, hi, fg, _bg, _flags in styles[y])


#: a shell call's row with nothing to unfold: `$ touch notes.txt`, no `▸`
BARE_SHELL = regex.compile(rf"^(?!{SETTLED_SHELL})\s{{0,2}}\$\s\S")


def _shell_drawn(frame: Frame, y: int, x: int) -> bool:
    """Whether the `$` in cell `x` of row `y` is a shell call's: Amp draws
    a call's `$` bold in its status colour (green, red when it failed) and
    the command after it bold in the text colour, and leaves the `▸` off a
    command that printed nothing. An answer's own `$ cmd` line is plain
    text, or inline code: bold in the code colour throughout. Unknown
    styles: not a call."""
    styles = frame.styles if frame.cells else None
    if not styles or y >= len(styles):
        return False

    def at(c: int) -> tuple | None:
        return next((sp for sp in styles[y] if sp[0] <= c < sp[1]), None)

    mark, cmd = at(x), at(x + 2)
    return (mark is not None and cmd is not None and mark[2] not in ("default", None) and mark[4] & FLAG_BOLD
            and cmd[2] in ("default", None) and cmd[4] & FLAG_BOLD)


#: (row text, alternate screen) -> the row as `AmpProfile.rows` gives it
_ROW_SEEN: dict[tuple[str, bool], str] = {}


def _row_text(ln: str, alternate: bool) -> str:
    """A row with the orb and half-drawn borders blanked (see `AmpProfile.rows`)."""
    if not alternate:
        ln = OVERLAY.sub("", ln).rstrip()  # a menu drawn over the right side (e.g. after one Ctrl+C)
    visible = ln.replace(" ", "")
    orb = sum(1 for c in visible if c in ORB_GLYPHS)
    grid = any(c in ln for c in "┬┼┴")  # a table's edge, not a half-drawn border
    if ORB.match(ln) or (visible and not grid and (visible.count("─") >= max(5, 0.4 * len(visible))
                                      or orb >= max(4, 0.3 * len(visible)))):
        ln = ""
    return ln


def shell_command(text: str) -> str:
    """The command of a `$ …` tool row. Amp lays a long command out over
    rows, ending each but the last with ` \\`; those rows are one command
    line again (the row under the last is the output, not the command)."""
    rows = [r.strip() for r in text.splitlines()]
    cmd, k = (rows[0] if rows else ""), 1
    while cmd.endswith("\\") and k < len(rows) and rows[k]:
        cmd = cmd[:-1].rstrip() + " " + rows[k]
        k += 1
    # a failed command's row ends with its status: not part of the command
    return EXIT_NOTE.sub("", cmd.removesuffix("▸").rstrip())


EXIT_NOTE = regex.compile(r"\s*\(exit code: -?\d+\)$")


MARKER_ONLY = regex.compile(r"^\s*([-*•]|\d+[.)])$")


def join_wide_wraps(text: str) -> str:
    """Rows Amp wrapped inside a run of wide characters, joined again.

    Chinese and Japanese have no spaces, so Amp breaks such text wherever
    the row is full, inside a word. A row that ends and the next that starts
    with a wide character, the first as wide as the widest row of the turn
    (less the wide cell it could not fit), is one line cut by the width; a
    shorter row ended where the text had a line break."""
    rows = text.split("\n")
    if len(rows) < 2 or not any(wide(c) for c in text):
        return text
    top = max(wcswidth(r.rstrip()) for r in rows)
    out = [rows[0]]
    for prev, nxt in zip(rows, rows[1:]):
        prev, head = prev.rstrip(), nxt.lstrip()
        if prev and head and wide(prev[-1]) and wide(head[0]) and wcswidth(prev) >= top - 2:
            out[-1] = out[-1].rstrip() + head
        elif MARKER_ONLY.match(prev) and head and wide(head[0]) and out[-1] == prev:
            # a list item of wide text that did not fit beside its marker
            # starts on the row under it
            out[-1] = prev + " " + head
        else:
            out.append(nxt)
    return "\n".join(out)


def _cut_token(row: str, nxt: str, room: int) -> bool:
    """Whether `row`, full, and `nxt` are one token Amp cut at the width: a
    run longer than the room a row has for text (a URL, a hash, base64) is
    broken wherever the row is full, with no space; a word that merely ended
    at the edge, with the next word on the next row, is no longer than that."""
    head, tail = row.rsplit(None, 1)[-1] if row.strip() else "", nxt.split(None, 1)[0] if nxt.strip() else ""
    # (text of wide characters has no spaces anywhere and is join_wide_wraps's;
    # broken_token leaves out a table's rows, border glyphs and no word)
    return not any(map(wide, head + tail)) and broken_token(row.rstrip(), nxt.lstrip(), None, room, full=False)


TOKEN_PIECE = regex.compile(r"[^\W_]")


def join_cut_tokens(text: str) -> str:
    """An answer's rows where Amp cut a token longer than the row, joined
    again: a row as wide as the turn's widest (less a wide cell it could
    not fit) that ends and whose next row starts with no space, the two
    pieces together longer than that width (see _cut_token)."""
    rows = text.split("\n")
    if len(rows) < 2:
        return text
    top = max(wcswidth(r.rstrip()) for r in rows)
    out = [rows[0]]
    for prev, nxt in zip(rows, rows[1:]):
        prev = prev.rstrip()
        indent = len(prev) - len(prev.lstrip())
        if prev and nxt[:indent].strip() == "" and nxt[indent:indent + 1].strip() and \
                wcswidth(prev) >= top - 1 and _cut_token(prev, nxt[indent:], top - indent):
            out[-1] = out[-1].rstrip() + nxt[indent:]
        else:
            out.append(nxt)
    return "\n".join(out)


PROMPT_TEXT = regex.compile(r"^\s?┃ ?(?P<body>.*?)\s*$")


def wrapped_prompt(rows: list[tuple[str, int]]) -> str:
    """A prompt from its bar rows and the widest screen each was drawn on.

    Amp wraps a prompt by words at six columns less than the screen (` ┃ `
    before the text, the margin and scrollbar after it) and drops the space
    at the break; a typed line break also starts a new bar row. A row the
    next row's first word would not have fitted after is a wrapped one: the
    two are one line. A row seen on a screen wide enough for that word was a
    line of its own there (the widest screen decides); a width never known
    (0) joins nothing."""
    lines: list[str] = []
    prev_room = -1  # the room left on the row above for a word and its space
    prev_cols = -1  # the width the row above was drawn at
    for raw, cols in rows:
        m = PROMPT_TEXT.match(raw)
        body = m.group("body") if m else raw.strip()
        word = body.split(" ", 1)[0]
        if lines and lines[-1] and body and not body[0].isspace() and prev_room < 0 < prev_cols \
                and not lines[-1][-1].isspace() and _cut_token(lines[-1], body, prev_cols - 6):
            lines[-1] += body  # a token longer than the row, cut where the row was full
        elif lines and lines[-1] and body and not body[0].isspace() and wcswidth(word) + 1 > prev_room >= 0:
            lines[-1] += " " + body
        else:
            lines.append(body)
        prev_cols = cols
        prev_room = cols - 6 - wcswidth(body) if cols else -1
    while lines and not lines[-1]:
        lines.pop()  # the bar's own padding row
    return "\n".join(lines)


#: rows an answer is made of (its text, a table, a quote, a code block's rows)
_ANSWER_ROWS = frozenset({"answer", "table", "quote", "unmatched", "answer-box"})


def _label_answer_boxes(labeled: list[Labeled]) -> None:
    """Amp's own boxes (the input box, a dialog) start in the first column;
    everything of an answer is indented one column or more. A `│`, `╭` or
    `╰` row indented like that, under the answer's rows (a blank between
    is fine), holding a letter or digit, is a box or a tree the model drew
    (`│ attack points │`, `│   └── legs.txt`, a code block's `│ 31 │ 47 │`):
    the answer's text. Bare edges stay out, as a table's do."""
    inside = False
    for lb in labeled:
        if lb.kind == "blank":
            continue
        if lb.rule == "box" and inside and lb.line.text[:1] == " " and TOKEN_PIECE.search(lb.line.text):
            lb.kind, lb.rule, lb.body = "cont", "answer-box", lb.line.text.rstrip()
        inside = lb.rule in _ANSWER_ROWS and (lb.kind in ("assistant", "cont"))


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
        # a blockquote in an answer: a bar a few columns in with text after it
        # (the input box's sides stand in the first and last columns)
        LineRule("quote", "assistant", r"^\s{2,4}│\s+(?P<body>\S.*?)\s*$"),
        LineRule("box", "chrome", r"^\s*[╭╰│]"),
        LineRule("prompt", "user", r"^\s?┃(?:\s(?P<body>.*))?$"),
        # A tool row is folded (`▸` at its end) once it ran, a shell row also ends with a
        # failed command's `(exit code: N)` or a long command's ` \`; a running one has a
        # braille spinner. An answer's own `✓ done`, `● placed`, `$ echo` rows have none.
        LineRule("shell", "tool_call", rf"^(?={SETTLED_SHELL})\s{{0,2}}({STATUS}\s+)?\$\s(?P<body>.*?)\s*▸?\s*$"),
        LineRule("tool", "tool_call", rf"^(?={SETTLED_TOOL})\s{{0,2}}{STATUS}\s+(?P<body>\S.*?)\s*▸?\s*$"),
        LineRule("answer", "assistant", r"^\s(?P<body>\S.*)$"),
    )

    def rows(self, frame: Frame) -> list[str | None]:  # type: ignore[override]
        """Rows as the rules should see them: the animated orb and half-drawn
        box borders blanked (they redraw every frame and are never
        conversation), the scrollbar in the last column removed. On the
        alternate screen a row a popup is drawn over (the menu after one
        Ctrl+C) is None: covered, the stitcher keeps the row it hid."""
        out: list[str | None] = []
        alt = frame.alternate
        covered = popup_rows(frame) if alt else range(0)
        seen = _ROW_SEEN
        if len(seen) > 50_000:
            seen.clear()
        for y, ln in enumerate(without_scrollbar(frame, SCROLLBAR)):
            if y in covered:
                out.append(None)
                continue
            # the same row text reads the same in every frame: worked out once
            got = seen.get((ln, alt))
            if got is None:
                got = seen[(ln, alt)] = _row_text(ln, alt)
            if alt and got and PROMPT_ROW.match(got) and not _bar_coloured(frame, y, got.index("┃")):
                got = " " + got  # the model's own `┃` line: no prompt (see _bar_coloured)
            elif alt and got and BARE_SHELL.match(got) and _shell_drawn(frame, y, got.index("$")):
                got = got + " ▸"  # a command that printed nothing: folded like the others (see _shell_drawn)
            out.append(got)
        return out

    def viewport(self, frame: Frame) -> tuple[int, int] | None:
        if any(WELCOME.search(ln) for ln in frame.lines):
            return None  # the animated welcome screen: no conversation yet
        for y in range(len(frame.lines) - 1, -1, -1):
            if BOX_TOP.match(frame.lines[y]):
                if not self._box_spans(frame, y):
                    return None  # laid out for another width: a resize not yet redrawn
                return (0, y)
        # Amp always draws its input box under the thread: a screen without
        # one is a resize caught before Amp drew again (the old layout cut
        # at the new height, a counter written over a prompt row)
        return None

    @staticmethod
    def _box_spans(frame: Frame, y: int) -> bool:
        """The input box is drawn from the first column to the last; right
        after a resize the screen still holds rows laid out for the old
        width (the box cut short, or ending mid-row with old rows beside
        it), which are no view of the conversation at this width."""
        ln = frame.lines[y].rstrip()
        return len(ln) == frame.columns and ln.endswith("╮")

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
        self._links: list[tuple[float, str, str]] = []  # (first drawn, target, text) of OSC 8 links
        self._links_used: set[int] = set()
        self._link_rows: list[str] = []  # each link's row, up to its text (see _link_row)
        link_at: dict[tuple[str, str], int] = {}
        self._after_gap: set[int] = set()
        self._bar_cols: dict[str, int] = {}
        bar_cols = self._bar_cols
        out: list[TLine] = []
        block = 0
        st: AmpStitcher | None = None
        last_main: Frame | None = None
        last_size: tuple[int, int] | None = None

        def flush(st: AmpStitcher) -> None:
            if parts:
                acc = parts[0]
                for nxt in parts[1:] + [st]:
                    acc = acc.splice(nxt)
                st = acc
            parts.clear()
            for i, (t, tm) in enumerate(zip(st.doc, st.times)):
                line = TLine(t, tm, "alt", block)
                if i in st.gaps:
                    self._after_gap.add(id(line))
                out.append(line)

        # Amp's first whole drawing at a new size can go over the old size's
        # rows as if they were cleared, leaving old text after new text on a
        # row; the next drawing at that size settles it. So a first drawing
        # waits for the next one and is dropped when some of its rows are
        # that next drawing's rows with more text after them.
        pending: Frame | None = None

        parts: list[AmpStitcher] = []

        # the view rows of the last frame fed, as drawn (see feed)
        fed: list[list[str]] = [[]]

        def feed(st: AmpStitcher, f: Frame, vp: tuple[int, int]) -> None:
            if st.width is None:
                st.width = f.columns
            elif f.columns != st.width and st.doc:
                if f.columns > st.width and _not_redrawn(f, vp, st.width, fed[0]):
                    return
                # Amp lays the whole thread out again at a new width: its
                # rows are stitched apart and spliced on at a prompt
                parts.append(st.fork())
                st.width = f.columns
            fed[0] = [ln.rstrip() for ln in f.lines[vp[0]:vp[1]]]
            boxed = vp[1] < len(f.lines)
            pos = thumb_at_end(f, vp[1]) if boxed else None
            view = self.rows(f)[vp[0]:vp[1]]
            for r in view:
                # the widest screen each prompt row was drawn on (see wrapped_prompt)
                if r and "┃" in r[:2] and bar_cols.get(r, 0) < f.columns:
                    bar_cols[r] = f.columns
            if pos is False:
                # scrolled back: adds only what the live view never showed
                st.reveal(view, f.time)
            else:
                st.add(view, f.time, at_end=bool(pos))

        # After a height change Amp goes on drawing only the cells it thinks
        # changed, over rows the terminal moved, for a few drawings, then
        # draws every row: the drawings before settle are held, and one that
        # a later held drawing shows a row of with less after it (an old
        # row's tail left behind: `┃ prompt?tickdre quoupand`) is dropped.
        held: list[tuple[Frame, tuple[int, int]]] = []

        def release() -> None:
            for i, (p, pv) in enumerate(held):
                if not any(_left_behind(p, q) for q, _ in held[i + 1:]):
                    feed(st, p, pv)
            held.clear()

        for f in frames:
            if f.links:
                for url, label in merged_links(f.links):
                    if (url, label) not in link_at:
                        link_at[(url, label)] = len(self._links)
                        self._links.append((f.time, url, label))
                        self._link_rows.append(_link_row(f, label))
            if f.alternate:
                if st is None:
                    block += 1
                    st = AmpStitcher(reach="view")
                vp = self.viewport(f)
                if vp is None:
                    continue
                if held:
                    if (f.columns, f.rows) == (held[0][0].columns, held[0][0].rows) and len(held) < _SETTLE:
                        held.append((f, vp))
                        continue
                    release()
                if pending is not None:
                    p, pending = pending, None
                    if (p.columns, p.rows) != (f.columns, f.rows) or not stale_rows(p, f):
                        feed(st, p, self.viewport(p) or vp)
                if (f.columns, f.rows) != last_size:
                    taller_or_shorter = last_size is not None and f.rows != last_size[1]
                    last_size = (f.columns, f.rows)
                    if st.doc and taller_or_shorter:
                        held.append((f, vp))
                        continue
                    if st.doc:
                        pending = f
                        continue
                feed(st, f, vp)
            else:
                if st is not None:
                    release()
                    if pending is not None:
                        feed(st, pending, self.viewport(pending) or (0, 0))
                        pending = None
                    flush(st)
                    st = None
                last_main = f
        if st is not None:
            release()
            if pending is not None:
                feed(st, pending, self.viewport(pending) or (0, 0))
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
        # The exit banner's logo is printed on the main screen once Amp has
        # left the alternate one: a row of its glyphs on the alternate screen
        # is the answer's (a `---` rule, an ASCII box's `+-----+` edge)
        for lb in labeled:
            if lb.rule == "exit-logo" and lb.line.source == "alt":
                lb.kind, lb.rule, lb.body = "assistant", "answer", lb.line.text.strip()
        _label_answer_boxes(labeled)
        # A gap followed by a blank or chrome row (a table's top edge, the
        # first row of an answer's view) marks the next row that is text:
        # what the gap hides belongs to that row's turn.
        gaps = getattr(self, "_after_gap", set())
        carry = False
        for lb in labeled:
            if id(lb.line) in gaps and lb.kind in ("blank", "chrome"):
                carry = True
            elif carry and lb.kind not in ("blank", "chrome"):
                gaps.add(id(lb.line))
                carry = False
        # Rows of one prompt bar are one prompt.
        for a, b in zip(labeled, labeled[1:]):
            if b.rule == "prompt" and a.rule in ("prompt", "prompt-row"):
                b.kind, b.rule = "cont", "prompt-row"
        # Every row of a prompt keeps the bar: the first row without it that
        # no rule claims opens the answer (one that starts with a code block
        # is indented past the answer's one column). So past a blank row under
        # a tool row: Amp draws a tool folded (`▸`), its output never under it
        # (the rows right under it are its command, wrapped). A table's row is
        # never a command's, nor is the first row after a gap (the rows the
        # gap hides, the blank among them, were not drawn): either right
        # under a tool row opens the answer.
        in_prompt = False
        tool = False
        for lb in labeled:
            if lb.rule in ("prompt", "prompt-row"):
                in_prompt, tool = True, False
            elif lb.kind == "tool_call":
                in_prompt, tool = False, True
            elif lb.kind == "blank" and tool:
                in_prompt, tool = True, False
            elif tool and lb.kind == "cont" and (lb.rule == "table" or id(lb.line) in gaps):
                lb.kind, lb.rule, lb.body = "assistant", "unmarked-answer", lb.line.text.rstrip()
                tool = False
            elif tool:
                continue
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
        if kind == "user" and len(members) > 1:
            cols = getattr(self, "_bar_cols", {})
            return Turn(kind, wrapped_prompt([(m.line.text, cols.get(m.line.text, 0)) for m in members]))
        if kind == "assistant" and rule == "unmarked-answer":
            # an answer opening with a code block or a table: its rows keep
            # their indentation relative to each other, dedented together
            rows = [m.line.text.rstrip() for m in members]
            while rows and not rows[-1].strip():
                rows.pop()
            return Turn(kind, _dedent_opening_code(rows))
        if kind == "tool_call":
            head = text.splitlines()[0].strip() if text else ""
            if rule == "shell":
                return Turn("tool_call", shell_command(text), name="shell_command")
            verb = head.split()[0].lower() if head else ""
            name = VERB_TOOL.get(verb, verb or None)
            # a summary row counts every kind it groups: "Explored 3 files,
            # 1 search" stands for four calls
            n = sum(int(c.group("n")) for c in COUNTED.finditer(head))
            if n:
                return [Turn("tool_call", head, name=name) for _ in range(min(n, 50))]
            return Turn("tool_call", head, name=name)
        return Turn(kind, text)

    def turns(self, labeled: list[Labeled]) -> list[Turn]:
        made = super().turns(labeled)
        # A thread opens with a prompt; what is drawn before the first one is
        # the welcome and onboarding screens, half torn down.
        first = next((i for i, t in enumerate(made) if t.role == "user"), len(made))
        made = made[first:]
        for t in made:
            if t.role in ("user", "assistant"):
                t.text = join_wide_wraps(t.text)
            if t.role == "assistant":
                # a table too wide for the width wraps inside its cells, between
                # the rules Amp draws under every row: one row per table row
                t.text = merge_grid_rows(join_cut_tokens(t.text), carried_space=True)
        # a link's target went to the terminal only (OSC 8): put back after its
        # text, in the answer whose rows were first drawn when the link was
        # (last, when the rows are measured no more)
        links, used = getattr(self, "_links", None), getattr(self, "_links_used", set())
        if links:
            windows = _link_windows(made)
            _place_links(windows, links, getattr(self, "_link_rows", []), used)
            # links no window took: a resize redrew their answer (its time is the redraw's)
            texts = with_stray_link_targets([(t.text, lo, hi) for t, lo, hi in windows], links, used)
            for (t, _lo, _hi), text in zip(windows, texts):
                t.text = text
        return made


def _link_windows(made: list[Turn]) -> list[tuple[Turn, float, float]]:
    """Each answer with the times its links may have been first drawn in:
    from the time of its first row to the next turn's. A resize makes Amp
    lay the whole thread out again, and the turns stitched from that
    drawing carry its time: two prompts or more at one instant. Such an
    answer was first drawn at some time after the last turn drawn before
    that instant, so its window opens there (the windows around a redraw
    overlap, see `_place_links`)."""
    prompts: dict[float, int] = {}
    for u in made:
        if u.role == "user" and u.time is not None:
            prompts[u.time] = prompts.get(u.time, 0) + 1
    out = []
    for i, t in enumerate(made):
        if t.role != "assistant" or t.time is None:
            continue
        hi = next((u.time for u in made[i + 1:] if u.time is not None), float("inf"))
        lo = t.time
        if prompts.get(lo, 0) >= 2:
            first = next(j for j, u in enumerate(made) if u.time == lo)
            lo = max((u.time for u in made[:first] if u.time is not None and u.time < lo), default=float("-inf"))
        out.append((t, lo, hi))
    return out


def _link_row(frame: Frame, label: str) -> str:
    """The row a link was drawn on, from its start to the end of the link's
    text (underlined), squeezed: what tells its answer from another holding
    the same short word. Empty when no underlined run opens the text."""
    for y, spans in enumerate(frame.styles):
        cells = frame.cells[y] if y < len(frame.cells) else None
        if not cells:
            continue
        for start, stop, _fg, _bg, flags in spans:
            piece = "".join(c.data for c in cells[start:stop]).strip()
            if flags & FLAG_UNDERLINE and piece and label.startswith(piece):
                return _sq("".join(c.data for c in cells[:stop])).replace("*", "")
    return ""


def _row_at(text: str, row: str) -> int | None:
    """Where in `text` the squeezed `row` (see `_link_row`) starts, when it
    is there once (spaces and bold marks aside)."""
    if not row:
        return None
    keep = [i for i, c in enumerate(text) if not c.isspace() and c != "*"]
    flat = "".join(text[i] for i in keep)
    at = flat.find(row)
    if at < 0 or flat.find(row, at + 1) >= 0:
        return None
    return keep[at]


def _place_links(windows: list[tuple[Turn, float, float]], links: list[tuple[float, str, str]],
                 rows: list[str], used: set[int]) -> None:
    """Each link's target after its text, in the one answer showing the row
    the link was drawn on (`rows`, see `_link_row`) when that row holds
    more than the link's text; else in the answer drawn when the link was,
    as `with_link_targets` places them one answer at a time. Where windows
    overlap (a redraw, `_link_windows`) it goes to the one answer among them
    holding its text; when several do, to the one of those not before the
    answer the link drawn before it went to (Amp draws an answer's links
    after the last answer's); still several, the link is left to
    `with_stray_link_targets`. (A redrawn answer's time can even be later
    than its links: the row is what tells.)"""
    pos = [0] * len(windows)
    floor = 0

    def place(k: int, i: int, m: regex.Match) -> None:
        nonlocal floor
        t, url = windows[i][0], links[k][1]
        used.add(k)
        t.text = t.text[:m.end()] + " (" + url + ")" + t.text[m.end():]
        pos[i] = m.end() + len(url) + 3
        floor = i

    def search(k: int, i: int) -> regex.Match | None:
        # the link's text on its row, when the answer shows the row (a short
        # word is often in the answer before it too), else after the last link
        text, label = windows[i][0].text, links[k][2]
        at = _row_at(text, rows[k] if k < len(rows) else "")
        return _whole_label(label).search(text, pos[i] if at is None else at)

    for k, (when, url, label) in enumerate(links):
        # a web target only: a `file://` link is Amp's own mark on a path it drew, no Markdown's
        if k in used or not label.strip() or not url.startswith(("http://", "https://")):
            continue
        row = rows[k] if k < len(rows) else ""
        if len(row) >= len(_sq(label)) + 3:
            showing = [(i, m) for i, (t, _lo, _hi) in enumerate(windows)
                       if row in _sq(t.text).replace("*", "") and url not in t.text and (m := search(k, i))]
            if len(showing) == 1:
                place(k, *showing[0])
                continue
        # a redrawn answer was first drawn after the turn before the redraw (an open end)
        cands = [i for i, (t, lo, hi) in enumerate(windows)
                 if (lo <= when if lo == t.time else lo < when) and when <= hi]
        if any(url in windows[i][0].text for i in cands) or (cands and _flat(url) == _flat(label)):
            used.add(k)
            continue
        found = [(i, m) for i in cands if (m := search(k, i))]
        if len(found) > 1:
            found = [(i, m) for i, m in found if i >= floor]
        if len(found) == 1:
            place(k, *found[0])


#: the column Amp draws an answer's text at, and how far past it a code block's rows
_ANSWER_COL, _CODE_INDENT = 1, 4


def _indent(row: str) -> int:
    return len(row) - len(row.lstrip())


def _dedent_opening_code(rows: list[str]) -> str:
    """The rows of an answer that opens with a code block, dedented: the
    block's rows (down to the first row at the answer's column) lose the
    answer's column and the four columns Amp draws a block in by, so the
    code keeps an indent every row of it has (`    x = 1` over `    y = 2`);
    the rest of the answer is dedented together. (Dedenting all the rows
    together kept the block's four columns when a table or text row
    followed, and took an indent all code rows share away otherwise.)"""
    col = _ANSWER_COL
    split = next((k for k, r in enumerate(rows) if r.strip() and _indent(r) <= col), len(rows))
    head, tail = rows[:split], rows[split:]
    if not any(r.strip() for r in head):
        return textwrap.dedent("\n".join(rows))
    cut = min(min(_indent(r) for r in head if r.strip()), col + _CODE_INDENT)
    out = [r[cut:] if r.strip() else "" for r in head]
    return "\n".join(out + ([textwrap.dedent("\n".join(tail))] if tail else []))


PROFILE = AmpProfile()
