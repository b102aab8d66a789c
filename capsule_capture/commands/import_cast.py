"""`capsule-capture import FILE.cast`: archive a recording's conversation (screen vector)."""
from __future__ import annotations

import argparse

from capsule_capture.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import", help="archive the conversation reconstructed from a recording")
    p.add_argument("file")
    p.add_argument("--agent")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from capsule_capture.pipeline import import_recording
    from screen.cast import CastError
    try:
        cid = import_recording(args.file, args.agent)
    except CastError as e:
        raise UserError(str(e)) from None
    print(cid)
    return 0
