#!/usr/bin/env python3
"""Benchmark: screen and replay throughput, recording by recording.

For every corpus recording and every recording in `recordings/`, each
stream measured once as recorded (never repeated to make it longer):

- our `VirtualScreen` and stock pyte `HistoryScreen(history=10000)` fed the
  same events (output and resizes) in the same process, in interleaved
  rounds (best round of each: on a shared 2-core machine that is what keeps
  the ratio from moving with the load), and the ratio. Both are timed in
  CPU time of this process (`time.process_time`), not wall time: on a
  shared machine a 5 ms run preempted once doubles on the wall clock, and
  the same recording came out 6.4x in one place and 10.4x in another;
- end-to-end `capsule-capture replay --format json` (the CLI's entry point,
  in this process after a warm-up, so interpreter start-up and imports are
  left out; the start-up a fresh process adds is printed once), in MB of
  recorded output per CPU second;
- xterm.js headless on the same stream, when node and @xterm/headless are
  present (`npm install --prefix bench @xterm/headless`), as the reference
  of a fast emulator;
- peak memory replaying a 100 MB recording, in a child process.

The summary gives the WORST and the median recording, not the best.

With `--against REV` the screen of git revision REV (its `screen/` package,
taken out of git under another name) is timed too, in the same rounds, so
a change is measured against what it replaces under the same load.

Usage: python bench/replay_throughput.py [--rounds 3] [--replay-rounds 1] [--only SUBSTR[,SUBSTR]] [--no-replay]
                                        [--big-mb 100] [--skip-big] [--against REV]
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# the shared corpus sits beside the main checkout (/work/shared next to /work/main);
# from a worktree (/work/wt/<id>) it is one level further up
CORPUS = next((c for c in (ROOT.parent / "shared" / "corpus", ROOT.parent.parent / "shared" / "corpus")
               if c.is_dir()), ROOT.parent / "shared" / "corpus")
CLI = [sys.executable, "-m", "capsule_capture.cli"]

import pyte  # noqa: E402

from screen.cast import CastReader, parse_size  # noqa: E402
from screen.vscreen import VirtualScreen  # noqa: E402

Events = list[tuple[str, str]]


def recordings() -> list[Path]:
    found = sorted(CORPUS.glob("*/*/session.cast")) + sorted((ROOT / "recordings").glob("*/*/session.cast"))
    return [p for p in found if p.stat().st_size > 200]


def load(path: Path) -> tuple[int, int, Events, int]:
    with CastReader(path) as r:
        events = [(e.code, e.data) for e in r.events(warn=False) if e.code in ("o", "r")]
        w, h = r.header.width, r.header.height
    return w, h, events, sum(len(d.encode()) for c, d in events if c == "o")


def replay_kind(path: Path) -> str:
    """How `replay` reads the recording: a shell session (cut into runs, each
    agent's profile loaded as met) or one agent's stream."""
    from agents_chrome import shell
    with CastReader(path) as r:
        return "shell" if shell.is_shell_command(r.header.command) else "agent"


clock = time.process_time  # CPU time: see the module docstring


def screen_of(rev: str, into: Path) -> type:
    """`VirtualScreen` of git revision `rev`, imported as package `screen_<rev>`."""
    name = "screen_" + "".join(c if c.isalnum() else "_" for c in rev)
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "screen"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=tar, check=True)
    (into / "screen").rename(into / name)
    for f in (into / name).glob("*.py"):
        f.write_text(f.read_text(encoding="utf-8").replace("from screen.", f"from {name}."), encoding="utf-8")
    sys.path.insert(0, str(into))
    return __import__(f"{name}.vscreen", fromlist=["VirtualScreen"]).VirtualScreen


def ours(w: int, h: int, events: Events, screen: type = VirtualScreen) -> float:
    s = screen(w, h, scrollback=10_000)
    feed, resize = s.feed, s.resize
    t0 = clock()
    for code, data in events:
        if code == "o":
            feed(data)
        else:
            size = parse_size(data)
            if size:
                resize(lines=size[1], columns=size[0])
    return clock() - t0


def stock(w: int, h: int, events: Events) -> float:
    s = pyte.HistoryScreen(w, h, history=10_000)
    st = pyte.Stream(s)
    t0 = clock()
    for code, data in events:
        if code == "o":
            try:
                st.feed(data)
            except Exception:  # stock pyte raises on real output (private SGR): go on
                st._initialize_parser()
        else:
            size = parse_size(data)
            if size:
                s.resize(lines=size[1], columns=size[0])
    return clock() - t0


def best_of(fns: dict[str, Callable[[], float]], rounds: int) -> dict[str, float]:
    best = {k: float("inf") for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            best[k] = min(best[k], fn())
    return best


def replay_seconds(cast: Path, agent: str, rounds: int) -> float:
    """Seconds `capsule-capture replay CAST --agent AGENT --format json` takes
    beyond start-up: the CLI's own entry point, run in this process (imports
    already done by a warm-up run), its JSON written to /dev/null. Best of
    rounds. Subtracting a separately timed start-up from a subprocess's wall
    time is noise on a loaded machine: small recordings came out negative.
    Timed in CPU time of this process, as the screen columns: on the shared
    machine the wall time of the same replay moved 3x between two runs."""
    from capsule_capture.cli import main as cli_main
    best = float("inf")
    with open(os.devnull, "w") as sink:
        for _ in range(rounds):
            t0 = clock()
            with contextlib.redirect_stdout(sink):
                code = cli_main(["replay", str(cast), "--agent", agent, "--format", "json"])
            dt = clock() - t0
            if code:
                raise RuntimeError(f"replay failed on {cast} (exit {code})")
            best = min(best, dt)
    return best


def startup_seconds(rounds: int) -> float:
    """Wall time of the CLI replaying a one-event recording in a fresh process (for reference)."""
    best = float("inf")
    with tempfile.TemporaryDirectory() as d:
        tiny = Path(d) / "tiny.cast"
        tiny.write_text(json.dumps({"version": 2, "width": 80, "height": 24}) + "\n" + json.dumps([0.1, "o", "hi"]) + "\n")
        for _ in range(rounds):
            t0 = time.perf_counter()
            subprocess.run([*CLI, "replay", str(tiny), "--agent", "generic", "--format", "json"],
                           capture_output=True, cwd=str(ROOT))
            best = min(best, time.perf_counter() - t0)
    return best


def xterm_rates(streams: list[tuple[str, int, int, str]]) -> dict[str, str]:
    """MB/s of xterm.js headless per stream (one node process for all)."""
    node = shutil.which("node")
    if not node:
        return {}
    if subprocess.run([node, "-e", "require.resolve('@xterm/headless')"], capture_output=True,
                      cwd=str(ROOT / "bench")).returncode != 0:
        return {}
    with tempfile.TemporaryDirectory() as d:
        jobs = []
        for name, w, h, data in streams:
            f = Path(d) / f"{len(jobs)}.txt"
            f.write_text(data, encoding="utf-8")
            jobs.append({"name": name, "file": str(f), "w": w, "h": h})
        spec = Path(d) / "jobs.json"
        spec.write_text(json.dumps(jobs))
        js = ("const {Terminal}=require('@xterm/headless');const fs=require('fs');"
              f"const jobs=JSON.parse(fs.readFileSync({json.dumps(str(spec))},'utf8'));const out={{}};"
              "function run(i){if(i>=jobs.length){console.log(JSON.stringify(out));return;}"
              "const j=jobs[i];const d=fs.readFileSync(j.file,'utf8');"
              "const t=new Terminal({cols:j.w,rows:j.h,scrollback:10000,allowProposedApi:true});"
              "const C=4096;let k=0;const t0=process.hrtime.bigint();"
              "function step(){if(k>=d.length){const s=Number(process.hrtime.bigint()-t0)/1e9;"
              "out[j.name]=(Buffer.byteLength(d)/1e6/s).toFixed(2);t.dispose();run(i+1);return;}"
              "t.write(d.slice(k,k+C),step);k+=C;}step();}run(0);")
        p = subprocess.run([node, "-e", js], capture_output=True, text=True, cwd=str(ROOT / "bench"))
        if p.returncode != 0:
            return {}
        return json.loads(p.stdout.strip().splitlines()[-1])


def big_memory(mb: int) -> str:
    """Peak RSS of a child replaying a `mb` MB recording made of corpus output."""
    src = max(CORPUS.glob("codex/*/session.cast"), key=lambda p: p.stat().st_size)
    w, h, events, _ = load(src)
    out = [d for c, d in events if c == "o"]
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.cast"
        with path.open("w", encoding="utf-8") as f:
            f.write(json.dumps({"version": 2, "width": w, "height": h}) + "\n")
            written, t = 0, 0.0
            while written < mb * 1e6:
                for c in out:
                    t += 0.001
                    line = json.dumps([round(t, 3), "o", c], ensure_ascii=False) + "\n"
                    f.write(line)
                    written += len(line)
                    if written >= mb * 1e6:
                        break
        # VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec.
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
                f"{frames} frames, {dt:.1f} s ({path.stat().st_size / 1e6 / dt:.1f} MB/s of file)")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds per recording (best kept)")
    ap.add_argument("--only", default="", help="recordings whose path contains this (or any of a,b,c)")
    ap.add_argument("--replay-rounds", type=int, default=1, help="runs of the CLI per recording (best kept)")
    ap.add_argument("--no-replay", action="store_true", help="leave out the end-to-end replay column")
    ap.add_argument("--big-mb", type=int, default=100)
    ap.add_argument("--skip-big", action="store_true")
    ap.add_argument("--against", default="", help="also time the screen of this git revision (e.g. HEAD)")
    a = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    other = screen_of(a.against, Path(tmp.name)) if a.against else None
    paths = [p for p in recordings() if any(o in str(p) for o in a.only.split(","))]
    start = 0.0 if a.no_replay else startup_seconds(3)
    warmed: set[tuple[str, str]] = set()  # (agent, replay_kind) whose imports and first-use caches are paid
    rows = []
    streams = []
    print(f"{'recording':52} {'MB':>6} {'ours':>7} {'stock':>6} {'ratio':>6} {'replay':>7}  (MB/s of recorded output, CPU time; "
          f"replay in process, beyond the {start:.2f} s a fresh CLI takes to start and replay one event)")
    for p in paths:
        name = f"{p.parent.parent.parent.name[:6]}/{p.parent.parent.name}/{p.parent.name}"
        w, h, events, size = load(p)
        mb = size / 1e6
        fns = {"ours": lambda: ours(w, h, events), "stock": lambda: stock(w, h, events)}
        if other is not None:
            fns["other"] = lambda: ours(w, h, events, other)
        best = best_of(fns, a.rounds)
        rep = None
        if not a.no_replay:
            agent = p.parent.parent.name
            kind = (agent, replay_kind(p))
            if kind not in warmed:
                # warm-up per agent, not once: each agent's first recording
                # otherwise pays its profile's imports and regex compiles;
                # and per kind: the first shell session of an agent paid the
                # shell reader's (Claude Code sh-cc-inline-long 0.13 MB/s in a
                # full run, 0.81 alone)
                replay_seconds(p, agent, 1)
                warmed.add(kind)
            rep = mb / replay_seconds(p, agent, a.replay_rounds)
        r = {"name": name, "mb": mb, "ours": mb / best["ours"], "stock": mb / best["stock"],
             "ratio": best["stock"] / best["ours"], "replay": rep,
             "against": best["stock"] / best["other"] if other is not None else None}
        rows.append(r)
        streams.append((name, w, h, "".join(d for c, d in events if c == "o")))
        vs = "" if other is None else f"   {a.against}: {r['against']:5.1f}x"
        print(f"{name:52} {mb:6.2f} {r['ours']:7.2f} {r['stock']:6.2f} {r['ratio']:5.1f}x "
              f"{'' if rep is None else f'{rep:7.2f}'}{vs}", flush=True)
    xterm = xterm_rates(streams)
    if xterm:
        print("\nxterm.js headless (MB/s):")
        for r in rows:
            print(f"  {r['name']:52} {xterm.get(r['name'], '?'):>7}   ours {r['ours']:.2f}")
    else:
        print("\nxterm.js headless: not available (node and `npm install --prefix bench @xterm/headless`)")
    print("\nsummary over", len(rows), "recordings (worst / median):")
    for key, label in (("ratio", "ours vs HistoryScreen"), ("ours", "ours MB/s"), ("replay", "replay MB/s")):
        vals = [r[key] for r in rows if r[key] is not None]
        if vals:
            worst = min(rows, key=lambda r: r[key] if r[key] is not None else float("inf"))
            print(f"  {label:22} worst {min(vals):7.2f} ({worst['name']})  median {statistics.median(vals):7.2f}")
    reach = sum(1 for r in rows if r["ratio"] >= 20)
    print(f"  {'reach 20x':22} {reach} of {len(rows)} recordings (the target: every one)")
    agents = sorted({r["name"].split("/")[1] for r in rows})
    keys = [("ratio", "ours")] + ([("against", a.against)] if other is not None else [])
    print("\nscreen vs HistoryScreen per agent (worst / median):")
    for agent in agents:
        mine = [r for r in rows if r["name"].split("/")[1] == agent]
        print(f"  {agent:12} n={len(mine):3}  " + "   ".join(
            f"{label} {min(r[k] for r in mine):5.1f}x / {statistics.median(r[k] for r in mine):5.1f}x"
            for k, label in keys))
    if other is not None:
        vals = [r["against"] for r in rows]
        print(f"  {'all':12} n={len(rows):3}  {a.against} worst {min(vals):5.1f}x median {statistics.median(vals):5.1f}x")
    if xterm:
        vals = [float(v) for v in xterm.values()]
        print(f"  {'xterm.js MB/s':22} worst {min(vals):7.2f}  median {statistics.median(vals):7.2f}")
    if not a.skip_big:
        print("\n== memory\n" + big_memory(a.big_mb))
    return 0


if __name__ == "__main__":
    sys.exit(main())
