"""`capsule-capture import FILE`: archive a recording's conversation (screen vector).

FILE is an asciicast recording, a script(1) typescript (`--timing` names its
timing file) or a raw terminal log such as tmux pipe-pane's (`--size` gives
its terminal size); the format is read from the content. The pipeline
(`capsule_capture.pipeline.import_recording`) reads each the way `replay`
does, shell sessions that ran agents included.
"""
from __future__ import annotations

import argparse
import sys

from capsule_capture.commands.replay import add_log_options
from capsule_capture.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import", help="archive the conversation reconstructed from a recording")
    p.add_argument("file", help="asciicast recording, script(1) typescript or raw terminal log")
    p.add_argument("--agent")
    add_log_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from agents_chrome import registry
    from capsule_capture.pipeline import import_recording
    from screen.cast import CastError
    if args.agent and registry.canonical(args.agent) is None:
        raise UserError(f"unknown agent {args.agent!r} (known: {', '.join(registry.AGENTS)})")
    try:
        cid = import_recording(args.file, args.agent, size=args.size, timing=args.timing)
    except CastError as e:
        raise UserError(str(e)) from None
    if cid is None:
        print(f"capsule-capture: nothing archived: no conversation in {args.file} (or a longer read of it is "
              "archived already)", file=sys.stderr)
        return 0
    print(cid)
    return 0
