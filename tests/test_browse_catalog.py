"""What the browser reads from the archive: rows newest first across read chunks, filters as
instants, and the distinct workspaces, agents and local days found by index seeks."""
from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from archive.record import Conversation, Turn
from archive.store import Store
from capsule_capture.tui import catalog

AGENTS = ("codex", "claude-code", "gemini")


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Tokyo")  # local days differ from UTC days
    import time
    time.tzset()
    convs = []
    for i in range(60):
        started = datetime(2026, 3, 1 + i // 6, (i * 5) % 24, i % 60, tzinfo=timezone.utc)
        convs.append(Conversation(id=f"k{i:015d}", agent=AGENTS[i % 3], native_id=f"n{i}", workspace=f"/w/{i % 4}",
                                  started_at=started.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                                  turns=[Turn(role="user", text=f"t{i}")]))
    with Store(tmp_path / "a") as s:
        s.write(lambda txn: [s.put(txn, c) for c in convs])
        yield s, convs
    monkeypatch.delenv("TZ")
    time.tzset()


def _start(c):
    return datetime.fromisoformat(c.started_at.replace("Z", "+00:00"))


def test_rows_newest_first_across_chunks(store, monkeypatch):
    s, convs = store
    want = [c.id for c in sorted(convs, key=_start, reverse=True)]
    monkeypatch.setattr(catalog, "CHUNK", 7)
    assert [r["id"] for r in catalog.rows(s)] == want
    assert [r["id"] for r in catalog.rows(s, agent="codex")] == [i for i in want if int(i[1:]) % 3 == 0]
    assert [r["id"] for r in catalog.rows(s, workspace="/w/1", agent="gemini")] == [
        i for i in want if int(i[1:]) % 4 == 1 and int(i[1:]) % 3 == 2]
    since = datetime(2026, 3, 4, 9, 0, tzinfo=timezone.utc)
    until = datetime(2026, 3, 7, 0, 0, tzinfo=timezone.utc)
    got = [r["id"] for r in catalog.rows(s, since=since, until=until)]
    assert got == [c.id for c in sorted(convs, key=_start, reverse=True) if since <= _start(c) < until]
    assert catalog.page(s, 10, 5) == list(catalog.rows(s))[10:15]


def test_distinct_values_and_local_days(store):
    s, convs = store
    assert catalog.agents(s) == sorted(AGENTS)
    assert sorted(w for w, _ in catalog.workspaces(s)) == ["/w/0", "/w/1", "/w/2", "/w/3"]
    latest = catalog.workspaces(s)[0]
    assert latest[1] == max(c.started_at for c in convs)
    days = catalog.days(s)
    want = sorted({_start(c).astimezone().date() for c in convs}, reverse=True)
    assert days == want and days[0] > date(2026, 3, 10)  # Tokyo days, not UTC's
    d = days[3]
    lo, hi = catalog.day_bounds(d)
    in_day = [r["id"] for r in catalog.rows(s, since=lo, until=hi)]
    assert in_day and all(_start(next(c for c in convs if c.id == i)).astimezone().date() == d for i in in_day)
    assert catalog.days(s, workspace="/w/2") == sorted(
        {_start(c).astimezone().date() for c in convs if c.workspace == "/w/2"}, reverse=True)
    assert catalog.local_time("2026-03-01T00:00:00Z") == "2026-03-01 09:00 JST"
