"""The browser and the CLI at 100,000 conversations (run through `archive_bench.py --browse`).

The archive is synthetic (scale is what is measured here, the shapes of real
sessions are measured by archive_bench.py proper): conversations of 2-5
exchanges (prompt, tool call, tool result, answer) whose prose draws on a
20,000-word Zipf vocabulary, 1 in 20 with CJK sentences, spread over 7
agents, 211 workspaces and a year. It is written once through the store's
own batched `put` (the index the CLI reads) and cached under --cache, keyed
by size and tokenizer; later runs reuse it.
"""
from __future__ import annotations

import asyncio
import hashlib
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from archive.record import Conversation, Source, Turn  # noqa: E402
from archive.search import search  # noqa: E402
from archive.store import Store  # noqa: E402

AGENTS = ("claude-code", "codex", "opencode", "gemini", "kimi", "vibe", "amp")
CJK_WORDS = ("发布", "流水线", "缓存", "数据库", "部署", "测试", "修复", "日志", "配置", "服务器", "接口", "性能",
             "ビルド", "テスト", "設定", "변경", "배포")
SYL = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "zen", "pra", "qui", "dor", "fel", "gam", "hux", "jib",
       "wex", "yor", "bel", "cor", "dra", "eph", "lin", "mur", "nox", "pel", "ros", "tav", "ulm", "vin"]


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(len(xs) * p)) - 1))]


class Words:
    def __init__(self, rng: random.Random, n: int = 20000) -> None:
        vocab: set[str] = set()
        while len(vocab) < n:
            vocab.add("".join(rng.choice(SYL) for _ in range(rng.randint(2, 4))))
        self.vocab = sorted(vocab)
        rng.shuffle(self.vocab)
        acc, self.cum = 0.0, []
        for i in range(n):
            acc += 1.0 / (i + 1)
            self.cum.append(acc)
        self.rng = rng

    def words(self, k: int) -> list[str]:
        return self.rng.choices(self.vocab, cum_weights=self.cum, k=k)

    def prose(self, lo: int, hi: int) -> str:
        return " ".join(self.words(self.rng.randint(lo, hi)))

    def cjk(self) -> str:
        return "".join(self.rng.choice(CJK_WORDS) for _ in range(self.rng.randint(4, 9))) + "。"


def synth(i: int, w: Words, base: datetime) -> Conversation:
    rng = w.rng
    start = base + timedelta(minutes=5 * i + rng.randint(0, 4))
    turns, t = [], start
    cjk = i % 20 == 0
    for _ in range(rng.randint(2, 5)):
        def ts() -> str:
            nonlocal t
            t += timedelta(seconds=rng.randint(2, 40))
            return t.strftime("%Y-%m-%dT%H:%M:%S.000Z")
        prompt = w.prose(6, 20) + (" " + w.cjk() if cjk else "")
        turns.append(Turn(role="user", text=prompt, ts=ts()))
        turns.append(Turn(role="tool_call", name="Bash", text=f"grep -rn {w.words(1)[0]} src/", ts=ts()))
        turns.append(Turn(role="tool_result", name="Bash", text="\n".join(w.prose(3, 8) for _ in range(3)), ts=ts()))
        answer = w.prose(30, 120) + (" " + w.cjk() + w.cjk() if cjk else "")
        turns.append(Turn(role="assistant", text=answer, ts=ts()))
    cid = hashlib.sha256(f"bench{i}".encode()).hexdigest()[:16]
    agent = AGENTS[i % len(AGENTS)]
    vec = "screen" if i % 9 == 0 else "native"
    return Conversation(id=cid, agent=agent, native_id=None if vec == "screen" else cid, title=turns[0].text[:60],
                        workspace=f"/home/dev/src/project-{i % 211}", started_at=start.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                        ended_at=t.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                        sources=[Source(vector=vec, path=f"/bench/{cid}")],
                        turns=[Turn(role=x.role, text=x.text, name=x.name, ts=x.ts, vector=vec) for x in turns])


def build(cache: Path, n: int, seed: int) -> Path:
    """The cached archive for (n, seed, tokenizer), built when missing."""
    from archive.tokens import tokens  # the cache is keyed by what the tokenizer makes of a sample
    sample = "Release pipeline 发布流水线的缓存 日本語のテキスト 한국어 snake_case café"
    tok = hashlib.sha1("\0".join(tokens(sample)).encode()).hexdigest()[:8]
    home = cache / f"n{n}-s{seed}-t{tok}"
    done = home / "complete"
    if done.exists():
        print(f"archive: reusing {home}")
        return home
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True, mode=0o700)
    w = Words(random.Random(seed))
    base = datetime.now(timezone.utc) - timedelta(minutes=5 * n + 60)
    t0 = time.perf_counter()
    with Store(home / "archive") as store:
        for lo in range(0, n, 1000):
            batch = [synth(i, w, base) for i in range(lo, min(n, lo + 1000))]
            store.write(lambda txn: [store.put(txn, c) for c in batch])
            if lo and lo % 20000 == 0:
                print(f"  built {lo} conversations ({time.perf_counter() - t0:.0f}s)", flush=True)
    (home / "queries").write_text("\n".join(_queries(w)), encoding="utf-8")
    done.write_text(str(n))
    print(f"archive: built {n} conversations in {time.perf_counter() - t0:.0f}s under {home}")
    return home


def _queries(w: Words) -> list[str]:
    rng = w.rng
    qs = []
    for i in range(36):
        k = 1 + i % 3
        # common words (rank < 200) and rare ones (rank 2,000-20,000)
        pool = w.vocab[:200] if i % 2 else w.vocab[2000:]
        qs.append(" ".join(rng.choice(pool) for _ in range(k)))
    qs += ["流水线", "数据库 缓存", "テスト", "배포"]
    return qs


def _timed(fn):  # type: ignore[no-untyped-def]
    """(wall ms, CPU ms, result): CPU time is what the machine's other load does not inflate."""
    w0, c0 = time.perf_counter(), time.process_time()
    r = fn()
    return (time.perf_counter() - w0) * 1000, (time.process_time() - c0) * 1000, r


def _stats(name: str, wall: list[float], cpu: list[float]) -> str:
    return (f"{name}: wall p50 {statistics.median(wall):.1f} / p95 {_pct(wall, 0.95):.1f} / max {max(wall):.1f} ms; "
            f"CPU p50 {statistics.median(cpu):.1f} / p95 {_pct(cpu, 0.95):.1f} ms")


def keystrokes(store: Store, qs: list[str]) -> None:
    from capsule_capture.tui.live import live_search
    for q in qs[:3]:  # warm the map's pages once (the browser reads a warm archive after its first keys)
        live_search(store, q, 30)
    wall, cpu, empty = [], [], 0
    for q in qs:
        for k in range(1, len(q) + 1):
            w, c, hits = _timed(lambda: live_search(store, q[:k], 30))
            wall.append(w)
            cpu.append(c)
            empty += not hits
    print(_stats(f"search as you type ({len(wall)} keystrokes over {len(qs)} queries, {empty} without a hit)",
                 wall, cpu))
    wall, cpu = [], []
    for q in qs:
        w, c, _ = _timed(lambda: search(store, q, 20))
        wall.append(w)
        cpu.append(c)
    print(_stats("search, whole queries (what `capsule-capture search` runs)", wall, cpu))


def tui_in_process(store: Store) -> None:
    from capsule_capture.tui.app import BrowseApp
    from capsule_capture.tui.lists import ConversationsScreen, WorkspacesScreen

    async def once() -> tuple[float, float]:
        t0 = time.perf_counter()
        app = BrowseApp(store)
        async with app.run_test(size=(120, 40)) as pilot:
            while not (isinstance(app.screen, WorkspacesScreen) and app.screen.query("#workspaces")
                       and app.screen.query_one("#workspaces").option_count):
                await asyncio.sleep(0.001)
            first = time.perf_counter() - t0
            await pilot.pause()
            # the key is posted in a task and the table watched meanwhile: the pilot's own
            # `press` returns only when the app is idle, ~1 s later, whatever the app does
            t1 = time.perf_counter()
            task = asyncio.create_task(pilot.press("enter"))
            while not (isinstance(app.screen, ConversationsScreen) and app.screen.loaded):
                await asyncio.sleep(0.001)
            opened = time.perf_counter() - t1
            await task
            return first, opened

    runs = [asyncio.run(once()) for _ in range(3)]
    print(f"browse, in process: first screen {min(r[0] for r in runs) * 1000:.0f} ms, "
          f"`All workspaces` table (first page) {min(r[1] for r in runs) * 1000:.0f} ms (best of 3)")


def tui_in_tmux(home: Path) -> None:
    if shutil.which("tmux") is None:
        print("browse in tmux: skipped (no tmux)")
        return
    env = {**os.environ, "CAPSULE_CAPTURE_HOME": str(home), "TERM": "xterm-256color"}
    times = []
    for k in range(3):
        sock = f"capcap-bench-{os.getpid()}-{k}"
        t0 = time.perf_counter()
        subprocess.run(["tmux", "-L", sock, "new-session", "-d", "-s", "b", "-x", "120", "-y", "40",
                        f"{sys.executable} -m capsule_capture.cli browse"], env=env, check=True)
        seen = None
        while time.perf_counter() - t0 < 20:
            out = subprocess.run(["tmux", "-L", sock, "capture-pane", "-p", "-t", "b"], capture_output=True,
                                 text=True).stdout
            if "All workspaces" in out:
                seen = time.perf_counter() - t0
                break
            time.sleep(0.01)
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)
        if seen is not None:
            times.append(seen)
    if times:
        print(f"browse in tmux: launch to the first screen on the pane {min(times) * 1000:.0f} ms "
              f"(best of {len(times)}, python start-up included)")


def cli_startup(home: Path, qs: list[str]) -> None:
    env = {**os.environ, "CAPSULE_CAPTURE_HOME": str(home)}

    import resource

    def measure(argv: list[str]) -> tuple[float, float]:
        """Median wall and CPU (user + system, from the child's rusage) ms of 7 runs."""
        ws, cs = [], []
        for _ in range(7):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            ws.append((time.perf_counter() - t0) * 1000)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cs.append((r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1000)
        return statistics.median(ws), statistics.median(cs)

    bw, bc = measure([sys.executable, "-c", "pass"])
    cmd = [sys.executable, "-m", "capsule_capture.cli"]
    print(f"CLI at {home.name}: `python -c pass` wall {bw:.0f} ms, CPU {bc:.0f} ms; each command beyond it "
          f"(median of 7, wall / CPU):")
    for name, argv in (("list --limit 20", ["list", "--limit", "20"]),
                       ("list --limit 20 --format json", ["list", "--limit", "20", "--format", "json"]),
                       (f"search {qs[1]}", ["search", qs[1]]),
                       ("show --latest --format json", ["show", "--latest", "--format", "json"]),
                       ("show --latest", ["show", "--latest"])):
        w, c = measure(cmd + argv)
        print(f"  {name:36} {w - bw:6.0f} / {c - bc:4.0f} ms")


def run(cache: Path, n: int, seed: int) -> int:
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    cache.mkdir(parents=True, exist_ok=True, mode=0o700)
    home = build(cache, n, seed)
    qs = (home / "queries").read_text(encoding="utf-8").split("\n")
    with Store(home / "archive") as store:
        print(f"archive: {store.count()} conversations")
        keystrokes(store, qs)
        tui_in_process(store)
    tui_in_tmux(home)
    cli_startup(home, qs)
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0
