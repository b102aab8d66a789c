#!/usr/bin/env python3
"""Benchmark: a width change with a long scrollback, against another revision's screen.

The recordings in the corpus and in `recordings/` keep a few hundred rows of
scrollback at most, so what a resize costs in a long session (every row of a
10,000-row scrollback laid out again, as tmux does) does not show in
`replay_throughput.py`. Here a screen fills its scrollback with text (one
line in eight longer than the screen is wide, so it wraps), then changes
width back and forth; CPU time per resize (`time.process_time`), best of
interleaved rounds, for this checkout's `VirtualScreen` and for the one of
git revision REV (`replay_throughput.screen_of`), with the ratio. Both
screens must end with the same scrollback and screen (checked, printed).

Usage: python bench/resize_scrollback.py --against REV [--rows 12000] [--resizes 10] [--rounds 3]
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from replay_throughput import screen_of  # noqa: E402
from screen.vscreen import VirtualScreen  # noqa: E402


def text(rows: int) -> str:
    rnd = random.Random(7)
    return "".join(("x" * rnd.randint(100, 150) if i % 8 == 0 else f"line {i} " + "y" * rnd.randint(0, 60)) + "\r\n"
                   for i in range(rows))


def run(screen: type, data: str, resizes: int) -> tuple[float, object]:
    """CPU seconds per resize, and the screen."""
    s = screen(100, 30, scrollback=10_000)
    s.feed(data)
    t0 = time.process_time()
    for k in range(resizes):
        s.resize(lines=30, columns=90 if k % 2 == 0 else 100)
    return (time.process_time() - t0) / resizes, s


def state(s: object) -> tuple:
    rows = [(e.text, e.width, e.wrapped, e.used, e.cells) for e in s.scrollback]  # type: ignore[attr-defined]
    return rows, s.fresh_snapshot(), (s.cursor.x, s.cursor.y)  # type: ignore[attr-defined]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", required=True, help="git revision whose screen is the baseline (e.g. main)")
    ap.add_argument("--rows", type=int, default=12_000, help="lines written before the resizes")
    ap.add_argument("--resizes", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    other = screen_of(a.against, Path(tmp.name))
    data = text(a.rows)
    best = {"ours": float("inf"), a.against: float("inf")}
    last: dict[str, object] = {}
    for _ in range(a.rounds):
        for name, screen in (("ours", VirtualScreen), (a.against, other)):
            dt, last[name] = run(screen, data, a.resizes)
            best[name] = min(best[name], dt)
    rows = len(last["ours"].scrollback)  # type: ignore[attr-defined]
    same = state(last["ours"]) == state(last[a.against])
    print(f"scrollback {rows} rows, {a.resizes} width changes: CPU per resize ours {best['ours'] * 1e3:.1f} ms, "
          f"{a.against} {best[a.against] * 1e3:.1f} ms ({best[a.against] / best['ours']:.2f}x); "
          f"same scrollback and screen: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
