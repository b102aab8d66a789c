#!/usr/bin/env python3
"""Replay every recording to a folder, to show a speed change changed no output.

Each `recordings/*/*/session.cast` and `../shared/corpus/*/*/session.cast` is
replayed with `capsule-capture replay --agent AGENT --format json` (the CLI's
entry point, in this process) into OUT/<corpus|rec>-<agent>-<case>.json, with
its exit code and stderr appended; OUT/_times.json keeps each one's size and
CPU seconds. Run it on the code before and after a change, then `diff -r`.

Usage: python bench/replay_snapshot.py OUT [--root TREE] [--only SUBSTR[,SUBSTR]]
(--root: a checkout or `git archive` of another revision to replay with.)
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the shared corpus sits beside the main checkout (/work/shared next to /work/main);
# from a worktree (/work/wt/<id>) it is one level further up
CORPUS = next((c for c in (ROOT.parent / "shared" / "corpus", ROOT.parent.parent / "shared" / "corpus")
               if c.is_dir()), ROOT.parent / "shared" / "corpus")


def casts(root: Path) -> list[Path]:
    return sorted(CORPUS.glob("*/*/session.cast")) + sorted((root / "recordings").glob("*/*/session.cast"))


def agent_of(cast: Path) -> str:
    """The recording's agent: its meta.json's, else its folder's name."""
    meta = cast.parent / "meta.json"
    if meta.exists():
        with contextlib.suppress(ValueError, OSError, AttributeError):
            return str(json.loads(meta.read_text()).get("agent") or cast.parent.parent.name)
    return cast.parent.parent.name


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--root", type=Path, default=ROOT, help="source tree to replay with (default: this one)")
    ap.add_argument("--only", default="", help="recordings whose path contains this (or any of a,b,c)")
    a = ap.parse_args()
    sys.path.insert(0, str(a.root.resolve()))
    from capsule_capture.cli import main as cli_main
    a.out.mkdir(parents=True, exist_ok=True)
    times: dict[str, tuple[int, float]] = {}
    for p in casts(ROOT):
        if not any(o in str(p) for o in a.only.split(",")):
            continue
        out, err = io.StringIO(), io.StringIO()
        t0 = time.process_time()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli_main(["replay", str(p), "--agent", agent_of(p), "--format", "json"])
            except SystemExit as e:
                code = e.code
        dt = time.process_time() - t0
        tag = ("corpus-" if p.is_relative_to(CORPUS) else "rec-") + p.parent.parent.name + "-" + p.parent.name
        (a.out / f"{tag}.json").write_text(f"{out.getvalue()}\n#code={code}\n{err.getvalue()}")
        times[tag] = (p.stat().st_size, dt)
    (a.out / "_times.json").write_text(json.dumps(times, indent=0))
    size, secs = sum(s for s, _ in times.values()), sum(d for _, d in times.values())
    print(f"{len(times)} recordings, {size / 1e6:.1f} MB, {secs:.1f} s CPU ({size / 1e6 / max(secs, 1e-9):.2f} MB/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
