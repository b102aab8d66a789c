"""`capsule-capture mcp` driven by the official SDK's stdio client, as an agent would:
the real server process over a real archive synced from recordings."""
from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.conftest import RECORDINGS, ROOT, cli

CASES = [RECORDINGS / "claude-code" / "cc-bash-tools-100x30", RECORDINGS / "codex" / "s3-tool-chain-120x40"]


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp")
    env = {"CAPSULE_CAPTURE_HOME": str(root / "capcap")}
    for case in CASES:
        r = cli("sync", "--home", str(case / "native"), env=env)
        assert r.returncode == 0, r.stderr
    rows = json.loads(cli("list", "--format", "json", env=env).stdout)
    shows = {r["agent"]: json.loads(cli("show", r["id"], "--format", "json", env=env).stdout) for r in rows}
    return {"home": root / "capcap", "rows": rows, "shows": shows}


def session(home: Path, fn) -> Any:  # type: ignore[no-untyped-def]
    """Start the real server (`python -m capsule_capture.cli mcp`), initialize, run fn(session)."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "capsule_capture.cli", "mcp"],
                                   env={"CAPSULE_CAPTURE_HOME": str(home)}, cwd=str(ROOT))

    async def go():  # type: ignore[no-untyped-def]
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                return await fn(s)

    return asyncio.run(asyncio.wait_for(go(), 60))


def _data(result) -> Any:  # type: ignore[no-untyped-def]
    assert not result.is_error, result.content
    return result.structured_content


def _digest(home: Path) -> str:
    return hashlib.sha256((home / "archive" / "data.mdb").read_bytes()).hexdigest()


def test_tools_and_resource_template_are_listed(archive):
    async def fn(s):  # type: ignore[no-untyped-def]
        return await s.list_tools(), await s.list_resource_templates()
    tools, templates = session(archive["home"], fn)
    schemas = {t.name: t.input_schema for t in tools.tools}
    assert set(schemas) == {"list_conversations", "search_conversations", "read_conversation"}
    assert set(schemas["list_conversations"]["properties"]) == {"agent", "workspace", "since", "limit"}
    assert schemas["search_conversations"]["required"] == ["query"]
    assert {"id", "first_turn", "last_turn", "format"} <= set(schemas["read_conversation"]["properties"])
    assert [t.uri_template for t in templates.resource_templates] == ["conversation://{id}"]
    assert all(t.description for t in tools.tools)


def test_list_search_read_and_resource(archive):
    codex = archive["shows"]["codex"]
    claude = archive["shows"]["claude-code"]
    prompts = [t["text"] for t in codex["turns"] if t["role"] == "user"]
    before = _digest(archive["home"])

    async def fn(s):  # type: ignore[no-untyped-def]
        out = {}
        out["all"] = _data(await s.call_tool("list_conversations", {}))
        out["codex"] = _data(await s.call_tool("list_conversations", {"agent": "codex", "limit": 5}))
        out["ws"] = _data(await s.call_tool("list_conversations", {"workspace": claude["workspace"]}))
        out["future"] = _data(await s.call_tool("list_conversations", {"since": "2099-01-01"}))
        out["past"] = _data(await s.call_tool("list_conversations", {"since": "2020-01-01", "limit": 1}))
        out["search"] = _data(await s.call_tool("search_conversations", {"query": "seq numbers 60"}))
        out["md"] = await s.call_tool("read_conversation", {"id": codex["id"]})
        out["t2"] = await s.call_tool("read_conversation", {"id": codex["id"][:8], "first_turn": 2,
                                                            "last_turn": 2, "format": "json"})
        out["res"] = await s.read_resource(f"conversation://{claude['id']}")
        return out

    out = session(archive["home"], fn)
    assert {r["id"] for r in out["all"]["conversations"]} == {r["id"] for r in archive["rows"]}
    assert [r["id"] for r in out["codex"]["conversations"]] == [codex["id"]]
    assert [r["id"] for r in out["ws"]["conversations"]] == [claude["id"]]
    assert out["future"]["conversations"] == [] and len(out["past"]["conversations"]) == 1
    hit = out["search"]["hits"][0]
    assert hit["id"] == codex["id"] and hit["title"] == codex["title"]
    assert hit["turn"] == 2 and "60" in hit["snippet"]  # "print the numbers from 1 to 60 with seq" is prompt 2
    md = out["md"].content[0].text
    assert all(p in md for p in prompts)
    data = json.loads(out["t2"].content[0].text)
    assert data["id"] == codex["id"] and data["prompts"] == 2
    assert {t["turn"] for t in data["turns"]} == {2}
    assert [t["text"] for t in data["turns"] if t["role"] == "user"] == prompts[1:2]
    assert any(t["role"] == "tool_call" for t in data["turns"])
    text = out["res"].contents[0].text
    assert all(t["text"] in text for t in claude["turns"] if t["role"] == "user")
    assert _digest(archive["home"]) == before  # read-only


def test_bad_requests_are_tool_errors_in_one_line(archive, tmp_path):
    async def fn(s):  # type: ignore[no-untyped-def]
        return [await s.call_tool("read_conversation", {"id": "ffffnope"}),
                await s.call_tool("list_conversations", {"agent": "notanagent"}),
                await s.call_tool("list_conversations", {"since": "last tuesday-ish"}),
                await s.call_tool("read_conversation", {"id": archive["rows"][0]["id"], "first_turn": 3,
                                                        "last_turn": 1}),
                await s.call_tool("search_conversations", {"query": "   "})]
    for r, words in zip(session(archive["home"], fn), ["no conversation", "unknown agent", "not a date",
                                                       "empty", "empty"]):
        assert r.is_error and words in r.content[0].text and "\n" not in r.content[0].text.strip()

    async def empty(s):  # type: ignore[no-untyped-def]
        return await s.call_tool("list_conversations", {})
    r = session(tmp_path / "none", empty)
    assert r.is_error and "no archive" in r.content[0].text
    assert not (tmp_path / "none").exists()  # a missing archive is reported, never created
