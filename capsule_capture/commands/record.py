"""`capsule-capture record -- COMMAND`: run an agent in a PTY and record it.

The PTY loop only copies bytes; archiving is the live companion's job
(`recorder/companion.py`), started before the program and never waited on.
"""
from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import sys
import time
from pathlib import Path

from capsule_capture import __version__
from capsule_capture.args import agent_name
from capsule_capture.errors import UserError
from capsule_capture.recorder import paths, pty_loop, terminal
from capsule_capture.recorder.writer import AsciicastWriter


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("record", help="run a command in a PTY and record the session",
                       description="Run COMMAND in a pseudo-terminal, pass the terminal through untouched "
                                   "and write every byte to an asciicast v2 recording. While it runs, a "
                                   "detached companion archives the conversation; the prompt comes back as "
                                   "soon as COMMAND exits.")
    p.add_argument("-o", "--output", help="recording file (default: $CAPSULE_CAPTURE_HOME/recordings/YYYY/MM/DD/<id>.cast)")
    p.add_argument("--agent", type=agent_name,
                   help="agent name stored in the header (default: guessed from the command)")
    p.add_argument("--title", help="title stored in the header")
    p.add_argument("--input", action="store_true",
                   help="record keystrokes too (never a line typed with echo off, e.g. at a password prompt)")
    p.add_argument("--no-input", action="store_true", help=argparse.SUPPRESS)  # the default now; kept for old scripts
    p.add_argument("--no-archive", action="store_true",
                   help="do not archive the recording (sync and watch leave it alone too)")
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
    from capsule_capture import pipeline
    argv = list(args.cmd)
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        raise UserError("nothing to record: give a command after --, e.g. capsule-capture record -- claude")
    _resolve(argv)
    tty_out = os.isatty(1)
    size = terminal.size(1) or terminal.size(0) or terminal.fallback_size()
    home = pipeline.data_home()
    out = Path(args.output) if args.output else paths.default_recording_path()
    try:
        if args.output:
            out.parent.mkdir(parents=True, exist_ok=True)
        else:
            pipeline.private_dir(out.parent, top=home)
    except OSError as e:
        raise UserError(f"cannot create {out.parent}: {e.strerror}") from None
    session = pty_loop.Session(argv=argv, cols=size[0], rows=size[1])
    agent = args.agent or paths.guess_agent(argv)
    rid = "rec-" + secrets.token_hex(8)
    header = {
        "version": 2, "width": size[0], "height": size[1], "timestamp": int(time.time()),
        "command": " ".join(argv), "title": args.title,
        "env": {k: os.environ[k] for k in ("TERM", "SHELL") if k in os.environ},
        "agent": agent, "cwd": os.getcwd(),
        "capsule_capture_version": __version__, pipeline.ID_FIELD: rid,
    }
    if args.no_archive:
        header[pipeline.NO_ARCHIVE_FIELD] = False
    try:
        writer = AsciicastWriter(str(out), {k: v for k, v in header.items() if v is not None})
    except OSError as e:
        raise UserError(f"cannot write {out}: {e.strerror}") from None
    live = None
    if not args.no_archive:
        from capsule_capture.recorder import companion
        try:
            pipeline.private_dir(home, top=home)
        except OSError:
            pass
        live = companion.spawn(out.resolve(), pipeline.archive_path(home), agent)
    try:
        proc = pty_loop.spawn(session)
    except OSError as e:
        writer.close()
        if live:
            os.close(live[1])
        raise UserError(f"cannot run {argv[0]}: {e.strerror or e}", code=126) from None
    rc = 1
    # From here on ^C, SIGTERM and SIGHUP never cut `record` short: the loop
    # passes them to the program, and once the program is gone finishing is
    # quick, so the exit code stays the program's and the file stays whole.
    # (Set after the spawn: an ignored signal would stay ignored in the program.)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    try:
        if os.isatty(0):
            with terminal.raw_mode(0):
                rc = pty_loop.run(proc, writer, record_input=args.input, size_fd=1 if tty_out else 0)
        else:
            rc = pty_loop.run(proc, writer, record_input=args.input)
    finally:
        writer.close(fsync=live is None)  # the companion fsyncs, off the user's path
        if live:
            os.close(live[1])  # end of recording: the companion finishes in the background
    # Then leave at once: the interpreter's teardown (freeing every module)
    # costs 10-100 ms on a busy machine, all of it between the program's exit
    # and the user's prompt. A terminal that went away (EIO on the message)
    # changes nothing: the exit code is the program's.
    try:
        if not args.quiet:
            print(f"capsule-capture: recorded {out}", file=sys.stderr)
            if live:
                print(f"capsule-capture: conversation {rid}, archived in the background: "
                      f"capsule-capture show {rid}", file=sys.stderr)
            elif not args.no_archive:
                print("capsule-capture: warning: the live archiver did not start; "
                      "`capsule-capture sync` archives the recording", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        pass
    finally:
        os._exit(rc)
