"""A chunk-at-a-time escape-sequence parser that drives a pyte screen.

pyte's own `Stream` walks every control byte through a generator and
mis-reads several sequences modern TUIs send: `CSI > 4;1 m` (modifyOtherKeys)
becomes underline+bold, `CSI < u` (kitty keyboard) leaves a stray `u`, DCS
and APC payloads are drawn as text, and a private SGR raises `TypeError`.
Here one regular expression splits a chunk into whole tokens and each token
is routed to the same `pyte.Screen` methods, so the screen stays pyte's
while the parsing is both correct for these TUIs and fast.

Speed comes from the token shapes, not from tricks in the screen: TUIs
redraw by "move the cursor, set colours, write a word", so the scanner
matches a cursor position together with the text after it, and a run of
SGR sequences as one token whose effect is cached. Every character of the
input is covered by some alternative, so `finditer` never skips input; a
sequence split across two chunks is held back until the rest arrives.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from pyte import charsets, graphics, modes
from pyte.screens import Char

_TEXT_CLASS = r"[^\x00-\x1f\x7f-\x9f]"  # printable: not C0, DEL or C1
_SGR_RUN = r"(?:\x1b\[[0-9;:]*+m)"
# Possessive quantifiers (`*+`) and the shared `ESC [` prefix keep the
# engine from re-trying digits when a sequence turns out to be another kind.
_SCAN = re.compile(
    rf"(?P<text>{_TEXT_CLASS}++)"
    r"|\x1b\[(?:"
    # "Move, colour, write": CUP/HVP with plain numbers, then the SGR run
    # and the text that follow it.
    rf"(?P<cup>([0-9]{{0,6}}+(?:;[0-9]{{0,6}}+)?+)[Hf]({_SGR_RUN}*+)({_TEXT_CLASS}*+))"
    # "Step, colour, write": relative moves (up, down, forward, back, to a
    # column), how Ink and other inline TUIs redraw.
    rf"|(?P<mv>([0-9]{{0,6}}+)([ABCDG])({_SGR_RUN}*+)({_TEXT_CLASS}*+))"
    # "Colour, write": a run of SGR sequences (`ESC[39m ESC[49m ESC[0m`), then
    # text; the run's first `ESC [` is the shared prefix, outside the group.
    rf"|(?P<sgr>([0-9;:]*+m{_SGR_RUN}*+)({_TEXT_CLASS}*+))"
    # "Erase to the end of the line", which ends nearly every redrawn row.
    r"|(?P<el>([012]?+)K)"
    # DEC private modes, a run of them as one token (`?25l ?7l`, `?12l ?25h`:
    # what TUIs switch around every render).
    r"|(?P<priv>\?([0-9;]*+)([hl])(?:\x1b\[\?[0-9;]*+[hl])*+)"
    r"|(?P<csi>([\x30-\x3f]*+)([\x20-\x2f]*+)([\x40-\x7e]))"
    r")"
    # Line breaks (`\r\r\n` from prompt_toolkit, runs of empty lines) and
    # the text after them.
    rf"|(?P<nl>([\r\n]++)({_TEXT_CLASS}*+))"
    r"|(?P<ctl>[\x00-\x1a\x1c-\x1f\x7f-\x9f])"
    # OSC, DCS, APC, PM, SOS up to BEL or ST.
    r"|(?P<str>\x1b([\]P_^X])(.*?)(?:\x07|\x1b\\|\x9c))"
    r"|(?P<esc>\x1b(?![\[\]P_^X])([\x20-\x2f]*+)([\x30-\x7e]))"
    # A sequence cut by the end of the chunk: kept for the next one.
    r"|(?P<tail>\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*|[\]P_^X].*|[\x20-\x2f]*)\Z)"
    # Anything else after ESC is broken: drop the introducer, like a terminal.
    r"|(?P<broken>\x1b\[?)",
    re.S,
)
_G = _SCAN.groupindex
_SGR_ONE = re.compile(r"(?:\x1b\[)?([0-9;:]*)m")  # one SGR of a run (its `ESC [` may be cut off)
# A string sequence (OSC, DCS, APC, PM, SOS) is held back at most this long
# while waiting for its terminator; past it the payload is dropped.
_MAX_PENDING = 1 << 16
_SGR_CACHE_MAX = 8192
_SGR_KEY_MAX = 256  # longer SGR runs are applied, not cached
_CUP_CACHE_MAX = 8192
_PEN_SGR_MAX = 1024  # SGR steps remembered per pen (gradients make many)
_SGR_STEPS_MAX = 1 << 16  # ... and by all pens
_RUN_MIN = 4  # texts this long are merged as a run (see `VirtualScreen.new_run`)
# Group numbers of each token's parts, looked up once.
_TEXT, _CUP, _SGR, _EL = _G["text"], _G["cup"], _G["sgr"], _G["el"]
_CUP_AT, _CUP_RUN, _CUP_TEXT = _G["cup"] + 1, _G["cup"] + 2, _G["cup"] + 3
_EL_ARG = _G["el"] + 1
_MV, _NL = _G["mv"], _G["nl"]
_MV_N, _MV_F, _MV_RUN, _MV_TEXT = _G["mv"] + 1, _G["mv"] + 2, _G["mv"] + 3, _G["mv"] + 4
_NL_BRK, _NL_TEXT = _G["nl"] + 1, _G["nl"] + 2
_EL_HOW = {"": 0, "0": 0, "1": 1, "2": 2}
_SGR_RUN_G, _SGR_TEXT = _G["sgr"] + 1, _G["sgr"] + 2
_PRIV_PARAMS, _PRIV_FINAL = _G["priv"] + 1, _G["priv"] + 2
_CSI_PARAMS, _CSI_INTER, _CSI_FINAL = _G["csi"] + 1, _G["csi"] + 2, _G["csi"] + 3
_STR_KIND, _STR_PAYLOAD = _G["str"] + 1, _G["str"] + 2
_ESC_INTER, _ESC_FINAL = _G["esc"] + 1, _G["esc"] + 2

_CSI_METHODS: dict[str, str] = {
    "@": "insert_characters", "A": "cursor_up", "B": "cursor_down",
    "C": "cursor_forward", "D": "cursor_back", "E": "cursor_down1",
    "F": "cursor_up1", "G": "cursor_to_column", "H": "cursor_position",
    "I": "forward_tab", "J": "erase_in_display", "K": "erase_in_line",
    "L": "insert_lines", "M": "delete_lines", "P": "delete_characters",
    "S": "scroll_up", "T": "scroll_down", "X": "erase_characters",
    "Z": "back_tab", "`": "cursor_to_column", "a": "cursor_forward",
    "b": "repeat_last", "d": "cursor_to_line", "e": "cursor_down",
    "f": "cursor_position", "g": "clear_tab_stop", "h": "set_mode",
    "l": "reset_mode", "m": "select_graphic_rendition", "r": "set_margins",
    "s": "save_cursor", "u": "restore_cursor",
}
# CSI finals whose handlers take at most the first one or two numbers.
_SIMPLE = {k: _CSI_METHODS[k] for k in "ABCDEFGHJKXdf@PLMST`ae"}
_ESC_METHODS: dict[str, str] = {
    "7": "save_cursor", "8": "restore_cursor", "D": "index", "E": "next_line",
    "M": "reverse_index", "c": "reset", "H": "set_tab_stop",
}
_CONTROLS: dict[str, str] = {
    "\x08": "backspace", "\x09": "tab", "\x0a": "linefeed", "\x0b": "linefeed",
    "\x0c": "linefeed", "\x0d": "carriage_return", "\x0e": "shift_out", "\x0f": "shift_in",
}
_DECTCEM = modes.DECTCEM
_DECOM = modes.DECOM  # origin mode: CUP is relative to the scroll margins
_LNM = modes.LNM  # newline mode: LF also returns the carriage
_IRM = modes.IRM  # insert mode: drawing shifts the row
_DECAWM = modes.DECAWM  # autowrap
_PRIV = _G["priv"]
# DEC private modes that set_mode / reset_mode (pyte's and the screen's) do
# more with than add to or drop from `mode`: column mode, reverse screen,
# origin mode, autowrap, cursor visibility, alternate screens, synchronized
# output.
_PRIV_SPECIAL = frozenset({3, 5, 6, 7, 25, 47, 1047, 1049, 2026})


class _PlainModes(dict):  # type: ignore[type-arg]
    """Parameter text of `CSI ? n h/l` -> pyte's shifted mode code, for a
    single mode that is only added to or dropped from `mode` (mouse
    reporting, bracketed paste, cursor blink, focus events: what TUIs switch
    around every redraw); 0 for anything else (several modes, special ones)."""

    def __missing__(self, params: str) -> int:
        code = 0
        if params.isdigit():
            n = _int(params)
            if n not in _PRIV_SPECIAL:
                code = n << 5
        if len(self) < 4096:
            self[params] = code
        return code


_PLAIN_MODES = _PlainModes()
# The special modes the parse loop sets itself (cursor visibility,
# synchronized output, autowrap): every TUI switches them around each redraw.
_FAST_PRIV = frozenset({"25", "2026", "7"})
_PRIV_ONE = re.compile(r"\x1b\[\?([0-9;]*)([hl])")  # one private mode of a run (its `ESC [` cut off at the start)
_PRIV_RUNS_MAX = 4096
_LAT1 = charsets.LAT1_MAP


def _sgr_params(raw: str) -> list[int]:
    """SGR parameters, with colon sub-parameters flattened the way pyte expects.

    `38:2::R:G:B` -> 38;2;R;G;B, `4:3` (curly underline) -> 4, and the
    underline colour `58;...` is dropped because pyte would read its
    arguments as unrelated attributes.
    """
    out: list[int] = []
    parts = raw.split(";") if raw else ["0"]
    i = 0
    while i < len(parts):
        p = parts[i]
        if ":" in p:
            sub = p.split(":")
            head = _int(sub[0])
            if head in (38, 48) and len(sub) >= 3:
                if sub[1] == "2":
                    rgb = [_int(s) for s in sub[2:] if s != ""][-3:]
                    if len(rgb) == 3:
                        out += [head, 2, *rgb]
                elif sub[1] == "5":
                    out += [head, 5, _int(sub[2])]
            elif head != 58:
                out.append(head)
            i += 1
            continue
        v = _int(p)
        if v in (38, 48) and i + 1 < len(parts) and parts[i + 1] in ("2", "5"):
            # a colour's arguments are numbers, not codes: a 58 among them
            # (`38;2;255;9;58`) is a blue level, not an underline colour
            take = 5 if parts[i + 1] == "2" else 3
            out += [_int(x) for x in parts[i:i + take]]
            i += take
            continue
        if v == 58:  # underline colour: skip it and its arguments
            if i + 1 < len(parts) and parts[i + 1] == "5":
                i += 3
            elif i + 1 < len(parts) and parts[i + 1] == "2":
                i += 5
            else:
                i += 1
            continue
        out.append(v)
        i += 1
    return out


# SGR codes that set one attribute, as pyte's `select_graphic_rendition`
# reads them: code -> (index in `Char`, value).
_SGR_SET: dict[int, tuple[int, Any]] = {}
for _code, _name in graphics.FG_ANSI.items():
    _SGR_SET[_code] = (1, _name)
for _code, _name in graphics.BG_ANSI.items():
    _SGR_SET[_code] = (2, _name)
for _code, _flag in graphics.TEXT.items():
    _SGR_SET[_code] = (Char._fields.index(_flag[1:]), _flag[0] == "+")
for _code, _name in graphics.FG_AIXTERM.items():
    _SGR_SET[_code] = (1, _name)
for _code, _name in graphics.BG_AIXTERM.items():
    _SGR_SET[_code] = (2, _name)
_COLOR_256 = graphics.FG_BG_256


# One truecolour foreground or background and nothing else (`ESC[38;2;R;G;Bm`),
# what gradients send for nearly every cell: read without the general loop.
_SGR_RGB = re.compile(r"(?:\x1b\[)?([34])8;2;([0-9]{1,3});([0-9]{1,3});([0-9]{1,3})m")


def compile_sgr(run: str) -> tuple[bool, tuple[tuple[int, Any], ...]]:
    """What a run of SGR sequences does to any attributes: whether it resets
    them first, and the fields it then sets (last one wins).

    SGR is a pure function of (attributes, parameters) and a run's effect
    does not depend on the attributes it starts from, so it is worked out
    once per run text; truecolour gradients (a new colour for every cell)
    then cost a tuple, not pyte's parsing. Follows pyte's reading exactly,
    down to its quirks: `38;5;N` past 255 and cut-short colours set nothing.
    """
    rgb = _SGR_RGB.fullmatch(run)
    if rgb is not None:
        which, r, g, b = rgb.groups()
        rgb_ = int(r), int(g), int(b)
        return False, ((1 if which == "3" else 2, "{0:02x}{1:02x}{2:02x}".format(*rgb_)),)
    return compile_sgr_params(run)


def compile_sgr_params(run: str) -> tuple[bool, tuple[tuple[int, Any], ...]]:
    """`compile_sgr` the general way, parameter by parameter."""
    reset = False
    fields: dict[int, Any] = {}
    for params in _SGR_ONE.findall(run):
        codes = _sgr_params(params)
        if not codes:  # pyte resets on an SGR left with no parameters (`58;5;N` alone)
            reset = True
            fields.clear()
            continue
        i, n = 0, len(codes)
        while i < n:
            a = codes[i]
            i += 1
            if a == 0:
                reset = True
                fields.clear()
            elif a in _SGR_SET:
                k, v = _SGR_SET[a]
                fields[k] = v
            elif a == 38 or a == 48:
                k = 1 if a == 38 else 2
                if i >= n:
                    break
                m = codes[i]
                i += 1
                if m == 5:
                    if i >= n:
                        break
                    v = codes[i]
                    i += 1
                    if v < len(_COLOR_256):
                        fields[k] = _COLOR_256[v]
                elif m == 2:
                    if i + 3 > n:
                        break
                    fields[k] = "{0:02x}{1:02x}{2:02x}".format(*codes[i:i + 3])
                    i += 3
    return reset, tuple(fields.items())


def _int(s: str) -> int:
    try:
        return min(int(s), 9999) if s else 0
    except ValueError:
        return 0


class Parser:
    """Feed decoded text; calls the screen's pyte-style methods."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self._pending = ""
        self._bound: dict[str, Callable[..., Any]] = {}
        self._sgr_runs: dict[str, tuple[bool, tuple[tuple[int, Any], ...]]] = {}
        self._sgr_steps = 0  # SGR steps remembered on pens since they were last cleared
        self._cup_cache: dict[str, tuple[int, int]] = {}
        self._priv_runs: dict[str, list[tuple[str, str]]] = {}
        for table in (_CSI_METHODS, _ESC_METHODS, _CONTROLS):
            for name in table.values():
                fn = getattr(screen, name, None)
                if fn is not None:
                    self._bound[name] = fn
        self._draw = screen.draw
        self._move = screen.cursor_position
        self._controls = {ch: self._bound[name] for ch, name in _CONTROLS.items() if name in self._bound}
        handlers: list[Callable[[re.Match[str]], None]] = [_ignore] * (_SCAN.groups + 1)
        for name, fn in (("priv", self._on_private_mode),
                         ("csi", self._on_csi), ("ctl", self._on_control), ("str", self._on_string),
                         ("esc", self._on_esc), ("tail", self._on_tail)):
            handlers[_G[name]] = fn
        self._handlers = handlers
        # What `feed` uses, bound once (a feed per output event adds up).
        self._hot = (self._draw, self._move, screen.erase_in_line, screen.index, screen.cursor_up,
                     screen.cursor_down, handlers, self._cup_cache, self._sgr_step, screen.pen_for,
                     screen.new_run, screen.narrow_known.get, screen.all_narrow, screen.unsplit_wide,
                     screen._draw_mixed, screen.plain_row, screen.wide_layout, self._priv_runs)

    def feed(self, data: str) -> None:
        if self._pending:
            data = self._pending + data
            self._pending = ""
        screen = self.screen
        (draw, move, erase_line, index, up, down, handlers, cup_cache, sgr_step, pen_for, new_run,
         narrow_known, all_narrow, unsplit_wide, draw_mixed, plain_row, wide_layout, priv_runs) = self._hot
        # What only the handler-table tokens can change is read once here
        # and again after each of them: the hot tokens below move the
        # cursor, set colours and draw, and never replace these objects.
        cursor, buffer, dirty_add = screen.cursor, screen.buffer, screen.dirty.add
        cols, lines, mode, margins = screen.columns, screen.lines, screen.mode, screen.margins
        plain = not screen.charset and screen.g0_charset is _LAT1 and _IRM not in mode
        pen = screen._pen  # the pen drawn with last
        last = ""  # the text drawn last here, for REP (`_last_char`), set lazily
        # The tokens that make up nearly all TUI output (move-colour-write,
        # colour-write, erase to end of line, line breaks, bare text) are
        # handled here, the rest through the handler table. Text that fits
        # on the row in one-cell characters is written here too: this is
        # `VirtualScreen.draw`'s common case without the call.
        for m in _SCAN.finditer(data):
            i = m.lastindex
            if i == _CUP:
                where, run, text = m.group(_CUP_AT, _CUP_RUN, _CUP_TEXT)
                if _DECOM in mode:
                    move(*self._cup_numbers(where))  # relative to the margins
                else:
                    cursor.y, cursor.x = cup_cache.get(where) or self._cup_position(where)
                if run:
                    if pen.attrs is not cursor.attrs:
                        pen = pen_for(cursor.attrs)
                    pen = pen.sgr.get(run) or sgr_step(pen, run)
                    cursor.attrs = pen.attrs
                if not text:
                    continue
            elif i == _SGR:
                run, text = m.group(_SGR_RUN_G, _SGR_TEXT)
                if pen.attrs is not cursor.attrs:
                    pen = pen_for(cursor.attrs)
                pen = pen.sgr.get(run) or sgr_step(pen, run)
                cursor.attrs = pen.attrs
                if not text:
                    continue
            elif i == _MV:
                num, final, run, text = m.group(_MV_N, _MV_F, _MV_RUN, _MV_TEXT)
                n = int(num) if num else 1
                if n == 0:
                    n = 1
                # As pyte's cursor_* methods (A and B stop at the margins).
                if final == "G":
                    cursor.x = n - 1 if n <= cols else cols - 1
                elif final == "C":
                    x = cursor.x + n
                    cursor.x = x if x < cols else cols - 1
                elif final == "D":
                    x = cursor.x - n - (cursor.x == cols)
                    cursor.x = x if x > 0 else 0
                elif margins is None:
                    y = cursor.y - n if final == "A" else cursor.y + n
                    cursor.y = y if y > 0 else 0
                    if cursor.y >= lines:
                        cursor.y = lines - 1
                elif final == "A":
                    up(n)
                else:
                    down(n)
                if run:
                    if pen.attrs is not cursor.attrs:
                        pen = pen_for(cursor.attrs)
                    pen = pen.sgr.get(run) or sgr_step(pen, run)
                    cursor.attrs = pen.attrs
                if not text:
                    continue
            elif i == _TEXT:
                text = m.group()
            elif i == _NL:
                brk, text = m.group(_NL_BRK, _NL_TEXT)
                # CR and LF in any order: a line feed (`index`) never reads
                # or moves the column, so the order does not matter.
                if brk == "\r":
                    cursor.x = 0
                else:
                    feeds = 1 if brk == "\r\n" else brk.count("\n")
                    if not feeds or "\r" in brk or _LNM in mode:
                        cursor.x = 0
                    for _ in range(feeds):
                        if margins is None and cursor.y < lines - 1:
                            cursor.y += 1  # what `index` does here
                        else:
                            index()
                if not text:
                    continue
            elif i == _EL:
                how = _EL_HOW[m.group(_EL_ARG)]
                x = cursor.x
                if how == 0 and 0 < x < cols:
                    # To the end of a row with nothing drawn from the cursor
                    # on (a redrawn row ending in EL), in a default
                    # background: nothing to drop, no extent to keep
                    # (`erase_in_line`'s first way out, without the call).
                    if pen.attrs is not cursor.attrs:
                        pen = pen_for(cursor.attrs)
                        cursor.attrs = pen.attrs
                    y = cursor.y
                    line = buffer[y]
                    if (pen.erases_plain and line.__class__ is plain_row and (not line or max(line) < x)
                            and not screen._flip_pending):
                        dirty_add(y)
                        continue
                if screen._flip_pending:
                    screen._flip()
                erase_line(how)
                continue
            elif i == _PRIV:
                # A run of private modes, one mode at a time, in order.
                run = m.group()
                modes_ = priv_runs.get(run)
                if modes_ is None:
                    modes_ = self._priv_run(run)
                for params, final in modes_:
                    if params in _FAST_PRIV or _PLAIN_MODES[params]:
                        # What set_mode / reset_mode do for one mode, without
                        # the calls: Codex brackets every redraw in ?2026 and
                        # ?25, Kimi in ?7, ?25 and ?12.
                        if params == "25":
                            if final == "h":
                                mode.add(_DECTCEM)
                                cursor.hidden = False
                            else:
                                mode.discard(_DECTCEM)
                                cursor.hidden = True
                        elif params == "2026":
                            if final == "h":
                                screen.synchronized = True
                            elif screen.synchronized:
                                screen.end_synchronized_update()
                        elif params == "7":
                            if final == "h":
                                if _DECAWM not in mode:
                                    screen._autowrap_on()
                                    mode.add(_DECAWM)
                            elif _DECAWM in mode:
                                screen._autowrap_off()
                                mode.discard(_DECAWM)
                        elif final == "h":
                            mode.add(_PLAIN_MODES[params])
                        else:
                            mode.discard(_PLAIN_MODES[params])
                        continue
                    # Other modes: the handler, as any other token below.
                    if last:
                        screen._last_char = last[-1]
                        last = ""
                    screen._pen = pen
                    if screen._flip_pending:
                        screen._flip()
                    self._private_mode(params, final)
                    pen = screen._pen
                    cursor, buffer, dirty_add = screen.cursor, screen.buffer, screen.dirty.add
                    cols, lines, mode, margins = screen.columns, screen.lines, screen.mode, screen.margins
                    plain = not screen.charset and screen.g0_charset is _LAT1 and _IRM not in mode
                continue
            else:
                if last:
                    screen._last_char = last[-1]
                    last = ""
                screen._pen = pen
                if screen._flip_pending:
                    screen._flip()
                handlers[i](m)  # type: ignore[index]
                pen = screen._pen
                cursor, buffer, dirty_add = screen.cursor, screen.buffer, screen.dirty.add
                cols, lines, mode, margins = screen.columns, screen.lines, screen.mode, screen.margins
                plain = not screen.charset and screen.g0_charset is _LAT1 and _IRM not in mode
                continue
            # Draw `text`.
            x = cursor.x
            end = x + len(text)
            if end > cols or not plain or screen._zwj:
                if screen._flip_pending:
                    screen._flip()
                draw(text)  # wraps, charsets, insert mode, a joiner pending
                last = ""  # `draw` kept its own
                continue
            if pen.attrs is not cursor.attrs:
                pen = pen_for(cursor.attrs)
                cursor.attrs = pen.attrs
            if not text.isascii():
                narrow = narrow_known(text)
                if narrow is None:
                    narrow = all_narrow(text)
                if not narrow:
                    width, chars = wide_layout(text)
                    wend = x + width
                    if not width or wend > cols or (wend == cols and _DECAWM not in mode):
                        # Zero-width characters, or wide ones that do not fit: what `draw` does.
                        screen._pen = pen
                        if screen._flip_pending:
                            screen._flip()
                        draw_mixed(text)
                        last = text
                        continue
                    # One- and two-cell characters that fit (CJK): what
                    # `_draw_unicode` does a character at a time, at once
                    # (inside the run each character overwrites the half a
                    # cut wide character leaves: only its ends can cut one).
                    y = cursor.y
                    line = buffer[y]
                    if line.__class__ is plain_row and screen._flip_pending:
                        screen._track_for(line, wend)
                    if line.wide:
                        unsplit_wide(line, x, wend, cols)
                    line.put(x, list(map(pen.cells.__getitem__, chars)))
                    line.wide = True
                    cursor.x = wend
                    dirty_add(y)
                    last = text
                    continue
            y = cursor.y
            line = buffer[y]
            if line.__class__ is plain_row and screen._flip_pending:
                screen._track_for(line, end)  # what `_flip` then this write would do to it
            if line.wide:
                unsplit_wide(line, x, end, cols)
            if end - x >= _RUN_MIN:
                # A run drawn before at this column (TUIs redraw the same
                # words in the same places) is merged as a whole.
                run_cells = pen.runs.get((x, text))
                line.update(run_cells if run_cells is not None else new_run(pen, x, text))
            elif line.__class__ is plain_row:
                cells = pen.cells
                for ch in text:
                    line[x] = cells[ch]
                    x += 1
            else:  # a row that tracks what is written (autowrap off): one call, not one per cell
                line.put(x, list(map(pen.cells.__getitem__, text)))
            cursor.x = end
            dirty_add(y)
            last = text
        if last:
            screen._last_char = last[-1]
        screen._pen = pen

    def _cup_position(self, where: str) -> tuple[int, int]:
        """The cell a CUP moves to, clamped to the screen (cached until a resize)."""
        row, _, col = where.partition(";")
        screen = self.screen
        y = int(row) if row else 0
        x = int(col) if col else 0
        lines, cols = screen.lines, screen.columns
        y = (y if y <= lines else lines) - 1 if y > 0 else 0
        x = (x if x <= cols else cols) - 1 if x > 0 else 0
        if len(self._cup_cache) >= _CUP_CACHE_MAX:
            self._cup_cache.clear()
        pos = self._cup_cache[where] = (y, x)
        return pos

    @staticmethod
    def _cup_numbers(where: str) -> tuple[int, int]:
        row, _, col = where.partition(";")
        return (int(row) if row else 0, int(col) if col else 0)

    def forget_positions(self) -> None:
        """The screen changed size: cached CUP targets no longer hold."""
        self._cup_cache.clear()

    def _sgr_step(self, pen: Any, run: str) -> Any:
        """The pen after `run` from `pen`: SGR is pure in (attributes,
        parameters), so the step is remembered on the pen, and what the run
        does is worked out once per run text (`compile_sgr`)."""
        screen = self.screen
        effect = self._sgr_runs.get(run)
        if effect is None:
            effect = compile_sgr(run)
            if len(run) <= _SGR_KEY_MAX:
                if len(self._sgr_runs) >= _SGR_CACHE_MAX:
                    self._sgr_runs.clear()
                self._sgr_runs[run] = effect
        reset, fields = effect
        attrs = screen.default_char if reset else pen.attrs
        if fields:
            cells = list(attrs)
            for k, v in fields:
                cells[k] = v
            attrs = tuple.__new__(Char, cells)
        nxt = screen.pen_for(attrs)
        if len(run) <= _SGR_KEY_MAX:
            if len(pen.sgr) >= _PEN_SGR_MAX:
                pen.sgr.clear()
            self._sgr_steps += 1
            if self._sgr_steps > _SGR_STEPS_MAX:  # all pens together stay bounded too
                for p in screen.pens():
                    p.sgr.clear()
                self._sgr_steps = 0
            pen.sgr[run] = nxt
        return nxt

    def _priv_run(self, run: str) -> list[tuple[str, str]]:
        """The (parameters, final) of each private mode of a run, in order
        (worked out once per run text)."""
        modes_ = _PRIV_ONE.findall("\x1b[" + run if run[:1] == "?" else run)
        if len(self._priv_runs) >= _PRIV_RUNS_MAX:
            self._priv_runs.clear()
        self._priv_runs[run] = modes_
        return modes_

    def _on_private_mode(self, m: re.Match[str]) -> None:
        for params, final in self._priv_run(m.group()):
            self._private_mode(params, final)

    def _private_mode(self, params: str, final: str) -> None:
        screen = self.screen
        # Cursor visibility and synchronized output bracket every TUI redraw.
        if params == "25":
            if final == "h":
                screen.mode.add(_DECTCEM)
                screen.cursor.hidden = False
            else:
                screen.mode.discard(_DECTCEM)
                screen.cursor.hidden = True
            return
        if params == "2026":
            if final == "h":
                screen.begin_synchronized_update()
            else:
                screen.end_synchronized_update()
            return
        args = [_int(p) for p in params.split(";")] if params else []
        if final == "h":
            screen.set_mode(*args, private=True)
        else:
            screen.reset_mode(*args, private=True)

    def _on_csi(self, m: re.Match[str]) -> None:
        self._csi(*m.group(_CSI_PARAMS, _CSI_INTER, _CSI_FINAL))

    def _on_control(self, m: re.Match[str]) -> None:
        fn = self._controls.get(m.group())
        if fn is not None:
            fn()

    def _on_string(self, m: re.Match[str]) -> None:
        kind, payload = m.group(_STR_KIND, _STR_PAYLOAD)
        if kind == "]":
            self._osc(payload)

    def _on_esc(self, m: re.Match[str]) -> None:
        self._esc(*m.group(_ESC_INTER, _ESC_FINAL))

    def _on_tail(self, m: re.Match[str]) -> None:
        tail = m.group()
        if len(tail) > 1 and tail[1] in "]P_^X" and len(tail) >= _MAX_PENDING:
            return  # unterminated and huge: drop it
        self._pending = tail

    # -- dispatch -------------------------------------------------------
    def _csi(self, params: str, inter: str, final: str) -> None:
        screen = self.screen
        if not inter and final in _SIMPLE and (not params or params[0] not in "<=>?"):
            # Cursor moves and erases with plain numeric arguments.
            fn = self._bound[_SIMPLE[final]]
            if not params:
                fn()
            elif final in "Hf":
                a, _, b = params.partition(";")
                fn(_int(a), _int(b.partition(";")[0]))
            else:
                fn(_int(params.partition(";")[0]))
            return
        private = params[:1] if params[:1] in "<=>?" else ""
        if private:
            params = params[1:]
        if inter:
            if inter == "!" and final == "p":
                soft = getattr(screen, "soft_reset", None)
                if soft:
                    soft()
            return  # DECSCUSR, DECRQM and friends: nothing to draw
        if private and private != "?":
            return  # kitty keyboard, modifyOtherKeys, DA2/3, XTVERSION
        if final == "m":
            if not private:
                # SGR with stray `<=>?` bytes among its numbers, which the
                # run pattern does not take.
                screen.select_graphic_rendition(*_sgr_params(params))
            return
        name = _CSI_METHODS.get(final)
        if name is None:
            return
        fn = self._bound.get(name)
        if fn is None:
            return
        args = [_int(p.split(":")[0]) for p in params.split(";")] if params else []
        if private == "?":
            if final in "hl":
                fn(*args, private=True)
            elif final in "JK":
                fn(args[0] if args else 0)  # selective erase: erase all the same
            return
        if final in "hl":
            fn(*args)
        elif final in "su":
            if not args:  # with parameters: DECSLRM, kitty keyboard; neither draws
                fn()
        elif final == "r":
            fn(*args[:2])
        elif final in "JK":
            fn(args[0] if args else 0)
        elif final in "Hf":
            fn(*args[:2])
        else:
            fn(*args[:1])

    def _esc(self, inter: str, final: str) -> None:
        screen = self.screen
        if inter:
            if inter == "#" and final == "8":
                screen.alignment_display()
            elif inter in "()" and len(inter) == 1:
                screen.define_charset(final, inter)
            return
        name = _ESC_METHODS.get(final)
        if name is not None:
            fn = self._bound.get(name)
            if fn is not None:
                fn()

    def _osc(self, payload: str) -> None:
        code, _, rest = payload.partition(";")
        if code in ("0", "2"):
            self.screen.set_title(rest)
        if code in ("0", "1"):
            self.screen.set_icon_name(rest)
        elif code == "8":  # a hyperlink: `8;params;target` opens, `8;;` closes
            link = getattr(self.screen, "hyperlink", None)
            if link is not None:
                link(rest.partition(";")[2])


def _ignore(m: re.Match[str]) -> None:
    """A broken sequence: its introducer is dropped."""
