"""Browsing the archive: `list`, `show`, `search`, `export`."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from capsule_capture.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list archived conversations, newest first")
    p.add_argument("--agent")
    p.add_argument("--workspace")
    p.add_argument("--since", help="ISO date/time: started at or after")
    p.add_argument("--until", help="ISO date/time: started before")
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--format", choices=("rich", "json"), default="rich")
    p.set_defaults(func=run_list)

    p = sub.add_parser("show", help="show one conversation")
    p.add_argument("id", nargs="?", help="conversation id or unique prefix")
    p.add_argument("--latest", action="store_true", help="the most recently started conversation")
    p.add_argument("--format", choices=("rich", "json", "markdown"), default="rich")
    p.add_argument("--raw", action="store_true", help="with --format json: include each turn's source record")
    p.set_defaults(func=run_show)

    p = sub.add_parser("search", help="keyword search over every archived turn")
    p.add_argument("query")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--format", choices=("rich", "json"), default="rich")
    p.set_defaults(func=run_search)

    p = sub.add_parser("export", help="write conversations as Markdown or JSON files")
    p.add_argument("id", nargs="?")
    p.add_argument("--all", action="store_true")
    from capsule_capture.exporters import available
    p.add_argument("--format", choices=available(), default="markdown")
    p.add_argument("-o", "--output", required=True, help="directory to write into")
    p.set_defaults(func=run_export)


def _store():  # type: ignore[no-untyped-def]
    from archive.store import Store
    return Store()


def _resolve(store, ident: str) -> str:  # type: ignore[no-untyped-def]
    ids = store.resolve(ident)
    if not ids:
        raise UserError(f"no conversation with id {ident!r}")
    if len(ids) > 1:
        raise UserError(f"id prefix {ident!r} is ambiguous ({len(ids)} conversations); give more characters")
    return ids[0]


def run_list(args: argparse.Namespace) -> int:
    with _store() as store:
        rows = []
        for r in store.iter_rows(args.agent, args.workspace, args.since, args.until):
            rows.append(r)
            if args.limit and len(rows) >= args.limit:
                break
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"{len(rows)} conversations")
    for col in ("id", "agent", "started", "turns", "title", "workspace"):
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(r["id"][:10], r["agent"], (r["started_at"] or "")[:19], str(r["turns"]), r["title"] or "",
                      r["workspace"] or "")
    Console().print(table)
    return 0


def run_show(args: argparse.Namespace) -> int:
    from archive.record import to_json
    from capsule_capture.render import conversation_markdown, print_conversation
    with _store() as store:
        if args.latest or not args.id:
            cid = next(store.iter_ids(), None) if args.latest or store.count() == 1 else None
            if cid is None and not args.latest and store.count() > 1:
                raise UserError("several conversations are archived: give an id (see capsule-capture list) "
                                "or --latest")
            if cid is None:
                raise UserError("the archive is empty (run capsule-capture sync or import first)")
        else:
            cid = _resolve(store, args.id)
        conv = store.get(cid, raw=args.raw)
    assert conv is not None
    data = to_json(conv, raw=args.raw)
    if args.format == "json":
        print(json.dumps(data, ensure_ascii=False, indent=1))
    elif args.format == "markdown":
        sys.stdout.write(conversation_markdown(data))
    else:
        print_conversation(data)
    return 0


def run_search(args: argparse.Namespace) -> int:
    from archive.search import search
    with _store() as store:
        hits = search(store, args.query, args.limit)
    if args.format == "json":
        print(json.dumps([{"id": h.conv.id, "agent": h.conv.agent, "title": h.conv.title,
                           "started_at": h.conv.started_at, "score": round(h.score, 3), "turn": h.turn_index,
                           "role": h.role, "snippet": h.snippet.replace("[[", "").replace("]]", "")}
                          for h in hits], ensure_ascii=False, indent=1))
        return 0
    from rich.console import Console
    from rich.text import Text
    console = Console()
    if not hits:
        console.print(f"no match for {args.query!r}")
        return 0
    for h in hits:
        line = Text.assemble((h.conv.id[:10], "bold"), "  ", (h.conv.agent, "cyan"), "  ",
                             (h.conv.title or "", "dim"))
        console.print(line)
        snip = Text("    ")
        for i, part in enumerate(h.snippet.replace("]]", "[[").split("[[")):
            snip.append(part, "bold yellow" if i % 2 else "")
        console.print(snip)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from capsule_capture.exporters import exporter
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    with _store() as store:
        if args.all:
            ids = list(store.iter_ids())
        elif args.id:
            ids = [_resolve(store, args.id)]
        else:
            raise UserError("give a conversation id or --all")
        n = exporter(args.format)(store, ids, out, args.format)
    print(f"wrote {n} conversation{'s' if n != 1 else ''} to {out}", file=sys.stderr)
    return 0
