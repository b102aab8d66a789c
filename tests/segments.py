"""Conversation segments for the chrome tests: one per typed prompt, with
the assistant texts and tool calls that follow it (Kimi and Vibe)."""
from __future__ import annotations


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
