"""Turn a frame sequence into one ordered list of rendered lines.

Two drawing modes meet here. Inline TUIs write finished output into the
main screen, where it scrolls into history; the live area at the bottom is
redrawn in place and only its final state matters, so the transcript is
the history in order plus the last main screen. Full-screen TUIs redraw a
viewport on the alternate screen; those views are stitched (see
`stitch.py`). A recording may go back and forth (a pager opened from an
inline agent): each alternate-screen stretch becomes its own block, placed
where it happened.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, replace
from itertools import compress, count, islice
from operator import itemgetter
from typing import Callable, Iterable

import regex
from wcwidth import wcswidth

from screen.frames import Frame
from agents_chrome.relayout import LayoutStitcher

# Rows [start, end) of a frame that hold conversation, or None to skip it.
Viewport = Callable[[Frame], "tuple[int, int] | None"]


@dataclass
class TLine:
    text: str
    time: float  # recording time when the line was first seen
    source: str  # "history" | "screen" | "alt"
    block: int  # which main/alt stretch it came from
    width: int = 0  # terminal width the row was laid out at (0: unknown)
    wrapped: bool = False  # autowrap carried the row's text on to the next row


def whole_screen(frame: Frame) -> tuple[int, int] | None:
    return (0, len(frame.lines))


def frame_text(frame: Frame) -> list[str]:
    return frame.lines


def without_scrollbar(frame: Frame, glyphs: set[str] | frozenset[str]) -> list[str]:
    """The frame's rows with a scrollbar glyph in the last column removed.

    Read from the cell grid: with wide characters on a row, the text's last
    character is not necessarily in the last column.
    """
    edge = frame.columns - 1
    out = []
    for y, ln in enumerate(frame.lines):
        if not ln or ln[-1] not in glyphs:
            # a glyph is one character, and the text must end with it: no cell to read
            out.append(ln.rstrip())
            continue
        cells = frame.cells[y] if frame.cells else None
        last = cells[edge].data if cells is not None and len(cells) > edge else ln[edge:edge + 1]
        if last in glyphs and ln.endswith(last):
            ln = ln[:-1]
        out.append(ln.rstrip())
    return out


def build_transcript(frames: Iterable[Frame], viewport: Viewport = whole_screen,
                     main_viewport: Viewport | None = None,
                     rows: Callable[[Frame], list[str]] = frame_text,
                     layout_options: dict | None = None,
                     layout: Callable[[Frame], object] | None = None) -> list[TLine]:
    """Ordered transcript lines from frames.

    `viewport` selects the conversation rows of alternate-screen frames;
    `main_viewport` (default: the whole screen) those of the final main
    screen, so an input box or footer at the bottom can be left out.
    `rows` gives a frame's row texts (a profile may crop a sidebar or
    encode a style the text alone does not show). `layout_options` go to
    each alternate-screen stretch's `LayoutStitcher`. `layout` names the
    way a frame lays the conversation out besides its width (None: as the
    frames before it): a change starts a new layout, as a width change does.
    """
    out: list[TLine] = []
    marks: list[tuple[int, int]] = []  # (transcript position, screen rows then)
    block = 0
    stitcher: LayoutStitcher | None = None
    last_main: Frame | None = None
    for f in frames:
        if not f.alternate and stitcher is not None:
            # the alternate-screen stretch ended before this frame's output
            out.extend(TLine(t, tm, "alt", block) for t, tm in zip(stitcher.doc, stitcher.times))
            stitcher = None
            block += 1
        base = len(out)
        marks.extend((base + off, f.rows) for off, _why in getattr(f, "marks", ()))
        widths = getattr(f, "widths", None) or [f.columns] * len(f.scrolled)
        wraps = getattr(f, "wrapped", None) or [False] * len(f.scrolled)
        for ln, w, wr in zip(f.scrolled, widths, wraps):
            out.append(TLine(ln, f.time, "history", block, w, wr))
        if f.alternate:
            if stitcher is None:
                block += 1
                stitcher = LayoutStitcher(**(layout_options or {}))
            vp = viewport(f)
            if vp is not None:
                stitcher.add(rows(f)[vp[0]:vp[1]], f.time, width=f.columns,
                             layout=layout(f) if layout is not None else None)
        else:
            last_main = f
    if stitcher is not None:
        out.extend(TLine(t, tm, "alt", block) for t, tm in zip(stitcher.doc, stitcher.times))
        block += 1
    if last_main is not None:
        vp = (main_viewport or whole_screen)(last_main)
        if vp is not None:
            final = rows(last_main)[vp[0]:vp[1]]
            while final and not final[-1].strip():
                final.pop()
            wraps = (getattr(last_main, "row_wrapped", None) or [])[vp[0]:vp[1]]
            out.extend(TLine(t, last_main.time, "screen", block, last_main.columns,
                             wraps[k] if k < len(wraps) else False) for k, t in enumerate(final))
    return fold_redraws(out, marks)


#: a word: a run of word characters, except that each Chinese or Japanese
#: character is a word of its own. That text has no spaces: a re-layout at
#: another width breaks its runs at other places, and a reprint that opens
#: inside a run (the tail of a paragraph redrawn after a resize) must still
#: find its older copy character by character.
_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}"
WORD = regex.compile(r"[%s]|[^\W%s]+" % (_CJK, _CJK))
_IDEOGRAPH = regex.compile(r"[%s]" % _CJK)
_PROBE_WORDS = 12  # words of a reprint's opening looked up in what came before
_COVER = 0.85  # share of the old copy's words the reprint must hold, in order
_MIN_TAIL = 4  # fewest words of an old copy that may be folded
_COVER_LIVE = 0.6  # the same when the whole old copy was still on screen at the mark
_ROW_OF = itemgetter(1)  # a `_words` entry's row


def _words(lines: "list[TLine]", lo: int, hi: int,
           memo: "dict[str, list[tuple[str, int]]] | None" = None) -> list[tuple[str, int, int]]:
    """(word, line index, start column in the line) for lines[lo:hi] on the main screen.

    `memo`: each text's (word, column) list, kept by a caller that words the
    same lines again (`fold_redraws` after each fold)."""
    out: list[tuple[str, int, int]] = []
    glue: "bool | str" = False  # the previous row wrapped in the middle of a word
    for i in range(lo, hi):
        ln = lines[i]
        if ln.source == "alt":
            glue = False
            continue
        if memo is None:
            found = [(m.group(), i, m.start()) for m in WORD.finditer(ln.text)]
        else:
            at = memo.get(ln.text)
            if at is None:
                at = memo[ln.text] = [(m.group(), m.start()) for m in WORD.finditer(ln.text)]
            found = [(w, i, col) for w, col in at]
        if glue and found and found[0][2] == 0 and out and (glue is True or _cells(ln.text[:1]) == 2):
            w, li, col = out[-1]
            out[-1] = (w + found[0][0], li, col)  # a word split by the wrap is one word
            found = found[1:]
        out.extend(found)
        text = ln.text
        # a word is cut by the wrap only when the row's text runs to its last column
        # (counted in cells: a Chinese or Japanese character earlier on the row takes two),
        # or to the one before it when the next row opens with a wide character (a
        # Korean syllable that did not fit in the last column: "wide")
        glue = False
        if ln.wrapped and text and WORD.match(text[-1]) and not _IDEOGRAPH.match(text[-1]):
            cells = _cells(text) if ln.width else 0
            glue = True if not ln.width or cells >= ln.width else "wide" if cells == ln.width - 1 else False
    return out


def _wordless(text: str) -> bool:
    """A row with no word and no wide character (a blank, a border): an
    emoji alone on a row (a prompt's or an answer's last, wrapped) is text."""
    return not WORD.search(text) and (text.isascii() or wcswidth(text) == len(text))


def _cells(text: str) -> int:
    """Columns `text` takes on screen (wide characters two)."""
    return len(text) if text.isascii() else max(len(text), wcswidth(text))


def _covered(old: list[str], all_w: list[str], lo: int, hi: int, window: int = 40,
             least: float = 0.0, head: int = 0, head_least: float = 0.0) -> list[bool] | None:
    """Which of `old`'s words appear, in order, at the start of `all_w[lo:hi]`.

    Greedy in-order matching with a bounded look-ahead: each word is matched
    at its first place at or after the one the last match left, if that is
    within `window` words of it; a few words that differ (chrome, a reflowed
    border) do not derail it. Linear, and walked mostly in C: a word that
    matches where the last match left off (a copy read word for word) is
    taken at once, and past a word that does not, the look-ahead window
    stays the same until the next match, so the words up to that match are
    tested against the window's words in one pass (`compress` over `map`).

    `least`: the caller wants the answer only when at least this many words
    appear, and `head_least` of the first `head` words; None as soon as so
    many have been passed over that the rest cannot make it up (most places
    a common word opens are not the copy, and their walk is mostly misses).
    """
    n = len(old)
    hit = [False] * n
    j = lo
    it = iter(old)
    i = -1
    got = 0  # words found before word i
    run = _RUN
    for w in it:
        i += 1
        if j >= hi:
            break
        if all_w[j] == w:
            hit[i] = True
            got += 1
            j += 1
            # a copy read word for word: the words after it that agree, taken
            # `run` at a time (one comparison of two slices, in C)
            while i + run < n and j + run <= hi and old[i + 1:i + 1 + run] == all_w[j:j + run]:
                hit[i + 1:i + 1 + run] = _RUN_HIT
                next(islice(it, run - 1, None))
                i += run
                got += run
                j += run
            continue
        top = j + window if j + window < hi else hi
        # the window's words: where a word first is there (`index`) and whether
        # it is there at all (a set: the words after a miss are tested in one pass)
        ahead = all_w[j:top]
        if w not in ahead:
            nxt = next(compress(count(i + 1), map(set(ahead).__contains__, it)), None)
            if nxt is None:
                break
            i = nxt
            w = old[i]
        if n - (i - got) < least or (i <= head and head - (i - got) < head_least):
            return None  # words 0..i-1 missed (i - got): the rest cannot make `least`
        hit[i] = True
        got += 1
        j += ahead.index(w) + 1
    return hit


_CELL_BAR = "│"  # a box table's cell border

_RUN = 8  # words of an agreeing run `_covered` takes at once
_RUN_HIT = [True] * _RUN


def fold_redraws(lines: list[TLine], marks: "Iterable[int | tuple[int, int]]") -> list[TLine]:
    """Drop the older copy of whatever a program drew again after a clear or resize.

    On a clear (ED 2/3) or a resize, inline TUIs reprint the conversation
    (from its start, from the last prompt, or the live area from wherever
    its top lands) at the current width; our history kept the first copy.
    After each mark, the words the reprint opens with are looked up in the
    transcript before the mark; where they are found and the reprint holds
    (nearly) every word of the older stretch from there to the mark, in
    order, that older stretch is an earlier copy and goes. The last screen
    before the mark is the live area the clear wiped (input box, spinner,
    footer): the reprint need not hold its words. Matching is by words, so
    a copy laid out at another width still matches; a row the reprint
    starts in the middle of keeps its part before the match.
    """
    rows_at: dict[int, int] = {}
    for m in marks:
        pos, rows = m if isinstance(m, tuple) else (m, 24)
        if 0 < pos < len(lines):
            rows_at[pos] = max(rows, rows_at.get(pos, 0))
    if not rows_at:
        return lines
    lines = list(lines)
    shift = 0
    words: list[tuple[str, int, int]] | None = None  # of `lines` as they are: made again after a fold
    worded: dict[str, list[tuple[str, int]]] = {}  # a row text's words, for making them again
    line_at: list[int] = []
    index: tuple[list[str], dict[str, list[int]]] | None = None  # `_word_index(words)`
    for mark in sorted(rows_at):
        live_rows = rows_at[mark]
        p = mark - shift
        if p <= 0 or p >= len(lines):
            continue
        if words is None:
            words = _words(lines, 0, len(lines), worded)
            line_at = [i for _, i, _ in words]
            index = _word_index(words)
        # Rows on screen at the mark may still scroll into history after it,
        # ahead of the reprint: the reprint starts at one of the next rows.
        tried: set[int] = set()
        for s0 in range(p, min(len(lines), p + live_rows + 1)):
            split = bisect_left(line_at, s0)  # first word at or after row s0
            if split >= len(words) or split in tried:
                continue
            tried.add(split)
            found = _find_copy(words, split, s0 - live_rows, index, lines)
            if found is None:
                continue
            q, col = found
            s1 = words[split][1]
            # rows with no words opening the reprint (a border, a blank)
            # stand for the same rows before the old copy
            lead = s1 - s0
            start = q
            if col > 0 and WORD.search(lines[q].text[:col]):
                head = lines[q]
                lines[q] = replace(head, text=head.text[:col].rstrip(), wrapped=False)
                start = q + 1
                cut = max(s0, start)
            else:
                while (lead and start > 0 and _wordless(lines[start - 1].text)
                       and lines[start - 1].source != "alt"):
                    start -= 1
                    lead -= 1
                # wordless rows after the mark that the old copy has no
                # counterpart for, one of them drawn (its table's closing
                # border), are the old copy's last rows, scrolled up after the
                # mark: they go with it, or they stand between the copy's
                # neighbours (a prompt and the row under it)
                cut = max(s0 + lead if any(ln.text.strip() for ln in lines[s0:s0 + lead]) else s0, start)
            del lines[start:cut]
            shift += cut - start
            words = None
            break
    return lines


def _word_index(words: list[tuple[str, int, int]]) -> tuple[list[str], dict[str, list[int]]]:
    """The words alone and, per word, where it occurs (ascending): built once
    per word list, not once per place a reprint may start (`_find_copy` is
    asked up to a screen's rows per mark, each time scanning every word)."""
    all_w = [w for w, _, _ in words]
    where: dict[str, list[int]] = {}
    for j, w in enumerate(all_w):
        where.setdefault(w, []).append(j)
    return all_w, where


def _find_copy(words: list[tuple[str, int, int]], split: int, live: int,
               index: tuple[list[str], dict[str, list[int]]] | None = None,
               lines: "list[TLine] | None" = None) -> tuple[int, int] | None:
    """Where the older copy of the text from word `split` on starts: (row, column).

    `live`: rows from here on were on screen when the program cleared or
    the terminal changed size. `index`: `_word_index(words)`, when the
    caller keeps one. `lines`: the lines `words` were taken from (a copy
    that parts from the reprint inside a table's cell row is no lookalike).
    """
    old, new_all = words[:split], words[split:]
    if len(new_all) < 3:
        return None
    if index is None:
        index = _word_index(words)
    all_w, where = index
    probe = all_w[split:split + _PROBE_WORDS]
    if len(old) < min(len(probe), _MIN_TAIL):
        return None
    old_w = all_w[:split]
    new_w = all_w[split:]
    k = len(probe)
    first = probe[0]
    # the old copy may end before the probe does (a short last turn)
    at = where.get(first, ())
    need = min(k, _MIN_TAIL)
    second = probe[1] if k > 1 else None
    cands = []
    for j in at[:bisect_left(at, split)]:
        # a common opening word occurs in many places: its next word tells
        # most of them apart before any slice is made
        if second is not None and j + 1 < split and all_w[j + 1] != second:
            continue
        seg = old_w[j:j + k]
        if len(seg) >= need and seg == probe[:len(seg)]:
            cands.append(j)
    # Repeated phrasing (every paragraph opening alike) matches in many
    # places: the place whose continuation reads most like the reprint's wins.
    if len(cands) > 1:
        ahead = new_w[:80]
        score = {j: sum(_covered(ahead, all_w, j, min(j + 100, split), window=6) or ()) for j in cands}
        top = max(score.values())
        cands = [j for j in cands if score[j] == top]
    best: tuple[int, int] | None = None  # (covered, j)
    for j in cands:
        tail = old_w[j:]
        # the words of rows before `live` (a word's row never goes down: a prefix)
        m = bisect_left(words, live, j, split, key=_ROW_OF) - j
        # a place that cannot reach what `ok` asks below is not walked to the end
        hit = _covered(tail, all_w, split, len(all_w), least=_COVER_LIVE * len(tail),
                       head=m if m >= 10 else 0, head_least=_COVER * m if m >= 10 else 0.0)
        if hit is None:
            continue
        body = hit[:m]
        got = sum(hit)
        if len(body) >= 10:
            ok = sum(body) >= _COVER * len(body) and got >= _COVER_LIVE * len(hit)
        else:
            ok = got >= _COVER_LIVE * len(hit)
        # A copy agrees word for word until the chrome the reprint leaves out.
        # Text that only looks alike (paragraphs opening the same way, table
        # rows) parts from it by one word and agrees again right after.
        b = 0
        for x, y in zip(tail, new_w):
            if x != y:
                break
            b += 1
        after, ahead = tail[b + 1:b + 4], new_w[b + 1:b + 7]
        # (a copy that agrees word for word through every row above the live
        # area parts, if at all, in the live area: a status that ran on
        # ("Thinking for 1s…" drawn again as "Thought for 1s") is no lookalike)
        if (len(after) == 3 and not b >= m >= 10 and sum(1 for w in after if w in ahead) >= 2
                and not (lines is not None and b < len(tail) and _CELL_BAR in lines[old[j + b][1]].text)
                and not _inserted(tail, new_w, b) and not _reglued(tail, new_w, b)):
            # (a table relaid at another width parts the same way: its
            # cells wrap at other places, so a cell's tail row comes after
            # the next cell's words in one copy and before them in the other;
            # and so does a reprint holding a row twice, the row the next
            # reprint opens with: the old copy goes on a few words later)
            ok = False
        if ok and (best is None or got >= best[0]):
            best = (got, j)
    if best is None:
        return None
    _w, q, col = old[best[1]]
    return q, col


def _reglued(tail: list[str], new_w: list[str], b: int) -> bool:
    """The copies part (at word `b`) only where a wrap glued two words into
    one in one copy and not in the other (a word at a row's end, a wide
    character opening the next: the space between them may have been at
    the row's last column, or not)."""
    x, y = tail[b:b + 2], new_w[b:b + 2]
    return len(x) == 2 and len(y) == 2 and (x[0] == y[0] + y[1] or y[0] == x[0] + x[1])


def _inserted(tail: list[str], new_w: list[str], b: int, run: int = 4, reach: int = 6) -> bool:
    """The reprint `new_w` holds a few words more than the old copy `tail`
    where they part (at word `b`): the old copy's next `run` words follow
    there within `reach` words, in order, whole."""
    want = tail[b:b + run]
    return len(want) == run and any(new_w[b + d:b + d + run] == want for d in range(1, reach + 1))


def fold_reprints(lines: list[TLine], anchor: "regex.Pattern[str]", compare: int = 6) -> list[TLine]:
    """Drop a stretch the program printed again in full.

    Inline TUIs redraw everything after a clear or resize (Claude Code
    reprints its header and the whole conversation); our screen keeps the
    first copy in history, so the transcript holds both. A stretch that
    starts at a run of `anchor` lines (the header's rows) and whose first
    `compare` non-blank lines after them open the next stretch too is an
    older copy: dropped. The header's own rows are not compared: a reprint
    may come with its first row cut off, or another frame of an animated
    logo.
    """
    hit = [bool(anchor.search(ln.text)) for ln in lines]
    starts = [i for i, h in enumerate(hit) if h and not (i > 0 and hit[i - 1])]
    if len(starts) < 2:
        return lines
    bounds = starts + [len(lines)]
    keep: list[TLine] = list(lines[:starts[0]])

    def body(stretch: list[TLine], first: int) -> list[str]:
        return [ln.text for k, ln in enumerate(stretch, first) if ln.text.strip() and not hit[k]]

    for k in range(len(starts)):
        seg = lines[bounds[k]:bounds[k + 1]]
        if k + 1 < len(starts):
            nxt = lines[bounds[k + 1]:bounds[k + 2]]
            a = body(seg, bounds[k])[:compare]
            b = body(nxt, bounds[k + 1])[:len(a)]
            if len(a) >= 2 and a == b:
                continue  # the next stretch reprints this one
        keep.extend(seg)
    return keep
