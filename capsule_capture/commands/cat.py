"""`capsule-capture cat FILE`: the recorded output stream, like `asciinema cat`."""
from __future__ import annotations

import argparse
import sys

from capsule_capture.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cat", help="print the recorded output stream of a recording")
    p.add_argument("file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from screen.cast import CastError, CastReader
    try:
        reader = CastReader(args.file)
    except CastError as e:
        raise UserError(str(e)) from None
    out = sys.stdout
    with reader:
        for ev in reader.events():
            if ev.code == "o":
                out.write(ev.data)
        out.flush()
    return 0
