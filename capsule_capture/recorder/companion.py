"""The live companion: archives a recording while it is being recorded.

`record` starts it as a detached process (its own session, no terminal,
nice 10) and never waits on it: the PTY loop stays a byte copier. The
companion follows the recording file as it grows (`pipeline.Follower`
keeps the virtual screen and the frames; nothing is replayed from the
start), rebuilds the conversation from the frames on a bounded schedule,
and writes it to the archive. When the recorder goes away (the pipe it
holds reaches end-of-file: a normal exit, a crash or SIGKILL alike) the
companion reads the rest, fsyncs the file, writes the final conversation
and exits, in the background, surviving the terminal closing.

While it runs it holds a shared lock on the recording, so `sync` and
`watch` leave a recording being captured alone.

Usage (internal): python -m capsule_capture.recorder.companion FILE --archive DIR --done-fd N [--agent NAME]
"""
from __future__ import annotations

import argparse
import fcntl
import os
import select
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

TICK = 0.25  # seconds between looks at the file
#: while the recording grows faster than this (bytes/s: a `cat` of a big file,
#: not a conversation) the companion stands aside so the recorder has the CPU,
#: for at most MAX_DEFER seconds in a row; a conversation drawn meanwhile is
#: still being drawn
FLOOD_RATE = 1 << 20
MAX_DEFER = 10.0
MIN_INTERVAL = 1.0  # seconds between archive writes, at least
COST_FACTOR = 2.0  # ... and at least this many times what the last rebuild + write cost


def spawn(path: Path, archive: Path, agent: str | None) -> tuple[subprocess.Popen, int] | None:
    """Start the companion for `path`; returns it and the fd the recorder
    keeps open while it records (closing it, or dying, tells the companion
    to finish). None when it cannot start: `sync` archives the file later."""
    done_r, done_w = os.pipe()  # both close-on-exec: the recorded program never holds them
    cmd = [sys.executable, "-m", "capsule_capture.recorder.companion", str(path), "--archive", str(archive),
           "--done-fd", str(done_r)]
    if agent:
        cmd += ["--agent", agent]
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, pass_fds=(done_r,), start_new_session=True,
                                cwd="/", env=_env())
    except OSError:
        os.close(done_r)
        os.close(done_w)
        return None
    os.close(done_r)
    return proc, done_w


def _env() -> dict[str, str]:
    """The recorder's environment, with this package importable from anywhere."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _log(archive: Path, text: str) -> None:
    """Errors go to a private log next to the archive (the companion has no terminal)."""
    try:
        path = archive.parent / "companion.log"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as fh:
            fh.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {text}\n")
    except OSError:
        pass


def follow(path: Path, archive: Path, done_fd: int | None, agent: str | None = None) -> int:
    from archive.store import Store
    from capsule_capture.pipeline import Follower, store_follower
    stop = [False]

    def on_term(_sig: int, _frame: object) -> None:
        stop[0] = True  # finish now: read what is there, write it, exit

    signal.signal(signal.SIGTERM, on_term)
    fh = open(path, "rb")
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_SH)
    except OSError:
        pass
    follower = Follower(str(path), agent)
    store: Store | None = None
    last_write = 0.0
    interval = MIN_INTERVAL
    dirty = False
    seen_size, seen_at, deferred = 0, time.monotonic(), 0.0
    failed = False
    try:
        while not stop[0]:
            done = False
            if done_fd is not None:
                try:
                    r, _, _ = select.select([done_fd], [], [], TICK)
                except InterruptedError:
                    r = []
                if r:
                    try:
                        done = not os.read(done_fd, 64)
                    except OSError:
                        done = True
            else:
                time.sleep(TICK)
            if not done:
                size, now = os.fstat(fh.fileno()).st_size, time.monotonic()
                rate = (size - seen_size) / max(now - seen_at, 1e-3)
                seen_size, seen_at = size, now
                if rate > FLOOD_RATE and deferred < MAX_DEFER:
                    deferred += TICK
                    continue
                deferred = 0.0
            if follower.poll(fh):
                dirty = True
            if done:
                break
            if follower.probe_quiet():
                dirty = True
            if dirty and follower.header is not None and time.monotonic() - last_write >= interval:
                t0 = time.monotonic()
                store = store or Store(archive)
                try:
                    store_follower(store, follower)
                except Exception:  # noqa: BLE001 - a half-drawn screen a profile trips on: next time
                    if not failed:
                        _log(archive, f"{path}: live update failed:\n{traceback.format_exc()}")
                    failed = True
                cost = time.monotonic() - t0
                last_write = time.monotonic()
                interval = max(MIN_INTERVAL, COST_FACTOR * cost)
                dirty = False
        follower.poll(fh)
        try:
            os.fsync(fh.fileno())  # the recorder left this to us, off the user's path
        except OSError:
            pass
        if follower.header is not None:
            follower.finish()
            store = store or Store(archive)
            store_follower(store, follower)
    finally:
        if store is not None:
            store.close()
        fh.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="capsule-capture-companion")
    ap.add_argument("file")
    ap.add_argument("--archive", required=True)
    ap.add_argument("--done-fd", type=int)
    ap.add_argument("--agent")
    a = ap.parse_args(argv)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # the terminal closing is not our end
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(10)  # the agent and the recorder come first on a busy machine
    except OSError:
        pass
    archive = Path(a.archive)
    try:
        return follow(Path(a.file), archive, a.done_fd, a.agent)
    except Exception:  # noqa: BLE001 - no terminal to print to; the recording stays for `sync`
        _log(archive, f"{a.file}: not archived live:\n{traceback.format_exc()}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
