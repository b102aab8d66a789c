"""Answers about row snapshots, worked out once per snapshot.

The screen re-reads only the rows that changed: an unchanged row is the very
same cell tuple in every frame (`VirtualScreen.snapshot_with_text`), and its
style spans the very same spans tuple (`frames.SpanCache`). Whatever depends
on nothing but such a tuple (and a few plain values: the row's text, the
width) is therefore worked out once per snapshot and kept by the tuple's
identity. The entry holds the tuple, so its id stays its own while it is
kept. The frames' span cache and the chrome rules' per-row memos all keep
their answers this way.
"""
from __future__ import annotations

from typing import Any, Callable, Hashable, TypeVar

_T = TypeVar("_T")


class IdentityMemo:
    """`work(*args)` kept by (identity of `obj`, `key`); at most `limit` entries
    (all dropped at once when full: a few screens' worth of distinct rows)."""

    __slots__ = ("limit", "_by")

    def __init__(self, limit: int = 8192) -> None:
        self.limit = limit
        self._by: dict[tuple[int, Hashable], tuple[object, Any]] = {}

    def get(self, obj: object, key: Hashable, work: Callable[..., _T], *args: Any) -> _T:
        """The answer about `obj` (a tuple that is never changed) under `key`:
        `work(*args)` the first time, the kept answer after."""
        k = (id(obj), key)
        hit = self._by.get(k)
        if hit is not None and hit[0] is obj:
            return hit[1]  # type: ignore[no-any-return]
        if len(self._by) >= self.limit:
            self._by.clear()
        got = work(*args)
        self._by[k] = (obj, got)
        return got

    def __len__(self) -> int:
        return len(self._by)

    def clear(self) -> None:
        self._by.clear()
