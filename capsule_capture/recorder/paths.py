"""Where recordings go, and which agent a command launches."""
from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from capsule_capture.home import data_home

AGENT_COMMANDS = {"claude": "claude-code", "claude-code": "claude-code", "codex": "codex",
                  "opencode": "opencode", "gemini": "gemini", "amp": "amp", "kimi": "kimi",
                  "vibe": "vibe", "vibe-rs": "vibe", "mistral-vibe": "vibe"}


home = data_home


def default_recording_path(now: float | None = None) -> Path:
    t = time.localtime(now)
    rid = time.strftime("%Y%m%d-%H%M%S", t) + "-" + secrets.token_hex(3)
    return home() / "recordings" / time.strftime("%Y/%m/%d", t) / f"{rid}.cast"


def guess_agent(argv: list[str]) -> str | None:
    """The agent a command line launches, by executable name (npx/uvx wrappers too)."""
    for word in argv[:3]:
        name = os.path.basename(word)
        if name in AGENT_COMMANDS:
            return AGENT_COMMANDS[name]
        if name.startswith("@anthropic-ai/claude-code"):
            return "claude-code"
    return None
