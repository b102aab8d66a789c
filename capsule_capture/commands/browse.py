"""Browsing the archive from the shell: `list`, `show`, `search`, `export`.

Output is read by people first: one line per conversation at any width (cut
with …), local times with their zone, a pager when the output is taller than
the terminal, and a hint instead of an empty table. Start-up matters (these
are typed many times a day), so nothing heavy is imported before a command
runs; `--format json` stays the machine-readable view.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from capsule_capture.args import agent_name, conversation_id, instant, positive_int
from capsule_capture.errors import UserError

EMPTY_HINT = ("the archive is empty: run `capsule-capture sync` to read the agents' own session files, "
              "or `capsule-capture record -- claude` (any agent) to record one")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list archived conversations, newest first")
    p.add_argument("--agent", type=agent_name, help="only this agent's (claude-code, codex, ...)")
    p.add_argument("--workspace", help="only those started in this folder")
    p.add_argument("--since", type=instant, help="started at or after: ISO 8601 (offset honoured, none = local), "
                   "today, yesterday, or an age like 7d / 12h")
    p.add_argument("--until", type=instant, help="started before (same forms as --since)")
    p.add_argument("--limit", type=positive_int, help="at most N conversations")
    p.add_argument("--format", choices=("rich", "json"), default="rich")
    p.set_defaults(func=run_list)

    p = sub.add_parser("show", help="show one conversation")
    p.add_argument("id", nargs="?", help="conversation id or unique prefix")
    p.add_argument("--latest", action="store_true", help="the most recently started conversation")
    p.add_argument("--format", choices=("rich", "json", "markdown"), default="rich")
    p.add_argument("--raw", action="store_true", help="with --format json: include each turn's source record")
    p.set_defaults(func=run_show)

    p = sub.add_parser("search", help="keyword search over every archived turn")
    p.add_argument("query", nargs="*", metavar="WORD", help="words to find (quotes not needed)")
    p.add_argument("--limit", type=positive_int, default=20, help="at most N results (default 20)")
    p.add_argument("--format", choices=("rich", "json"), default="rich")
    p.set_defaults(func=run_search)

    p = sub.add_parser("export", help="write conversations as files (Markdown, JSON, ...)")
    p.add_argument("id", nargs="?")
    p.add_argument("--all", action="store_true")
    from capsule_capture.exporters import FORMATS  # the names only: a format's module loads when used
    p.add_argument("--format", choices=list(FORMATS), default="markdown")
    p.add_argument("-o", "--output", required=True, help="directory to write into")
    p.set_defaults(func=run_export)


def _store():  # type: ignore[no-untyped-def]
    from archive.store import Store
    return Store(readonly=True)  # reading commands never write (works on a read-only mount)


def _console():  # type: ignore[no-untyped-def]
    from capsule_capture.console import PipeConsole
    return PipeConsole(highlight=False)


def _paged(console, lines: int, render) -> None:  # type: ignore[no-untyped-def]
    """Print through a pager when stdout is a terminal and the output is taller than it."""
    if sys.stdout.isatty() and lines > console.height:
        with console.pager(styles=True):
            render()
    else:
        render()


def run_list(args: argparse.Namespace) -> int:
    from capsule_capture.tui.catalog import rows as iter_rows
    if args.since and args.until and args.since >= args.until:
        raise UserError(f"--since ({args.since.isoformat()}) is not before --until ({args.until.isoformat()})")
    with _store() as store:
        rows: list[dict[str, Any]] = []
        for r in iter_rows(store, agent=args.agent, workspace=args.workspace, since=args.since, until=args.until):
            rows.append(r)
            if args.limit and len(rows) >= args.limit:
                break
        archived = store.count() if not rows else len(rows)
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        if not archived:
            print(EMPTY_HINT, file=sys.stderr)
        return 0
    console = _console()
    if not rows:
        console.print(EMPTY_HINT if not archived else
                      f"no conversation matches these filters ({archived} archived; `capsule-capture list` "
                      "shows them all)", soft_wrap=True)
        return 0
    from capsule_capture.render import conversation_table
    table = conversation_table(rows, console.width)
    _paged(console, len(rows) + 2, lambda: console.print(table))
    return 0


def _pick(store, args: argparse.Namespace) -> str:  # type: ignore[no-untyped-def]
    if args.id:
        return conversation_id(store, args.id)
    n = store.count()
    if n == 0:
        raise UserError(EMPTY_HINT)
    if n > 1 and not args.latest:
        raise UserError("several conversations are archived: give an id (see capsule-capture list) or --latest")
    cid = next(store.iter_ids(), None)
    if cid is None:
        raise UserError(EMPTY_HINT)
    return cid


def run_show(args: argparse.Namespace) -> int:
    from archive.record import to_json
    with _store() as store:
        conv = store.get(_pick(store, args), raw=args.raw)
    assert conv is not None
    data = to_json(conv, raw=args.raw)
    if args.format == "json":
        print(json.dumps(data, ensure_ascii=False, indent=1))
    elif args.format == "markdown":
        from capsule_capture.render import conversation_markdown
        sys.stdout.write(conversation_markdown(data))
    else:
        from capsule_capture.render import print_conversation
        console = _console()
        if sys.stdout.isatty():
            with console.capture() as cap:
                print_conversation(data, console)
            out = cap.get()
            _paged(console, out.count("\n"), lambda: console.out(out, end="", highlight=False))
        else:
            print_conversation(data, console)
    return 0


def run_search(args: argparse.Namespace) -> int:
    from capsule_capture.args import query
    q = query(args.query)
    from archive.search import search
    with _store() as store:
        hits = search(store, q, args.limit)
        empty = not hits and store.count() == 0
    if args.format == "json":
        print(json.dumps([{"id": h.conv.id, "agent": h.conv.agent, "title": h.conv.title,
                           "started_at": h.conv.started_at, "score": round(h.score, 3), "turn": h.turn_index + 1,
                           "role": h.role, "snippet": h.snippet.replace("[[", "").replace("]]", "")}
                          for h in hits], ensure_ascii=False, indent=1))
        return 0
    console = _console()
    if not hits:
        console.print(EMPTY_HINT if empty else f"no match for {q!r}", soft_wrap=True)
        return 0
    from capsule_capture.render import search_hit_lines
    out = []
    for h in hits:
        out.extend(search_hit_lines(h, console.width))

    def render() -> None:
        for line in out:
            console.print(line, no_wrap=True, overflow="ellipsis")
    _paged(console, len(out), render)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from capsule_capture.exporters import available, exporter
    if args.format not in available():
        raise UserError(f"the {args.format} export format is not available in this build")
    out = Path(args.output)
    with _store() as store:
        if args.all:
            ids = list(store.iter_ids())
        elif args.id:
            ids = [conversation_id(store, args.id)]
        else:
            raise UserError("give a conversation id or --all")
        out.mkdir(parents=True, exist_ok=True)
        n = exporter(args.format)(store, ids, out, args.format)
    print(f"wrote {n} conversation{'s' if n != 1 else ''} to {out}", file=sys.stderr)
    return 0
