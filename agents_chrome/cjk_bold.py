"""Bold set against ideographs: the one word boundary a screen shows there.

Markdown bold between CJK letters with no space (`处理**全角字符**（`) is a word
of its own only through its `**` markers; the terminal shows them as bold
cells. Shared by the agents that draw markdown bold as bold cells (Vibe, Kimi, Claude Code full screen).
"""
from __future__ import annotations

from typing import Callable

import regex

IDEOGRAPH = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\u3000-\u303f\uff00-\uffef]")


def bold_marker(cell: object) -> str:
    """`**` for a bold cell, nothing else."""
    return "**" if getattr(cell, "bold", False) else ""


def marked_ideograph_bold(text: str, cells: "tuple | None",
                          marker: Callable[[object], str] = bold_marker) -> str:
    """Bold text set between ideographs with no space (`处理**全角字符**（`) is a
    word of its own only through its markdown markers, which the screen shows
    as bold cells: such a bold run gets its `**` back. `marker` names the
    markdown a cell's style stands for (`**`, a backtick, or nothing): a run
    is the cells with one marker. Anything else, and any row whose cells do
    not spell its text, is left as drawn."""
    if cells is None or not IDEOGRAPH.search(text):
        return text
    chars = [(c.data, marker(c)) for c in cells if c.data]
    if "".join(ch for ch, _ in chars).rstrip() != text.rstrip():
        return text
    out: list[str] = []
    i, n = 0, len(chars)
    while i < n:
        mark = chars[i][1]
        if not mark or not chars[i][0].strip():
            out.append(chars[i][0])
            i += 1
            continue
        j = i
        while j < n and chars[j][1] == mark:
            j += 1
        while j > i and not chars[j - 1][0].strip():
            j -= 1  # trailing blanks of a bold run stay outside it
        run = "".join(ch for ch, _ in chars[i:j])
        before = chars[i - 1][0] if i else ""
        after = chars[j][0] if j < n else ""
        glued = bool(IDEOGRAPH.match(before) or IDEOGRAPH.match(after))
        out.append(f"{mark}{run}{mark}" if glued else run)
        i = j
    return "".join(out)
