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

from typing import Iterable

import regex

from agents_chrome.profile import ChromeProfile
from agents_chrome.rules import Labeled, LineRule
from agents_chrome.transcript import TLine
from agents_chrome.turns import Turn
from screen.frames import Frame

# A list typed in a prompt, as Codex renders the prompt's markdown: under the
# prompt and a blank row, indented two, with a bullet or a number.
PROMPT_LIST_ROW = regex.compile(r"^  (?P<mk>[•◦▪\-*]|\d+[.)])\s+\S")
# The slash-command popup drawn right above the composer while `/…` is
# typed: `/name   description` rows (the selected one on a highlight
# background), long descriptions wrapped under their column.
MENU_ROW = regex.compile(r"^(?:›\s|\s\s)/[a-z][\w-]*\s{2,}\S")
MENU_CONT = regex.compile(r"^\s{6,}\S")
EXPLORE_ITEM = regex.compile(r"^\s*(?:└\s+)?(?P<verb>List|Read|Search|Find|Grep|Glob|Open|View)\s+(?P<arg>.+)$")


def full_bg(frame: Frame, y: int) -> str | None:
    """The row's background colour when one non-default background spans it."""
    spans = frame.styles[y]
    if not spans or spans[0][0] != 0 or spans[-1][1] < frame.columns - 1:
        return None
    bgs = {s[3] for s in spans}
    if len(bgs) != 1 or "default" in bgs:
        return None
    for a, b in zip(spans, spans[1:]):
        if a[1] != b[0]:
            return None
    return next(iter(bgs))


class CodexProfile(ChromeProfile):
    name = "codex"
    checked_versions = ("0.169.0",)
    commands = ("codex",)
    screen_signatures = (r">_ OpenAI Codex", r"\bcodex resume\b")
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
        LineRule("slash-command", "system", r"^(›\s)?(?P<body>/[a-z][\w-]*)(\s.*)?$"),
        LineRule("prompt", "user", r"^›\s(?P<body>.*)$"),
        LineRule("ran", "tool_call", r"^[•◦]\s+(?P<body>(Ran|Exited\s+\(status\s+\d+\))\s+.+)$"),
        LineRule("explored", "tool_call", r"^[•◦]\s+(?P<body>(Explored|Exploring)\b.*)$"),
        LineRule("tool-other", "tool_call", r"^[•◦]\s+(?P<body>(Called|Calling|Edited|Added|Deleted|Updated|Searched|"
                                             r"Read|Waited|Applied patch)\b.*)$"),
        LineRule("tool-output", "tool_result", r"^\s{2,4}└\s(?P<body>.*)$"),
        LineRule("answer", "assistant", r"^•\s(?P<body>.*)$"),
    )

    # -- regions ----------------------------------------------------------
    def viewport(self, frame: Frame) -> tuple[int, int] | None:
        n = len(frame.lines)
        end = n
        # The composer: the last background card, with footer rows under it.
        y = n - 1
        while y >= 0 and full_bg(frame, y) is None and n - y <= 6:
            y -= 1
        if y >= 0 and full_bg(frame, y) is not None:
            while y > 0 and full_bg(frame, y - 1) is not None:
                y -= 1
            end = _above_menu(frame, y)
        start = 0
        # A sticky header: one background row at the top, no card around it.
        if n > 1 and full_bg(frame, 0) is not None and full_bg(frame, 1) is None and frame.lines[0].strip():
            start = 1
        return (start, end)

    def main_viewport(self, frame: Frame) -> tuple[int, int] | None:
        return self.viewport(frame)

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
        seg = lines[a:b]
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

    # -- turns ------------------------------------------------------------
    def label(self, lines: list[TLine]) -> list[Labeled]:
        labeled = super().label(lines)
        _prompt_lists(labeled)
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
        # A bullet with `└` output right under it is a call, whatever its
        # verb: an answer never has one.
        for k, lb in enumerate(labeled):
            if lb.rule != "answer":
                continue
            j = k + 1
            while j < len(labeled) and labeled[j].kind == "cont" and labeled[j].line.text.strip():
                j += 1
            if j < len(labeled) and labeled[j].kind == "tool_result":
                lb.kind, lb.rule = "tool_call", "tool-other"
        # `└` rows under `• Explored` are calls, not output.
        group = None
        for lb in labeled:
            if lb.kind in ("tool_call", "user", "assistant", "system"):
                group = lb.rule
            if lb.kind == "tool_result" and group == "explored":
                lb.kind, lb.rule = "tool_call", "explored-item"
            elif lb.kind == "cont" and group == "explored" and EXPLORE_ITEM.match(lb.line.text):
                lb.kind, lb.rule, lb.body = "tool_call", "explored-item", lb.line.text.strip()
        return labeled

    def make_turn(self, kind: str, text: str, members: list[Labeled]) -> Turn | list[Turn] | None:
        rule = members[0].rule if members else ""
        if kind == "tool_call":
            first = text.splitlines()[0].strip() if text else ""
            if rule == "explored":
                rest = text.splitlines()[1:]
                calls = [_explore_call(r) for r in rest if r.strip()]
                return [c for c in calls if c] or None
            if rule == "explored-item":
                return _explore_call(first)
            if rule == "ran":
                cmd = " ".join(ln.strip() for ln in text.splitlines())
                cmd = regex.sub(r"^(Ran|Exited\s+\(status\s+\d+\))\s+", "", cmd)
                return Turn("tool_call", cmd, name="shell")
            return Turn("tool_call", first, name=first.split()[0] if first else None)
        if kind == "system":
            return Turn("system", text)
        if kind == "user":
            # a rendered bullet stands for the `- ` it was typed as
            rows = [regex.sub(r"^(\s*)[•◦▪]\s", r"\1- ", r) for r in text.splitlines()]
            return Turn("user", "\n".join(r for r in rows if r.strip()))
        return Turn(kind, text)


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


def _explore_call(row: str) -> Turn | None:
    m = EXPLORE_ITEM.match(row)
    if not m:
        return None
    return Turn("tool_call", f"{m.group('verb')} {m.group('arg').strip()}", name=m.group("verb").lower())


PROFILE = CodexProfile()
