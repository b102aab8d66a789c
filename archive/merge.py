"""Structured first: one conversation from a native record and a screen capture.

A native turn always wins. Screen turns are kept only where no structured
source has the turn: a prompt the native file does not have (it is
missing, truncated, or stops early), or the answer to a prompt the native
record holds without one (Amp's prompt history). Every turn keeps its
`vector`.
"""
from __future__ import annotations

from datetime import timedelta

from archive.record import Conversation, Source, Turn, instant

WINDOW = timedelta(minutes=30)


def norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def segments(turns: list[Turn]) -> list[list[Turn]]:
    """Split turns into segments, each opened by a user turn (a leading one may not be)."""
    segs: list[list[Turn]] = []
    for t in turns:
        if t.role == "user" or not segs:
            segs.append([t])
        else:
            segs[-1].append(t)
    return segs


def match_score(native: Conversation, screen: Conversation) -> int:
    """How strongly a screen capture belongs to a native conversation (0: not at all)."""
    if native.agent != screen.agent:
        return 0
    if native.workspace and screen.workspace and native.workspace != screen.workspace:
        if not (native.workspace.endswith(screen.workspace) or screen.workspace.endswith(native.workspace)):
            return 0
    a0, a1 = instant(native.started_at), instant(native.ended_at) or instant(native.started_at)
    b0, b1 = instant(screen.started_at), instant(screen.ended_at) or instant(screen.started_at)
    if a0 and b0 and a1 and b1 and (b0 > a1 + WINDOW or a0 > b1 + WINDOW):
        return 0
    prompts = {norm(t.text) for t in native.turns if t.role == "user"}
    shared = sum(1 for t in screen.turns if t.role == "user" and norm(t.text) in prompts)
    return shared


def merge(native: Conversation, screen_turns: list[Turn], screen_sources: list[Source]) -> Conversation:
    """`native` with the screen turns that fill what it lacks."""
    nsegs = segments([t for t in native.turns if t.vector != "screen"])
    have = {norm(s[0].text): i for i, s in enumerate(nsegs) if s[0].role == "user"}
    out_segs = [list(s) for s in nsegs]
    extra: list[list[Turn]] = []
    for seg in segments(screen_turns):
        head = seg[0]
        if head.role == "user" and norm(head.text) in have:
            target = out_segs[have[norm(head.text)]]
            if all(t.role == "user" for t in target):  # the native side has the prompt only
                target.extend(seg[1:])
            continue
        if head.role != "user" and not nsegs:
            extra.append(seg)
        elif head.role == "user":
            extra.append(seg)
    turns = [t for s in out_segs for t in s] + [t for s in extra for t in s]
    sources = list(native.sources) + [s for s in screen_sources if s.path not in {x.path for x in native.sources}]
    return Conversation(id=native.id, agent=native.agent, native_id=native.native_id,
                        agent_version=native.agent_version, title=native.title, workspace=native.workspace,
                        instance=native.instance, started_at=native.started_at, ended_at=native.ended_at,
                        sources=sources, turns=turns)
