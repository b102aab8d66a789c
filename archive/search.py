"""Keyword search over the archive.

The term index holds, per term, (document number, term frequency)
postings. A query's terms are looked up rarest first; conversations that
hold every term are ranked by a BM25-style score (rare terms weigh more,
repeated ones saturate), newest first on ties; when no conversation holds
them all, those holding most of them are ranked instead. Only the top
hits are decoded, for their highlighted snippet.

Very common terms are read newest first up to `POSTINGS_CAP` postings
each, which bounds a query's work at any archive size: a term found in
more conversations than that ranks among the newest of them.
"""
from __future__ import annotations

import heapq
import math
import re
import struct
from dataclasses import dataclass

from archive.record import Conversation
from archive.store import POSTING, Store, terms_of
from archive.tokens import highlighter

POSTINGS_CAP = 20000


@dataclass
class Hit:
    conv: Conversation
    score: float
    snippet: str
    turn_index: int
    role: str


def _postings(cur, term: bytes, cap: int) -> dict[int, int]:  # type: ignore[no-untyped-def]
    """docno -> tf for `term`, newest (highest docno) first, at most `cap`."""
    if not cur.set_key(term):
        return {}
    # One C call reads every posting as packed (term, docno, tf) records (MDB_GET_MULTIPLE):
    # 20-40x faster than a Python loop over the duplicates; they sort by docno, so the
    # newest `cap` are the buffer's tail.
    rec = len(term) + POSTING.size
    buf = cur.getmulti([term], dupdata=True, dupfixed_bytes=POSTING.size, keyfixed=True)
    if len(buf) > cap * rec:
        buf = buf[len(buf) - cap * rec:]
    return dict(struct.iter_unpack(f">{len(term)}xIB", buf))


def search(store: Store, query: str, limit: int = 20) -> list[Hit]:
    words = sorted(terms_of(query))
    if not words:
        return []
    with store.env.begin() as txn:
        total = max(1, txn.stat(store.conv)["entries"])
        cur = txn.cursor(db=store.terms)
        dfs = {}
        for w in words:
            dfs[w] = cur.count() if cur.set_key(w.encode()) else 0
        present = sorted((w for w in words if dfs[w]), key=lambda w: dfs[w])
        if not present:
            return []
        idf = {w: math.log(1 + (total - dfs[w] + 0.5) / (dfs[w] + 0.5)) for w in present}
        lists = [(w, _postings(cur, w.encode(), POSTINGS_CAP)) for w in present]
        first = lists[0][1]
        both = set(first)
        for _, ps in lists[1:]:
            both &= ps.keys()
            if not both:
                break
        if both and len(present) == len(words):
            cands = both
            bonus = 1000.0
        else:  # no conversation has every term: rank those with most of them
            cands = set()
            for _, ps in lists:
                cands |= ps.keys()
            bonus = 0.0
        # each term's weight per term frequency (tf <= 255), computed once: the same
        # expression as per posting, so scores are bit-for-bit what they were
        tables = [(ps, [idf[w] * tf * 2.2 / (tf + 1.2) for tf in range(256)]) for w, ps in lists]
        if len(tables) == 1:  # one term: every candidate holds it (the common case while typing)
            ps, wt = tables[0]
            full = bonus * (1 == len(words))
            scored = [(0.0 + wt[tf] + full + 100.0, d) for d, tf in ps.items()]
        else:
            scored = []
            for d in cands:
                s = 0.0
                matched = 0
                for ps, wt in tables:
                    tf = ps.get(d)
                    if tf:
                        matched += 1
                        s += wt[tf]
                scored.append((s + bonus * (matched == len(words)) + 100.0 * matched, d))
        top = heapq.nlargest(limit, scored)
        convs = []
        for s, d in top:
            cid = txn.get(POSTING.pack(d, 0)[:4], db=store.docs)
            c = store.get_in(txn, cid.decode(), raw=False) if cid else None
            if c is not None:
                convs.append((s, c))
    rx = highlighter(words)  # archive/tokens.py: CJK terms match inside their run
    hits = []
    for s, c in convs:
        best_i, best_n = 0, -1
        for i, t in enumerate(c.turns):
            n = len(rx.findall(t.text))
            if n > best_n:
                best_i, best_n = i, n
        turn = c.turns[best_i] if c.turns else None
        text = turn.text if turn is not None and best_n > 0 else (c.title or (turn.text if turn else ""))
        hits.append(Hit(c, s, snippet(text, rx), best_i, turn.role if turn else ""))
    hits.sort(key=lambda h: (-h.score, -_ts(h.conv)))
    return hits


def _ts(c: Conversation) -> float:
    from archive.record import instant
    d = instant(c.started_at)
    return d.timestamp() if d else 0.0


def snippet(text: str, rx: "re.Pattern[str]", width: int = 160) -> str:
    """Text around the first match, matches wrapped in [[ ]] (rendered bold by the CLI)."""
    flat = " ".join(text.split())
    m = rx.search(flat)
    start = max(0, (m.start() if m else 0) - width // 3)
    piece = flat[start:start + width]
    piece = rx.sub(lambda mm: f"[[{mm.group(0)}]]", piece)
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")
