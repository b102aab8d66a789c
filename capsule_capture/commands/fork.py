"""`capsule-capture fork ID --at N`: restart an agent from any past turn.

Writes a new native session (new id) holding turns 1..N into the agent's own
store, then prints the command that resumes it. The archive is opened
read-only and the original session file is never touched.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from capsule_capture.args import positive_int


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("fork", help="write a new agent session holding turns 1..N of an archived one, to resume it",
                       description="Write a new Claude Code or Codex session holding the first N prompts of an "
                                   "archived conversation and all the agent did for them, with a new session id, "
                                   "and print the command that resumes it.")
    p.add_argument("id", help="conversation id or unique prefix (see capsule-capture list)")
    p.add_argument("--at", type=positive_int, required=True, metavar="N",
                   help="keep turns 1..N (the Nth prompt and everything the agent did for it)")
    p.add_argument("--home", type=Path, help="home folder whose agent store receives the fork (default: yours)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from capsule_capture.args import conversation_id
    from capsule_capture.commands.mcp_server import open_archive
    from capsule_capture.fork import fork
    with open_archive() as store:
        cid = conversation_id(store, args.id)
        conv = store.get(cid, raw=True)
    assert conv is not None
    home = args.home.expanduser() if args.home else None
    done = fork(conv, args.at, home)
    if args.format == "json":
        print(json.dumps(done.as_json(), ensure_ascii=False))
    else:
        print(f"forked {conv.agent} session {conv.native_id} at turn {args.at} -> {done.session_id}")
        print(f"  file:   {done.path}")
        print(f"  resume: {done.resume}")
    return 0
