"""A recording of a shell that runs agents: cut it into shell and agent stretches.

`capsule-capture record -- bash`, then `claude` typed at the prompt, later
`exit` and more shell: the agent's profile must see only the agent's frames,
or shell prompts and command output join its turns.

Structure used, never words:
- A *shell input frame*: main screen, the cursor on a row whose text up to
  the cursor starts with a prompt (`$`, `#` or `%` and a space, alone as
  sh draws it or ending a run of text: `user@box:~/p$ `) and nothing after
  the cursor. Bash, zsh and sh
  prompts all look like that; agents draw their input boxes with their own
  glyphs, on the alternate screen, or with the cursor hidden inside a box.
- Each new prompt row (absolute: rows scrolled into history counted) opens
  a *run*: the command typed there and everything until the next prompt.
- A run belongs to an agent when its command names one (`registry.from_command`),
  or when what it drew after its prompt row (new main-screen rows, alternate
  screen) shows an agent's screen signature, or when it brings a stopped
  job back (`fg` after Ctrl+Z: the latest agent run is the job). Text still
  visible from earlier runs is not looked at: an exited agent's last screen must not
  claim the `ls` typed after it.
- An agent run's frames go to that agent's profile with the shell's rows
  (everything at or above its prompt row, and the next prompt row and
  below) blanked, in the visible rows and in the lines scrolled to history,
  so an inline agent (Claude Code) keeps its own scrollback and nothing else.

What the shell did becomes `system` turns named `shell` (the prompt line with
its command, then the output), in order between the agent's turns (what was
printed after an agent ended, before the next prompt: one named `shell-output`): a user
reading the conversation sees what was run around it, and the agent's own
turns stay clean. A recording where no run is an agent is not cut at all.
"""
from __future__ import annotations

import copy
import difflib
import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterable

import regex
from pyte.screens import Char
from wcwidth import wcwidth

from agents_chrome import registry
from agents_chrome.rules import Labeled
from agents_chrome.transcript import TLine
from agents_chrome.turns import Turn
from screen.cast import CastHeader
from screen.frames import Frame

if TYPE_CHECKING:
    from agents_chrome.profile import ChromeProfile

#: the text before the cursor on a shell's input row: prompt, then what is typed.
#: `$ `, `# `, `% ` (bash, sh, zsh), alone or ending a run of text; `❯ ` (starship,
#: pure, p10k: often alone on a two-line prompt's second row); `> ` only after text
#: (fish `~/p> `), since a bare `> ` is bash's continuation prompt and many agents' input.
PROMPT = regex.compile(r"^(?P<prompt>(?:\S[^\n]{0,120}?)?[$#%❯] |\S[^\n]{0,120}?\S> )(?P<typed>.*)$")
#: what every PROMPT match holds in its first 124 characters: a marker and its space
#: (`[$#%❯] ` at most 121 characters in, or `> ` at most 122 in)
_PROMPT_MARKERS = ("$ ", "# ", "% ", "❯ ", "> ")


def _prompt_match(text: str) -> "regex.Match[str] | None":
    """`PROMPT.match(text)`, asked only of a text holding a marker where a
    prompt's can be: the lazy search costs ~2 us on a row of prose and ~40 us
    on a full-width rule (an agent's input box, asked of every frame)."""
    head = text[:124]
    for mark in _PROMPT_MARKERS:
        if mark in head:
            return PROMPT.match(text)
    return None


#: a row that is a horizontal rule: agents draw their input row between two of them
RULE = regex.compile(r"^\s*[─━═╌╍┄┅┈┉\-_]{10,}\s*$")
#: the rest of a drawn rule the terminal wrapped onto the next row (the window narrowed
#: under a full-width rule): a short run of the same glyphs at the left edge
_RULE_TAIL = regex.compile(r"^[─━═╌╍┄┅┈┉]+\s*$")
#: a row of half blocks: the edge of a band painted around an agent's input row
#: (Gemini's `▄▄▄` over it and `▀▀▀` under it)
_BAND_EDGE = regex.compile(r"^\s*[▀▄▁▔]{10,}\s*$")


def _ruled(lines: list[str], j: int) -> bool:
    """Row j is a horizontal rule (or a band's half-block edge), or the wrapped
    tail of a rule on the row above it."""
    if not 0 <= j < len(lines):
        return False
    return bool(RULE.match(lines[j]) or _BAND_EDGE.match(lines[j])
                or (j > 0 and _RULE_TAIL.match(lines[j]) and RULE.match(lines[j - 1])))
SHELLS = registry.SHELLS
#: the name of the system turn holding what was printed after an agent ended
AFTER_EXIT = "shell-output"
DETECT_FRAMES = 60  # frames of a run looked at for an agent's signature
LEARN_FRAMES = 20  # frames looked at for the first prompt a shell drew
MAX_HEAD = 3  # rows a prompt may draw above its input row
MAX_EDIT_ROWS = 8  # rows a command line being typed may fill without the terminal's wrap flag (zsh)


@dataclass
class Run:
    """What follows one shell prompt: frames [start, end) of the recording."""
    start: int
    prompt_abs: int | None  # absolute row of its prompt; None for what precedes the first prompt
    prompt: str = ""
    command: str = ""
    end: int = 0
    agent: str | None = None
    head: list[str] = field(default_factory=list)  # a multi-line prompt's rows above the input row
    rprompt: str = ""  # a right prompt drawn at the row's end (zsh RPROMPT, fish_right_prompt)
    stale_at: int | None = None  # the prompt row's column from which it holds what the shell never wrote
    stale_below: tuple[str, ...] = ()  # the rows below the prompt row as they were when it was drawn
    resumed: bool = False  # brings a stopped agent back (`fg`): the agent run before it goes on
    marked: int = 0  # rows above the prompt (and its head) holding fish's missing-newline mark `⏎`
    over_stale: bool = False  # opened on a frame whose row held, right of the cursor, what the shell never wrote


def is_shell_command(command: str | None) -> bool:
    """The recording's command is an interactive shell (or absent, as in a raw log)."""
    if not command:
        return True
    exe = _executable(registry.command_words(command))
    return exe is None or os.path.basename(exe).lstrip("-") in SHELLS


def _executable(words: list[str]) -> str | None:
    """The word a command line runs (see `registry.executable`)."""
    return registry.executable(words)


def _below_accepted(frame: Frame) -> bool:
    """A frame taken as the line editor accepted a line, with the cursor already
    at the start of the row below it (bash, readline: the newline comes before
    bracketed paste goes off). zsh turns it off first, with the cursor still at
    the end of the line: that frame reads like one waiting at the prompt."""
    return frame.reason == "accept" and frame.cursor[0] == 0


def shell_input(frame: Frame) -> tuple[str, str] | None:
    """(prompt, typed text) when the frame waits at a shell prompt."""
    if frame.alternate:
        return None
    x, y = frame.cursor
    if _below_accepted(frame):
        got = _accepted(frame)
        rp = _accepted_rprompt(frame) if got else ""
        return (got[0], _cut_rprompt(got[1], rp).rstrip()) if got and rp else got
    if y >= len(frame.lines):
        return None
    row = frame.lines[y]
    after = row[x:]
    # nothing after the cursor, or only a right-aligned prompt (zsh RPROMPT)
    if after.strip() and not (after.startswith("  ") and len(row) >= frame.columns - 2):
        return None
    top = prompt_row(frame)
    # the cursor on the wrapped tail of a long command line (a raw log without timing
    # shows only the line as accepted): the line is read from its first row, never
    # the tail row alone, which may hold any text
    line = "".join(frame.lines[j].ljust(frame.columns) for j in range(top, y)) + row[:x].ljust(x)
    lead = _painted_lead(frame, top, line)
    m = _prompt_match(line[lead:])
    if m is None:
        return None
    # an agent's input row drawn between rules (Claude Code's `❯ ` box) is no shell prompt
    if _ruled(frame.lines, top - 1) or _ruled(frame.lines, y + 1):
        return None
    # nor a row inside a drawn box: a frame cut after a box row's `<tag> ` (Gemini's
    # `/help` box, reprinted) leaves the cursor where a fish prompt's `~/p> ` leaves it
    if _BOX_ROW.match(line[lead:]):
        return None
    return line[:lead] + m.group("prompt"), m.group("typed").rstrip()


#: a row that opens with a box's vertical edge and a space (`│ text`)
_BOX_ROW = regex.compile(r"^[│┃║] ")


def _painted_lead(frame: Frame, y: int, text: str) -> int:
    """How many spaces open row y's prompt as a painted block: a prompt segment
    drawn on a background colour (powerline style, ` host ` on blue) starts
    with a space that is drawing, not indentation. Plain leading spaces are
    not a prompt's (an agent's indented input row)."""
    n = len(text) - len(text.lstrip(" "))
    if not n or n > 2 or y >= len(frame.cells) or frame.cells[y] is None:
        return 0
    cells = frame.cells[y]
    if len(cells) <= n or not text[n:n + 1].strip():
        return 0
    if all(c.bg not in ("default", None) for c in cells[:n + 1]):
        return n
    return 0


def prompt_row(frame: Frame) -> int:
    """The screen row of the prompt a frame waits at: the first row of the
    line the cursor is on (the cursor's own unless the line wrapped), or, as
    the line editor accepts a line, of the line above the cursor."""
    y = frame.cursor[1]
    wrapped = getattr(frame, "row_wrapped", None) or []
    top = y - 1 if _below_accepted(frame) else y
    while top > 0 and top - 1 < len(wrapped) and wrapped[top - 1]:
        top -= 1
    if 0 <= top < len(frame.lines) and not _prompt_match(frame.lines[top]) and not frame.alternate:
        # zsh moves the cursor past the edge itself (no wrap flag): a line it is
        # still editing goes up through full rows (full but for a trimmed space)
        # to the row that opens with a prompt
        up = top
        while up > 0 and top - up < MAX_EDIT_ROWS and len(frame.lines[up - 1]) >= frame.columns - 1:
            up -= 1
            if _prompt_match(frame.lines[up]):
                # a box's side (`│ Rate: 100% `, an agent's panel left above) is no prompt
                return top if BOX_GLYPHS.match(frame.lines[up][:1]) else up
    return top


def _rprompt(frame: Frame) -> str:
    """A right prompt on the cursor's row: text after the cursor, after a gap,
    reaching the right edge (zsh RPROMPT, fish_right_prompt). It is no part of
    the command typed left of it."""
    x, y = frame.cursor
    if frame.alternate or y >= len(frame.lines):
        return ""
    if _below_accepted(frame):
        return _accepted_rprompt(frame)
    row = frame.lines[y]
    after = row[x:]
    if after.startswith("  ") and after.strip() and len(row) >= frame.columns - 2:
        return after.strip()
    return ""


def _accepted_rprompt(frame: Frame) -> str:
    """The right prompt of a line the editor accepted (a frame taken at Enter,
    the only frame of a command typed with no pause): a one-row line whose
    last word group stands apart by a wide gap (4+ spaces) and ends at the
    right edge. The prompt drew it before the command was typed; a command
    with such a gap ending in the very last column is rare enough to take it."""
    top = prompt_row(frame)
    if top >= len(frame.lines) or top != frame.cursor[1] - 1 or _continues(frame, top):
        return ""
    return _row_rprompt(frame.lines[top], frame.columns)


def _row_rprompt(row: str, columns: int) -> str:
    """A one-row line's right prompt: its last word group, set apart by a wide gap
    (4+ spaces), ending at the right edge."""
    if len(row) < columns - 1:
        return ""
    m = regex.search(r"\S {4,}(?P<r>\S(?:\S| (?! ))*)$", row)
    return m.group("r") if m else ""


def _cut_rprompt(text: str, rprompt: str) -> str:
    """`text` without the right prompt at its end (kept when no gap sets it apart)."""
    t = text.rstrip()
    if rprompt and t.endswith(rprompt):
        head = t[:-len(rprompt)]
        if not head.strip() or head.endswith("  "):
            return head.rstrip()
    return text


#: a learned prompt's mark may not be drawing: an agent's input box (`│ > `) is no prompt
BOX_GLYPHS = regex.compile(r"^[\u2500-\u259f|+*=:#>\-]+$")


@dataclass
class Learned:
    """A prompt shape `PROMPT` does not know, learned from the recording."""
    mark: str  # the prompt's first word, at the left edge of every prompt row
    prompt: str | None = None  # the whole prompt, when only accepted lines showed it


def learn_prompt(frames: list[Frame]) -> Learned | None:
    """The prompt a shell drew first, when `PROMPT` does not know its shape
    (oh-my-zsh's `➜  proj git:(main) ✗ `, `λ `, `→ `): a shell's first output
    is its prompt, and the shell then waits with the cursor right after it.

    Structure: the cursor on a main-screen row whose text before it starts at
    the left edge, with nothing after it but a right prompt. The first such
    row ending in a space is the idle prompt: its first word is the mark of
    later prompts (`_learned_input`; the directory and the git part change
    from prompt to prompt). A log without timing shows each line only once
    typed: there the prompt is what the first lines share, up to a space."""
    rows: list[tuple[int, str, str | None]] = []
    total = looked = 0
    for f in frames:
        total += len(f.scrolled)
        if f.alternate:
            continue  # a full-screen program run at the prompt (a pager): the shell comes back after it
        looked += 1
        if looked > LEARN_FRAMES:
            break
        if not any(t.strip() for t in f.lines):
            continue
        si = shell_input(f)
        if si is not None and not si[1]:
            return None  # waiting at a prompt PROMPT knows
        if si is not None and not _below_accepted(f):
            continue  # a line being typed: PROMPT may have stopped inside it (`printf '%3d%% '`)
        x, y = f.cursor
        if _below_accepted(f):
            # the line the editor accepted (the only frame a command typed with no
            # pause has): the whole line, prompt and command, on the row above
            y = prompt_row(f)
            if not 0 <= y < len(f.lines) or x != 0:
                continue
            x = len(f.lines[y])
        if y >= len(f.lines):
            continue
        row = f.lines[y]
        before, after = row.ljust(x)[:x], row[x:]  # rows come right-trimmed
        if after.strip() and (_below_accepted(f) or not _rprompt(f)):
            continue
        if not before.strip() or before[0] == " " or len(before) > 160 or BOX_GLYPHS.match(before.split()[0]):
            continue
        if _ruled(f.lines, y - 1) or _ruled(f.lines, y + 1):
            continue
        if not rows and before.endswith(" ") and not _below_accepted(f):
            return Learned(before.split()[0])
        known = si[0] if si is not None else None
        if not rows or rows[-1][0] != total + y:
            rows.append((total + y, before, known))
        elif len(before) > len(rows[-1][1]):
            rows[-1] = (total + y, before, known)
        if len(rows) >= 3:
            break
    if len(rows) < 2:
        return None
    if all(k is not None and k == rows[0][2] for _, _, k in rows):
        return None  # the accepted lines all open with the same prompt PROMPT knows
    # (a prefix a tool put in front of the prompt meanwhile, `(.venv) `, is no part of it)
    texts = [_unprefixed(t) for _, t, _ in rows]
    shared = os.path.commonprefix(texts)
    shared = shared[:shared.rfind(" ") + 1]
    words = shared.split()
    if not words or any(not t.startswith(words[0] + " ") for t in texts):
        return None
    return Learned(words[0], shared)


#: what a tool puts in front of the shell's prompt: a virtualenv's or conda's
#: `(.venv) `, `(base) `, a bracketed tag `[prod] `, one or more
_PROMPT_PREFIX = regex.compile(r"^(?:[(\[][^()\[\]\s]{1,40}[)\]] )+")


def _prefixed(row: str, head: str) -> int | None:
    """Where `head` (a learned prompt or its mark) starts on `row`: at its left
    edge, or after a prefix a tool put in front of the prompt (`_PROMPT_PREFIX`);
    None when it does not open the row."""
    if row.startswith(head):
        return 0
    m = _PROMPT_PREFIX.match(row)
    if m is not None and row[m.end():].startswith(head):
        return m.end()
    return None


def _unprefixed(prompt: str) -> str:
    """A prompt less the prefix a tool put in front of it (`_PROMPT_PREFIX`)."""
    m = _PROMPT_PREFIX.match(prompt)
    return prompt[m.end():] if m is not None else prompt


def _learned_input(frame: Frame, learned: Learned, open_prompt: str | None,
                   seen: tuple[str, ...] = ()) -> tuple[str, str] | None:
    """(prompt, typed) for a shell whose prompt was learned (`learn_prompt`):
    the cursor's row starts with the mark. On a row that already opened a run
    the run's prompt splits it; on a new row the frame must show the prompt
    idle (the cursor right after a space): what is typed later cannot be told
    from the prompt otherwise, unless it is a prompt an earlier run opened with
    (`seen`: the shell drew the same prompt again, typed over before any frame
    showed it idle)."""
    if frame.alternate:
        return None
    x, y = frame.cursor
    if _below_accepted(frame):
        # a run opened on that row, else (no frame showed the prompt idle: no pauses)
        # the prompt the first accepted lines share, or one an earlier run had
        top = prompt_row(frame)
        if x != 0 or top >= len(frame.lines):
            return None
        for known in ((open_prompt,) if open_prompt is not None else (learned.prompt,) + seen):
            at = _prefixed(frame.lines[top], known) if known else None
            if at is not None:
                known = frame.lines[top][:at] + known
                return known, (frame.lines[top][len(known):] + "".join(frame.lines[top + 1:y])).rstrip()
        return None
    if y >= len(frame.lines) or (y > 0 and _continues(frame, y - 1)):
        return None
    row = frame.lines[y]
    # rows come right-trimmed: an idle one-glyph prompt (`⟫ `) lost the space after its mark
    at = _prefixed(row.ljust(x), learned.mark + " ")
    if at is None:
        return None
    if row[x:].strip() and not _rprompt(frame):
        return None
    if _ruled(frame.lines, y - 1) or _ruled(frame.lines, y + 1):
        return None
    before = row.ljust(x)[:x]  # rows come right-trimmed
    for known in (open_prompt, learned.prompt) + seen:
        if known is not None and before.startswith(known):
            return known, before[len(known):].rstrip()
        if known is not None and at and before[at:].startswith(known):
            return before[:at] + known, before[at + len(known):].rstrip()
    if not before.endswith(" "):
        return None
    return before, ""


def _opens_learned(frame: Frame, learned: Learned) -> bool:
    """The line the frame is at opens with the learned prompt: PROMPT's reading of
    it would stop at a `$ `, `% ` or `# ` inside what was typed."""
    if frame.alternate:
        return False
    top = prompt_row(frame)
    return 0 <= top < len(frame.lines) and _prefixed(frame.lines[top], learned.prompt or learned.mark + " ") is not None


def _relaid(prev: Frame, f: Frame) -> bool:
    """The main screen may have been laid out again between two frames: a
    resize (a reflow wraps or unwraps rows, a taller screen pulls rows back
    from history) or the return from the alternate screen (reflowed to the
    size the terminal has now). Absolute rows counted by scrolled lines no
    longer hold across it."""
    if f.alternate:
        return False
    return (f.reason == "resize" or any(why == "resize" for _, why in f.marks) or prev.alternate
            or prev.columns != f.columns or prev.rows != f.rows
            # the first drawing after a shrink wiped the rows the shrink kept at the top
            # (a line editor redrawing its prompt row): the screen sent them to history
            or (any(why == "clear" for _, why in f.marks) and _resized(prev)))


def _resized(f: Frame) -> bool:
    return f.reason == "resize" or any(why == "resize" for _, why in f.marks)


def _anchor_shift(f: Frame, base: int, run: Run) -> int:
    """How far the open run's prompt row moved in a relaid frame: the row at or
    above the cursor that shows its prompt and (the start of) its command,
    nearest to where it was."""
    want = run.command.strip()
    best: tuple[int, int] | None = None
    editing = prompt_row(f)
    for y in range(min(f.cursor[1], len(f.lines) - 1) + 1):
        row = f.lines[y]  # (rows come right-trimmed: an idle prompt lacks its last space)
        if not row.startswith(run.prompt.rstrip()):
            continue
        rest = _cut_rprompt(row, run.rprompt)[len(run.prompt.rstrip()):].strip()
        # the line the editor is on may hold more than the run had shown: what was
        # typed after the resize, when no frame came between (no pauses)
        if rest != want and not (rest and want.startswith(rest)) and not (y == editing and rest.startswith(want)):
            continue
        d = run.prompt_abs - (base + y)  # type: ignore[operator]
        if best is None or abs(d) < best[0]:
            best = (abs(d), d)
    return best[1] if best else 0


def _accepted(frame: Frame) -> tuple[str, str] | None:
    """(prompt, command) of a frame taken as the line editor accepted a line:
    the cursor is at the start of the row below it, the prompt row is the
    first of the rows the command soft-wrapped over."""
    x, y = frame.cursor
    if x != 0 or y < 1 or y - 1 >= len(frame.lines):
        return None
    top = prompt_row(frame)
    lead = _painted_lead(frame, top, frame.lines[top])
    if _prompt_match(frame.lines[top][lead:]) is None:
        return None
    # the rows the line wrapped over are full: pad them back (a space at the edge was trimmed)
    line = "".join(frame.lines[j].ljust(frame.columns) for j in range(top, y - 1)) + frame.lines[y - 1]
    m = _prompt_match(line[lead:])
    if m is None:
        return None
    return line[:lead] + m.group("prompt"), m.group("typed").rstrip()


def _absolute(frames: list[Frame]) -> list[int]:
    """Per frame: how many lines had scrolled into history by its end (rows a
    taller screen had brought back from history count again as they leave:
    the open run's row was moved down for them, `find_runs`)."""
    out, total = [], 0
    for f in frames:
        total += len(f.scrolled) + f.returned
        out.append(total)
    return out


def find_runs(frames: list[Frame], hist: list[int] | None = None, learned: Learned | None = None) -> list[Run]:
    """Runs at each new prompt row. `hist` (per frame, see `_absolute`) is
    corrected in place where the screen was laid out again (`_relaid`): the
    open run's prompt row keeps its absolute position, so a prompt redrawn
    after a resize is not a new run and the rows after it line up.
    `learned`: a prompt shape found in the recording (`learn_prompt`)."""
    hist = hist if hist is not None else _absolute(frames)
    runs: list[Run] = []
    accepted: list[tuple[int, int]] = []  # (frame, absolute row) of each line a line editor accepted
    marks = False  # an earlier run's line shows an accept (`_marks_accepts`); once so, always so
    reads = False  # the shell's first prompt was drawn with bracketed paste on (`Frame.reading`)
    for k, f in enumerate(frames):
        if k > 0 and runs and runs[-1].prompt_abs is not None and _relaid(frames[k - 1], f):
            d = _anchor_shift(f, hist[k], runs[-1])
            if d:
                for j in range(k, len(hist)):
                    hist[j] += d
        accepted += [(k, hist[k] + y - (1 if x == 0 else 0)) for x, y in f.accepted]
        marks = marks or _marks_accepts(runs, accepted)
        _plain_prompts(f, k, hist[k], runs, marks)
        if reads and marks and not f.reading and not f.alternate:
            # a shell that marks its accepts (bash, zsh) and drew its first prompt with
            # bracketed paste on turns it on again before it reads the next line: until
            # then the command runs, and a row of its output that looks like a prompt with
            # the cursor after it (a `\r` progress line, `syncing 100% [===]`, caught by
            # a pause) opens no run
            continue
        si = None
        over = None
        if learned is None or not _opens_learned(f, learned):
            si = shell_input(f)
            if si is None and k > 0:
                over = _over_stale(frames[k - 1], hist[k - 1], f, hist[k])
                si = shell_input(over) if over is not None else None
        if si is None and learned is not None:
            last = runs[-1] if runs else None
            same = last is not None and last.prompt_abs == hist[k] + prompt_row(f)
            seen = tuple(dict.fromkeys(_unprefixed(r.prompt) for r in reversed(runs)
                                       if r.prompt_abs is not None and r.prompt))
            si = _learned_input(f, learned, last.prompt if same and last else None, seen)
        if si is not None and _below_accepted(f) and k > 0 and _drew_below(frames[k - 1], hist[k - 1], f, hist[k]):
            si = None
        if si is None:
            continue
        row_abs = hist[k] + prompt_row(f)
        if runs and runs[-1].prompt_abs == row_abs:
            if si[0] == runs[-1].prompt:
                runs[-1].command = si[1]
                # the latest right prompt: zsh draws it anew on a resize (`%*` shows a new time)
                runs[-1].rprompt = _rprompt(f) or runs[-1].rprompt
            continue
        marks = marks or _marks_accepts(runs, accepted)
        _skipped_prompts(f, k, hist[k], runs, si[0], row_abs, accepted, marks)
        if not any(r.prompt_abs is not None for r in runs):
            reads = f.reading
        if not runs and k > 0:
            runs.append(Run(0, None))
        runs.append(Run(k, row_abs, si[0], si[1], rprompt=_rprompt(f), over_stale=over is not None))
    for i, r in enumerate(runs):
        r.end = runs[i + 1].start if i + 1 < len(runs) else len(frames)
        if r.prompt_abs is not None:
            r.command = _submitted(frames, hist, r) or r.command
    _mark_heads(frames, hist, runs)
    _mark_missing_newline(frames, hist, runs)
    return runs


#: fish's mark of output that did not end its last line (`⏎`, then spaces to the
#: right edge), drawn before the prompt on a row of its own
_MISSING_NEWLINE = "⏎"


def _over_stale(prev: Frame, prev_base: int, f: Frame, base: int) -> Frame | None:
    """The frame with its cursor's row cut at the cursor, when the shell wrote
    left of the cursor and the row holds from there on, cell for cell, what it
    held the frame before: a prompt drawn over rows nobody erased (bash over
    the main screen a stopped agent left, Enter on such a row writes nothing
    past the typed line). What lies right of the cursor is then no part of
    the line the shell reads. None when the row's end changed too, or the
    text left of the cursor did not (the cursor moved back into a line)."""
    if f.alternate or prev.alternate or prev.columns != f.columns:
        return None
    x, y = f.cursor
    if y >= len(f.lines) or not f.lines[y][x:].strip():
        return None
    py = y + base - prev_base
    if not 0 <= py < len(prev.lines):
        return None
    row, was = f.lines[y], prev.lines[py]
    if was[x:] != row[x:] or was.ljust(x)[:x] == row.ljust(x)[:x]:
        return None
    return _cut_at(f, (x, y))


def _mark_missing_newline(frames: list[Frame], hist: list[int], runs: list[Run]) -> None:
    """A row holding nothing but fish's `⏎` right above a prompt is the shell's
    drawing, not the last row of what ran before (an agent's last answer, a
    command's output): the prompt starts there."""
    for r in runs:
        top = _top(r)
        if top is None or top < 1:
            continue
        t = _row_at(frames[r.start], hist[r.start], top - 1)
        if t is not None and t.strip() == _MISSING_NEWLINE:
            r.marked = 1


def _drew_below(prev: Frame, prev_base: int, f: Frame, base: int) -> bool:
    """The frame before an accept had its cursor below the line read as
    accepted: a shell echoes what is typed at its prompt and accepts it there,
    the cursor never below it; an inline agent's own bracketed-paste-off (Kimi
    as it runs a Shell call, its cursor in its input box below) leaves its rows
    above the cursor, such as `• Used Shell (… ~/kiosk$ exit …)`, no prompt."""
    if prev.alternate or f.alternate or prev.columns != f.columns or prev.reason == "resize":
        return False
    return prev_base + prev.cursor[1] > base + f.cursor[1] - 1


def _skipped_prompts(f: Frame, k: int, base: int, runs: list[Run], prompt: str, row_abs: int,
                     accepted: list[tuple[int, int]], marks: bool) -> None:
    """Runs for prompt rows no frame waited at, above a new prompt row: with no
    pauses the next prompt (and what is typed there) comes in the same frame as
    the line before it was accepted, and a line editor that draws a suggestion
    after the cursor (fish's autosuggestion) shows no frame idle at it either.
    A row between the last run's row and the new one that opens with the very
    same prompt (a user, host or directory in it, not a bare `$ `) is a prompt
    the shell drew: its run opens there, in order.

    A line editor that turns bracketed paste off as it accepts a line (bash,
    zsh) gives a frame at each accepted line, whatever the pauses
    (`Frame.accepted`, known also where no frame of its own was taken, as
    with no input events after a pause before Enter; here: frame, absolute
    row of the line's end). When an earlier run's line shows one, the shell
    marks its lines so, and a row it drew as a prompt shows one too: a row
    that opens with the prompt but whose line no accept came from is what a
    command printed (`cat` of a saved session: `pier proj % codex`), not a
    prompt."""
    if len(prompt.strip()) < 3 or f.alternate:
        return
    last_run = next((r for r in reversed(runs) if r.prompt_abs is not None), None)
    last = last_run.prompt_abs if last_run is not None else -1
    ends = [a for j, a in accepted if last_run is not None and j >= last_run.start]
    rows = []
    for y in range(max(0, last + 1 - base), min(row_abs - base, len(f.lines))):
        if y > 0 and _continues(f, y - 1):
            continue
        if f.lines[y].startswith(prompt):
            rows.append(y)
    for n, y in enumerate(rows):
        row = f.lines[y]
        if marks:
            stop = min(base + y + MAX_EDIT_ROWS, row_abs, base + rows[n + 1] if n + 1 < len(rows) else row_abs)
            if not any(base + y <= a < stop for a in ends):
                continue
        rp = _row_rprompt(row, f.columns)
        if not runs and k > 0:
            runs.append(Run(0, None))
        runs.append(Run(k, base + y, prompt, _cut_rprompt(row, rp)[len(prompt):].rstrip(), rprompt=rp))


def _marks_accepts(runs: list[Run], accepted: list[tuple[int, int]]) -> bool:
    """An earlier run's line shows an accept (`Frame.accepted`): the shell is
    one that turns bracketed paste off as it accepts a line (bash, zsh)."""
    return any(j >= r.start and r.prompt_abs <= a < r.prompt_abs + MAX_EDIT_ROWS
               for r in runs if r.prompt_abs is not None for j, a in accepted)


def _plain_prompts(f: Frame, k: int, base: int, runs: list[Run], marks: bool) -> None:
    """Runs for prompt rows no frame waited at: a shell with no line editor
    (dash, sh) writes its prompt, the echo of what is typed and the command's
    output as plain text, with no control sequence, so without pauses no
    frame is taken at its prompt. The rows written as plain text above the
    cursor (`Frame.teletype_from`) that start with the same prompt as a later
    row of that text (the shell drew it again) or as a run's are prompt rows,
    each opening a run, in order, below the last run's row. A shell that
    marks its accepted lines (`marks`, see `_marks_accepts`: bash, zsh) writes no prompt as
    plain text after a command's output: there a printed row that opens with
    the prompt (`printf 'dev@lantern:~/kiosk$ kimi\\n'`) is output."""
    if f.alternate or f.teletype_from is None or marks:
        return
    x0, y0 = f.teletype_from
    cy = min(f.cursor[1], len(f.lines) - 1)
    last = next((r.prompt_abs for r in reversed(runs) if r.prompt_abs is not None), -1)
    found: list[tuple[int, str, str]] = []
    for y in range(max(y0, 0), cy + 1):
        if (y == y0 and x0 != 0) or (y > 0 and _continues(f, y - 1)):
            continue
        row = f.lines[y]
        lead = _painted_lead(f, y, row)
        m = _prompt_match(row[lead:]) if row.strip() else None
        if m is None and y == cy and row.strip():
            m = _prompt_match(row[lead:] + " ")  # the idle prompt the cursor waits at (trimmed)
        if m is not None:
            found.append((y, row[:lead] + m.group("prompt"), m.group("typed").rstrip()))
    known = {r.prompt for r in runs if r.prompt_abs is not None}
    counts: dict[str, int] = {}
    for _, p, _ in found:
        counts[p] = counts.get(p, 0) + 1
    for y, p, typed in found:
        if y >= f.cursor[1] or base + y <= last or (counts[p] < 2 and p not in known):
            continue
        if not runs and k > 0:
            runs.append(Run(0, None))
        runs.append(Run(k, base + y, p, typed))
        last = base + y


def _row_at(frame: Frame, base: int, a: int) -> str | None:
    """The text of absolute row `a` in a frame (visible or scrolled in it), if it holds it."""
    if 0 <= a - base < len(frame.lines):
        return frame.lines[a - base]
    first = base - len(frame.scrolled)
    if 0 <= a - first < len(frame.scrolled):
        return frame.scrolled[a - first]
    return None


def _mark_heads(frames: list[Frame], hist: list[int], runs: list[Run]) -> None:
    """Find a multi-line prompt's rows above the input row (`dev@box ~/p (main)`
    above `❯ `; a status line a PROMPT_COMMAND prints above that).

    Structure: the row right above the input row starts with the same word at
    (nearly) every prompt of the recording, the first one included, and is no
    earlier prompt's row; the row above that one likewise, and so on.
    Command output above a prompt differs from command to command; a PS1's
    first line repeats (user, host, directory). Without it, that row would sit
    in the agent's stretch after it exits and join its last turn."""
    prompted = [r for r in runs if r.prompt_abs is not None]
    if len(prompted) < 2:
        return
    rows = {r.prompt_abs for r in prompted}
    for depth in range(1, MAX_HEAD + 1):
        above: list[tuple[Run, str]] = []
        for r in prompted:
            if len(r.head) != depth - 1:
                continue
            a = r.prompt_abs - depth  # type: ignore[operator]
            t = _row_at(frames[r.start], hist[r.start], a) if a >= 0 and a not in rows else None
            if t and t.strip():
                above.append((r, t.rstrip()))
        words: dict[str, int] = {}
        for _, t in above:
            w = t.split()[0]
            words[w] = words.get(w, 0) + 1
        if not words:
            return
        word, n = max(words.items(), key=lambda kv: kv[1])
        if n < 2 or 3 * n < 2 * len(prompted):
            return
        # the first prompt shows it too: above it nothing but the shell has drawn yet (a
        # one-line prompt on a fresh screen sits on the top row, with nothing above)
        if not above or above[0][0] is not prompted[0] or above[0][1].split()[0] != word:
            return
        for r, t in above:
            if t.split()[0] == word:
                r.head.insert(0, t)


def _stale_from(line: str, base: str, x: int) -> int | None:
    """The column from which a prompt row still holds what was on it before
    the shell drew its prompt there: an agent stopped inline (Gemini) leaves
    its footer on the rows, and bash writes its prompt and the typed line
    over it without erasing the rest. Right of the cursor, cell for cell as
    when the prompt was drawn, and not blank: the shell never wrote it.
    A suggestion the shell draws (fish) is new text there, so it is kept."""
    tail = line[x:]
    if tail.strip() and tail == base[x:]:
        return x
    return None


def _typed_over(frames: list[Frame], hist: list[int], run: Run) -> tuple[str | None, int | None]:
    """The prompt row as the shell first drew it (cursor on it), and where
    stale text begins on it in the last frame it was typed in, from the
    frames before the run (a run starts where its line was accepted)."""
    first: str | None = None
    typing: tuple[str, int] | None = None
    # a run opened over stale text (`_over_stale`) opened on the prompt as first drawn
    for k in range(run.start if run.over_stale else run.start - 1, -1, -1):
        f = frames[k]
        y = run.prompt_abs - hist[k]  # type: ignore[operator]
        if f.alternate or not (0 <= y < len(f.lines)) or not f.lines[y].startswith(run.prompt) \
                or f.cursor[1] != y:
            break
        line = _cut_rprompt(f.lines[y], run.rprompt) if run.rprompt else f.lines[y]
        first = line
        run.stale_below = tuple(f.lines[y + 1:])
        typing = typing or (line, f.cursor[0])
    if first is None or typing is None:
        return None, None
    return first, _stale_from(typing[0], first, typing[1])


def _submitted(frames: list[Frame], hist: list[int], run: Run) -> str | None:
    """The full command line on the run's prompt row once Enter was pressed."""
    best = None
    typed = ""  # the text left of the cursor on the last frame the line was typed in
    base, cut = _typed_over(frames, hist, run)
    for k in range(run.start, min(run.end + 1, len(frames))):
        f = frames[k]
        if f.alternate:
            break
        y = run.prompt_abs - hist[k]  # type: ignore[operator]
        last = y
        if 0 <= y < len(f.lines) and f.lines[y].startswith(run.prompt):
            if run.rprompt:
                # the right prompt is no part of the command, nor a row filled to the edge
                lines = list(f.lines)
                lines[y] = _cut_rprompt(lines[y], run.rprompt)
                f = replace(f, lines=lines)
            if base is not None and f.cursor[1] == y:
                cut = _stale_from(f.lines[y], base, f.cursor[0])
            # what the shell never wrote goes, with the rows it ran on to (the typed
            # line ended before it, on this row)
            stale = cut is not None and f.lines[y][cut:] == base[cut:]  # type: ignore[index]
            if cut is not None and not stale and f.cursor[1] != y:
                # the last keys came with Enter, in one frame: the typed line ends further
                # on, where the row is again what the shell never wrote
                c = next((c for c in range(cut + 1, len(base)) if base[c:].strip()  # type: ignore[arg-type]
                          and f.lines[y][c:] == base[c:]), None)  # type: ignore[index]
                if c is not None:
                    cut, stale = c, True
            run.stale_at = cut if stale else None
            if stale:
                lines = list(f.lines)
                lines[y] = lines[y][:cut]
                f = replace(f, lines=lines)
            text = f.lines[y][len(run.prompt):]
            # a command longer than the row goes on in the rows it wrapped onto: the
            # terminal's wrap flag, or (zsh moves the cursor itself) a full row with the
            # cursor still typing below it (full but for a space at the edge, trimmed)
            while not stale and last + 1 < len(f.lines) and (_continues(f, last) or (
                    len(f.lines[last]) >= f.columns - 1 and f.cursor[1] > last)):
                last += 1
                # a wrapped row is full: a space at its edge was trimmed from the text
                text = (run.prompt + text).ljust(f.columns * (last - y))[len(run.prompt):] + f.lines[last]
            if not y <= f.cursor[1] <= last:
                # Enter (or Ctrl-C) was pressed: rows joined by width alone may be output;
                # the rows the terminal wrapped are the line, kept when they extend what
                # was seen typed (a `^C` echoed at its end)
                j, line = y, f.lines[y][len(run.prompt):]
                while not stale and _continues(f, j) and j + 1 < len(f.lines):
                    j += 1
                    line = (run.prompt + line).ljust(f.columns * (j - y))[len(run.prompt):] + f.lines[j]
                ln = line.strip()
                if best is None or ln.startswith(best):
                    best = ln
                elif ln and (best.startswith(ln) or (typed and ln.startswith(typed))) and \
                        len(f.lines[j].rstrip()) < f.columns - 1:
                    # what showed after the cursor while typing was a suggestion the shell
                    # drew (fish, zsh-autosuggestions): Enter drops it, the row ends early,
                    # or holds what was typed after that frame over it (`f` + `actor`
                    # suggested, then `g` typed: `fg`)
                    best = ln
                break
            best = text.strip()
            typed = _upto_cursor(f.lines[y], f.cursor[0])[len(run.prompt):].strip() \
                if f.cursor[1] == y else ""
        if not y <= f.cursor[1] <= last:
            break
    return best


def _upto_cursor(row: str, x: int) -> str:
    """The text of a row left of column x (a wide character is two columns)."""
    w = 0
    for i, ch in enumerate(row):
        if w >= x:
            return row[:i]
        w += max(wcwidth(ch), 0)
    return row


def _continues(frame: Frame, y: int) -> bool:
    """Row y's text goes on in row y+1: autowrap carried it (the terminal's own
    flag; a row that merely fills the width, like a box's bottom border, does not)."""
    flags = getattr(frame, "row_wrapped", None)
    return bool(flags) and 0 <= y < len(flags) and bool(flags[y])


def _new_text(frames: list[Frame], hist: list[int], run: Run, next_top: int | None = None) -> list[str]:
    """What the run drew itself: rows below its prompt row, and the alternate screen.
    The next prompt's frame counts too, above that prompt (`next_top`): without
    pauses (a raw log, a fast replay) the agent's whole drawing and the next
    prompt arrive in one frame, the only frame the run has."""
    out: list[str] = []
    top = run.prompt_abs if run.prompt_abs is not None else -1
    stop = min(run.end, run.start + DETECT_FRAMES)
    if next_top is not None and run.end < len(frames) and stop == run.end:
        stop += 1
    for k in range(run.start, stop):
        f = frames[k]
        if f.alternate:
            out.extend(f.lines)
            continue
        base = hist[k]
        first = base - len(f.scrolled)
        below = (lambda a: a > top and (k < run.end or next_top is None or a < next_top))
        out.extend(t for i, t in enumerate(f.scrolled) if below(first + i))
        out.extend(t for y, t in enumerate(f.lines) if below(base + y))
    return out


MIN_AGENT_ROWS = 5  # a named agent that drew fewer rows, no signature and no alternate screen did not start


def typed_agent(command: str) -> str | None:
    """The agent a command line typed at the prompt runs: its executable word
    (after `VAR=value` settings, wrappers and their options), never an argument
    (`man codex`, `cat claude.md` run no agent)."""
    exe = _executable(registry.command_words(command))
    return registry.from_command(os.path.basename(exe)) if exe else None


#: a shell's job-control word that brings a stopped job back to the terminal (`fg`,
#: `fg %1`, bash's and zsh's bare `%1`): the agent suspended with Ctrl+Z resumes
JOB_RESUME = regex.compile(r"^(?:fg(?:\s+%?\S*)?|%\S*)$")


def classify(frames: list[Frame], runs: list[Run], hist: list[int] | None = None) -> None:
    hist = hist if hist is not None else _absolute(frames)
    last_job: str | None = None  # the agent of the latest run `fg` may bring back
    for i, r in enumerate(runs):
        if r.prompt_abs is None:
            continue
        new = _new_text(frames, hist, r, _top(runs[i + 1]) if i + 1 < len(runs) else None)
        seen = registry.from_screen(new)
        named = typed_agent(r.command) if r.command else None
        if (named is None) != (seen is None) and _printed(frames, r):
            # `codex --help` (named, no banner), or `cat` of a saved session showing an
            # agent's banner (not named): a command's output. Named and shown is an agent
            # whatever the frames: a log with no pauses may hold its whole drawing in one
            seen = named = None
        if named is None and last_job and JOB_RESUME.match(r.command.strip()):
            # a job brought back (Ctrl+Z stopped it): an agent redraws only its input box and
            # footer, with no banner to know it by; the latest agent run is the job, unless a
            # full-screen program ran since
            named = last_job
            r.resumed = True
        if named and named != seen:
            # `codex` that printed "command not found" is a shell command
            alt = any(frames[k].alternate for k in range(r.start, r.end))
            if not alt and sum(1 for t in new if t.strip()) < MIN_AGENT_ROWS:
                named = None
        r.agent = named or seen
        r.resumed = r.resumed and r.agent == named
        if r.agent:
            last_job = r.agent
        elif any(frames[k].alternate for k in range(r.start, r.end)):
            last_job = None  # a full-screen program run since (vim, less) is the job `fg` brings back


def _printed(frames: list[Frame], run: Run) -> bool:
    """The run only printed: every frame of it after its first left the screen as
    it was or wrote at or after the cursor the frame before left (`_teletype`),
    on the main screen, and one at least wrote. An agent, even one drawn inline,
    redraws above its cursor (its input box, a spinner, an answer streaming).
    The next prompt's frame counts too: without pauses a command's output and
    the next prompt arrive in one frame (see `_new_text`). What came before the
    line editor accepted the command line (a resize at the prompt, the prompt
    drawn again) is the shell's editing, not the command's output; so are the
    frames still waiting at the prompt when the shell marks no accept (fish), and
    an accept seen after the command started is an agent's own input (Codex
    turns bracketed paste on and off as its prompt box does)."""
    wrote = False
    first = run.start + 1
    acc = next((k for k in range(run.start, min(run.end, len(frames)))
                if frames[k].accepted and _accepts(frames[k], run)), None)
    if acc is not None:
        first = acc + 1
    else:
        for k in range(run.start, min(run.end, len(frames))):
            if shell_input(frames[k]) is None and not frames[k].marks:
                break
            first = k + 1  # still at the prompt: the line typed, the window resized (fish marks no accept)
    for k in range(first, min(run.end + 1, len(frames))):
        prev, cur = frames[k - 1], frames[k]
        if cur.alternate:
            return False
        now = _moved_up(prev, cur)
        if not cur.marks and (cur.columns, cur.rows) == (prev.columns, prev.rows) and \
                now == prev.lines + [""] * (len(now) - len(prev.lines)):
            continue  # only the cursor moved (the line accepted: a newline, a scroll)
        if not _teletype(prev, cur):
            return False
        wrote = True
    return wrote


def _accepts(frame: Frame, run: Run) -> bool:
    """The line a frame's editor accepted is the run's command line (its prompt
    opens it), not a line an agent's own editor took (Codex turns bracketed
    paste on and off as its composer does)."""
    top = prompt_row(frame)
    return 0 <= top < len(frame.lines) and bool(run.prompt.strip()) and \
        frame.lines[top].startswith(run.prompt.rstrip())


def _blank_outside(frame: Frame, base: int, lo: int | None, hi: int | None) -> Frame:
    """The frame with rows at absolute positions <= lo or >= hi made blank."""
    if frame.alternate:
        return frame
    first = base - len(frame.scrolled)
    if lo is not None:
        # the rows the terminal wrapped the last shell row onto (a prompt row with its
        # right prompt at the edge, reflowed when the window narrowed) are the shell's too
        row_wrapped = getattr(frame, "row_wrapped", None) or []
        wrapped = getattr(frame, "wrapped", None) or []
        while True:
            y, i = lo - base, lo - first
            if 0 <= y < len(frame.lines):
                more = y < len(row_wrapped) and bool(row_wrapped[y])
            elif 0 <= i < len(frame.scrolled):
                more = len(wrapped) == len(frame.scrolled) and bool(wrapped[i])
            else:
                more = False
            if not more:
                break
            lo += 1
    # rows sit at first .. base + len(lines) - 1 (scrolled lines, then the screen's):
    # when the lowest and the highest are kept, every one is
    if (lo is None or first > lo) and (hi is None or base + len(frame.lines) - 1 < hi):
        return frame
    keep = (lambda a: (lo is None or a > lo) and (hi is None or a < hi))
    kept = [i for i in range(len(frame.scrolled)) if keep(first + i)]
    rows = [keep(base + y) for y in range(len(frame.lines))]
    if all(rows) and len(kept) == len(frame.scrolled):
        return frame
    lines = [t if ok else "" for t, ok in zip(frame.lines, rows)]
    while lines and not lines[-1]:
        lines.pop()
    cells = [c if (y < len(rows) and rows[y]) else None for y, c in enumerate(frame.cells)]
    changes: dict = {"lines": lines, "cells": cells, "scrolled": [frame.scrolled[i] for i in kept],
                     "_styles": None}
    # per-scrolled-line data (layout width, soft wrap, the rows with their styles) kept
    # aligned with `scrolled`
    for name in ("widths", "wrapped", "scrolled_lines"):
        per_line = getattr(frame, name, None)
        if per_line and len(per_line) == len(frame.scrolled):
            changes[name] = [per_line[i] for i in kept]
    # a blanked row carries nothing on to the next one
    row_wrapped = getattr(frame, "row_wrapped", None)
    if row_wrapped:
        changes["row_wrapped"] = [w and (y < len(rows) and rows[y]) for y, w in enumerate(row_wrapped)]
    marks = getattr(frame, "marks", None)
    if marks:
        changes["marks"] = [(sum(1 for i in kept if i < off), why) for off, why in marks]
    return replace(frame, **changes)


def _top(run: Run) -> int | None:
    """The absolute row where a run's prompt starts (its head rows included)."""
    return None if run.prompt_abs is None else run.prompt_abs - len(run.head) - run.marked


def _moved_up(prev: Frame, cur: Frame) -> list[str]:
    """`cur`'s rows in `prev`'s row numbers: the lines that left the top since
    (rows a taller screen had brought back from history first, as `prev` showed
    them: they leave unchanged and are not in `scrolled`), then the rows."""
    return prev.lines[:cur.returned] + cur.scrolled + cur.lines


def _teletype(prev: Frame, cur: Frame) -> bool:
    """`cur` only wrote at or after the cursor `prev` left, as plain output does
    (a shell's `Killed`, what the next command of a list prints): nothing
    before that cursor changed. Lines that scrolled off count as the rows they
    were. An agent redraws above its cursor (answer, spinner) or moves it."""
    if prev.alternate or cur.alternate or cur.marks or (prev.columns, prev.rows) != (cur.columns, cur.rows):
        return False
    px, py = prev.cursor
    now = _moved_up(prev, cur)
    before = prev.lines
    if py >= len(before) + 1 or len(now) <= py:
        return False
    if any((now[a] if a < len(now) else "") != before[a] for a in range(min(py, len(before)))):
        return False
    old_row = before[py] if py < len(before) else ""
    if now[py][:px].rstrip() != old_row[:px].rstrip():  # rows come right-trimmed (of NBSP too)
        return False
    if cur.cursor == (0, py + 1) and now[py:] == before[py:] + [""] * max(0, len(now) - len(before)):
        return True  # a CR LF alone: the line editor accepting its line over rows it never wrote
    return now[py:] != before[py:] + [""] * max(0, len(now) - len(before))


def _resumed(frames: list[Frame], run: Run, stop: int) -> int | None:
    """The frame where the shell took the terminal back after agent run `run`:
    the last one taken as a line editor turned bracketed paste on after plain
    output (`Frame.teletype_from`), when every later frame of the run (the
    prompt being drawn) only wrote at or after its cursor; else, for a line
    editor that turns it on only after drawing its prompt (zsh), the frame that
    ends the first plain text after the agent left the alternate screen, on the
    same condition; else, for a shell with no bracketed paste (dash), the frame
    its prompt came back in when the prompt ends plain text that began above
    the prompt's row. All are placed by the bytes' order, so pauses, or none
    (a raw log), never move them."""
    for k in range(stop - 1, run.start, -1):
        f = frames[k]
        if f.reason == "resume" and f.teletype_from is not None:
            if all(_teletype(frames[j - 1], frames[j]) for j in range(k + 1, stop)):
                return k
            return None
    # a line editor that turns bracketed paste on only once its prompt is drawn (zsh:
    # `zsh: suspended  codex`, then its end-of-line mark and prompt, each led by a
    # control sequence): the "plain" frame that ends the first plain text written
    # after the agent left the alternate screen
    first = None
    for k in range(stop - 1, run.start, -1):
        f = frames[k]
        if f.alternate:
            break
        if f.teletype_from is not None:
            first = k if f.reason == "plain" else None
    else:
        first = None
    if first is not None and all(_teletype(frames[j - 1], frames[j]) for j in range(first + 1, stop)):
        return first
    k = stop - 1
    f = frames[k]
    if k > run.start and f.teletype_from is not None and f.teletype_from[1] < prompt_row(f) and not f.alternate:
        return k
    return None


def after_exit(frames: list[Frame], runs: list[Run], i: int,
               hist: list[int] | None = None) -> tuple[int, int, Frame, tuple[int, int]] | None:
    """What was printed after agent run i ended, before the shell's next prompt:
    (the first frame showing any of it, the frame showing all of it, the
    agent's last screen, where the text began on that frame's screen). The
    shell's own return (`_resumed`) places it; the first frame is the earliest
    whose plain text began at that same place, however the pauses fell. None
    when there is no such tail (the agent's own last drawing ended in a
    control sequence, or the shell shows no point of return)."""
    hist = hist if hist is not None else _absolute(frames)
    r = runs[i]
    if i + 1 >= len(runs):
        return None
    stop = min(r.end + 1, len(frames))
    k = _resumed(frames, r, stop)
    if k is None:
        return None
    f = frames[k]
    x, y = f.teletype_from  # type: ignore[misc]
    first = k
    while first - 1 > r.start:
        g = frames[first - 1]
        if g.teletype_from is None or g.alternate or (g.teletype_from[0], hist[first - 1] + g.teletype_from[1]) != (x, hist[k] + y):
            break
        first -= 1
    return first, k, _cut_at(f, (x, y)), (x, y)


def _cut_at(frame: Frame, at: tuple[int, int]) -> Frame:
    """The frame as it was before text was written from cell `at` on: that
    row cut there, the rows below blank."""
    x, y = at
    lines, cells = list(frame.lines), list(frame.cells)
    for j in range(max(0, y), len(lines)):
        keep = x if j == y else 0
        if j < len(cells) and cells[j] is not None:
            row = cells[j][:keep]  # type: ignore[index]
            lines[j] = "".join(c.data for c in row).rstrip()
            cells[j] = (tuple(row) + (Char(" "),) * (len(cells[j]) - keep)) if keep else None  # type: ignore[arg-type]
        else:
            lines[j] = lines[j][:keep].rstrip() if keep else ""
    while lines and not lines[-1]:
        lines.pop()
    rw = list(frame.row_wrapped)
    for j in range(max(0, y), len(rw)):
        rw[j] = False
    return replace(frame, lines=lines, cells=cells, row_wrapped=rw, _styles=None)


def after_exit_text(frames: list[Frame], runs: list[Run], i: int, hist: list[int] | None = None) -> str:
    """The text printed after agent run i ended (a job message such as `Killed`,
    the rest of a command list, the agent's goodbye once its screen is gone),
    up to the next prompt: none of the agent's turns."""
    hist = hist if hist is not None else _absolute(frames)
    got = after_exit(frames, runs, i, hist)
    if got is None:
        return ""
    _, k, _, (x, y) = got
    f = frames[k]
    hi = _top(runs[i + 1])
    lo = runs[i].prompt_abs
    text = ""
    for j in range(max(y, 0), len(f.lines)):
        if hi is not None and hist[k] + j >= hi:
            break
        if lo is not None and hist[k] + j <= lo:
            continue  # the run's prompt row, where the agent left the cursor (the text began with CR LF)
        row = _cells_from(f, j, x) if j == y else f.lines[j]
        # a row autowrap carried on is one line with the next (full: pad a trimmed space back)
        text += row.ljust(f.columns - (x if j == y else 0)) if _continues(f, j) else row.rstrip() + "\n"
    return text.strip("\n")


def _cells_from(frame: Frame, y: int, x: int) -> str:
    """Row y's text from cell x on (wide characters take two cells)."""
    if 0 <= y < len(frame.cells) and frame.cells[y] is not None:
        return "".join(c.data for c in frame.cells[y][x:])
    return frame.lines[y][x:] if 0 <= y < len(frame.lines) else ""


def agent_frames(frames: list[Frame], runs: list[Run], i: int, hist: list[int] | None = None,
                 notice: list[str] | None = None) -> list[Frame]:
    """Run i's frames with the shell's rows blanked; the next prompt's frame
    is included (it may hold the agent's last output) with its prompt row gone.
    What was printed after the agent ended (`after_exit`) is not the agent's:
    from the first frame showing any of it on, the agent sees its last screen
    instead (that text is a shell turn of its own, `after_exit_text`). The
    rows of a resumed run's `resume_notice` (given, or read here) are the
    shell's too."""
    hist = hist if hist is not None else _absolute(frames)
    r = runs[i]
    hi = _top(runs[i + 1]) if i + 1 < len(runs) else None
    stop = min(r.end + 1, len(frames)) if hi is not None else r.end
    got = after_exit(frames, runs, i, hist) if hi is not None else None
    lo = r.prompt_abs
    if r.prompt_abs is not None and r.resumed:
        lo += len(notice if notice is not None else resume_notice(frames, r, hist))
    # An agent that wipes its screen in place (an inline `/clear`: the cursor home,
    # each row erased) frees the rows below its new drawing: the shell's next prompt
    # may come back on a row that held the agent's text before the wipe. Frames
    # before the run's last wipe were all drawn before any of the shell's rows: only
    # the frames from it on end above the next prompt.
    wiped = max((k for k in range(r.start, stop) if frames[k].marks and not frames[k].alternate
                 and any(why == "clear" for _o, why in frames[k].marks)), default=r.start)

    def below(k: int) -> int | None:
        return hi if k >= wiped else None

    if got is None:
        return [_blank_outside(frames[k], hist[k], lo, below(k)) for k in range(r.start, stop)]
    k0, k1, last, _ = got
    out = [_blank_outside(frames[k], hist[k], lo, below(k)) for k in range(r.start, k0)]
    # the lines that scrolled off up to the full frame, as one step (rows the text pushed
    # up are the agent's: they scrolled before the text began)
    scrolled = [t for k in range(k0, k1 + 1) for t in frames[k].scrolled]
    shown = _blank_outside(replace(last, scrolled=scrolled, widths=[], wrapped=[], marks=[]), hist[k1],
                           lo, hi)
    out.append(replace(shown, index=frames[k0].index, time=frames[k0].time, reason=frames[k0].reason,
                       inputs=[t for k in range(k0, k1 + 1) for t in frames[k].inputs]))
    out += [replace(shown, index=frames[k].index, time=frames[k].time, reason=frames[k].reason, scrolled=[],
                    inputs=frames[k].inputs) for k in range(k1 + 1, stop)]
    return out


def resume_notice(frames: list[Frame], run: Run, hist: list[int]) -> list[str]:
    """What the shell printed as it brought a stopped full-screen agent back
    (fish's `Send job 1 (codex) to foreground`), below the `fg` line: the main
    screen the agent leaves the alternate screen to shows it, the cursor
    right below it where the shell left it (or where the shell's own output
    after the agent stopped again begins). Not the agent's."""
    for k in range(max(run.start, 1), run.end):
        f = frames[k]
        if not frames[k - 1].alternate or f.alternate:
            continue
        y0 = run.prompt_abs - hist[k]  # type: ignore[operator]
        end = f.cursor[1]
        if f.teletype_from is not None and y0 < f.teletype_from[1] < end:
            # the shell printed on after the agent stopped again (bash's `[1]+  Stopped`):
            # that is the shell's return (after_exit_text), not the notice
            end = f.teletype_from[1]
        if not 0 <= y0 < end <= len(f.lines):
            return []
        return [t.rstrip() for t in f.lines[y0 + 1:end]]
    return _inline_notice(frames, run, hist)


def _inline_notice(frames: list[Frame], run: Run, hist: list[int]) -> list[str]:
    """The job's command line bash prints under `fg` for an agent that draws on
    the main screen (Claude Code inline, Codex --no-alt-screen): in the first
    frame after the `fg` line was accepted that shows anything below it,
    plain text (no control sequence) from the start of the row under the
    prompt row down to the cursor at a row's start. An agent that draws
    there first (its repaint, not plain text) leaves no notice."""
    for k in range(run.start + 1, run.end):
        f = frames[k]
        if f.alternate:
            return []
        y0 = run.prompt_abs - hist[k]  # type: ignore[operator]
        if not 0 <= y0 < len(f.lines):
            return []
        if y0 == len(f.lines) - 1 or not f.lines[y0 + 1].strip():
            continue  # nothing below the `fg` line yet
        x, y1 = f.cursor
        if f.teletype_from != (0, y0 + 1) or x != 0 or not y0 + 1 < y1 <= len(f.lines):
            return []
        rows = [t.rstrip() for t in f.lines[y0 + 1:y1]]
        return rows if all(rows) else []
    return []


#: characters (spaces left out) of the part of an answer drawn before a stop
#: that its whole, drawn after `fg`, must begin with (the part's last row may
#: be cut inside a word, or its markup not yet closed)
ANSWER_HEAD = 40
#: characters (spaces left out) at the end of the part drawn before a stop that
#: may differ from the redraw (its last row was being drawn)
ANSWER_TAIL = 12


def _flat(t: Turn) -> str:
    """A turn's text without white space: a stretch drawn again (after `fg`, at
    another width) breaks its rows elsewhere."""
    return "".join(t.text.split())


#: box drawing and block elements: a table's borders and a quote's bar (`▎` on each of its rows),
#: drawn anew at each width
_BOX_DRAWN = regex.compile(r"[\u2500-\u259f\s]+")


def _answer_relaid(a: Turn, b: Turn) -> bool:
    """The same answer laid out at another width: the same characters less
    white space and box drawing, in any order (a box table redrawn at another
    width wraps its cells elsewhere, so rows of two cells interleave anew)."""
    if not a.role == b.role == "assistant":
        return False
    x, y = _BOX_DRAWN.sub("", a.text), _BOX_DRAWN.sub("", b.text)
    return len(x) == len(y) and bool(x) and sorted(x) == sorted(y)


def _answer_cropped(a: Turn, b: Turn) -> bool:
    """The same answer drawn twice by an agent that crops rows it lays out too
    wide for the screen (Kimi after a width change: `ski haix` / `ol kuplung`
    live, `flylthoos b` / `lmurkveang` in the resumed session's redraw at
    another width): the same words in the same order but for a few the two
    drawings cut differently. Only the next turn in order is compared so."""
    if not a.role == b.role or a.role not in ("assistant", "thinking"):
        return False
    x, y = " ".join(a.text.split()), " ".join(b.text.split())
    if min(len(x), len(y)) < 40:
        return False
    if max(len(x), len(y)) > 4000:  # words, not characters: a long answer costs too much so
        x, y = x.split(), y.split()  # type: ignore[assignment]
    sm = difflib.SequenceMatcher(None, x, y, autojunk=False)
    return sm.quick_ratio() >= 0.9 and sm.ratio() >= 0.9


#: markdown marks a prompt may hold as typed and its echo draws as styles or anew
#: (a list row typed `- ` drawn with a bullet `•`, and the other way round)
_PROMPT_MARKS = str.maketrans("", "", "*`_~-•")


def _prompt_marked(a: Turn, b: Turn) -> bool:
    """The same prompt, one copy as typed (`**bold**`, `` `code` ``: read from
    the input box) and one as echoed (the marks drawn as styles, so gone): a
    resumed session draws its earlier prompts again with no box to read."""
    if not a.role == b.role == "user":
        return False
    x, y = _flat(a).translate(_PROMPT_MARKS), _flat(b).translate(_PROMPT_MARKS)
    return bool(x) and x == y


def _redrawn(prev: list[Turn], new: list[Turn]) -> int:
    """How many leading turns of a resumed agent's stretch repeat the turns it
    showed before it stopped: a full-screen agent redraws its conversation
    when brought back (at the new width, an answer cut at the top); an inline
    one resumed from the shell draws the earlier session again at today's
    width (a box table laid out anew). Counted up to a user turn, in order;
    text compared without its line breaks."""
    done = p = i = 0
    while i < len(new):
        t = new[i]
        q = next((q for q in range(p, len(prev)) if prev[q].role == t.role and (
            _flat(prev[q]) == _flat(t) or (i == 0 and _flat(t) and _flat(prev[q]).endswith(_flat(t)))
            or _answer_relaid(prev[q], t) or _prompt_marked(prev[q], t)
            or (q == p and _answer_cropped(prev[q], t)))), None)
        if q is None:
            if i and t.role in ("system", "tool_call", "tool_result"):
                # a local command the redrawn session ended with (`/exit` and its notice), or
                # its tool calls grouped otherwise than live (Claude Code's `Read 1 file` for
                # what the live view drew as `Read 1 file, ran 1 shell command`): part of the
                # redraw when the prompts and answers around them are
                i += 1
                if i == len(new) or new[i].role == "user":
                    done = i
                continue
            break
        p, i = q + 1, i + 1
        if i == len(new) or new[i].role == "user":
            done = i
    return done


def _without_reprint(prev: list[Turn], new: list[Turn]) -> list[Turn]:
    """A resumed agent that prints its whole conversation again further on
    (Gemini on exit, inline: every turn since the launch, under the last
    one), its stretch read alone: that copy goes. It repeats, in order,
    all the turns the agent gave before (`prev`) and those of this stretch
    before it; an answer the earlier copy had only in part (cut by a stop)
    takes the reprint's whole text."""

    def same(a: Turn, b: Turn) -> bool:
        if a.role == b.role == "tool_result":
            # a call's output is drawn folded to its first rows, and a resize while it
            # ran may leave the live copy with rows of another block: the prompts,
            # answers and calls around it tell the copy
            return True
        x, y = _flat(a), _flat(b)
        return a.role == b.role and bool(x) and bool(y) and (x.startswith(y) or y.startswith(x))

    for j in range(1, len(new)):
        whole = prev + new[:j]
        if len(whole) < 2 or j + len(whole) > len(new):
            break
        if all(same(w, n) for w, n in zip(whole, new[j:j + len(whole)])):
            for w, n in zip(whole, new[j:j + len(whole)]):
                if len(_flat(n)) > len(_flat(w)) and w.role != "user":
                    w.text = n.text
            return new[:j] + new[j + len(whole):]
    # the copy may hold a turn the live view lost (Codex inline, resized right after a
    # prompt was sent: its echo cleared before a frame took it). Then the copy is all of
    # `prev`, then the stretch's turns before it in order, a turn or two more between
    # them: the copy stands for both
    n = len(prev)
    if n < 2 or not any(t.role == "user" for t in prev):
        return new
    for j in range(1, len(new) - n + 1):
        if not all(same(w, x) for w, x in zip(prev, new[j:j + n])):
            continue
        rest, k = new[j + n:], 0
        for x in rest[:2 * j + 2]:
            if k < j and same(new[k], x):
                k += 1
        if k < j:
            break
        for w, x in zip(prev, new[j:j + n]):
            if len(_flat(x)) > len(_flat(w)) and w.role != "user":
                w.text = x.text
        return rest
    return new


def _answer_resumed(prev: list[Turn], new: list[Turn]) -> int | None:
    """An agent stopped while it answered, then brought back: the stretch
    before the stop ends with the prompt and the part of the answer drawn so
    far; the resumed stretch (less what it redraws of the turns before)
    opens with that prompt again and the whole answer, or, when the redraw
    no longer reaches the prompt (a screen shrunk while the agent was
    stopped, Vibe), with the whole answer alone. How many turns at the end
    of `prev` that part is (0: nothing was drawn yet), or None when the
    resumed stretch opens with neither."""
    u = next((k for k in range(len(prev) - 1, -1, -1) if prev[k].role == "user"), None)
    if u is None or not new:
        return None
    if new[0].role == "user":
        if _flat(new[0]) != _flat(prev[u]):
            return None
        first = 1
    else:
        # the prompt is not redrawn: the answer must begin with a part that was drawn
        if u == len(prev) - 1:
            return None
        first = 0
    part = "".join(_flat(t) for t in prev[u + 1:])
    nxt = next((k for k in range(1, len(new)) if new[k].role == "user"), len(new))
    whole = "".join(_flat(t) for t in new[first:nxt])
    if whole.startswith(part[:ANSWER_HEAD]):
        return len(prev) - u - 1
    if first == 1:
        # a call drawn live is summed up otherwise once done (Claude Code's running
        # `Reading 1 file…` is `Read 2 files` after): the prompt came back, and the
        # answer's words begin as the part drawn before the stop began, the calls
        # it had drawn being calls again
        # (a row read as an answer with a call's result right under it is that call's
        # running row: an answer is never followed by a result)
        part_turns = prev[u + 1:]
        run_rows = {k for k in range(len(part_turns) - 1)
                    if part_turns[k].role == "assistant" and part_turns[k + 1].role == "tool_result"}
        said = "".join(_flat(t) for k, t in enumerate(part_turns)
                       if t.role in ("assistant", "thinking") and k not in run_rows)
        again = "".join(_flat(t) for t in new[1:nxt] if t.role in ("assistant", "thinking"))
        called = bool(run_rows) or any(t.role == "tool_call" for t in part_turns)
        if again.startswith(said[:ANSWER_HEAD]) and (not called or any(t.role == "tool_call" for t in new[1:nxt])):
            return len(prev) - u - 1
    if first == 0 and u == len(prev) - 2 and prev[-1].role == new[0].role == "assistant":
        # the redraw is cut at its top inside the part drawn before the stop (a part
        # taller than the screen shrunk while the agent was stopped): the answer is the
        # part up to where the redraw opens, then the redraw
        head = _flat(new[0])[:ANSWER_HEAD]
        at = part.find(head) if len(head) == ANSWER_HEAD else -1
        rest = part[at:] if at > 0 else ""
        if rest and _flat(new[0]).startswith(rest[:max(len(head), len(rest) - ANSWER_TAIL)]):
            new[0].text = _upto_flat(prev[-1].text, at) + new[0].text
            return 1
    return None


def _upto_flat(text: str, n: int) -> str:
    """`text` up to its `n`-th character that is not white space."""
    seen = 0
    for i, ch in enumerate(text):
        if not ch.isspace():
            if seen == n:
                return text[:i]
            seen += 1
    return text


def shell_lines(frames: list[Frame], run: Run, next_abs: int | None, hist: list[int] | None = None) -> list[str]:
    """The rows a shell run wrote (its prompt line first), as last seen."""
    hist = hist if hist is not None else _absolute(frames)
    seen: dict[int, str] = {}
    carried: dict[int, int] = {}  # the row's text goes on in the next row (autowrap): the width it wrapped at
    lo = _top(run) + run.marked if run.prompt_abs is not None else 0  # (fish's `⏎` is no output)
    if next_abs is not None and lo is not None and next_abs <= lo:
        # the screen was cleared (`clear`): the next prompt is higher up; what this run
        # wrote is gone, its prompt line and command stay
        return run.head + [f"{run.prompt}{run.command}".rstrip()]
    # the next prompt's frame too: output and the new prompt often come in one write
    for k in range(run.start, min(run.end + 1, len(frames))):
        f = frames[k]
        if f.alternate:
            continue
        base = hist[k]
        first = base - len(f.scrolled)
        wrapped = f.wrapped if len(f.wrapped) == len(f.scrolled) else [False] * len(f.scrolled)
        widths = f.widths if len(f.widths) == len(f.scrolled) else [f.columns] * len(f.scrolled)
        for i, t in enumerate(f.scrolled):
            seen[first + i] = t
            carried[first + i] = widths[i] if wrapped[i] else 0
        for y, t in enumerate(f.lines):
            seen[base + y] = t
            carried[base + y] = f.columns if _continues(f, y) else 0
    # rows after the last frame may have been filled by the next frame only
    stop = next_abs if next_abs is not None else (max(seen) + 1 if seen else lo)
    out = [seen.get(a, "") for a in range(lo, stop)]
    flags = [carried.get(a, 0) for a in range(lo, stop)]
    while out and not out[-1].strip():
        out.pop()
    width = frames[run.start].columns
    rows = _join_command(out, run, width)
    h = len(run.head)
    if len(rows) != len(out):
        # the command line was joined: its rows' flags go with it
        flags = flags[:h] + [0] + flags[h + 1 + len(out) - len(rows):]
    elif run.stale_at is not None and h < len(rows) and rows[h] == f"{run.prompt}{run.command}".rstrip():
        # a prompt row that held stale text (`_typed_over`): the typed line ended on
        # it, and the rows that text ran on to are stale too while they read as they
        # did when the prompt was drawn (the shell's output may have overwritten them)
        k = h
        while k < len(flags) and flags[k] and k - h < len(run.stale_below) \
                and rows[k + 1] == run.stale_below[k - h]:
            k += 1
        rows, flags = rows[:h + 1] + rows[k + 1:], flags[:h] + [0] + flags[k + 1:]
    return _join_wrapped(rows, flags, run.prompt)


def _join_wrapped(rows: list[str], flags: list[int], prompt: str = "") -> list[str]:
    """Output rows the terminal's autowrap carried on (its own flag, never the
    width alone) as the one line the command printed: `drif` + `t-18` is one
    word. A wrapped row is full: a space trimmed at its edge is padded back.
    A row opening with the shell's prompt starts a line of its own (zsh leaves
    the wrap pending after a right prompt that reaches the edge)."""
    out: list[str] = []
    width = 0  # the width the row before wrapped at; 0: it ended a line
    for i, t in enumerate(rows):
        if width and out and not (prompt.strip() and t.startswith(prompt)):
            n = len(out[-1])
            out[-1] = out[-1].ljust(n + (-n % width)) + t
        else:
            out.append(t)
        width = flags[i] if i < len(flags) and t else 0
    return out


def _join_command(rows: list[str], run: Run, width: int) -> list[str]:
    """The prompt row and the rows its command wrapped onto as one line: a long
    command reads as typed, not cut where the terminal's edge fell."""
    h = len(run.head)
    full = f"{run.prompt}{run.command}".rstrip()
    if h >= len(rows) or not run.command or not rows[h].startswith(run.prompt):
        return rows
    if run.rprompt:
        rows = rows[:h] + [_cut_rprompt(rows[h], run.rprompt)] + rows[h + 1:]
    if run.stale_at is not None and rows[h][:run.stale_at] == full:
        # the rest of the row was there before the prompt (see `shell_lines`)
        return rows[:h] + [full] + rows[h + 1:]
    joined, k = rows[h], h + 1
    while k < len(rows) and joined.rstrip() != full:
        # each row the line wrapped over is full: pad a trimmed space back at every edge
        nxt = joined.ljust(width * (k - h)) + rows[k]
        if not full.startswith(nxt.rstrip()):
            break
        joined, k = nxt, k + 1
    if k == h + 1 or joined.rstrip() != full:
        return rows
    return rows[:h] + [full] + rows[k:]


@dataclass
class Stretch:
    kind: str  # "shell" | "agent"
    agent: str | None
    turns: list[Turn]
    labeled: list[Labeled]


def split(frames: list[Frame], header: CastHeader, forced: str | None = None) -> list[Stretch] | None:
    """The recording as stretches, or None when it is not a shell running agents.

    `forced`: an agent named on the command line. Detection still decides
    which runs are agents; when they all show one agent, the named profile
    reads them (the user overrides a wrong guess); when they show several,
    each run keeps its own, since one profile cannot read another agent.
    """
    if not is_shell_command(header.command) or not frames:
        return None
    hist = _absolute(frames)
    runs = find_runs(frames, hist, learn_prompt(frames))
    if not any(r.prompt_abs is not None for r in runs):
        return None
    classify(frames, runs, hist)
    detected = {r.agent for r in runs if r.agent}
    if not detected:
        return None
    if len(detected) > 1:
        forced = None
    out: list[Stretch] = []
    shown: dict[str, list[Turn]] = {}  # per agent: the turns all its stretches gave, in order
    latest: dict[str, Stretch] = {}  # per agent: its latest stretch
    for i, r in enumerate(runs):
        nxt = _top(runs[i + 1]) if i + 1 < len(runs) else None
        t0 = frames[r.start].time
        if r.agent is None:
            rows = shell_lines(frames, r, nxt, hist)
            text = "\n".join(rows).strip("\n")
            if not text.strip():
                continue
            out.append(Stretch("shell", None, [Turn("system", text, name="shell", time=t0)],
                               [Labeled(TLine(t, t0, "shell", i), "system" if n == 0 else "cont", "shell", t)
                                for n, t in enumerate(rows)]))
            continue
        name = registry.canonical(forced) if forced else r.agent
        profile = registry.load(name or r.agent)
        # (`resumed` is only ever set on a run typed at a prompt)
        notice = resume_notice(frames, r, hist) if r.resumed else []
        key = name or r.agent or ""
        again = key in shown and _resumes_session(profile, r.command)
        if again:
            # a copy: the module's profile is shared (live capture, the MCP server)
            profile = copy.copy(profile)
            profile.prompts_before = tuple(t.text for t in shown[key] if t.role == "user")
        turns, labeled = profile.reconstruct(agent_frames(frames, runs, i, hist, notice), header)
        if again or (key in shown and r.resumed):
            # a job brought back (`fg`), or a launch that resumes a session shown before
            # (`codex resume --last`), prints its turns again first: they come back once,
            # where they were first shown
            turns = turns[_redrawn(shown[key], turns):]
        if r.resumed and key in shown:
            cut = _answer_resumed(latest[key].turns, turns)
            if cut is not None:
                # the answer the agent was stopped in comes back whole: the part drawn
                # before the stop goes, and the prompt stays where it was asked
                del latest[key].turns[len(latest[key].turns) - cut:]
                del shown[key][len(shown[key]) - cut:]
                if turns[0].role == "user":
                    turns = turns[1:]
            turns = _without_reprint(shown[key], turns)
        else:
            notice = []  # the notice joins the launch line only under a job shown before
        shown[key] = shown.get(key, []) + turns
        launch = "\n".join(r.head + [f"{r.prompt}{r.command}".rstrip()] + notice).rstrip("\n")
        head = [Turn("system", launch, name="shell", time=t0)] if r.prompt_abs is not None else []
        out.append(Stretch("agent", name or r.agent, head + turns,
                           [Labeled(TLine(launch, t0, "shell", i), "system", "shell-launch", launch)] + labeled))
        latest[key] = out[-1]
        tail = after_exit_text(frames, runs, i, hist) if r.prompt_abs is not None else ""
        tail = _without_agent_chrome(profile, tail, i)
        if tail.strip():
            # printed after the agent ended (a job message, the rest of a command list, the
            # agent's goodbye once its screen is gone): output of the launch line, no command
            t1 = frames[min(r.end, len(frames) - 1)].time
            out.append(Stretch("shell", None, [Turn("system", tail, name=AFTER_EXIT, time=t1)],
                               [Labeled(TLine(t, t1, "shell", i), "system" if n == 0 else "cont", AFTER_EXIT, t)
                                for n, t in enumerate(tail.split("\n"))]))
    return out


def _resumes_session(profile: "ChromeProfile", command: str | None) -> bool:
    """The launch line resumes an earlier session: it runs the agent, and a word
    after its executable is one of the agent's `resume_words`."""
    words = registry.command_words(command or "")
    exe = _executable(words)
    if exe is None or exe not in words or os.path.basename(exe) not in profile.commands:
        return False
    # `--resume=ID` is `--resume ID` written as one word
    return any(w.split("=", 1)[0] in profile.resume_words for w in words[words.index(exe) + 1:])


def _without_agent_chrome(profile: "ChromeProfile", text: str, i: int) -> str:
    """What was printed after an agent ended, less the rows its own rules call
    chrome: the goodbye an agent prints once its screen is gone (Kimi's
    `Bye!` and resume hint, Vibe's token count) is the agent's chrome, not
    shell output; a job message such as `Killed` stays."""
    if not text.strip():
        return text
    labeled = profile.label([TLine(t, 0.0, "shell", i) for t in text.split("\n")])
    return "\n".join(lb.line.text for lb in labeled if lb.kind != "chrome").strip("\n")


def agents_in(stretches: Iterable[Stretch]) -> list[str]:
    seen: list[str] = []
    for s in stretches:
        if s.agent and s.agent not in seen:
            seen.append(s.agent)
    return seen
