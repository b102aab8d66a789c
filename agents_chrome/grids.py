"""Tables drawn as box grids: with a rule between every two rows (Vibe, Amp),
or under the header only with cells wrapped at words (Gemini, at the end).

In such a grid the drawn rows between two rules are one table row: a cell
too long for its column goes on in the same column of the rows under it,
wrapped at a space, or cut by character where a word is longer than the
column. Read row by row, the cells of a wrapped row interleave; joined per
column they read as the table's row.
"""
from __future__ import annotations

import regex
from wcwidth import wcswidth

#: a grid's row: content (`│ a │ b │`), a rule (`├───┼───┤`) or an edge (Amp's
#: rounded edges are chrome, never in an answer's text)
GRID_ROW = regex.compile(r"^\s*[┌│├└].*[┐│┤┘]\s*$")


def merge_cells(run: list[str], carried_space: bool = False, cut_alone: bool = False) -> str:
    """The drawn rows of one grid row as one row: each column's pieces joined,
    glued where a piece reached its column's edge (a word cut by character).

    carried_space: the agent wraps a cell at a space by moving that space to
    the next row (Amp: `│  tozoon │` under `│ vickbroor │`), so a piece
    opening with a second space starts a word even under a full cell.

    cut_alone: the agent starts a word too long for its column on a row of
    its own (Vibe), so a piece holding a space ends at a word's end however
    full its cell (`│ faben fazel │` over `│ faowmon     │`); only a piece
    that is one word can be a word cut by character."""
    indent = run[0][:len(run[0]) - len(run[0].lstrip())]
    split = [r.strip()[1:-1].split("│") for r in run]
    merged = [""] * len(split[0])
    for k, cells in enumerate(split):
        for c, cell in enumerate(cells):
            body = cell.strip()
            if not body:
                continue
            above = split[k - 1][c] if k else ""
            full = k and above.strip() and ((wcswidth(above.rstrip()) >= wcswidth(above) - 1
                                              and not (cut_alone and " " in above.strip()))
                                             or _wide_cut(above, body))
            glue = "" if full and not (carried_space and cell.startswith("  ")) else " "
            merged[c] = merged[c] + glue + body if merged[c] else body
    return indent + "│ " + " │ ".join(merged) + " │"


def _wide_cut(above: str, body: str) -> bool:
    """A run of wide characters (CJK has no spaces to wrap at) cut by
    character: the cell above ends with a wide character and the piece under
    it opens with one that would not have fitted in the room left (the one
    cell a two-cell character leaves free at the column's edge)."""
    a = above.rstrip()
    if not a or not body or wcswidth(a[-1]) != 2 or wcswidth(body[0]) != 2:
        return False
    return wcswidth(above) - wcswidth(a) - 1 < 2


def merge_grid_rows(text: str, carried_space: bool = False, cut_alone: bool = False) -> str:
    """Each run of two drawn rows or more between two rules of a grid becomes
    one row (a row drawn on one row stays as drawn). Only in a grid whose
    every run of content rows has a rule under it (one rule fewer than runs,
    counting the bottom edge out); a run of a different column count stays
    as drawn."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not GRID_ROW.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and GRID_ROW.match(lines[j]):
            j += 1
            if lines[j - 1].lstrip().startswith("└"):
                break
        grid = lines[i:j]
        runs: list[list[str]] = []
        rules = 0
        prev_content = False
        for ln in grid:
            content = ln.lstrip().startswith("│")
            if content and not prev_content:
                runs.append([])
            if content:
                runs[-1].append(ln)
            elif ln.lstrip().startswith("├") and runs:
                rules += 1  # a rule under a run (one above the first: its header scrolled away)
            prev_content = content
        same = all(len(r.strip()[1:-1].split("│")) == len(runs[0][0].strip()[1:-1].split("│"))
                   for run in runs for r in run) if runs else False
        if same and len(runs) >= 2 and rules == len(runs) - 1:
            r = 0
            prev_content = False
            for ln in grid:  # each run in place of its rows, the rules kept
                content = ln.lstrip().startswith("│")
                if content and not prev_content:
                    out.extend([merge_cells(runs[r], carried_space, cut_alone)] if len(runs[r]) > 1 else runs[r])
                    r += 1
                elif not content:
                    out.append(ln)
                prev_content = content
        else:
            out.extend(grid)
        i = j
    return "\n".join(out)


def grid_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) of each box grid in `lines`: a grid ends at its bottom edge."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        if GRID_ROW.match(lines[i]):
            j = i
            while j < len(lines) and GRID_ROW.match(lines[j]):
                j += 1
                if lines[j - 1].lstrip().startswith("└"):
                    break
            spans.append((i, j))
            i = j
        else:
            i += 1
    return spans


def _blanks(text: str, at: int) -> set[int]:
    """Where `text` has a blank, as positions in its blank-free form, shifted by `at`."""
    out, n = set(), 0
    for ch in text:
        if ch == " ":
            out.add(at + n)
        else:
            n += 1
    return out


def fuller_cell(a: str, b: str) -> str | None:
    """One cell of a table row as two layouts drew it, `b` the later one: the
    cell whole, or None when the two are not the same cell. The earlier one
    may stop short (the row still streaming in), the later one may have lost
    its start (its rows above the view's top). Compared without blanks: a
    word that filled its column in one layout may have been glued to the
    next (`grids.merge_cells`), so the blanks of both are kept."""
    sa, sb = a.replace(" ", ""), b.replace(" ", "")
    if not sb:
        return a
    if not sa:
        return b
    if sb.startswith(sa):
        whole, oa, ob = sb, 0, 0
    elif sa.startswith(sb) or sa.endswith(sb):
        whole, oa, ob = sa, 0, (0 if sa.startswith(sb) else len(sa) - len(sb))
    else:
        k = next((k for k in range(min(len(sa), len(sb)) - 1, 3, -1) if sa.endswith(sb[:k])), 0)
        if not k:
            return None
        whole, oa, ob = sa + sb[k:], 0, len(sa) - k  # a's end is b's start
    blanks = _blanks(a, oa) | _blanks(b, ob)
    return "".join((" " if i in blanks else "") + ch for i, ch in enumerate(whole))


def merge_grid_layouts(text: str) -> str:
    """A table taller than the view streams in while the agent lays it out again (Vibe; OpenCode on a short screen)
    at every row (its columns widen, its cells wrap anew), and the view keeps
    only the table's bottom: the stitched answer holds one grid per layout,
    the later ones without their top rows, the earlier ones without their
    last cells. Grids that follow one another (blank rows between) with the
    same number of columns are one table: each later grid's rows are laid
    over the rows of the table so far that they go on (its first row may be
    the bottom part of a row), and the table is drawn once, one row per
    table row."""
    lines = text.split("\n")
    spans = grid_spans(lines)
    groups: list[list[tuple[int, int]]] = []
    def columns(a: int, b: int) -> int:
        return next((len(ln.strip()[1:-1].split("│")) for ln in lines[a:b] if ln.lstrip().startswith("│")), 0)

    for a, b in spans:
        ncol = columns(a, b)
        if groups:
            pa, pb = groups[-1][-1]
            if all(not ln.strip() for ln in lines[pb:a]) and columns(pa, pb) == ncol \
                    and not lines[a].lstrip().startswith("┌"):
                groups[-1].append((a, b))
                continue
        groups.append([(a, b)])
    out, at = [], 0
    for group in groups:
        if len(group) < 2:
            continue
        table: list[list[str]] = []
        ok = True
        for n, (a, b) in enumerate(group):
            rows = [[" ".join(c.split()) for c in ln.strip()[1:-1].split("│")]
                    for ln in lines[a:b] if ln.lstrip().startswith("│")]
            if not rows:
                continue
            if n == 0:
                table = rows
                continue
            # where the grid's first row lies in the table so far: the last
            # row it goes on with (cell by cell)
            # (cell by cell); a row that has a cell with text where the grid's
            # row has one too comes first: a row caught while it streamed
            # (its first cells only) would take any row whose first cell is empty
            start = None
            for shared in (True, False):
                for j in range(len(table) - 1, -1, -1):
                    if len(table[j]) == len(rows[0]) and \
                            all(fuller_cell(x, y) is not None for x, y in zip(table[j], rows[0])) and \
                            any(y and (x or not shared) and fuller_cell(x, y) is not None
                                for x, y in zip(table[j], rows[0])):
                        start = j
                        break
                if start is not None:
                    break
            if start is None:
                ok = False
                break
            for i, row in enumerate(rows):
                k = start + i
                if k >= len(table):
                    table.append(row)
                    continue
                merged = [fuller_cell(x, y) for x, y in zip(table[k], row)]
                if len(table[k]) != len(row) or any(m is None for m in merged):
                    ok = False
                    break
                table[k] = merged  # type: ignore[assignment]
            if not ok:
                break
        if not ok:
            continue
        a0, b1 = group[0][0], group[-1][1]
        indent = lines[a0][:len(lines[a0]) - len(lines[a0].lstrip())]
        body = [indent + "│ " + " │ ".join(r) + " │" for r in table]
        drawn = [ln for ln in lines[a0:b1] if ln.strip()]
        top = [ln for ln in drawn[:1] if ln.lstrip().startswith("┌")]
        rule = next((ln for ln in drawn if ln.lstrip().startswith("├")), None)
        grid = top + [x for r in body for x in ([r] if rule is None else [r, rule])]
        if rule is not None:
            grid.pop()
        grid += [ln for ln in drawn[-1:] if ln.lstrip().startswith("└")]
        out.extend(lines[at:a0])
        out.extend(grid)
        at = b1
    out.extend(lines[at:])
    return "\n".join(out)


def _streamed_draft(early: list[str], late: list[str]) -> bool:
    """`early` is the table row `late` caught while it streamed in: the same
    cells up to one, that one a start of the later's (compared without
    blanks), the cells after it not drawn yet."""
    if len(early) != len(late) or early == late or not early[0]:
        return False
    bare = [c.replace(" ", "") for c in early], [c.replace(" ", "") for c in late]
    k = next(k for k in range(len(early)) if bare[0][k] != bare[1][k])
    return bare[1][k].startswith(bare[0][k]) and not any(bare[0][k + 1:])


def drop_row_drafts(text: str) -> str:
    """A grid that streams taller than the view is stitched from views that
    each caught its last row at another point: a row drawn once while its
    cells were still coming in, the rule under it, then the row whole. The
    draft and its rule go."""
    lines = text.split("\n")
    drop: set[int] = set()
    for a, b in grid_spans(lines):
        content = [y for y in range(a, b) if lines[y].lstrip().startswith("│")]
        for y, z in zip(content, content[1:]):
            if z != y + 2 or not lines[y + 1].lstrip().startswith("├"):
                continue
            early = [" ".join(c.split()) for c in lines[y].strip()[1:-1].split("│")]
            late = [" ".join(c.split()) for c in lines[z].strip()[1:-1].split("│")]
            if _streamed_draft(early, late):
                drop.update((y, y + 1))
    return "\n".join(ln for n, ln in enumerate(lines) if n not in drop) if drop else text


# -- grids with a rule under the header only (Gemini) ------------------------

TOP_RULE = regex.compile(r"^(?P<sp>\s*)┌(?P<cols>[─┬]+)┐\s*$")
BODY_ROW = regex.compile(r"^(?P<sp>\s*)│(?P<cells>.*)│\s*$")


def _cells(text: str) -> int:
    w = wcswidth(text)
    return w if w >= 0 else len(text)


def _chunk(above: str, width: int) -> bool:
    """A cell's drawn text that is one piece of a word longer than its
    column: no space in it and the column full (a wide character that did
    not fit leaves one cell)."""
    text = above.strip()
    full = _cells(text) >= width - (1 if text and _cells(text[-1]) == 2 else 0)
    return bool(text) and " " not in text and full


def _goes_on(above: str, below: str, width: int) -> bool:
    """Cell `below` goes on with the text of cell `above` (one column, the
    row under): `above` is a piece of a word cut at the column's width, or
    the first word of `below` would not have fitted after it."""
    first = below.split()[0] if below.split() else ""
    return _chunk(above, width) or _cells(above.strip()) + 1 + _cells(first) > width


def _glued(above: str, below: str, width: int) -> bool:
    """`below` is the rest of a word `above` is a piece of: `above` a chunk
    (`_chunk`) and the cut between two letters or digits (a word that fills
    its column exactly, `altitude`, may be followed by `(m)`)."""
    a, b = above.strip(), below.strip()
    return _chunk(above, width) and a[-1:].isalnum() and b[:1].isalnum()


def _wraps_somewhere(rows: list[str], sp: str, widths: list[int]) -> bool:
    """Some body row of the grid is drawn the way only a wrapped cell draws
    it: under a drawn row it could go on with (`_goes_on` in every cell it
    fills), it leaves empty a cell the row above fills (a cell that ended
    while others went on), or a cell of the two holds two words. A grid
    of one-word cells with every column as wide as its widest word reads
    the same whether its rows were wrapped or not: it was not (the
    renderer narrows a column below its widest cell only when the table
    does not fit)."""
    prev: list[str] | None = None
    for ln in rows:
        m = BODY_ROW.match(ln)
        cells = m.group("cells").split("│") if m and m.group("sp") == sp else None
        if cells is None or len(cells) != len(widths):
            prev = None
            continue
        if prev is not None:
            filled = [c for c, cell in enumerate(cells) if cell.strip()]
            if filled and all(prev[c].strip() and _goes_on(prev[c], cells[c], widths[c]) for c in filled) and (
                    len(filled) < sum(1 for cell in prev if cell.strip())
                    or any(" " in cell.strip() for cell in cells + prev)):
                return True
        prev = cells
    return False


def unfold_word_wrapped_rows(text: str, width: int, margin: int = 2, also: "tuple[int, ...]" = ()) -> str:
    """Each table row of a grid that a renderer wrapped at words inside its
    cells, drawn on one row again; the rules are kept.

    Gemini draws a table with a rule under the header only. When the
    table is too wide for the terminal, its columns are narrowed and each
    cell is wrapped at its words (a word longer than its column is cut
    into pieces the column's width, each on a row of its own), every cell
    aligned to the top: a table row is then drawn on several rows, and read
    row by row its cells' words interleave with the next cells'.

    Only a table as wide as the terminal (`width`, less `margin` cells and
    three per column: the renderer's margin and what its floors may lose)
    was narrowed; one wider than `width` was laid out at a wider width
    and wrapped by the terminal when it got narrower (its rows joined
    again), not narrowed to it. There every drawn row between the top rule and the header
    rule is the header, and in the body a drawn row goes on with the one
    above when each of its cells with text goes on with the cell above
    (`_goes_on`) and no drawn row of that table row left the column empty
    (cells are aligned to the top: a column that ended holds nothing
    more). A piece of a word is joined to the next without a space.

    also: narrower widths the text was laid out at too (the window was
    resized while it was written): a table as wide as one of them, and no
    wider, was narrowed to it; so was a table wider than the narrowest of
    them and narrower than `width` (laid out while the drag went through
    widths no row keeps)."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = TOP_RULE.match(lines[i])
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        sp = m.group("sp")
        widths = [len(c) - 2 for c in m.group("cols").split("┬")]
        end = i + 1
        while end < len(lines) and (BODY_ROW.match(lines[end]) or lines[end].strip()[:1] in ("├", "└")):
            end += 1
            if lines[end - 1].strip()[:1] == "└":
                break
        drawn = len(sp) + _cells(lines[i].strip())
        def fits(w: int) -> bool:
            return drawn >= w - margin - 3 * len(widths)

        if not (fits(width) and drawn <= width or any(fits(w) and drawn <= w for w in also)
                or (also and min(also) <= drawn < width)) or min(widths) < 1:
            out.extend(lines[i:end])
            i = end
            continue
        if not _wraps_somewhere(lines[i + 1:end], sp, widths):
            out.extend(lines[i:end])
            i = end
            continue
        out.append(lines[i])
        group: list[list[str]] = []
        ended: set[int] = set()
        header = True

        def flush() -> None:
            if not group:
                return
            if len(group) == 1:  # drawn on one row: as drawn
                out.append(sp + "│" + "│".join(group[0]) + "│")
                group.clear()
                ended.clear()
                return
            merged = [""] * len(widths)
            for k, cells in enumerate(group):
                for c, cell in enumerate(cells):
                    body = cell.strip()
                    if not body:
                        continue
                    glue = "" if k and _glued(group[k - 1][c], cell, widths[c]) else " "
                    merged[c] = merged[c] + glue + body if merged[c] else body
            out.append(sp + "│ " + " │ ".join(merged) + " │")
            group.clear()
            ended.clear()

        for ln in lines[i + 1:end]:
            row = BODY_ROW.match(ln)
            cells = row.group("cells").split("│") if row and row.group("sp") == sp else None
            if cells is None or len(cells) != len(widths):
                flush()
                header = header and ln.strip()[:1] not in ("├", "└")
                out.append(ln)
                continue
            if group and not header:
                above = group[-1]
                filled = [c for c, cell in enumerate(cells) if cell.strip()]
                if not filled or not all(c not in ended and above[c].strip() and _goes_on(above[c], cells[c], widths[c])
                                         for c in filled):
                    flush()
            group.append(cells)
            ended.update(c for c, cell in enumerate(cells) if not cell.strip())
        flush()
        i = end
    return "\n".join(out)
