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
