"""The keys a recording's input events sent, replayed onto an input line.

Some agents draw a long paste collapsed to a placeholder; the text as
pasted is only in the keys. Shared by the agents that need it (Claude
Code, Vibe); knows no agent's screen.
"""
from __future__ import annotations

import regex

#: what a key sends that is no text: CSI / SS3 sequences, Alt+key
_KEY_SEQ = regex.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?", regex.S)


class InputLine:
    """The prompts sent with a bracketed paste in them, and every paste, read
    from a recording's input events (the keys, not the screen).

    Agents collapse a long paste: Claude Code 2.1.330 to `[Pasted text #N +K
    lines]` in the input box (its echo renders the markdown, a fence row
    drawn as nothing), Vibe 3.0.2 to `[Pasted N characters]` in the box and
    in the transcript. The screen does not hold the text as pasted; the
    input events do. Keys are replayed
    onto a line: text and pastes (`ESC[200~ ... ESC[201~`, possibly split
    over events) append, Backspace deletes, Ctrl+U clears, a backslash
    before Enter is a line break (Claude Code's), Enter sends; other key
    sequences (arrows, history) make the line unknown until the next Enter.
    `feed` returns the lines sent that held a paste; `pastes` holds each
    paste's text, in order, once it closed."""

    def __init__(self) -> None:
        self.line: list[str] | None = []
        self.pasted = False
        self.in_paste = False
        self.rest = ""
        self.pastes: list[str] = []
        self._paste: list[str] = []

    def feed(self, chunks: list[str]) -> list[str]:
        sent: list[str] = []
        for data in chunks:
            data = self.rest + data
            self.rest = ""
            i, n = 0, len(data)
            while i < n:
                if self.in_paste:
                    end = data.find("\x1b[201~", i)
                    if end < 0:
                        # keep what may be the start of the closing sequence for the next event
                        cut = max(i, n - 5)
                        self._add_pasted(data[i:cut])
                        self.rest = data[cut:]
                        break
                    self._add_pasted(data[i:end])
                    self.pastes.append("".join(self._paste))
                    self._paste = []
                    self.in_paste = False
                    i = end + 6
                    continue
                c = data[i]
                if c == "\x1b":
                    if data.startswith("\x1b[200~", i):
                        self.in_paste = self.pasted = True
                        i += 6
                        continue
                    if n - i < 6 and "\x1b[200~".startswith(data[i:]):
                        self.rest = data[i:]  # a paste's opening cut by the event's end
                        break
                    m = _KEY_SEQ.match(data, i)
                    self.line = None
                    i = m.end()
                    continue
                i += 1
                if c in "\r\n":
                    if self.line is not None and self.line[-1:] == ["\\"]:
                        self.line[-1] = "\n"
                        continue
                    if self.line is not None and self.pasted:
                        text = "".join(self.line).strip()
                        if text:
                            sent.append(text)
                    self.line, self.pasted = [], False
                elif c in "\x7f\x08":
                    if self.line:
                        self.line.pop()
                elif c == "\x15":
                    self.line = []
                elif c >= " ":
                    self._add(c)
        return sent

    def _add_pasted(self, text: str) -> None:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        self._paste.append(text)
        self._add(text)

    def _add(self, text: str) -> None:
        if self.line is not None:
            self.line.extend(text)
