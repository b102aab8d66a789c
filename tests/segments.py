"""Conversation segments for the chrome tests: one per typed prompt, with
the assistant texts and tool calls that follow it (Kimi and Vibe)."""
from __future__ import annotations

from pathlib import Path


def truth_segments(truth: dict) -> list[dict]:
    """truth.json's turns, one segment per typed prompt (slash commands,
    exit commands and dismiss keys open none)."""
    segs: list[dict] = []
    for t in truth["turns"]:
        if t["role"] == "user" and not t.get("kind"):
            segs.append({"user": t["text"], "assistant": [], "tools": []})
        elif segs and t["role"] == "assistant":
            segs[-1]["assistant"].append(t["text"])
        elif segs and t["role"] == "tool_call":
            segs[-1]["tools"].append(t)
    return segs


def pred_segments(conv: dict) -> list[dict]:
    """A replay's turns, one segment per user turn; `boxed`: the prompt was
    read from the input box only (Vibe, scrolled back while it was sent)."""
    segs: list[dict] = []
    for t in conv["turns"]:
        if t["role"] == "user":
            segs.append({"user": t["text"], "assistant": [], "tools": [], "boxed": t.get("seen") == "input box"})
        elif segs and t["role"] == "assistant":
            segs[-1]["assistant"].append(t["text"])
        elif segs and t["role"] == "tool_call":
            segs[-1]["tools"].append(t)
    return segs


def by_prompt(turns: list[dict]) -> list[list[dict]]:
    """The turns after each typed prompt, up to the next one (slash commands
    and other kinds of user turn open none)."""
    out: list[list[dict]] = []
    for t in turns:
        if t["role"] == "user" and not t.get("kind"):
            out.append([])
        elif out:
            out[-1].append(t)
    return out


def per_prompt(turns: list[dict]) -> list[tuple[str, list[dict]]]:
    """(typed prompt with its whitespace collapsed, the turns after it up to
    the next prompt)."""
    out: list[tuple[str, list[dict]]] = []
    for t in turns:
        if t["role"] == "user" and not t.get("kind"):
            out.append((" ".join(t["text"].split()), []))
        elif out:
            out[-1][1].append(t)
    return out


def norm(s: str) -> str:
    return " ".join(s.split())


def answer_with(conv: dict, needle: str) -> str:
    """The one assistant turn of a CLI replay (JSON) that holds `needle`."""
    hits = [t["text"] for t in conv["turns"] if t["role"] == "assistant" and needle in t["text"]]
    assert len(hits) == 1, needle
    return hits[0]


# ---------------------------------------------------------------- Claude Code full screen: prompts taller than the view

def _echo_bg(case: Path) -> set[str]:
    """The backgrounds a prompt's echo (`❯ ` on a colour from the first cell) is drawn on."""
    from tests.conftest import frames_of

    out = set()
    for f in frames_of(case):
        if f.alternate and f.styles:
            for y, ln in enumerate(f.lines):
                sp = f.styles[y] if y < len(f.styles) else ()
                if ln.startswith("❯ ") and sp and sp[0][0] == 0 and sp[0][3] != "default":
                    out.add(sp[0][3])
    return out


def headless_prompts(case: Path) -> list[str]:
    """Prompts of truth.json whose echo's first row no full-screen frame ever showed,
    while rows of their echo (indented two, on the echo's background) were drawn."""
    from tests.conftest import frames_of, truth_turns

    bgs = _echo_bg(case)
    heads: set[str] = set()
    tails: set[str] = set()
    for f in frames_of(case):
        if not (f.alternate and f.styles):
            continue
        for y, ln in enumerate(f.lines):
            sp = f.styles[y] if y < len(f.styles) else ()
            if not (sp and sp[0][0] == 0 and sp[0][3] in bgs):
                continue
            if ln.startswith("❯ "):
                heads.add(" ".join(ln[2:].split()))
            elif ln.startswith("  ") and ln.strip():
                tails.add(" ".join(ln.split()))
    out = []
    for t in truth_turns(case):
        if t["role"] != "user" or t.get("kind"):
            continue
        p = " ".join(t["text"].split())
        first = " ".join(t["text"].split("\n")[0].split())
        if any(first.startswith(h) or h.startswith(first[:20]) for h in heads if h):
            continue
        if sum(1 for r in tails if r in p) >= 2:
            out.append(p)
    return out
