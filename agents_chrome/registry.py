"""Which profile reads which recording.

Adding an agent is one module `agents_chrome/<name>.py` exposing `PROFILE`
plus one line here.
"""
from __future__ import annotations

import importlib
import os
import shlex
from typing import Iterable

import regex

from agents_chrome.profile import ChromeProfile
from screen.cast import CastHeader

# agent name -> module
AGENTS: dict[str, str] = {
    "claude-code": "agents_chrome.claude_code",
    "codex": "agents_chrome.codex",
    "opencode": "agents_chrome.opencode",
    "gemini": "agents_chrome.gemini",
    "vibe": "agents_chrome.vibe",
    "kimi": "agents_chrome.kimi",
    "amp": "agents_chrome.amp",
    "generic": "agents_chrome.generic",
}
ALIASES = {"claude": "claude-code", "claude_code": "claude-code", "gemini-cli": "gemini",
           "mistral-vibe": "vibe", "kimi-cli": "kimi", "codex-cli": "codex"}


def canonical(name: str) -> str | None:
    n = name.strip().lower()
    n = ALIASES.get(n, n)
    return n if n in AGENTS else None


def load(name: str) -> ChromeProfile:
    agent = canonical(name)
    if agent is None:
        raise KeyError(name)
    try:
        mod = importlib.import_module(AGENTS[agent])
    except ModuleNotFoundError as e:
        if e.name != AGENTS[agent]:
            raise
        mod = importlib.import_module(AGENTS["generic"])
    return mod.PROFILE


def profiles() -> list[ChromeProfile]:
    out = []
    for name in AGENTS:
        if name == "generic":
            continue
        try:
            out.append(load(name))
        except ModuleNotFoundError:
            continue
    return out


def command_words(command: str) -> list[str]:
    """A command line's words as a shell would split them; split on blanks when its
    quoting is unbalanced (a line typed half-way, a header written by another tool)."""
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def from_command(command: str | None) -> str | None:
    """Agent launched by a command line, by its executable's name."""
    if not command:
        return None
    for word in command_words(command)[:3]:
        base = os.path.basename(word)
        for p in profiles():
            if base in p.commands:
                return p.name
    return None


def from_screen(texts: Iterable[str]) -> str | None:
    blob = "\n".join(texts)
    for p in profiles():
        if any(regex.search(sig, blob) for sig in p.screen_signatures):
            return p.name
    return None


def detect(header: CastHeader, early_screens: Iterable[str] = ()) -> str:
    if header.agent and canonical(header.agent):
        return canonical(header.agent)  # type: ignore[return-value]
    return from_command(header.command) or from_screen(early_screens) or "generic"
