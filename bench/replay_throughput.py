#!/usr/bin/env python3
"""Benchmark: screen throughput against stock pyte, in the same run.

Streams: (1) a real corpus recording's output repeated to >= 20 MB,
(2) a synthetic ANSI-heavy stream (colours, cursor moves, scroll regions,
wide characters). For each: MB/s of our `VirtualScreen` over the whole
stream, then the ratio against stock `pyte.Screen` and
`pyte.HistoryScreen(history=10000)`. Stock pyte is ~50x too slow to run
20 MB in a benchmark, so the ratio is taken on the same head of the stream
(whole copies of the recording, ~2.5 MB) for all three, in interleaved
rounds, best round of each: on a noisy 2-core machine that is what keeps
the ratio from moving with the machine's load. Also the end-to-end
`replay` rate over the corpus, peak memory replaying a 100 MB recording
(in a child process), and, when node with @xterm/headless is available,
xterm.js on the same stream.

Usage: python bench/replay_throughput.py [--mb 20] [--head-mb 2.5] [--rounds 3] [--big-mb 100] [--skip-big]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus"

import pyte  # noqa: E402

from screen.cast import CastReader  # noqa: E402
from screen.vscreen import VirtualScreen  # noqa: E402

CHUNK = 4096


def real_stream(mb: float) -> tuple[str, int, int, str, int]:
    """The output of the largest Codex/Claude recording, repeated to `mb`; and one copy's length."""
    cands = sorted(CORPUS.glob("*/*/session.cast"), key=lambda p: -p.stat().st_size)
    src = next(p for p in cands if "codex" in str(p) or "claude" in str(p))
    with CastReader(src) as r:
        out = "".join(e.data for e in r.events(warn=False) if e.code == "o")
        w, h = r.header.width, r.header.height
    reps = int(mb * 1e6 // max(1, len(out.encode()))) + 1
    return out * reps, w, h, str(src.relative_to(CORPUS)), len(out)


def synthetic_stream(mb: float) -> str:
    rnd = random.Random(7)
    words = ["alpha", "beta", "gamma", "δέλτα", "日本語", "emoji😀", "tab\tstop", "x" * 30]
    parts = []
    size = 0
    while size < mb * 1e6:
        k = rnd.random()
        if k < 0.3:
            s = f"\x1b[{rnd.randint(30, 37)};{rnd.randint(40, 47)}m{rnd.choice(words)}\x1b[0m "
        elif k < 0.45:
            s = f"\x1b[{rnd.randint(1, 40)};{rnd.randint(1, 100)}H{rnd.choice(words)}"
        elif k < 0.55:
            s = "\r\n" + " ".join(rnd.choice(words) for _ in range(8))
        elif k < 0.6:
            s = f"\x1b[{rnd.randint(1, 5)};{rnd.randint(20, 40)}r\x1bM\x1b[r"
        elif k < 0.65:
            s = "\x1b[38;2;10;20;30mtrue colour\x1b[K\x1b[0m"
        elif k < 0.7:
            s = "\x1b[2K\x1b[1G⠋ Working (3s • esc to interrupt)"
        else:
            s = " ".join(rnd.choice(words) for _ in range(5)) + "\n"
        parts.append(s)
        size += len(s)
    return "".join(parts)


def chunks(data: str) -> list[str]:
    return [data[i:i + CHUNK] for i in range(0, len(data), CHUNK)]


def feed_seconds(make: Callable[[], Callable[[str], object]], data_chunks: list[str]) -> float:
    feed = make()
    t0 = time.perf_counter()
    for c in data_chunks:
        feed(c)
    return time.perf_counter() - t0


def best_of_rounds(makers: dict[str, Callable[[], Callable[[str], object]]], data_chunks: list[str],
                   rounds: int) -> dict[str, float]:
    """Best (shortest) time of each maker, the makers taking turns round by round."""
    best = {name: float("inf") for name in makers}
    for _ in range(rounds):
        for name, make in makers.items():
            best[name] = min(best[name], feed_seconds(make, data_chunks))
    return best


def stock(cls: type, w: int, h: int, **kw: int) -> Callable[[], Callable[[str], object]]:
    def make() -> Callable[[str], object]:
        scr = cls(w, h, **kw)
        st = pyte.Stream(scr)

        def feed(c: str) -> None:
            try:
                st.feed(c)
            except Exception:  # stock pyte raises on real output (private SGR): go on
                st._initialize_parser()
        return feed
    return make


def ours(w: int, h: int) -> Callable[[], Callable[[str], object]]:
    def make() -> Callable[[str], object]:
        return VirtualScreen(w, h, scrollback=10_000).feed
    return make


def xterm_rate(data: str, w: int, h: int) -> str:
    node = shutil.which("node")
    if not node:
        return "node not found"
    mod = subprocess.run([node, "-e", "require.resolve('@xterm/headless')"], capture_output=True,
                         cwd=str(ROOT / "bench"))
    if mod.returncode != 0:
        return "@xterm/headless not installed (npm install --prefix bench @xterm/headless)"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write(data)
    js = (f"const {{Terminal}}=require('@xterm/headless');const fs=require('fs');"
          f"const d=fs.readFileSync('{f.name}','utf8');const t=new Terminal({{cols:{w},rows:{h},scrollback:10000,allowProposedApi:true}});"
          f"const t0=Date.now();let i=0;const C=4096;function step(){{if(i>=d.length){{const s=(Date.now()-t0)/1000;"
          f"console.log((Buffer.byteLength(d)/1e6/s).toFixed(1));return;}}t.write(d.slice(i,i+C),step);i+=C;}}step();")
    p = subprocess.run([node, "-e", js], capture_output=True, text=True, cwd=str(ROOT / "bench"))
    os.unlink(f.name)
    return f"{p.stdout.strip()} MB/s" if p.returncode == 0 else f"failed: {p.stderr.strip()[:100]}"


def replay_rate() -> str:
    from agents_chrome.replay import replay
    total = 0
    t0 = time.perf_counter()
    for cast in sorted(CORPUS.glob("*/*/session.cast")):
        replay(cast, cast.parent.parent.name)
        with CastReader(cast) as r:
            total += sum(len(e.data.encode()) for e in r.events(warn=False) if e.code == "o")
    dt = time.perf_counter() - t0
    return f"{total / 1e6 / dt:.2f} MB/s end-to-end replay over {total / 1e6:.1f} MB of corpus output"


def big_memory(mb: int) -> str:
    data, w, h, _, _ = real_stream(1)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.cast"
        with path.open("w", encoding="utf-8") as f:
            f.write(json.dumps({"version": 2, "width": w, "height": h}) + "\n")
            written, t = 0, 0.0
            while written < mb * 1e6:
                for c in chunks(data):
                    t += 0.001
                    line = json.dumps([round(t, 3), "o", c], ensure_ascii=False) + "\n"
                    f.write(line)
                    written += len(line)
                    if written >= mb * 1e6:
                        break
        # VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec, so a child
        # would report this (large) process's peak.
        code = ("import sys;sys.path.insert(0,%r);from screen.cast import CastReader;"
                "from screen.frames import iter_frames;r=CastReader(%r);n=sum(1 for _ in iter_frames(r));"
                "hwm=[l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1];"
                "print(n, hwm)") % (str(ROOT), str(path))
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if p.returncode != 0:
            return "failed: " + p.stderr[-200:]
        frames, rss = p.stdout.split()
        return (f"{path.stat().st_size / 1e6:.0f} MB recording: peak RSS {int(rss) / 1024:.0f} MB, "
                f"{frames} frames, {dt:.1f} s")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=20, help="size of each stream")
    ap.add_argument("--head-mb", type=float, default=2.5, help="head of the stream all screens run, for the ratio")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--big-mb", type=int, default=100)
    ap.add_argument("--skip-big", action="store_true")
    a = ap.parse_args()
    real, w, h, src, copy_len = real_stream(a.mb)
    copies = max(1, round(a.head_mb * 1e6 / max(1, len(real[:copy_len].encode()))))
    streams = [(f"real ({src}, {len(real.encode()) / 1e6:.0f} MB)", real, w, h, real[:copies * copy_len]),
               (f"synthetic ({a.mb:.0f} MB)", synth := synthetic_stream(a.mb), 120, 40,
                synth[:int(a.head_mb * 1e6)])]
    for name, data, w, h, head in streams:
        print(f"\n== {name}  {w}x{h}")
        full_mb = len(data.encode()) / 1e6
        r_full = full_mb / min(feed_seconds(ours(w, h), chunks(data)) for _ in range(2))
        print(f"capsule-capture VirtualScreen  {r_full:8.2f} MB/s  over the whole {full_mb:.0f} MB")
        head_mb = len(head.encode()) / 1e6
        best = best_of_rounds({"Screen": stock(pyte.Screen, w, h),
                               "HistoryScreen": stock(pyte.HistoryScreen, w, h, history=10_000),
                               "ours": ours(w, h)}, chunks(head), a.rounds)
        rate = {k: head_mb / v for k, v in best.items()}
        print(f"on the first {head_mb:.1f} MB, best of {a.rounds} interleaved rounds:")
        print(f"  stock pyte Screen              {rate['Screen']:8.2f} MB/s")
        print(f"  stock pyte HistoryScreen(10k)  {rate['HistoryScreen']:8.2f} MB/s")
        print(f"  capsule-capture VirtualScreen  {rate['ours']:8.2f} MB/s")
        print(f"  ratio vs HistoryScreen         {rate['ours'] / rate['HistoryScreen']:8.1f}x   "
              f"vs Screen {rate['ours'] / rate['Screen']:.1f}x")
        print(f"xterm.js headless              {xterm_rate(data, w, h)}  over the whole stream")
    print("\n== replay")
    print(replay_rate())
    if not a.skip_big:
        print("\n== memory")
        print(big_memory(a.big_mb))
    print(f"\n(this process peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
