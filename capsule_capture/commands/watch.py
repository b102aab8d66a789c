"""`capsule-capture watch`: archive agent sessions as they change.

OS file notifications (watchfiles: inotify on Linux, FSEvents on macOS),
not polling: the agents' native stores and the recordings folder are
watched; each changed session is archived through the same idempotent
paths as `sync` and `import`, within about a second. A store that does not
exist yet (an agent installed later) is looked for once a second (a few
stat calls) and watched from when it appears. Ctrl-C or SIGTERM end it
with a summary and exit code 0.
"""
from __future__ import annotations

import argparse
import itertools
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from capsule_capture.args import agent_name
from capsule_capture.errors import UserError

DEBOUNCE_MS = 300  # changes are grouped for at most this long (watchfiles' default is 1.6 s)
STEP_MS = 50  # a burst of changes is handed over after this much calm
RECHECK_MS = 500  # how often stores that do not exist yet, and folders just made, are looked at
FRESH_S = 3.0  # a folder just made is rescanned this long: files made in it before its watch began send no event


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("watch", help="archive agent sessions and recordings as they change (Ctrl-C to stop)",
                       description="Watch the agents' own session stores and the recordings folder with OS "
                                   "file notifications and archive each session that changes.")
    p.add_argument("--home", default=os.path.expanduser("~"), help="directory holding the agents' stores (default: $HOME)")
    p.add_argument("--agent", type=agent_name, help="only this agent's sessions")
    p.set_defaults(func=run)


@dataclass
class Tally:
    sessions: int = 0  # conversations new or updated
    turns: int = 0
    recordings: int = 0
    events: int = 0  # notification batches handled
    problems: list[str] = field(default_factory=list)
    last: str = ""


class Line:
    """One status line, rewritten in place on a terminal; plain lines otherwise."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.width = 0

    def show(self, text: str) -> None:
        if self.tty:
            cols = os.get_terminal_size(sys.stderr.fileno()).columns if self.tty else 200
            text = text[:max(10, cols - 1)]
            sys.stderr.write("\r\x1b[K" + text)
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def end(self) -> None:
        if self.tty:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _roots(home: Path) -> list[Path]:
    from archive.discovery import ROOTS
    return [home / r for r in ROOTS]


def run(args: argparse.Namespace) -> int:
    import watchfiles

    from archive.discovery import discover
    from archive.ingest import sync
    from archive.store import Store
    from capsule_capture import pipeline

    from archive.providers import MODULES
    home = Path(args.home).expanduser().absolute()
    if not home.is_dir():
        raise UserError(f"no such directory: {home}")
    if args.agent and args.agent not in MODULES:
        raise UserError(f"{args.agent} keeps no session files to watch; agents that do: {', '.join(MODULES)}")
    data = pipeline.data_home()
    recs = pipeline.recordings_dir(data)
    try:
        pipeline.private_dir(recs, top=data)
    except OSError as e:
        raise UserError(f"cannot create {recs}: {e.strerror}") from None
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    tally = Tally()
    line = Line()
    store = Store(pipeline.archive_path(data))

    def archive_native(paths: set[Path] | None) -> None:
        """Sync the sessions under `paths` (all when None)."""
        found = discover(home, args.agent)
        if paths is not None:
            found = [f for f in found if any(p == f.path or f.path in p.parents or p in f.path.parents
                                             for p in paths)]
        if not found:
            return
        try:
            st = sync(home, args.agent, store, found=found)
        except Exception as e:  # noqa: BLE001 - one store that fails never stops the watch
            tally.problems.append(f"{', '.join(str(f.path) for f in found[:3])}: not archived ({e})")
            return
        n = st.new + st.updated
        tally.sessions += n
        tally.turns += st.turns_added
        for p in st.problems:
            if p not in tally.problems:
                tally.problems.append(p)
        if n:
            names = sorted({f.provider.name for f in found})
            tally.last = f"{', '.join(names)}: {n} session{'s' * (n != 1)}, {st.turns_added} turns"

    def archive_recordings(paths: set[Path]) -> None:
        files: set[Path] = set()
        for p in paths:
            files.update(p.rglob("*.cast") if p.is_dir() else [p])
        for p in sorted(files):
            if (p.suffix != ".cast" or not p.is_file() or pipeline.archived_to_end(store, p)
                    or pipeline.opted_out(p) or pipeline.is_live(p)):
                continue
            try:
                cid = pipeline.import_recording(p, None, store)
            except Exception as e:  # noqa: BLE001 - one bad file never stops the watch
                tally.problems.append(f"{p}: not imported ({e})")
                continue
            if cid is None:
                continue  # no conversation in it
            tally.recordings += 1
            tally.last = f"recording {p.name} -> {cid}"

    def status() -> None:
        line.show(f"watching {len(watched)} folder{'s' * (len(watched) != 1)} · {tally.sessions} sessions, "
                  f"{tally.recordings} recordings archived"
                  + (f" · last {time.strftime('%H:%M:%S')} {tally.last}" if tally.last else ""))

    watched: list[Path] = []
    catch_up: set[Path] | None = None  # what to read once the watcher is live (None: everything)
    try:
        while not stop.is_set():
            watched = [r for r in _roots(home) if r.is_dir()] + [recs]
            started = False
            appeared: list[Path] = []
            fresh: dict[Path, float] = {}  # folders made while watching, rescanned for a while
            try:
                batches = watchfiles.watch(*watched, debounce=DEBOUNCE_MS, step=STEP_MS, rust_timeout=RECHECK_MS,
                                           yield_on_timeout=True, stop_event=stop, raise_interrupt=False,
                                           watch_filter=None)
                first = next(batches, None)
            except (OSError, RuntimeError) as e:  # a folder vanished while the watcher started
                tally.problems.append(f"watcher restarted: {e}")
                stop.wait(RECHECK_MS / 1000)
                continue
            if first is None:
                break
            for changes in itertools.chain([first], batches):
                if not started:
                    # The watcher is live now: what changed before (while nobody
                    # watched, or while it was starting) is read once.
                    started = True
                    archive_native(catch_up)
                    todo, _ = pipeline.pending_recordings(store, data)
                    archive_recordings(set(todo))
                    status()
                now = time.monotonic()
                paths = {Path(p) for _, p in changes}
                for p in paths:
                    if p.is_dir():
                        fresh[p] = now
                for d, t in list(fresh.items()):
                    if now - t > FRESH_S:
                        del fresh[d]
                    else:
                        paths.add(d)
                if changes:
                    tally.events += 1
                if paths:
                    rec_paths = {p for p in paths if recs == p or recs in p.parents}
                    if rec_paths:
                        archive_recordings(rec_paths)
                    if paths - rec_paths:
                        archive_native(paths - rec_paths)
                    status()
                appeared = [r for r in _roots(home) if r.is_dir() and r not in watched]
                if appeared or stop.is_set():
                    break
            catch_up = set(appeared)  # what was in a new store before we watched it
    finally:
        store.close()
        line.end()
    print(f"watch: {tally.sessions} sessions and {tally.recordings} recordings archived "
          f"({tally.turns} turns) from {tally.events} changes", file=sys.stderr)
    for p in tally.problems[:10]:
        print(f"  skipped: {p}", file=sys.stderr)
    return 0
