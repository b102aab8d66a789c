"""`capsule-capture explain`: why every transcript line became what it became."""
from __future__ import annotations

import argparse

from capsule_capture.commands.replay import add_log_options
from capsule_capture.errors import UserError

KIND_STYLE = {"user": "bold cyan", "assistant": "green", "tool_call": "yellow", "tool_result": "dim yellow",
              "system": "magenta", "thinking": "italic blue", "cont": "", "chrome": "dim red strike",
              "blank": "dim"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("explain", help="show the rule that classified each transcript line")
    p.add_argument("file")
    p.add_argument("--agent")
    p.add_argument("--format", choices=("rich", "text"), default="rich")
    add_log_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from capsule_capture.console import PipeConsole as Console
    from rich.table import Table
    from rich.text import Text

    from agents_chrome import registry
    from screen.cast import CastError
    from agents_chrome.replay import replay
    if args.agent and registry.canonical(args.agent) is None:
        raise UserError(f"unknown agent {args.agent!r}")
    try:
        meta, _turns, labeled = replay(args.file, args.agent, size=args.size, timing=args.timing)
    except CastError as e:
        raise UserError(str(e)) from None
    if args.format == "text":
        for lb in labeled:
            print(f"{lb.line.time:9.2f} {lb.line.source:7} {lb.kind:11} {lb.rule:22} {lb.line.text}")
        return 0
    table = Table(title=f"{args.file} — profile {meta['agent']}", expand=True)
    for col in ("time", "src", "kind", "rule"):
        table.add_column(col, no_wrap=True)
    table.add_column("line", overflow="fold")
    for lb in labeled:
        table.add_row(f"{lb.line.time:.2f}", lb.line.source, Text(lb.kind, KIND_STYLE.get(lb.kind, "")),
                      lb.rule, Text(lb.line.text))
    Console().print(table)
    return 0
