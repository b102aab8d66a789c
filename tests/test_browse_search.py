"""Postings read in one call (MDB_GET_MULTIPLE) keep their meaning: every docno with its term
frequency, and past the cap only the newest."""
from __future__ import annotations

from archive import search as search_mod
from archive.record import Conversation, Turn
from archive.store import Store


def _put(store, n):
    convs = [Conversation(id=f"c{i:015d}", agent="codex", native_id=f"n{i}", started_at=f"2026-01-01T00:{i % 60:02d}:00Z",
                          turns=[Turn(role="user", text=" ".join(["alpha"] * (1 + i % 4)) + f" beta{i}")])
             for i in range(n)]
    store.write(lambda txn: [store.put(txn, c) for c in convs])
    return convs


def test_postings_all_and_capped(tmp_path, monkeypatch):
    with Store(tmp_path / "a") as store:
        convs = _put(store, 40)
        with store.env.begin() as txn:
            cur = txn.cursor(db=store.terms)
            got = search_mod._postings(cur, b"alpha", 1000)
            assert len(got) == 40
            nos = sorted(got)
            assert [got[d] for d in nos] == [1 + i % 4 for i in range(40)]  # docnos follow the put order
            tail = search_mod._postings(cur, b"alpha", 7)
            assert sorted(tail) == nos[-7:]
            assert search_mod._postings(cur, b"nosuchterm", 10) == {}
            assert search_mod._postings(cur, b"beta3", 10) == {nos[3]: 1}
        monkeypatch.setattr(search_mod, "POSTINGS_CAP", 10)
        hits = search_mod.search(store, "alpha", 40)
        assert {h.conv.id for h in hits} == {c.id for c in convs[-10:]}
