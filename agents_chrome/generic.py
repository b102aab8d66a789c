"""The fallback profile for agents we have no rules for.

It knows no agent, only what terminal UIs share:
- the input area sits at the bottom of a full-screen frame, fenced by a
  horizontal rule or a box: frames are cut above the topmost rule of
  their last dozen rows;
- a scrollbar may occupy the last column;
- a box drawn over the conversation at the right (a menu, a dialog)
  hides the rows under it, which are kept from the frames before;
- spinners (braille, stars; a braille glyph also when it opens the body
  of a barred row), box borders, progress bars, timers, key hints
  (`esc to interrupt`, `ctrl+…`, `? for shortcuts`), token and context
  counters are chrome;
- a prompt opens at a prompt marker (`>`, `❯`, `›`, `✨`, `┃`, `$`), and
  the prompt ends at its first blank row: unmarked text after it is the
  answer, and a bullet (`●`, `•`, `✦`, `⏺`) opens another.
Crude, but far better than the raw screen.
"""
from __future__ import annotations

import regex

from agents_chrome.overlay import popup_rows
from agents_chrome.profile import ChromeProfile
from agents_chrome.rules import COMMON_CHROME, LineRule
from agents_chrome.transcript import without_scrollbar
from agents_chrome.turns import Turn
from screen.frames import Frame

RULE = regex.compile(r"^\s*[╭╰┌└╹╵]?[─━═▀▄]{8,}")
BAR = regex.compile(r"^\s*[┃│▌▎]")
# A braille glyph opening a row's body (after any bar) is a spinner: the row
# is a pending step being animated, redrawn later in its settled form.
SPINNER_BODY = regex.compile(r"^[\u2800-\u28ff]\s")
SCROLLBAR = set("█▐▌▕▏▁▂▃▄▅▆▇│┃")
DENSE = set("•●·:.")


class GenericProfile(ChromeProfile):
    name = "generic"
    prompt_ends_at_blank = True
    join_answers = True
    rules = (
        *COMMON_CHROME,
        LineRule("star-spinner", "chrome", r"^\s*[✻✶✳✢·✽*◐◓◑◒]\s+\w+(…|\.\.\.)"),
        LineRule("timer", "chrome", r"\(\d+(\.\d+)?s\b.*\)\s*$|\b\d+(\.\d+)?k?\s+tokens\b|\bcontext\b.*\d+%"),
        LineRule("key-hints", "chrome", r"(?i)(\? for shortcuts|ctrl[+-]\w+\b.*\b(to|for)\b|shift\+tab|"
                                         r"\besc to\b|press .{1,12} again to exit|/help for)"),
        LineRule("box-side", "chrome", r"^\s*[│┃║]\s*$"),
        LineRule("box-edge", "chrome", r"^\s*[╭╰┌└╔╚].*[╮╯┐┘╗╝]\s*$"),
        LineRule("block-art", "chrome", r"^[\s▀▄█▌▐▖▗▘▙▚▛▜▝▞▟⠀-⣿]{4,}\S*$"),
        LineRule("prompt", "user", r"^\s{0,3}(?:[>❯›✨┃]|\$)\s+(?P<body>\S.*)$"),
        LineRule("answer-bullet", "assistant", r"^\s*[●•✦⏺]\s+(?P<body>.*)$"),
    )

    def rows(self, frame: Frame) -> list[str | None]:  # type: ignore[override]
        """On the alternate screen a row under a box drawn over the
        conversation at the right is None (covered): the stitcher keeps the
        row it hid."""
        out: list[str | None] = []
        covered = popup_rows(frame) if frame.alternate else range(0)
        for y, ln in enumerate(without_scrollbar(frame, SCROLLBAR) if frame.alternate else frame.lines):
            if y in covered:
                out.append(None)
                continue
            visible = ln.replace(" ", "")
            if visible and sum(c in DENSE for c in visible) >= max(6, 0.6 * len(visible)):
                ln = ""  # animations drawn with dots
            out.append(ln)
        return out

    def viewport(self, frame: Frame) -> tuple[int, int] | None:
        n = len(frame.lines)
        lines = frame.lines
        rules = [y for y in range(max(0, n - 12), n) if RULE.match(lines[y])]
        if not rules:
            return (0, n)
        top = rules[0]
        while top > 0 and BAR.match(lines[top - 1]):  # the box's sides above its bottom edge
            top -= 1
        return (0, top)

    def label(self, lines):  # type: ignore[no-untyped-def]
        labeled = super().label(lines)
        # Rows of one bar belong together: a prompt's rows continue it; a bar
        # that opens with `$ ` is a shell call and the rows under it its output.
        prev = None
        for lb in labeled:
            if lb.kind != "chrome" and lb.body is not None and SPINNER_BODY.match(lb.body.lstrip()):
                lb.kind, lb.rule = "chrome", "bar-spinner"
                continue
            if lb.rule == "prompt" and lb.body.startswith("$ "):
                lb.kind, lb.rule, lb.body = "tool_call", "shell", lb.body[2:]
            elif lb.rule == "prompt" and prev is not None and prev.rule in ("prompt", "prompt-row"):
                lb.kind, lb.rule = "cont", "prompt-row"
            elif lb.rule == "prompt" and prev is not None and prev.rule in ("shell", "shell-output"):
                lb.kind, lb.rule = ("tool_result" if prev.rule == "shell" else "cont"), "shell-output"
            if lb.kind not in ("blank", "chrome"):
                prev = lb
            elif lb.kind == "blank" and not lb.line.text.strip():
                prev = None  # a truly empty row ends the bar
        return labeled

    def make_turn(self, kind, text, members):  # type: ignore[no-untyped-def]
        if kind == "tool_call" and members and members[0].rule == "shell":
            return Turn("tool_call", text.strip(), name="shell")
        return Turn(kind, text)

    main_viewport = viewport



PROFILE = GenericProfile()
