"""Keyword search over the archive: postings from the LMDB term index,
all terms required when possible (any term otherwise), ranked by how often
the terms occur, newest first on ties, with a highlighted snippet."""
from __future__ import annotations

from dataclasses import dataclass

import regex

from archive.record import Conversation
from archive.store import Store, terms_of

MAX_RANKED = 200  # candidates loaded for ranking


@dataclass
class Hit:
    conv: Conversation
    score: float
    snippet: str
    turn_index: int
    role: str


def search(store: Store, query: str, limit: int = 20) -> list[Hit]:
    words = sorted(terms_of(query))
    if not words:
        return []
    with store.env.begin() as txn:
        lists = sorted((store.postings(txn, w) for w in words), key=len)
        ids = set.intersection(*lists) if lists and all(lists) else set()
        matched_all = bool(ids)
        if not ids:
            counts: dict[bytes, int] = {}
            for ps in lists:
                for cid in ps:
                    counts[cid] = counts.get(cid, 0) + 1
            ids = set(sorted(counts, key=lambda c: -counts[c])[:MAX_RANKED])
        convs = [c for c in (store.get_in(txn, cid.decode()) for cid in list(ids)[:MAX_RANKED * 5]) if c]
    rx = regex.compile(r"\b(" + "|".join(regex.escape(w) for w in words) + r")\w*", regex.I)
    hits = []
    for c in convs:
        best_i, best_n, total = 0, -1, 0
        for i, t in enumerate(c.turns):
            n = len(rx.findall(t.text))
            total += n
            if n > best_n:
                best_i, best_n = i, n
        if total == 0 and not rx.search(c.title or ""):
            continue
        turn = c.turns[best_i] if c.turns else None
        hits.append(Hit(c, total + (100 if matched_all else 0), snippet(turn.text if turn else c.title or "", rx),
                        best_i, turn.role if turn else ""))
    hits.sort(key=lambda h: (-h.score, -(_ts(h.conv))))
    return hits[:limit]


def _ts(c: Conversation) -> float:
    from archive.merge import _when
    d = _when(c.started_at)
    return d.timestamp() if d else 0.0


def snippet(text: str, rx: "regex.Pattern[str]", width: int = 160) -> str:
    """Text around the first match, matches wrapped in [[ ]] (rendered bold by the CLI)."""
    flat = " ".join(text.split())
    m = rx.search(flat)
    start = max(0, (m.start() if m else 0) - width // 3)
    piece = flat[start:start + width]
    piece = rx.sub(lambda mm: f"[[{mm.group(0)}]]", piece)
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")
