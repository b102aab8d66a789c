"""`capsule-capture record -- COMMAND`: run an agent in a PTY and record it."""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

from capsule_capture import __version__
from capsule_capture.errors import UserError
from capsule_capture.recorder import paths, pty_loop, terminal
from capsule_capture.recorder.writer import AsciicastWriter


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("record", help="run a command in a PTY and record the session",
                       description="Run COMMAND in a pseudo-terminal, pass the terminal through untouched "
                                   "and write every byte to an asciicast v2 recording.")
    p.add_argument("-o", "--output", help="recording file (default: $CAPSULE_CAPTURE_HOME/recordings/YYYY/MM/DD/<id>.cast)")
    p.add_argument("--agent", help="agent name stored in the header (default: guessed from the command)")
    p.add_argument("--title", help="title stored in the header")
    p.add_argument("--no-input", action="store_true", help="record no keystrokes at all")
    p.add_argument("--no-archive", action="store_true", help="do not import the recording into the archive")
    p.add_argument("--quiet", "-q", action="store_true", help="do not print the recording's path at the end")
    p.add_argument("cmd", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS...]")
    p.set_defaults(func=run)


def _resolve(argv: list[str]) -> str:
    exe = argv[0]
    found = shutil.which(exe)
    if found is None:
        what = "not executable" if os.path.exists(exe) else "not found"
        raise UserError(f"command {what}: {exe}", code=127)
    return found


def run(args: argparse.Namespace) -> int:
    argv = list(args.cmd)
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        raise UserError("nothing to record: give a command after --, e.g. capsule-capture record -- claude")
    _resolve(argv)
    tty_out = os.isatty(1)
    size = terminal.size(1) or terminal.size(0) or terminal.fallback_size()
    out = Path(args.output) if args.output else paths.default_recording_path()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create {out.parent}: {e.strerror}") from None
    session = pty_loop.Session(argv=argv, cols=size[0], rows=size[1])
    try:
        proc = pty_loop.spawn(session)
    except OSError as e:
        raise UserError(f"cannot run {argv[0]}: {e.strerror or e}", code=126) from None
    header = {
        "version": 2, "width": size[0], "height": size[1], "timestamp": int(time.time()),
        "command": " ".join(argv), "title": args.title,
        "env": {k: os.environ[k] for k in ("TERM", "SHELL") if k in os.environ},
        "agent": args.agent or paths.guess_agent(argv), "cwd": os.getcwd(),
        "capsule_capture_version": __version__,
    }
    try:
        writer = AsciicastWriter(str(out), {k: v for k, v in header.items() if v is not None})
    except OSError as e:
        proc.terminate(force=True)
        raise UserError(f"cannot write {out}: {e.strerror}") from None
    rc = 1
    try:
        if os.isatty(0):
            with terminal.raw_mode(0):
                rc = pty_loop.run(proc, writer, record_input=not args.no_input, size_fd=1 if tty_out else 0)
        else:
            rc = pty_loop.run(proc, writer, record_input=not args.no_input)
    finally:
        writer.close()
    if not args.quiet:
        print(f"capsule-capture: recorded {out}", file=sys.stderr)
    if not args.no_archive:
        _archive(str(out), header.get("agent"))
    return rc


def _archive(path: str, agent: str | None) -> None:
    """Archive what the recording shows; a failure here never loses the recording."""
    try:
        from archive.ingest import import_cast
    except ImportError:
        return
    try:
        import_cast(path, agent)
    except Exception as e:  # noqa: BLE001 - the recording is already safe on disk
        print(f"capsule-capture: warning: recording kept, but not archived: {e}", file=sys.stderr)
