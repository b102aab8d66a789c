"""Tables drawn as box grids with a rule between every two rows (Vibe, Amp).

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


def merge_cells(run: list[str], carried_space: bool = False) -> str:
    """The drawn rows of one grid row as one row: each column's pieces joined,
    glued where a piece reached its column's edge (a word cut by character).

    carried_space: the agent wraps a cell at a space by moving that space to
    the next row (Amp: `│  tozoon │` under `│ vickbroor │`), so a piece
    opening with a second space starts a word even under a full cell."""
    indent = run[0][:len(run[0]) - len(run[0].lstrip())]
    split = [r.strip()[1:-1].split("│") for r in run]
    merged = [""] * len(split[0])
    for k, cells in enumerate(split):
        for c, cell in enumerate(cells):
            body = cell.strip()
            if not body:
                continue
            above = split[k - 1][c] if k else ""
            full = k and above.strip() and wcswidth(above.rstrip()) >= wcswidth(above) - 1
            glue = "" if full and not (carried_space and cell.startswith("  ")) else " "
            merged[c] = merged[c] + glue + body if merged[c] else body
    return indent + "│ " + " │ ".join(merged) + " │"


def merge_grid_rows(text: str, carried_space: bool = False) -> str:
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
                    out.extend([merge_cells(runs[r], carried_space)] if len(runs[r]) > 1 else runs[r])
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
            start = None
            for j in range(len(table) - 1, -1, -1):
                if len(table[j]) == len(rows[0]) and \
                        all(fuller_cell(x, y) is not None for x, y in zip(table[j], rows[0])) and \
                        any(y and fuller_cell(x, y) is not None for x, y in zip(table[j], rows[0])):
                    start = j
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
