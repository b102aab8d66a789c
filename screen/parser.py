"""A chunk-at-a-time escape-sequence parser that drives a pyte screen.

pyte's own `Stream` walks every control byte through a generator and
mis-reads several sequences modern TUIs send: `CSI > 4;1 m` (modifyOtherKeys)
becomes underline+bold, `CSI < u` (kitty keyboard) leaves a stray `u`, DCS
and APC payloads are drawn as text, and a private SGR raises `TypeError`.
Here each sequence is matched whole with one regular expression and routed
to the same `pyte.Screen` methods, so the screen stays pyte's while the
parsing is both correct for these TUIs and much faster. A sequence split
across two chunks is held back until the rest arrives.
"""
from __future__ import annotations

import re
from typing import Any, Callable

# Runs of printable text: everything except C0 controls, DEL and C1 controls.
_TEXT = re.compile(r"[^\x00-\x1f\x7f-\x9f]+")
# The common tokens in one pass: a text run, or a complete CSI sequence.
_TOKEN = re.compile(r"([^\x00-\x1f\x7f-\x9f]+)|\x1b\[([\x30-\x3f]*)([\x20-\x2f]*)([\x40-\x7e])")
# One escape sequence, or a prefix of one (group "done" tells which).
_CSI = re.compile(r"\x1b\[([\x30-\x3f]*)([\x20-\x2f]*)([\x40-\x7e])")
_CSI_PREFIX = re.compile(r"\x1b\[[\x30-\x3f]*[\x20-\x2f]*\Z")
_STRING_SEQ = re.compile(r"\x1b([\]P_^X])(.*?)(\x07|\x1b\\|\x9c)", re.S)
_ESC = re.compile(r"\x1b([\x20-\x2f]*)([\x30-\x7e])")
# A string sequence (OSC, DCS, APC, PM, SOS) is held back at most this long
# while waiting for its terminator; past it the payload is dropped.
_MAX_PENDING = 1 << 16

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
            sub = [s for s in p.split(":")]
            head = _int(sub[0])
            if head in (38, 48) and len(sub) >= 3:
                if sub[1] == "2":
                    rgb = [_int(s) for s in sub[2:] if s != ""][-3:]
                    if len(rgb) == 3:
                        out += [head, 2, *rgb]
                elif sub[1] == "5":
                    out += [head, 5, _int(sub[2])]
            elif head not in (58,):
                out.append(head)
            i += 1
            continue
        v = _int(p)
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
        self._sgr_cache: dict[tuple[Any, str], Any] = {}
        for table in (_CSI_METHODS, _ESC_METHODS, _CONTROLS):
            for name in table.values():
                fn = getattr(screen, name, None)
                if fn is not None:
                    self._bound[name] = fn

    def feed(self, data: str) -> None:
        if self._pending:
            data = self._pending + data
            self._pending = ""
        screen = self.screen
        draw = screen.draw
        bound = self._bound
        token = _TOKEN.match
        csi = self._csi
        n = len(data)
        pos = 0
        while pos < n:
            m = token(data, pos)
            if m is not None:
                text, params, inter, final = m.groups()
                if text is not None:
                    draw(text)
                else:
                    csi(params, inter, final)
                pos = m.end()
                continue
            ch = data[pos]
            if ch != "\x1b":
                name = _CONTROLS.get(ch)
                if name is not None:
                    bound[name]()
                pos += 1
                continue
            if pos + 1 >= n:
                self._pending = data[pos:]
                return
            nxt = data[pos + 1]
            if nxt == "[":
                m = _CSI.match(data, pos)
                if m is None:
                    if _CSI_PREFIX.match(data, pos):
                        self._pending = data[pos:]
                        return
                    pos += 2  # broken CSI: drop the introducer, like a terminal
                    continue
                self._csi(m.group(1), m.group(2), m.group(3))
                pos = m.end()
            elif nxt in "]P_^X":
                m = _STRING_SEQ.match(data, pos)
                if m is None:
                    if n - pos < _MAX_PENDING:
                        self._pending = data[pos:]
                        return
                    pos = n  # unterminated and huge: drop it
                    continue
                if nxt == "]":
                    self._osc(m.group(2))
                pos = m.end()
            else:
                m = _ESC.match(data, pos)
                if m is None:
                    if all(0x20 <= ord(c) <= 0x2f for c in data[pos + 1:]):
                        self._pending = data[pos:]
                        return
                    pos += 1
                    continue
                self._esc(m.group(1), m.group(2))
                pos = m.end()

    # -- dispatch -------------------------------------------------------
    def _csi(self, params: str, inter: str, final: str) -> None:
        screen = self.screen
        if not inter and final in _SIMPLE and (not params or params[0] not in "<=>?"):
            # Fast path: cursor moves and erases with plain numeric arguments.
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
            if private:
                return
            # SGR is pure in (attributes, parameters): remember the result.
            cursor = screen.cursor
            key = (cursor.attrs, params)
            cache = self._sgr_cache
            hit = cache.get(key)
            if hit is None:
                screen.select_graphic_rendition(*_sgr_params(params))
                if len(cache) > 8192:
                    cache.clear()
                cache[key] = cursor.attrs
            else:
                cursor.attrs = hit
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
                fn(*(args or [0]))  # selective erase: erase all the same
            return
        if final in "hl":
            fn(*args)
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
