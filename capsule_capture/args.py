"""Argument types shared by every command, so a bad value is refused the same way everywhere.

Each is an argparse `type=`: a bad value raises `argparse.ArgumentTypeError`,
which argparse prints as one line with the usage and exit code 2.
"""
from __future__ import annotations

import argparse
import re
from datetime import datetime, timedelta, timezone

_RELATIVE = re.compile(r"^(\d+)\s*([smhdw])$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def instant(text: str, now: datetime | None = None) -> datetime:
    """A moment as an aware datetime: ISO 8601 (offset honoured, none = local time),
    `today`, `yesterday` (local midnight), or an age such as `7d`, `12h`, `30m`, `2w`."""
    raw = text.strip()
    now = now or datetime.now().astimezone()
    low = raw.lower()
    if low in ("today", "yesterday"):
        midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
        return midnight - timedelta(days=1) if low == "yesterday" else midnight
    if low == "now":
        return now
    m = _RELATIVE.match(low)
    if m:
        return now - timedelta(**{_UNITS[m.group(2)]: int(m.group(1))})
    try:
        dt = datetime.fromisoformat(raw.replace("Z", "+00:00") if raw.endswith("Z") else raw)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date: use ISO 8601 (2026-11-23, 2026-11-23T09:00+01:00), today, yesterday or an age like 7d")
    if dt.tzinfo is None:
        dt = dt.astimezone()  # a naive time is the user's local time
    return dt


def positive_int(text: str) -> int:
    """A count of at least 1 (`--limit`)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text} is not allowed: give 1 or more")
    return n


def agent_name(text: str) -> str:
    """A known agent name or alias, as its canonical name; the error lists the known names."""
    from agents_chrome import registry
    name = registry.canonical(text)
    if name is None:
        known = ", ".join(n for n in registry.AGENTS)
        raise argparse.ArgumentTypeError(f"unknown agent {text!r}; known agents: {known}")
    return name


def query(words: list[str]) -> str:
    """Search words given unquoted (`search release pipeline`) joined; empty is refused."""
    from capsule_capture.errors import UserError
    q = " ".join(w for w in words if w is not None).strip()
    if not q:
        raise UserError("the search query is empty: give one or more words")
    return q


def conversation_id(store, ident: str) -> str:  # type: ignore[no-untyped-def]
    """An archived conversation's id from an id or a unique prefix of one."""
    from capsule_capture.errors import UserError
    ids = store.resolve(ident)
    if not ids:
        raise UserError(f"no conversation with id {ident!r}")
    if len(ids) > 1:
        raise UserError(f"id prefix {ident!r} is ambiguous ({len(ids)} conversations); give more characters")
    return ids[0]  # type: ignore[no-any-return]


def parse_instant(text: str | None) -> datetime | None:
    """`instant` for values that came from somewhere else than argparse (None passes through)."""
    return None if text is None else instant(text)


def as_utc(dt: datetime) -> datetime:
    return dt.astimezone(timezone.utc)
