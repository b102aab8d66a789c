"""`capsule-capture mcp`: the archive as a tool for agents, an MCP server over stdio.

Built on the official MCP Python SDK's high-level server (`MCPServer`, the
SDK 2.x name of FastMCP): tools `list_conversations`, `search_conversations`,
`read_conversation` and the resource template `conversation://{id}`.
Read-only: the archive is opened read-only for each request (a fresh LMDB
read transaction sees what a concurrent `sync` committed since, and nothing
here can write), and stdout carries only the protocol.

"Turn N" means the same everywhere (here, `fork --at N`): the Nth prompt and
everything the agent did for it.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Literal

from capsule_capture.args import conversation_id
from capsule_capture.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mcp", help="serve the archive to agents over MCP (stdio; read-only)",
                       description="Run an MCP server on stdin/stdout exposing the archive read-only: "
                                   "list_conversations, search_conversations, read_conversation and "
                                   "conversation://ID resources.")
    p.set_defaults(func=run)


# -- the archive, read-only ------------------------------------------------------

def archive_path() -> Path:
    from capsule_capture.home import data_home
    return data_home() / "archive"


def open_archive(path: Path | None = None):  # type: ignore[no-untyped-def]
    """The archive opened read-only (the store's MDB_RDONLY mode: nothing here can
    write); a missing archive is one line, never created."""
    from archive.errors import ArchiveError
    from archive.store import Store
    path = path or archive_path()
    if not (path / "data.mdb").exists():
        raise UserError(f"no archive at {path}: run capsule-capture sync (or import) first")
    try:
        return Store(path, readonly=True)
    except ArchiveError as e:
        raise UserError(str(e), code=e.code)


# -- turn numbers ----------------------------------------------------------------

from capsule_capture.fork import turn_numbers  # noqa: E402  (one numbering for every command)


# -- what the tools return -------------------------------------------------------

def list_rows(agent: str | None = None, workspace: str | None = None, since: str | None = None,
              limit: int = 20) -> list[dict[str, Any]]:
    from capsule_capture.args import parse_instant
    import argparse as _ap
    if limit < 1:
        raise UserError("limit must be 1 or more")
    try:
        lo = parse_instant(since)
    except _ap.ArgumentTypeError as e:
        raise UserError(str(e))
    if agent:
        from capsule_capture.args import agent_name
        try:
            agent = agent_name(agent)
        except _ap.ArgumentTypeError as e:
            raise UserError(str(e))
    rows = []
    with open_archive() as store:
        for r in store.iter_rows(agent or None, workspace or None, None, None):
            if lo is not None and (not r.get("started_at") or _after(r["started_at"], lo) is False):
                continue
            rows.append(r)
            if len(rows) >= limit:
                break
    return rows


def _after(started: str, lo: Any) -> bool | None:
    from capsule_capture.args import parse_instant
    try:
        return parse_instant(started) >= lo  # type: ignore[no-any-return]
    except Exception:
        return None


def search_hits(query: str, limit: int = 10) -> list[dict[str, Any]]:
    from archive.search import search
    if not query.strip():
        raise UserError("the search query is empty")
    if limit < 1:
        raise UserError("limit must be 1 or more")
    out = []
    with open_archive() as store:
        for h in search(store, query, limit):
            nums = turn_numbers(h.conv.turns)
            out.append({"id": h.conv.id, "agent": h.conv.agent, "title": h.conv.title,
                        "started_at": h.conv.started_at, "score": round(h.score, 3),
                        "turn": nums[h.turn_index] if 0 <= h.turn_index < len(nums) else None,
                        "role": h.role, "snippet": h.snippet.replace("[[", "").replace("]]", "")})
    return out


def conversation_view(ident: str, first_turn: int | None = None, last_turn: int | None = None,
                      fmt: str = "markdown") -> str:
    """The conversation (or its turns first..last, inclusive) as Markdown or JSON text."""
    from archive.record import to_json
    from capsule_capture.render import conversation_markdown
    if fmt not in ("markdown", "json"):
        raise UserError(f"format {fmt!r}: use markdown or json")
    for v in (first_turn, last_turn):
        if v is not None and v < 0:
            raise UserError("turn numbers are 0 (before the first prompt) or more")
    with open_archive() as store:
        conv = store.get(conversation_id(store, ident), raw=False)
    assert conv is not None
    nums = turn_numbers(conv.turns)
    data = to_json(conv)
    total = max(nums, default=0)
    lo = first_turn if first_turn is not None else 0
    hi = last_turn if last_turn is not None else total
    if lo > hi:
        raise UserError(f"turn range {lo}..{hi} is empty")
    data["turns"] = [dict(t, turn=n) for t, n in zip(data["turns"], nums) if lo <= n <= hi]
    data["prompts"] = total
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=1)
    return conversation_markdown(data)


# -- the server ------------------------------------------------------------------

def build_server():  # type: ignore[no-untyped-def]
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from capsule_capture import __version__

    server = MCPServer("capsule-capture", version=__version__, log_level="WARNING",
                       instructions="Read-only access to archived coding-agent conversations (Claude Code, Codex, "
                                    "OpenCode, Gemini CLI, Amp, Kimi, Vibe). Search, then read by id; turn N is "
                                    "the Nth prompt and everything the agent did for it.")

    def guarded(fn, *a: Any, **kw: Any) -> Any:  # type: ignore[no-untyped-def]
        try:
            return fn(*a, **kw)
        except UserError as e:
            raise ToolError(str(e)) from None

    @server.tool()
    def list_conversations(agent: str | None = None, workspace: str | None = None, since: str | None = None,
                           limit: int = 20) -> dict[str, Any]:
        """Archived conversations, newest first: id, agent, title, workspace, started_at, ended_at, turns.
        Filter by agent (claude-code, codex, ...), exact workspace path, and since (ISO date, today,
        yesterday, or an age like 7d)."""
        return {"conversations": guarded(list_rows, agent, workspace, since, limit)}

    @server.tool()
    def search_conversations(query: str, limit: int = 10) -> dict[str, Any]:
        """Keyword search over every archived turn: conversation id, title, the turn number the match
        is in, its role and a snippet; best matches first."""
        return {"hits": guarded(search_hits, query, limit)}

    @server.tool(structured_output=False)
    def read_conversation(id: str, first_turn: int | None = None, last_turn: int | None = None,
                          format: Literal["markdown", "json"] = "markdown") -> str:
        """One conversation by id (or unique id prefix), whole or turns first_turn..last_turn
        (inclusive; turn N = the Nth prompt and what the agent did for it), as markdown or json."""
        return guarded(conversation_view, id, first_turn, last_turn, format)  # type: ignore[no-any-return]

    @server.resource("conversation://{id}", name="conversation", mime_type="text/markdown",
                     description="An archived conversation as Markdown")
    def conversation(id: str) -> str:
        return guarded(conversation_view, id)  # type: ignore[no-any-return]

    return server


def run(args: argparse.Namespace) -> int:
    server = build_server()
    server.run("stdio")
    return 0
