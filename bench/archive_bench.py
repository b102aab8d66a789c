"""Archive benchmark: sync throughput, search latency, archive size.

Builds 10,000 conversations from the shapes of the corpus's real session
files (Claude Code, Codex and Gemini JSONL, Kimi session folders) with
varied text: every prose string gets a fresh mix of words drawn from a
20,000-word vocabulary (Zipf-weighted, like real text), and every session
a fresh id. Then, each in a fresh archive:

  1. `sync` of the synthetic HOME (in process, the same code the CLI runs):
     conversations per second;
  2. 100 keyword queries (one to three words, common and rare): p50/p95 ms
     at 10,000 conversations;
  3. the archive grown to 100,000 conversations (the 10,000 re-varied and
     written through the store's own batched put, no files) and the same
     100 queries again;
  4. archive bytes (LMDB pages in use) per conversation against the native
     JSONL bytes per conversation.

Targets (issue 4): sync >= 500 conversations/s, search p95 < 50 ms at
100,000, archive <= 0.5x the native bytes.

    .venv/bin/python bench/archive_bench.py [--conversations 10000] [--grow-to 100000] [--corpus DIR]

`--browse` measures the browser and the CLI instead (issue 15) on 100,000
synthetic conversations (7 agents, 211 workspaces, a year of start times,
some CJK prose), built once and cached under /tmp (`--cache DIR`):

  5. search as you type: every prefix of 40 queries typed key by key, each
     keystroke one `live_search` (index completion of the half-typed word +
     ranked search): p50/p95/max ms per keystroke (target < 60 ms);
  6. the browser's first screen: in process (Textual headless, app start to
     the workspace list drawn) and as a user sees it (`capsule-capture browse`
     in tmux, launch to `All workspaces` on the pane) (target < 1 s);
     opening `All workspaces` (the lazy conversation table, first page);
  7. the CLI: wall time of `list --limit 20`, `search`, `show --latest`
     processes against `python -c pass` (interpreter start), median of 7
     (target: start-up < 150 ms beyond the interpreter), and full-query search
     p50/p95 in process (target p95 < 50 ms).

    .venv/bin/python bench/archive_bench.py --browse [--cache /tmp/capsule-capture-bench-browse]
"""
from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from archive.ingest import sync  # noqa: E402
from archive.record import Conversation  # noqa: E402
from archive.search import search  # noqa: E402
from archive.store import Store  # noqa: E402

TEXT_KEYS = {"text", "content", "thinking", "output", "command", "summary", "description", "cmd"}
WORD = re.compile(r"[A-Za-z]{3,}")
SYL = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "zen", "pra", "qui", "dor", "fel", "gam", "hux", "jib",
       "wex", "yor", "bel", "cor", "dra", "eph", "lin", "mur", "nox", "pel", "ros", "tav", "ulm", "vin"]


def vocabulary(n: int, rng: random.Random) -> list[str]:
    words = set()
    while len(words) < n:
        words.add("".join(rng.choice(SYL) for _ in range(rng.randint(2, 4))))
    return sorted(words)


class Varier:
    def __init__(self, rng: random.Random, vocab: list[str]) -> None:
        self.rng = rng
        self.vocab = vocab
        self.weights = [1.0 / (i + 1) for i in range(len(vocab))]
        self.cum = []
        acc = 0.0
        for w in self.weights:
            acc += w
            self.cum.append(acc)

    def word(self) -> str:
        return self.rng.choices(self.vocab, cum_weights=self.cum, k=1)[0]

    def text(self, s: str) -> str:
        if len(s) < 12 or " " not in s:
            return s
        return WORD.sub(lambda m: self.word() if self.rng.random() < 0.6 else m.group(0), s)

    def walk(self, obj, key: str | None = None):  # type: ignore[no-untyped-def]
        if isinstance(obj, dict):
            return {k: self.walk(v, k) for k, v in obj.items()}
        if isinstance(obj, list):
            return [self.walk(v, key) for v in obj]
        if isinstance(obj, str) and key in TEXT_KEYS:
            return self.text(obj)
        return obj


def templates(corpus: Path) -> list[dict]:
    """Each corpus session as (agent, files relative to its home, its session id)."""
    out = []
    for case in sorted(corpus.glob("*/*/native")):
        agent = case.parent.parent.name
        if agent == "claude-code":
            files = list(case.glob(".claude/projects/*/*.jsonl"))
            for f in files:
                out.append({"agent": agent, "files": {f.relative_to(case): f.read_bytes()}, "id": f.stem})
        elif agent == "codex":
            for f in case.glob(".codex/sessions/**/rollout-*.jsonl"):
                sid = json.loads(f.open().readline())["payload"]["id"]
                out.append({"agent": agent, "files": {f.relative_to(case): f.read_bytes()}, "id": sid})
        elif agent == "gemini":
            for f in case.glob(".gemini/tmp/*/chats/session-*.jsonl"):
                sid = json.loads(f.open().readline())["sessionId"]
                out.append({"agent": agent, "files": {f.relative_to(case): f.read_bytes()}, "id": sid})
        elif agent == "kimi":
            for d in case.glob(".kimi/sessions/*/*"):
                files = {p.relative_to(case): p.read_bytes() for p in d.iterdir() if p.is_file()}
                out.append({"agent": agent, "files": files, "id": d.name})
    return out


def build_home(home: Path, n: int, tmpls: list[dict], v: Varier) -> int:
    """Write n varied sessions under `home`; returns their native bytes."""
    total = 0
    for k in range(n):
        t = tmpls[k % len(tmpls)]
        new = str(uuid.UUID(int=v.rng.getrandbits(128)))
        old = t["id"]
        for rel, data in t["files"].items():
            rels = str(rel).replace(old, new).replace(old[:8], new[:8])
            parts = rels.split("/")
            if t["agent"] in ("claude-code", "gemini"):
                parts[2] = f"bench-{k % 97}"  # spread over project folders
            out = home / "/".join(parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            lines = []
            for line in data.replace(old.encode(), new.encode()).splitlines():
                try:
                    obj = json.loads(line)
                except ValueError:
                    lines.append(line)
                    continue
                lines.append(json.dumps(v.walk(obj), ensure_ascii=False, separators=(",", ":")).encode())
            blob = b"\n".join(lines) + b"\n"
            out.write_bytes(blob)
            if rels.endswith(".jsonl"):
                total += len(blob)
    return total


def queries(v: Varier, corpus_words: list[str], n: int = 100) -> list[str]:
    qs = []
    for i in range(n):
        k = 1 + i % 3
        ws = [v.word() if v.rng.random() < 0.7 else v.rng.choice(corpus_words) for _ in range(k)]
        qs.append(" ".join(ws))
    return qs


def time_queries(store: Store, qs: list[str]) -> tuple[float, float, float]:
    lat = []
    found = 0
    for q in qs:
        t0 = time.perf_counter()
        hits = search(store, q, 20)
        lat.append((time.perf_counter() - t0) * 1000)
        found += bool(hits)
    lat.sort()
    return statistics.median(lat), lat[int(len(lat) * 0.95) - 1], found / len(qs)


def grow(store: Store, target: int, v: Varier) -> float:
    """Add re-varied copies of the archived conversations until `target`."""
    import msgspec
    with store.env.begin() as txn:
        shapes = [store.get_in(txn, k.decode()) for k, _ in txn.cursor(db=store.conv)]
    shapes = [s for s in shapes if s is not None]
    have = store.count()
    t0 = time.perf_counter()
    k = 0
    while have < target:
        batch: list[Conversation] = []
        for _ in range(min(1000, target - have)):
            s = shapes[k % len(shapes)]
            k += 1
            nid = uuid.UUID(int=v.rng.getrandbits(128)).hex[:16]
            turns = [msgspec.structs.replace(t, text=v.text(t.text)) for t in s.turns]
            batch.append(msgspec.structs.replace(s, id=nid, native_id=nid, turns=turns))
        store.write(lambda txn: [store.put(txn, c) for c in batch])
        have += len(batch)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--conversations", type=int, default=10000)
    ap.add_argument("--grow-to", type=int, default=100000)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder")
    ap.add_argument("--browse", action="store_true", help="measure the browser and the CLI (see above)")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "capsule-capture-bench-browse")
    a = ap.parse_args()
    if a.browse:
        from browse_bench import run as browse_run  # bench/browse_bench.py
        return browse_run(a.cache, a.grow_to, a.seed)
    if not a.corpus.is_dir():
        a.corpus = ROOT / "recordings"
    rng = random.Random(a.seed)
    v = Varier(rng, vocabulary(20000, rng))
    tmpls = templates(a.corpus)
    if not tmpls:
        print(f"no session files under {a.corpus}", file=sys.stderr)
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="archive-bench-"))
    try:
        home = scratch / "home"
        t0 = time.perf_counter()
        native_bytes = build_home(home, a.conversations, tmpls, v)
        print(f"built {a.conversations} sessions from {len(tmpls)} corpus shapes "
              f"({native_bytes / 1e6:.1f} MB native JSONL) in {time.perf_counter() - t0:.1f}s")
        store = Store(scratch / "archive")
        t0 = time.perf_counter()
        stats = sync(home, store=store)
        dt = time.perf_counter() - t0
        n = store.count()
        print(f"sync: {n} conversations, {stats.turns_added} turns in {dt:.2f}s = {n / dt:.0f} conversations/s")
        again = time.perf_counter()
        st2 = sync(home, store=store)
        print(f"second sync: {st2.new} new, {st2.updated} updated in {time.perf_counter() - again:.2f}s")
        used = store.bytes_used()
        print(f"archive: {used / n:.0f} bytes/conversation vs native JSONL {native_bytes / n:.0f} "
              f"bytes/conversation = {used / native_bytes:.2f}x")
        corpus_words = sorted({w.lower() for t in tmpls for d in t["files"].values()
                               for w in WORD.findall(d.decode("utf-8", "replace")) if len(w) > 4})[:2000]
        qs = queries(v, corpus_words)
        p50, p95, hit = time_queries(store, qs)
        print(f"search at {n}: p50 {p50:.1f} ms, p95 {p95:.1f} ms over {len(qs)} queries ({hit:.0%} with hits)")
        if a.grow_to > n:
            gt = grow(store, a.grow_to, v)
            n2 = store.count()
            print(f"grown to {n2} conversations in {gt:.1f}s ({(n2 - n) / gt:.0f} conversations/s through put)")
            p50, p95, hit = time_queries(store, qs)
            print(f"search at {n2}: p50 {p50:.1f} ms, p95 {p95:.1f} ms over {len(qs)} queries ({hit:.0%} with hits)")
            print(f"archive at {n2}: {store.bytes_used() / n2:.0f} bytes/conversation")
        store.close()
    finally:
        if not a.keep:
            shutil.rmtree(scratch, ignore_errors=True)
        else:
            print(f"kept {scratch}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
