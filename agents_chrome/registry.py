"""Which profile reads which recording.

Adding an agent is one module `agents_chrome/<name>.py` exposing `PROFILE`
plus one line here.
"""
from __future__ import annotations

import functools
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


#: interactive shells: a recording of one may run agents inside it
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "tcsh", "csh", "ash", "busybox"})
#: words that run the next word: `npx codex`, `sudo -E claude`, `env X=1 gemini`, `exec zsh`
WRAPPERS = frozenset({"sudo", "env", "npx", "bunx", "pnpx", "exec", "time", "nohup", "command", "node",
                      "nice", "uvx", "pipx", "doas", "timeout", "stdbuf", "caffeinate", "ionice", "chrt",
                      "taskset", "unbuffer", "builtin", "noglob"})
#: a wrapper's options that take the next word as their value (`env -u NAME`, `sudo -u dev`)
ARG_OPTIONS = {"env": {"-u", "--unset", "-C", "--chdir"}, "sudo": {"-u", "-g", "-C", "-D", "-p", "-h", "-U", "-r", "-t"},
               "doas": {"-u", "-C"}, "nice": {"-n", "--adjustment"}, "timeout": {"-s", "--signal", "-k", "--kill-after"},
               "npx": {"-p", "--package"}, "stdbuf": {"-i", "-o", "-e"}, "ionice": {"-c", "-n", "--class",
               "--classdata"}, "taskset": {"-c", "--cpu-list"}}
#: wrappers whose first plain word is a number (a priority, a CPU mask), not the command
NUMBER_FIRST = frozenset({"chrt", "taskset"})
NUMBER = regex.compile(r"^(?=.*\d)(?:0x)?[0-9a-fA-F,\-]+$")
#: util-linux script(1): runs `-c CMD` (else the user's shell) and logs to its file argument
SCRIPT_ARG_OPTIONS = {"-c", "--command", "-T", "--log-timing", "-I", "--log-in", "-O", "--log-out",
                      "-B", "--log-io", "-m", "--logging-format", "-E", "--echo", "-o", "--output-limit"}
#: package runners whose subcommand runs the next word: `pnpm dlx codex`, `uv tool run vibe`
RUNNERS = {"npm": {"exec", "x"}, "pnpm": {"dlx", "exec"}, "yarn": {"dlx", "exec"}, "bun": {"x"},
           "uv": {"run", "tool"}, "pipx": {"run"}, "poetry": {"run"}}
DURATION = regex.compile(r"^\d+(?:\.\d+)?[smhd]?$")


def executable(words: list[str]) -> str | None:
    """The word a command line runs: after `VAR=value` settings, wrappers
    (`exec`, `sudo -u dev`, `env -u X`, `timeout 60`, `npx`, `pnpm dlx`...) and
    their options."""
    wrapper: str | None = None
    i = 0
    while i < len(words):
        w = words[i]
        i += 1
        if "=" in w.split("/")[0]:
            continue
        if w.startswith("-") and w.lstrip("-") not in SHELLS:
            if wrapper and w in ARG_OPTIONS.get(wrapper, ()):
                i += 1  # the option's value
            continue
        base = os.path.basename(w)
        if wrapper == "timeout" and DURATION.match(w):
            continue
        if wrapper in NUMBER_FIRST and NUMBER.match(w):
            continue
        if base == "script":
            return _script_runs(words[i:])
        if wrapper in RUNNERS and w in RUNNERS[wrapper]:  # type: ignore[operator]
            continue
        if base in WRAPPERS or base in RUNNERS:
            wrapper = base
            continue
        return w
    return None


def _script_runs(args: list[str]) -> str:
    """What `script [options] [file]` runs: the executable of its `-c` command,
    else the user's shell (returned as `sh`). A shell recorded inside script(1)
    is still a shell that may start agents."""
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a in ("-c", "--command") and i < len(args):
            return executable(command_words(args[i])) or "sh"
        if a.startswith("--command="):
            return executable(command_words(a.split("=", 1)[1])) or "sh"
        if a in SCRIPT_ARG_OPTIONS:
            i += 1
        elif len(a) > 2 and a[0] == "-" and a[1:].isalpha() and f"-{a[-1]}" in SCRIPT_ARG_OPTIONS:
            # a cluster of short options whose last one takes the next word (`-qc CMD`, `-fT FILE`)
            if a[-1] == "c" and i < len(args):
                return executable(command_words(args[i])) or "sh"
            i += 1
    return "sh"


def from_command(command: str | None) -> str | None:
    """Agent launched by a command line, by its executable's name: the word it
    runs after settings and wrappers (`env -u X codex`, `timeout 60 claude`),
    else any of its first three words (a header written by another tool)."""
    if not command:
        return None
    words = command_words(command)
    exe = executable(words)
    if exe:
        base = os.path.basename(exe)
        for p in profiles():
            if base in p.commands:
                return p.name
    for word in words[:3]:
        base = os.path.basename(word)
        for p in profiles():
            if base in p.commands:
                return p.name
    return None


def from_screen(texts: Iterable[str]) -> str | None:
    blob = "\n".join(texts)
    for p in profiles():
        if any(sig.search(blob) for sig in _compiled(p.screen_signatures)):
            return p.name
    return None


@functools.cache
def _compiled(signatures: tuple[str, ...]) -> list[regex.Pattern[str]]:
    """A profile's screen signatures, compiled once (a shell session asks this
    of every run: `regex.search` on a pattern's text looks it up in its cache
    in Python)."""
    return [regex.compile(sig) for sig in signatures]


def detect(header: CastHeader, early_screens: Iterable[str] = ()) -> str:
    if header.agent and canonical(header.agent):
        return canonical(header.agent)  # type: ignore[return-value]
    return from_command(header.command) or from_screen(early_screens) or "generic"
