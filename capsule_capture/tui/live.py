"""Search as you type: the query's last word is usually half typed.

`rel` finds nothing in a keyword index that holds `release`, so while the
last word is still being typed (no space after it) it is completed from the
index itself: the terms starting with it are read in key order (a seek and
a short walk in the sorted term table), and the one held by the most
conversations stands in for it. Then it is one ordinary ranked search, so a
keystroke costs one index lookup more than a full query; nothing scans
conversations.
"""
from __future__ import annotations

from typing import Any

from archive.tokens import is_cjk, tokens

COMPLETIONS_READ = 64  # terms sharing the prefix looked at (enough for a 3-letter prefix to pick well)


def complete(store: Any, prefix: str, limit: int = COMPLETIONS_READ) -> str | None:
    """The indexed term starting with `prefix` held by the most conversations (the prefix
    itself when it is a term and nothing more common starts with it)."""
    key = prefix.encode()
    best, best_n = None, 0
    with store.env.begin() as txn:
        cur = txn.cursor(db=store.terms)
        ok = cur.set_range(key)
        seen = 0
        while ok and seen < limit:
            term = cur.key()
            if not term.startswith(key):
                break
            n = cur.count()
            if n > best_n:
                best, best_n = term.decode(), n
            seen += 1
            ok = cur.next_nodup()
    return best


def live_query(store: Any, text: str) -> str:
    """The query to run for what has been typed so far."""
    words = list(tokens(text))
    if not words:
        return ""
    last = words[-1]
    if text[-1:].isspace() or is_cjk(last):
        return " ".join(words)
    done = complete(store, last)
    return " ".join(words[:-1] + [done or last])


def live_search(store: Any, text: str, limit: int = 20) -> list[Any]:
    """Ranked hits for a query still being typed (archive/search.py does the ranking)."""
    from archive.search import search
    q = live_query(store, text)
    return search(store, q, limit) if q else []
