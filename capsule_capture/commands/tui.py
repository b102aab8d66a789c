"""`capsule-capture browse`: the console browser (Textual), loaded only when it runs."""
from __future__ import annotations

import argparse
from pathlib import Path

from capsule_capture.args import agent_name
from capsule_capture.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("browse", help="browse the archive in the terminal: workspaces, conversations, threads, "
                                      "search as you type")
    p.add_argument("--workspace", help="open this workspace's conversations first")
    p.add_argument("--agent", type=agent_name, help="start narrowed to this agent")
    p.add_argument("--export-dir", type=Path, default=None,
                   help="where `e` writes Markdown (default: the current folder)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UserError("browse needs a terminal; use `capsule-capture list`, `show` or `search` in scripts")
    from archive.store import Store
    from capsule_capture.tui.app import BrowseApp
    with Store(readonly=True) as store:  # the browser only reads
        BrowseApp(store, workspace=args.workspace, agent=args.agent, export_dir=args.export_dir).run()
    return 0
