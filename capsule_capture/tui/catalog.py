"""What the browser and the CLI read from the archive, without loading it whole.

Rows come from the store's sorted indexes (by time, by agent, by workspace),
newest first, one page at a time; distinct workspaces, agents and local days
are found by jumping over the index with seeks (one seek per distinct value),
so a first screen costs the same at 100 or 100,000 conversations.

Start times are compared as instants: index keys are ISO text, which sorts in
time order only for one offset, so the seek bounds are widened by a day and
every row is then checked against the real bounds.
"""
from __future__ import annotations

import shlex
from datetime import date, datetime, timedelta, timezone
from typing import Any, Iterator

SLACK = timedelta(days=1)  # wider than any UTC offset (+14:00 / -12:00)
CHUNK = 256  # index keys read per read transaction

# How to pick a conversation up again in its own agent (the agent's session id).
RESUME: dict[str, str] = {
    "claude-code": "claude -r {id}",
    "codex": "codex resume {id}",
    "opencode": "opencode -s {id}",
    "gemini": "gemini --resume {id}",
    "kimi": "kimi -S {id}",
    "vibe": "vibe --resume {id}",
    "amp": "amp threads continue {id}",
}


def when(iso: str | None) -> datetime | None:
    """An archived ISO time as an aware datetime (naive ones are UTC, as the providers write them)."""
    if not iso:
        return None
    s = iso.strip()
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(s)
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


def local_time(iso: str | None, seconds: bool = False) -> str:
    """`2026-11-22 15:54 CET`: the reader's local time, with its zone named."""
    dt = when(iso)
    if dt is None:
        return "-"
    loc = dt.astimezone()
    return loc.strftime("%Y-%m-%d %H:%M:%S %Z" if seconds else "%Y-%m-%d %H:%M %Z")


def _key_bound(dt: datetime | None, widen: timedelta) -> bytes | None:
    if dt is None:
        return None
    return (dt.astimezone(timezone.utc) + widen).strftime("%Y-%m-%dT%H:%M:%S").encode()


def _index(store: Any, agent: str | None, workspace: str | None) -> tuple[Any, bytes]:
    """(index, key prefix) to walk: the workspace's when given, else the agent's, else time's."""
    if workspace is not None:
        return store.by_ws, workspace.encode() + b"\0"
    if agent:
        return store.by_agent, agent.encode() + b"\0"
    return store.by_time, b""


def rows(store: Any, agent: str | None = None, workspace: str | None = None,
         since: datetime | None = None, until: datetime | None = None) -> Iterator[dict[str, Any]]:
    """Summary rows started in [since, until), newest first, filtered on an index first.

    The most selective index is walked: the workspace's, else the agent's, else time's;
    the other filter is checked on each row (a few microseconds: rows are small). Keys are
    read CHUNK at a time, each chunk in its own short read transaction that is closed
    before any row is handed out: a list left open in the browser holds no snapshot, so
    syncs running meanwhile can reuse the archive's free pages.
    """
    db, prefix = _index(store, agent, workspace)
    lo = _key_bound(since, -SLACK)
    hi = _key_bound(until, SLACK)
    below = prefix + (hi if hi else b"\xff")  # the next key read is the last one under this
    done = False
    while not done:
        batch = []
        with store.env.begin() as txn:
            cur = txn.cursor(db=db)
            ok = cur.set_range(below)
            ok = cur.prev() if ok else cur.last()
            seen = 0
            while True:
                if not ok or seen >= CHUNK:
                    done = not ok
                    break
                key = cur.key()
                if not key.startswith(prefix):
                    done = True
                    break
                started, cid = key[len(prefix):].rsplit(b"\0", 1)
                if lo is not None and started < lo:
                    done = True
                    break
                below = key
                seen += 1
                ok = cur.prev()
                if since is not None or until is not None:
                    dt = when(started.decode())
                    if dt is None or (since is not None and dt < since) or (until is not None and dt >= until):
                        continue
                r = store.row(txn, cid.decode())
                if r is None or (agent and r.get("agent") != agent) or (
                        workspace is not None and (r.get("workspace") or "") != workspace):
                    continue
                batch.append(r)
        yield from batch


def page(store: Any, offset: int, size: int, **filters: Any) -> list[dict[str, Any]]:
    """Rows [offset, offset+size) of `rows(**filters)`: what a lazy list asks for as it scrolls."""
    out = []
    for i, r in enumerate(rows(store, **filters)):
        if i >= offset + size:
            break
        if i >= offset:
            out.append(r)
    return out


def _distinct_prefixes(txn: Any, db: Any) -> list[bytes]:
    """Distinct values before the first NUL of an index's keys, one seek each."""
    out = []
    cur = txn.cursor(db=db)
    ok = cur.first()
    while ok:
        value = cur.key().split(b"\0", 1)[0]
        out.append(value)
        ok = cur.set_range(value + b"\x01")
    return out


def workspaces(store: Any) -> list[tuple[str, str | None]]:
    """(workspace, latest start) for every workspace, most recently active first."""
    out = []
    with store.env.begin() as txn:
        cur = txn.cursor(db=store.by_ws)
        for value in _distinct_prefixes(txn, store.by_ws):
            latest = None
            if cur.set_range(value + b"\x01"):
                ok = cur.prev()
            else:
                ok = cur.last()
            if ok and cur.key().startswith(value + b"\0"):
                latest = cur.key()[len(value) + 1:].rsplit(b"\0", 1)[0].decode() or None
            out.append((value.decode(), latest))
    out.sort(key=lambda p: p[1] or "", reverse=True)
    return out


def agents(store: Any) -> list[str]:
    """Every agent with something archived."""
    with store.env.begin() as txn:
        return sorted(v.decode() for v in _distinct_prefixes(txn, store.by_agent))


def days(store: Any, workspace: str | None = None, agent: str | None = None, cap: int = 400) -> list[date]:
    """Local days with a conversation started on them, newest first (one seek per day).

    Walks the workspace's index when given, else the agent's, else time's; when both are
    given the agent is not checked (a day listed may then hold none of that agent's)."""
    db, prefix = _index(store, agent, workspace)
    out: list[date] = []
    with store.env.begin() as txn:
        cur = txn.cursor(db=db)
        ok = cur.set_range(prefix + b"\xff")
        ok = cur.prev() if ok else cur.last()
        while ok and len(out) < cap:
            key = cur.key()
            if not key.startswith(prefix):
                break
            started = key[len(prefix):].rsplit(b"\0", 1)[0].decode()
            dt = when(started)
            if dt is None:
                break  # undated ones sort first: nothing older remains
            d = dt.astimezone().date()
            if not out or out[-1] != d:
                out.append(d)
            midnight = datetime(d.year, d.month, d.day).astimezone()
            bound = _key_bound(midnight, timedelta(0))
            assert bound is not None
            # the key just below local midnight of that day (keys may carry offsets: step past equal text)
            ok = cur.set_range(prefix + bound)
            ok = cur.prev() if ok else cur.last()
            if ok and cur.key()[len(prefix):] >= key[len(prefix):]:
                ok = cur.prev()
    return out


def day_bounds(d: date) -> tuple[datetime, datetime]:
    start = datetime(d.year, d.month, d.day).astimezone()
    end = datetime.combine(d + timedelta(days=1), datetime.min.time()).astimezone()
    return start, end


def vectors(conv: Any) -> str:
    """Where the turns come from: `native`, `screen` or `both` (a stream counts as native)."""
    kinds = {("screen" if getattr(t, "vector", "native") == "screen" else "native") for t in conv.turns}
    if not kinds:
        kinds = {("screen" if s.vector == "screen" else "native") for s in conv.sources}
    if kinds == {"native", "screen"}:
        return "both"
    return next(iter(kinds), "-")


def resume_command(conv: Any) -> str | None:
    """The shell command that reopens this conversation in its agent, run from its workspace."""
    tmpl = RESUME.get(conv.agent)
    if not tmpl or not conv.native_id:
        return None
    cmd = tmpl.format(id=shlex.quote(conv.native_id))
    if conv.workspace:
        cmd = f"cd {shlex.quote(conv.workspace)} && {cmd}"
    return cmd


def cast_path(conv: Any) -> str | None:
    """The recording behind a conversation's screen turns, if it is still on disk."""
    from pathlib import Path
    for s in conv.sources:
        if s.vector == "screen" and s.path.endswith(".cast") and Path(s.path).is_file():
            return s.path
    return None
