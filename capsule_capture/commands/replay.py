"""`capsule-capture replay`: a recording's conversation, reconstructed from the screen."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from capsule_capture.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="reconstruct the conversation of a recording",
                       description="Replay a recording through the virtual screen and print its turns.")
    p.add_argument("file", help="asciicast recording (.cast)")
    p.add_argument("--agent", help="agent profile to use (default: from the recording, else detected)")
    p.add_argument("--format", choices=("rich", "json", "markdown", "text"), default="rich")
    p.set_defaults(func=run)


def load_conversation(path: str, agent: str | None) -> dict[str, Any]:
    from agents_chrome import registry
    from agents_chrome.replay import replay_cast
    from screen.cast import CastError
    if agent and registry.canonical(agent) is None:
        raise UserError(f"unknown agent {agent!r} (known: {', '.join(registry.AGENTS)})")
    try:
        return replay_cast(path, agent)
    except CastError as e:
        raise UserError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    from capsule_capture.render import conversation_markdown, print_conversation
    conv = load_conversation(args.file, args.agent)
    if args.format == "json":
        json.dump(conv, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    elif args.format == "markdown":
        sys.stdout.write(conversation_markdown(conv))
    elif args.format == "text":
        for t in conv["turns"]:
            label = t["role"] + (f" {t['name']}" if t.get("name") else "")
            sys.stdout.write(f"[{label}]\n{t['text']}\n\n")
    else:
        print_conversation(conv)
    return 0
