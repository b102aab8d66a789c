"""Replay never depends on the recording's timing.

The same output bytes written faster (a fast machine, every pause cut to
at most 10 ms) or cut into events differently (a recorder that batches
writes, or one that flushes every few bytes) must give the same turns:
frames are taken where the drawing shows a state ended, not only after
pauses. Property-based: hypothesis picks how to re-time and re-cut each
real recording.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents_chrome.replay import replay
from tests.conftest import RECORDINGS

# Inline and full-screen renderers of the agents whose drawing has no
# synchronized output to lean on (Claude Code) or leans on it (Codex),
# and a hard-wrapping inline one (Kimi).
CASES = [
    RECORDINGS / "claude-code" / "cc-sql-joins-120x40",
    RECORDINGS / "claude-code" / "cc-bash-tools-100x30",
    RECORDINGS / "claude-code" / "cc-x1-read-grep-thinking-90x26",
    RECORDINGS / "codex" / "s5-inline-noalt-80x24",
    RECORDINGS / "codex" / "x1-tools-table-90x28",
    RECORDINGS / "kimi" / "kimi-x1-tools-100x30",
]
CASES += sorted(p.parent for p in RECORDINGS.glob("*/*h1-resize-*/session.cast"))[:3]
# A shell around the agent: prompts and commands are found where the line
# editor accepts a line (bracketed paste switched off), not after pauses.
CASES += [RECORDINGS / "codex" / "sh-short-chat-80x24", RECORDINGS / "gemini" / "sh-gem-shell-around-100x30"]
# dash (no line editor) resized at its prompt: the command that starts the agent
# is told by where the plain text began, carried across the resize.
CASES += [RECORDINGS / "gemini" / "h6-sh-gem-dash-resize-76x22"]
# zsh leaves bracketed paste before its newline (the accepted line still holds the
# cursor) and wraps a long typed line itself; bash resized at its prompt, then typed.
CASES += [RECORDINGS / "opencode" / "h9-sh-oc-zsh-rprompt-104x31", RECORDINGS / "claude-code" / "h9-sh-cc-vi-newline-86x27"]
# A SIGKILLed agent: bash's `Killed` is told from the agent by the bytes' order (h6 crash case).
CASES += [RECORDINGS / "claude-code" / "h6-sh-cc-rprompt-crash-150x44"]
# A prompt no rule knows under a first command holding `%% `, an agent stopped with Ctrl+Z and
# brought back with `fg` (h10); fish, whose autosuggestion leaves no frame idle at its prompt (h5).
CASES += [RECORDINGS / "codex" / "h10-sh-codex-suspend-61x20", RECORDINGS / "codex" / "h5-sh-codex-fish-110x32"]
# Codex on the alternate screen stopped at fish, resized while stopped, brought back (redraws it all).
CASES += [RECORDINGS / "codex" / "h10-sh-codex-fish-stop-100x28"]
# Claude Code inline from bash: a permission dialog closed with a repaint from the top of the
# screen (its header reprinted over the shell's rows), Ctrl+Z, `fg` (h10).
CASES += [RECORDINGS / "claude-code" / "h10-sh-cc-signal-suspend-96x28"]
# Vibe from bash stopped with Ctrl+Z twice, once while an answer streams, resized while stopped (h11).
CASES += [RECORDINGS / "vibe" / "h11-sh-vibe-jobctl-103x29"]
# An agent stopped while an answer streams, resized while stopped, brought back (h11): Codex on
# the alternate screen, Claude Code inline (a taller screen pulls the shell's rows back).
CASES += [RECORDINGS / "codex" / "h11-sh-codex-stopmid-86x25", RECORDINGS / "claude-code" / "h11-sh-cc-stopmid-94x27"]
# Full-screen Textual (Vibe): which folded tool calls belong to a turn is told by frame order.
CASES += [RECORDINGS / "vibe" / "r3-vibe-long-a-100x30"]
# Claude Code's inline renderer with Ctrl+O's detailed transcript drawn over the conversation,
# between turns and while an answer streams: the render that brings the view in goes up to the
# screen's top row (a frame before it), and the rows it scrolls off are told by the frame that
# shows its footer, not by the frame's time.
CASES += [RECORDINGS / "claude-code" / "r3-ctrlo-inline-120x40", RECORDINGS / "claude-code" / "r3-ctrlo-stream-inline-80x24"]
# Claude Code inline from fish, resumed with `claude -c`: a running tool group names its second
# call (`⎿  $ head -n 65 …`) in one render only, erased by the next (h15): a frame at each render's start.
CASES += [RECORDINGS / "claude-code" / "h15-sh-cc-fish-resume-91x35"]


def retime(src: Path, dst: Path, seed: int, max_pause: float, split: float, merge: float) -> None:
    """Write `src` with every pause capped at `max_pause` and output events
    cut (with probability `split`) and joined to the one before (`merge`)."""
    rng = random.Random(seed)
    lines = src.read_text(encoding="utf-8").splitlines()
    events = [json.loads(ln) for ln in lines[1:] if ln.strip()]
    out: list[list] = []
    t = prev = 0.0
    for ev in events:
        t += min(max(0.0, ev[0] - prev), max_pause)
        prev = ev[0]
        if ev[1] != "o":
            out.append([t, ev[1], ev[2]])
            continue
        data = ev[2]
        while data:
            k = rng.randint(1, len(data)) if rng.random() < split else len(data)
            piece, data = data[:k], data[k:]
            if out and out[-1][1] == "o" and rng.random() < merge:
                out[-1][2] += piece
            else:
                out.append([t, "o", piece])
    dst.write_text(lines[0] + "\n" + "".join(json.dumps([round(e[0], 6), e[1], e[2]], ensure_ascii=False) + "\n"
                                             for e in out), encoding="utf-8")


def turns_of(cast: Path, agent: str) -> list[tuple[str, str, str | None]]:
    _, turns, _ = replay(cast, agent)
    return [(t.role, t.text, t.name) for t in turns]


_BASELINE: dict[Path, list] = {}


@pytest.mark.parametrize("case", [c for c in CASES if (c / "session.cast").exists()],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**16), max_pause=st.sampled_from([0.0, 0.001, 0.01]),
       split=st.sampled_from([0.0, 0.3, 0.8]), merge=st.sampled_from([0.0, 0.5, 0.95]))
def test_same_turns_whatever_the_timing(case: Path, seed: int, max_pause: float, split: float, merge: float,
                                        tmp_path_factory) -> None:
    agent = case.parent.name
    if case not in _BASELINE:
        _BASELINE[case] = turns_of(case / "session.cast", agent)
    fast = tmp_path_factory.mktemp("retimed") / "session.cast"
    retime(case / "session.cast", fast, seed, max_pause, split, merge)
    assert turns_of(fast, agent) == _BASELINE[case]


def test_retime_keeps_the_bytes(tmp_path: Path) -> None:
    """The transformation itself: same output bytes, same inputs, pauses capped."""
    src = RECORDINGS / "codex" / "s5-inline-noalt-80x24" / "session.cast"
    dst = tmp_path / "s.cast"
    retime(src, dst, 7, 0.01, 0.8, 0.0)  # merged events would add their pauses up

    def stream(p: Path) -> tuple[str, list[str], float]:
        evs = [json.loads(ln) for ln in p.read_text(encoding="utf-8").splitlines()[1:] if ln.strip()]
        gaps = [b[0] - a[0] for a, b in zip(evs, evs[1:])]
        return "".join(e[2] for e in evs if e[1] == "o"), [e[2] for e in evs if e[1] == "i"], max(gaps)

    a, b = stream(src), stream(dst)
    assert a[0] == b[0] and a[1] == b[1]
    assert b[2] <= 0.0100001 < a[2]
