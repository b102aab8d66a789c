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
    p.add_argument("file", help="asciicast recording (.cast), script(1) typescript, or raw terminal log "
                                "(tmux pipe-pane); the format is read from the content")
    p.add_argument("--agent", help="agent profile to use (default: from the recording, else detected)")
    p.add_argument("--format", choices=("rich", "json", "markdown", "text"), default="rich")
    add_log_options(p)
    p.set_defaults(func=run)


def size_arg(text: str) -> tuple[int, int]:
    """argparse type of `--size COLSxROWS`."""
    from screen.cast import CastError
    from screen.rawlog import parse_size_arg
    try:
        return parse_size_arg(text)
    except CastError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_log_options(p: argparse.ArgumentParser) -> None:
    """`--size` and `--timing`, shared by every command that reads a recording."""
    p.add_argument("--size", type=size_arg, metavar="COLSxROWS",
                   help="terminal size of a log that has none in its header (script without a "
                        "terminal, tmux pipe-pane); overrides the recording's own")
    p.add_argument("--timing", metavar="FILE",
                   help="script(1) timing file (`script -t`, `--log-timing`) of a typescript")


def load_conversation(path: str, agent: str | None, size: tuple[int, int] | None = None,
                      timing: str | None = None) -> dict[str, Any]:
    from agents_chrome import registry
    from agents_chrome.replay import replay_cast
    from screen.cast import CastError
    if agent and registry.canonical(agent) is None:
        raise UserError(f"unknown agent {agent!r} (known: {', '.join(registry.AGENTS)})")
    try:
        return replay_cast(path, agent, size=size, timing=timing)
    except CastError as e:
        raise UserError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    conv = load_conversation(args.file, args.agent, args.size, args.timing)
    if args.format == "json":
        # one write of the whole document (json.dump writes each of its many
        # pieces through the text layer on its own)
        sys.stdout.write(json.dumps(conv, ensure_ascii=False, indent=1) + "\n")
    elif args.format == "markdown":
        from capsule_capture.render import conversation_markdown  # (rich: imported only where it draws)
        sys.stdout.write(conversation_markdown(conv))
    elif args.format == "text":
        for t in conv["turns"]:
            label = t["role"] + (f" {t['name']}" if t.get("name") else "")
            sys.stdout.write(f"[{label}]\n{t['text']}\n\n")
    else:
        from capsule_capture.render import print_conversation
        print_conversation(conv)
    return 0
