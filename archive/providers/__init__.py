"""Native-file providers: one module per agent, each exposing `PROVIDER`."""
from __future__ import annotations

import importlib

from archive.providers.base import Provider

MODULES = {"claude-code": "claude_code", "codex": "codex", "opencode": "opencode", "gemini": "gemini",
           "vibe": "vibe", "kimi": "kimi", "amp": "amp"}


def all_providers() -> list[Provider]:
    return [importlib.import_module(f"archive.providers.{m}").PROVIDER for m in MODULES.values()]


def provider(agent: str) -> Provider:
    return importlib.import_module(f"archive.providers.{MODULES[agent]}").PROVIDER
