"""Entry point: one subcommand module per verb under `capsule_capture.commands`.

Each module exposes `register(subparsers)` which adds its parser and sets
`func`; keeping verbs in their own modules lets the recorder, the replay and
the archive grow without touching each other.
"""
from __future__ import annotations

import argparse
import functools
import importlib
import sys
from typing import Sequence

from capsule_capture import __version__
from capsule_capture.errors import UserError

# Order is the order shown in --help.
COMMANDS = ("record", "watch", "cat", "screen", "replay", "explain", "sync", "import_cast", "browse", "tui",
            "fork", "mcp_server", "admin")


# Each verb and the one module that defines it: with a verb first, only that module is
# imported and only its parsers are built (start-up of `list`/`show`/`search` without the
# recorder's imports; `replay` of a small recording without every other verb's argparse set-up).
VERBS = {"record": "record", "watch": "watch", "cat": "cat", "screen": "screen", "replay": "replay",
         "explain": "explain", "sync": "sync", "import": "import_cast",
         "list": "browse", "show": "browse", "search": "browse", "export": "browse", "browse": "tui",
         "fork": "fork", "mcp": "mcp_server", "doctor": "admin", "backup": "admin", "delete": "admin"}


# Built once per process and verb: `main` called again in one process (tests, the
# replay benchmark, a script replaying many recordings) parses with the same
# parsers; building them (gettext look-ups for every help string) cost a
# replay of a small recording more than its chrome rules.
@functools.lru_cache(maxsize=None)
def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="capsule-capture",
        description="Record coding-agent terminals, replay them into turns, and archive every conversation.")
    p.add_argument("--version", action="version", version=f"capsule-capture {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name in ((only,) if only else COMMANDS):
        try:
            mod = importlib.import_module(f"capsule_capture.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"capsule_capture.commands.{name}":
                raise
            continue
        mod.register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(VERBS.get(argv[0]) if argv else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from archive.errors import Terminated, one_line, raise_on_sigterm
    raise_on_sigterm()  # a command that needs SIGTERM itself (record) installs its own handler
    try:
        rc = args.func(args)
    except UserError as e:
        print(f"capsule-capture: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("capsule-capture: interrupted (what was written before is kept)", file=sys.stderr)
        return 130
    except Terminated:
        print("capsule-capture: terminated (what was written before is kept)", file=sys.stderr)
        return 143
    except BrokenPipeError:
        # `capsule-capture cat x.cast | head`: the reader left, which is fine.
        try:
            sys.stdout = None  # type: ignore[assignment]
        finally:
            return 0
    except Exception as e:  # the archive's and the filesystem's errors: one line, never a traceback
        msg = one_line(e)
        if msg is None:
            raise
        print(f"capsule-capture: {msg[0]}", file=sys.stderr)
        return msg[1]
    return int(rc or 0)


if __name__ == "__main__":
    sys.exit(main())
