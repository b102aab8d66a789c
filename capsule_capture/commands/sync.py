"""`capsule-capture sync`: archive every agent session file found under a home."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from capsule_capture.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sync", help="archive the agents' own session files found under a home directory")
    p.add_argument("--home", default=os.path.expanduser("~"), help="directory to look in (default: $HOME)")
    p.add_argument("--agent", help="only this agent's files")
    p.add_argument("--format", choices=("rich", "json"), default="rich")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json

    from agents_chrome.registry import canonical
    from archive.discovery import discover
    from archive.ingest import sync
    from archive.store import Store
    home = Path(args.home).expanduser().absolute()  # sources are kept by absolute path
    if not home.is_dir():
        raise UserError(f"no such directory: {home}")
    agent = None
    if args.agent:
        agent = canonical(args.agent)
        if agent is None or agent == "generic":
            raise UserError(f"unknown agent {args.agent!r}")
    found = discover(home, agent)
    total = len(found)
    progress = None
    bar = None
    if total > 20 and sys.stderr.isatty() and args.format == "rich":
        from rich.progress import Progress
        bar = Progress(transient=True)
        task = bar.add_task("syncing", total=total)
        bar.start()
        progress = lambda i, n: bar.update(task, completed=i)  # noqa: E731
    try:
        with Store() as store:
            stats = sync(home, agent, store, progress, found)
            from capsule_capture.pipeline import import_pending  # recordings a killed recorder left
            recs = import_pending(store)
    finally:
        if bar:
            bar.stop()
    if args.format == "json":
        print(json.dumps({**stats.__dict__, "recordings": recs.__dict__}, ensure_ascii=False))
    else:
        print(f"{stats.files} files ({stats.unchanged} unchanged, {stats.skipped_files} unreadable): "
              f"{stats.new} new, {stats.updated} updated conversations, {stats.turns_added} turns added, "
              f"{stats.skipped_lines} malformed lines skipped")
        if recs.found:
            print(f"{recs.found} recordings: {recs.imported} archived now, {recs.empty} without a conversation, "
                  f"{recs.current} already, "
                  f"{recs.live} being recorded, {recs.opted_out} recorded with --no-archive")
        for p in recs.problems[:20]:
            print(f"  skipped: {p}", file=sys.stderr)
        for p in stats.problems[:20]:
            print(f"  skipped: {p}", file=sys.stderr)
        if len(stats.problems) > 20:
            print(f"  ... and {len(stats.problems) - 20} more", file=sys.stderr)
    if (stats.files or stats.problems) and not stats.conversations_read and not stats.unchanged \
            and stats.problems:
        return 1  # stores were there but nothing could be read
    return 0
