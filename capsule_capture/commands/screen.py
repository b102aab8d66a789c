"""`capsule-capture screen`: the screen at a moment, or the list of frames."""
from __future__ import annotations

import argparse
import json
import sys

from capsule_capture.commands.replay import add_log_options
from capsule_capture.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("screen", help="print the screen of a recording at a moment, or its frames")
    p.add_argument("file")
    p.add_argument("--at", type=float, help="seconds into the recording (default: the end)")
    p.add_argument("--frames", action="store_true", help="list the frames with their times")
    p.add_argument("--format", choices=("rich", "text", "json"), default="rich")
    p.add_argument("--scrollback", type=int, default=10_000, help="scrollback lines kept (default 10000)")
    add_log_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from capsule_capture.console import PipeConsole as Console
    from rich.panel import Panel

    from screen.cast import CastError
    from screen.frames import replay_screen
    try:
        if args.frames:
            return _frames(args)
        header, scr, t = replay_screen(args.file, args.at, args.scrollback, size=args.size, timing=args.timing)
    except CastError as e:
        raise UserError(str(e)) from None
    lines = scr.text_lines()
    if args.format == "text":
        sys.stdout.write("\n".join(lines) + "\n")
    elif args.format == "json":
        json.dump({"time": t, "columns": scr.columns, "rows": scr.lines, "alternate": scr.alternate,
                   "cursor": [scr.cursor.x, scr.cursor.y], "lines": lines,
                   "scrollback": [ln.text for ln in scr.scrollback]}, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        from capsule_capture.render import screen_text
        title = f"{args.file} @ {t:.2f}s  {scr.columns}x{scr.lines}" + ("  [alternate]" if scr.alternate else "")
        Console().print(Panel(screen_text(scr), title=title, expand=False))
    return 0


def _frames(args: argparse.Namespace) -> int:
    from capsule_capture.console import PipeConsole as Console
    from rich.text import Text

    from screen.frames import iter_frames
    from screen.rawlog import open_recording
    with open_recording(args.file, size=args.size, timing=args.timing) as reader:
        frames = iter_frames(reader, scrollback=args.scrollback, styles=False, until=args.at)  # type: ignore[arg-type]
        if args.format == "json":
            for f in frames:
                json.dump({"index": f.index, "time": f.time, "reason": f.reason, "alternate": f.alternate,
                           "cursor": list(f.cursor), "lines": f.lines, "scrolled": f.scrolled},
                          sys.stdout, ensure_ascii=False)
                sys.stdout.write("\n")
            return 0
        console = Console()
        for f in frames:
            first = next((ln.strip() for ln in f.lines if ln.strip()), "")
            if args.format == "text":
                print(f"{f.index}\t{f.time:.3f}\t{f.reason}\t{'alt' if f.alternate else 'main'}\t"
                      f"+{len(f.scrolled)}\t{first[:60]}")
            else:
                console.print(Text.assemble((f"#{f.index:<5}", "bold"), f"{f.time:9.3f}s  ",
                                            (f"{f.reason:9}", "cyan"), ("alt " if f.alternate else "main", "magenta"),
                                            f" +{len(f.scrolled):<4} ", Text(first[:70], "dim")))
    return 0
