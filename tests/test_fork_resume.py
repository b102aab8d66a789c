"""A fork resumed by the REAL agent CLI against the recording harness's mock model:
the model must receive exactly the forked turns 1..N and then the new prompt.

Binaries: $CAPSULE_TEST_CLAUDE / $CAPSULE_TEST_CODEX, else the /opt/agents
install, else PATH. Mocks: $CAPSULE_TEST_HARNESS, else /work/shared/harness,
else a copy under /opt/harness/. Each test is skipped, with the reason, when
either is missing.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from archive.record import Conversation
from tests.conftest import SHARED
from capsule_capture.fork import turn_numbers
from tests.conftest import RECORDINGS, cli

NEW_PROMPT = "which of those steps took the longest"
ANSWER = "The second one, by a small margin."


def _binary(env_var: str, installed: str, name: str) -> str | None:
    for cand in (os.environ.get(env_var), installed, shutil.which(name)):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def _harness_file(rel: str) -> Path | None:
    roots = [os.environ.get("CAPSULE_TEST_HARNESS"), str(SHARED / "harness")]
    roots += sorted(str(p) for p in Path("/opt/harness").glob("*") if p.is_dir()) if Path("/opt/harness").is_dir() else []
    for r in roots:
        if r and (Path(r) / rel).is_file():
            return Path(r) / rel
    return None


def _archive_and_fork(tmp_path: Path, case: Path, n: int) -> tuple[Conversation, dict]:
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "capcap")}
    r = cli("sync", "--home", str(case / "native"), env=env)
    assert r.returncode == 0, r.stderr
    cid = json.loads(cli("list", "--format", "json", env=env).stdout)[0]["id"]
    from archive.store import Store
    with Store(tmp_path / "capcap" / "archive") as store:
        conv = store.get(cid)
    assert conv is not None
    r = cli("fork", cid, "--at", str(n), "--home", str(tmp_path / "home"), "--format", "json", env=env)
    assert r.returncode == 0, r.stderr
    return conv, json.loads(r.stdout)


def _expected(conv: Conversation, n: int) -> list[tuple[str, str]]:
    """What the model must see: turns 1..n (prompts, answers, tool calls by name, results), then the new prompt."""
    out = []
    for t, k in zip(conv.turns, turn_numbers(conv.turns)):
        if k > n or t.vector != "native":
            continue
        if t.role in ("user", "assistant", "tool_result"):
            out.append((t.role, t.text.strip()))
        elif t.role == "tool_call":
            out.append(("tool_call", t.name or ""))
    return out + [("user", NEW_PROMPT)]


def _start(cmd: list[str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))


def _stop(p: subprocess.Popen) -> None:
    p.terminate()
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        p.kill()


# -- Claude Code -------------------------------------------------------------------

CLAUDE = _binary("CAPSULE_TEST_CLAUDE", "/opt/agents/node/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
                 "claude")
CLAUDE_MOCK = _harness_file("claude-code/mock_anthropic.py")


def _claude_seen(body: dict) -> list[tuple[str, str]]:
    seen = []
    for m in body["messages"]:
        blocks = m["content"] if isinstance(m["content"], list) else [{"type": "text", "text": m["content"]}]
        for b in blocks:
            kind = b.get("type")
            if m["role"] == "user" and kind == "text":
                text = b["text"].strip()
                if text and not text.startswith("<"):  # <system-reminder> context the CLI adds
                    seen.append(("user", text))
            elif m["role"] == "user" and kind == "tool_result":
                c = b.get("content")
                text = c if isinstance(c, str) else "\n".join(x.get("text", "") for x in c or [] if isinstance(x, dict))
                seen.append(("tool_result", text.strip()))
            elif m["role"] == "assistant" and kind == "text":
                seen.append(("assistant", b["text"].strip()))
            elif m["role"] == "assistant" and kind == "tool_use":
                seen.append(("tool_call", b["name"]))
    return seen


@pytest.mark.skipif(CLAUDE is None, reason="Claude Code not installed ($CAPSULE_TEST_CLAUDE, /opt/agents, PATH)")
@pytest.mark.skipif(CLAUDE_MOCK is None, reason="recording harness mock (claude-code/mock_anthropic.py) not found")
def test_claude_resumes_a_fork_with_exactly_its_turns(tmp_path):
    case = RECORDINGS / "claude-code" / "cc-bash-tools-100x30"
    conv, fork = _archive_and_fork(tmp_path, case, 2)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"model": "claude-sonnet-4-5", "session_title": "Fork",
                                  "turns": [{"prompt": NEW_PROMPT, "steps": [[{"type": "text", "text": ANSWER}]]}]}))
    log = tmp_path / "requests.jsonl"
    mock = _start([sys.executable, "-B", str(CLAUDE_MOCK), str(script), "--port", "0", "--log", str(log)], log)
    try:
        url = mock.stdout.readline().split()[-1]  # "mock listening on http://127.0.0.1:PORT"
        assert url.startswith("http://127.0.0.1:")
        work = tmp_path / "elsewhere"
        work.mkdir()
        env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/local/bin:/usr/bin:/bin", "TERM": "dumb",
               "LANG": "C.UTF-8", "ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "sk-ant-api03-MOCK-not-a-key",
               "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
        r = subprocess.run([CLAUDE, "-r", fork["session_id"], "-p", NEW_PROMPT], cwd=work, env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    finally:
        _stop(mock)
    assert r.returncode == 0, r.stderr[-2000:]
    assert ANSWER in r.stdout
    bodies = [rec["body"] for rec in map(json.loads, log.read_text().splitlines())
              if isinstance(rec.get("body"), dict) and rec["body"].get("messages")]
    main = [b for b in bodies if _claude_seen(b) and _claude_seen(b)[-1] == ("user", NEW_PROMPT)]
    assert len(main) == 1, [(_claude_seen(b) or [None])[-1] for b in bodies]
    assert _claude_seen(main[0]) == _expected(conv, 2)


# -- Codex -------------------------------------------------------------------------

CODEX = _binary("CAPSULE_TEST_CODEX", "/opt/agents/node/node_modules/.bin/codex", "codex")
CODEX_MOCK = _harness_file("codex/mock_server.py")


def _codex_seen(body: dict) -> list[tuple[str, str]]:
    seen = []
    for item in body.get("input", []):
        kind = item.get("type")
        if kind == "message" and item.get("role") in ("user", "assistant"):
            text = "\n".join(p.get("text", "") for p in item.get("content") or [] if isinstance(p, dict)).strip()
            if item["role"] == "user" and text.startswith("<"):
                continue  # <environment_context> and other injected context
            seen.append((item["role"], text))
        elif kind in ("function_call", "custom_tool_call"):
            seen.append(("tool_call", item.get("name", "")))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            out = item.get("output")
            seen.append(("tool_result", (out if isinstance(out, str) else json.dumps(out)).strip()))
    return seen


@pytest.mark.skipif(CODEX is None, reason="Codex not installed ($CAPSULE_TEST_CODEX, /opt/agents, PATH)")
@pytest.mark.skipif(CODEX_MOCK is None, reason="recording harness mock (codex/mock_server.py) not found")
def test_codex_resumes_a_fork_with_exactly_its_turns(tmp_path):
    case = RECORDINGS / "codex" / "s5-inline-noalt-80x24"
    conv, fork = _archive_and_fork(tmp_path, case, 2)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"model": "mock-model",
                                  "turns": [{"prompt": NEW_PROMPT, "steps": [{"items": [{"type": "text", "text": ANSWER}]}]}]}))
    log, port_file, dump = tmp_path / "mock.jsonl", tmp_path / "port", tmp_path / "dump"
    mock = _start([sys.executable, "-B", str(CODEX_MOCK), "--script", str(script), "--log", str(log),
                   "--port-file", str(port_file), "--dump-dir", str(dump), "--first-delay", "0"], log)
    try:
        for _ in range(100):
            if port_file.exists():
                break
            time.sleep(0.05)
        port = int(port_file.read_text())
        codex_home = tmp_path / "home" / ".codex"
        (codex_home / "config.toml").write_text("\n".join([
            'model = "mock-model"', 'model_provider = "mock"', 'approval_policy = "never"',
            'sandbox_mode = "danger-full-access"', 'check_for_update_on_startup = false',
            '[analytics]', 'enabled = false', '[features]', 'daemon_auto_start = false',
            '[model_providers.mock]', 'name = "Mock"', f'base_url = "http://127.0.0.1:{port}/v1"',
            'wire_api = "responses"', 'env_key = "MOCK_API_KEY"', ""]))
        work = tmp_path / "elsewhere"
        work.mkdir()
        env = {"HOME": str(tmp_path / "home"), "CODEX_HOME": str(codex_home), "MOCK_API_KEY": "not-a-key",
               "PATH": os.pathsep.join([os.path.dirname(CODEX), os.path.dirname(shutil.which("node") or "/usr/bin/node"),
                                        "/usr/local/bin", "/usr/bin", "/bin"]),
               "TERM": "dumb", "LANG": "C.UTF-8"}
        def resume(target: list[str], session_id: str, n: int) -> None:
            seen = set(dump.glob("req_*.json"))
            r = subprocess.run([CODEX, "exec", "--skip-git-repo-check", "resume", *target, NEW_PROMPT], cwd=work,
                               env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
            assert r.returncode == 0, (r.stdout + r.stderr)[-2000:]
            assert ANSWER in r.stdout and f"session id: {session_id}" in r.stdout + r.stderr
            bodies = [json.loads(p.read_text())["body"] for p in sorted(set(dump.glob("req_*.json")) - seen)]
            main = [b for b in bodies if b.get("tools") and _codex_seen(b)
                    and _codex_seen(b)[-1] == ("user", NEW_PROMPT)]
            assert len(main) == 1
            assert _codex_seen(main[0]) == _expected(conv, n)

        # found by Codex's own session list (`resume --last --all`: the only session there)
        resume(["--last", "--all"], fork["session_id"], 2)
        # and by its id, as `fork` prints it
        r = cli("fork", conv.id, "--at", "1", "--home", str(tmp_path / "home"), "--format", "json",
                env={"CAPSULE_CAPTURE_HOME": str(tmp_path / "capcap")})
        assert r.returncode == 0, r.stderr
        second = json.loads(r.stdout)["session_id"]
        resume([second], second, 1)
    finally:
        _stop(mock)
