"""`capsule-capture fork ID --at N`: every N of every Claude Code and Codex session we hold
(our recordings and the shared corpus), through the real archive and CLI.

A fork must hold exactly the first N prompts and everything the agent did for
them, under a new session id (no old id left), with Claude Code's uuid chain
whole, in the agent's own store layout, private, and the original untouched.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import stat
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from archive.providers.claude_code import PROVIDER as CLAUDE
from archive.providers.codex import PROVIDER as CODEX
from archive.record import Conversation, Turn
from capsule_capture import cli as cli_main
from capsule_capture.fork import (AGENT_ROLES, ForkError, cut_at, fork, native_turns, prompt_count,
                                  replace_strings, turn_numbers)
from tests.conftest import RECORDINGS, cli

from tests.conftest import CORPUS  # noqa: E402
PROVIDERS = {"claude-code": CLAUDE, "codex": CODEX}


def _native_homes() -> list[Path]:
    homes = []
    for base in (RECORDINGS, CORPUS):
        for agent in PROVIDERS:
            homes += sorted(p for p in (base / agent).glob("*/native") if p.is_dir())
    return homes


def _digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """One archive holding every Claude Code and Codex session we have, synced by the real CLI
    from a copy of their native folders (one home, as a user's would be)."""
    root = tmp_path_factory.mktemp("fork")
    home = root / "agent-home"
    for native in _native_homes():
        shutil.copytree(native, home, dirs_exist_ok=True)
    env = {"CAPSULE_CAPTURE_HOME": str(root / "capcap")}
    r = cli("sync", "--home", str(home), "--format", "json", env=env)
    assert r.returncode == 0, r.stderr
    from archive.store import Store
    with Store(root / "capcap" / "archive") as store:
        convs = [store.get(cid) for cid in store.iter_ids()]
    convs = [c for c in convs if c is not None and c.agent in PROVIDERS]
    assert {c.agent for c in convs} == set(PROVIDERS)
    return {"root": root, "home": home, "env": env, "convs": convs, "digest": _digest(home)}


def _fork_cli(env: dict, *args: str) -> tuple[int, str, str]:
    """The real CLI entry point, in process (dozens of forks; one subprocess test covers the binary)."""
    out, err = io.StringIO(), io.StringIO()
    old = os.environ.get("CAPSULE_CAPTURE_HOME")
    os.environ["CAPSULE_CAPTURE_HOME"] = env["CAPSULE_CAPTURE_HOME"]
    try:
        with redirect_stdout(out), redirect_stderr(err):
            rc = cli_main.main(["fork", *args])
    finally:
        if old is None:
            os.environ.pop("CAPSULE_CAPTURE_HOME", None)
        else:
            os.environ["CAPSULE_CAPTURE_HOME"] = old
    return rc, out.getvalue(), err.getvalue()


def _expected(conv: Conversation, n: int) -> list[tuple[str, str]]:
    native = [t for t in conv.turns if t.vector == "native"]
    kept = [t for t, k in zip(native, turn_numbers(native)) if k <= n]
    while kept and kept[-1].role not in AGENT_ROLES | {"user"}:
        kept.pop()  # a local command typed after the nth answer is not part of turn n
    return [(t.role, t.text) for t in kept]


def _prompts(turns: list[Turn]) -> list[str]:
    groups: dict[int, list[str]] = {}
    for t, k in zip(turns, turn_numbers(turns)):
        if t.role == "user":
            groups.setdefault(k, []).append(t.text)
    return ["\n".join(v) for _, v in sorted(groups.items())]


def _check_private(path: Path, home: Path) -> None:
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    p = path.parent
    while p != home:
        assert stat.S_IMODE(p.stat().st_mode) == 0o700, p
        p = p.parent


def _check_claude(conv: Conversation, data: dict, n: int) -> None:
    path = Path(data["path"])
    new = data["session_id"]
    assert path.name == f"{new}.jsonl" and path.parent.parent.name == "projects"
    assert path.parent.name == "".join(c if c.isalnum() else "-" for c in conv.workspace)
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    kept = [json.loads(raw) for raw in cut_at(native_turns(conv), n)]  # the archived lines it was made of
    assert len(kept) == len(lines)
    text = path.read_text(encoding="utf-8")
    old_ids = {d["uuid"] for d in kept} | {conv.native_id}
    assert not any(f'"{o}"' in text for o in old_ids), "an old id survived in the fork"
    uuids = [d["uuid"] for d in lines]
    assert len(set(uuids)) == len(uuids)
    assert all(d["sessionId"] == new for d in lines)
    # the chain: the first line is a root; a parent the archive kept is that line's new
    # uuid (parallel tool calls keep their fork in the tree), any other is the line before
    new_of = {o["uuid"]: d["uuid"] for o, d in zip(kept, lines)}
    for i, (o, d) in enumerate(zip(kept, lines)):
        if i == 0 or ("parentUuid" in o and o["parentUuid"] is None):
            # (a line the agent wrote as a root stays one: 2.1.330 starts its `!cmd` line anew)
            assert d["parentUuid"] is None
        elif o.get("parentUuid") in new_of:
            assert d["parentUuid"] == new_of[o["parentUuid"]]
        else:
            assert d["parentUuid"] == uuids[i - 1]
    # apart from the chain, each line is the archived line with old ids swapped for new ones
    swap = dict(new_of, **{conv.native_id: new})
    swap.update({o["promptId"]: d["promptId"] for o, d in zip(kept, lines) if "promptId" in o})
    for o, d in zip(kept, lines):
        assert {k: v for k, v in d.items() if k != "parentUuid"} == \
            {k: v for k, v in replace_strings(o, swap).items() if k != "parentUuid"}
    # walking back from the last line (what Claude Code does on resume) reaches the first prompt
    by_id = {d["uuid"]: d for d in lines}
    cur, steps = lines[-1]["uuid"], 0
    while by_id[cur]["parentUuid"] is not None:
        cur, steps = by_id[cur]["parentUuid"], steps + 1
        assert steps <= len(lines)
    assert cur == uuids[0]
    assert data["resume"].endswith(f"claude -r {new}")


def _check_codex(conv: Conversation, data: dict, home: Path) -> None:
    path = Path(data["path"])
    new = data["session_id"]
    assert path.name.startswith("rollout-") and path.name.endswith(f"-{new}.jsonl")
    assert path.parent.parent.parent.parent == home / ".codex" / "sessions"
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "session_meta" and lines[0]["payload"]["id"] == new
    assert lines[0]["payload"]["cwd"] == conv.workspace
    # archived lines, each message followed by the event Codex draws it from (made from its text)
    for prev, d in zip(lines, lines[1:]):
        if d["type"] == "event_msg":
            p = prev["payload"]
            assert prev["type"] == "response_item" and p["type"] == "message"
            kind = {"user": "user_message", "assistant": "agent_message"}[p["role"]]
            assert d["payload"]["type"] == kind
            assert d["payload"]["message"] == "".join(c["text"] for c in p["content"])
        else:
            assert d["type"] == "response_item"
    if any("ordinal" in d for d in lines):
        assert [d["ordinal"] for d in lines] == list(range(len(lines)))
    assert conv.native_id not in path.read_text(encoding="utf-8")
    index = (home / ".codex" / "session_index.jsonl").read_text(encoding="utf-8")
    assert any(json.loads(x)["id"] == new for x in index.splitlines())
    assert data["resume"].endswith(f"codex resume {new}")


def test_every_session_forks_at_every_turn(archive, tmp_path):
    forked = multi = 0
    for conv in archive["convs"]:
        total = prompt_count(conv)
        multi += total >= 2  # the cut inside a session is exercised on every session with several prompts
        ids = set()
        for n in range(1, total + 1):
            home = tmp_path / f"{conv.id}-{n}"
            rc, out, err = _fork_cli(archive["env"], conv.id[:10], "--at", str(n), "--home", str(home),
                                     "--format", "json")
            assert rc == 0, err
            data = json.loads(out)
            assert set(data) == {"agent", "session_id", "path", "resume"} and data["agent"] == conv.agent
            assert data["session_id"] != conv.native_id and data["session_id"] not in ids
            ids.add(data["session_id"])
            path = Path(data["path"])
            _check_private(path, home)
            got = PROVIDERS[conv.agent].parse(path).conversations[0]
            assert got.native_id == data["session_id"]
            assert _prompts(got.turns) == _prompts([t for t in conv.turns if t.vector == "native"])[:n]
            assert [(t.role, t.text) for t in got.turns] == _expected(conv, n)
            if conv.agent == "claude-code":
                _check_claude(conv, data, n)
            else:
                _check_codex(conv, data, home)
            forked += 1
    assert len(archive["convs"]) >= 14 and multi >= 14 and forked >= 30  # 17 sessions, 38 forks when written
    assert _digest(archive["home"]) == archive["digest"], "a source file was changed"


def test_cli_prints_the_resume_command_and_refuses_in_one_line(archive, tmp_path):
    conv = next(c for c in archive["convs"] if c.agent == "codex" and prompt_count(c) >= 2)
    env = archive["env"]
    r = cli("fork", conv.id, "--at", "1", "--home", str(tmp_path / "h"), env=env)
    assert r.returncode == 0, r.stderr
    assert "codex resume " in r.stdout and conv.workspace in r.stdout
    total = prompt_count(conv)
    for args, words in [((conv.id, "--at", str(total + 1)), f"has {total} prompts"),
                        (("0000nope", "--at", "1"), "no conversation"),
                        ((conv.id, "--at", "0"), "1 or more")]:
        r = cli("fork", *args, "--home", str(tmp_path / "h2"), env=env)
        assert r.returncode != 0 and words in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) <= 3
    assert not (tmp_path / "h2").exists()


def test_a_screen_only_capture_is_refused_with_the_reason(tmp_path):
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "capcap")}
    cast = RECORDINGS / "claude-code" / "cc-bash-tools-100x30" / "session.cast"
    r = cli("import", str(cast), env=env)
    assert r.returncode == 0, r.stderr
    rows = json.loads(cli("list", "--format", "json", env=env).stdout)
    r = cli("fork", rows[0]["id"], "--at", "1", "--home", str(tmp_path / "h"), env=env)
    assert r.returncode != 0
    assert r.stderr.strip().count("\n") == 0 and "no native session file" in r.stderr
    assert not (tmp_path / "h").exists()


def test_other_agents_are_refused(tmp_path):
    conv = Conversation(id="x1", agent="gemini", workspace="/w",
                        turns=[Turn("user", "hi", raw=b"{}"), Turn("assistant", "yo", raw=b"{}")])
    with pytest.raises(ForkError, match="not supported"):
        fork(conv, 1, tmp_path)


# -- wrong shapes in the archived lines: a ForkError or a well-formed file, nothing else ----------

_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3),
                     max_leaves=8)
_keys = st.sampled_from(["uuid", "parentUuid", "logicalParentUuid", "sessionId", "promptId", "cwd", "type",
                         "payload", "ordinal", "timestamp", "message"])
_line = st.one_of(
    st.binary(max_size=40),
    _json.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(_keys, _json, max_size=6).map(lambda v: json.dumps(v).encode()),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(agent=st.sampled_from(sorted(PROVIDERS)), lines=st.lists(_line, min_size=2, max_size=5),
       n=st.integers(1, 3))
def test_fork_survives_wrong_shapes(tmp_path, agent, lines, n):
    turns = []
    for i, raw in enumerate(lines):
        turns.append(Turn("user" if i % 2 == 0 else "assistant", f"t{i}", ts=str(i), raw=raw))
    conv = Conversation(id="c", agent=agent, native_id="old-id", workspace="/w", turns=turns)
    home = tmp_path / f"h{abs(hash((agent, tuple(lines), n)))}"
    try:
        done = fork(conv, n, home)
    except ForkError as e:
        assert "\n" not in str(e)
        return
    for line in Path(done.path).read_bytes().splitlines():
        assert isinstance(json.loads(line), dict)


def test_a_merged_conversation_forks_from_its_native_lines_only(tmp_path):
    """A recording and the agent's file of the same session merge into one conversation;
    the fork is made of the native lines alone, never of screen text."""
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "capcap")}
    case = RECORDINGS / "claude-code" / "cc-bash-tools-100x30"
    assert cli("import", str(case / "session.cast"), env=env).returncode == 0
    assert cli("sync", "--home", str(case / "native"), env=env).returncode == 0
    rows = json.loads(cli("list", "--format", "json", env=env).stdout)
    assert len(rows) == 1
    r = cli("fork", rows[0]["id"], "--at", "2", "--home", str(tmp_path / "h"), "--format", "json", env=env)
    assert r.returncode == 0, r.stderr
    got = CLAUDE.parse(Path(json.loads(r.stdout)["path"])).conversations[0]
    truth = json.loads((case / "truth.json").read_text())
    prompts = [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]
    assert _prompts(got.turns) == prompts[:2]
    # a screen turn the merge kept (a file cut short, say) is not resumable text: left out
    from archive.store import Store
    with Store(tmp_path / "capcap" / "archive") as store:
        conv = store.get(rows[0]["id"])
    assert any(s.vector == "screen" for s in conv.sources)
    conv.turns.insert(3, Turn("assistant", "seen on the screen only", vector="screen"))
    done = fork(conv, 2, tmp_path / "h2")
    assert "seen on the screen only" not in Path(done.path).read_text()
    assert [(t.role, t.text) for t in CLAUDE.parse(Path(done.path)).conversations[0].turns] == \
        [(t.role, t.text) for t in got.turns]


def test_no_archive_is_one_line_and_nothing_is_created(tmp_path):
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "none")}
    r = cli("fork", "abc", "--at", "1", "--home", str(tmp_path / "h"), env=env)
    assert r.returncode != 0 and "no archive" in r.stderr and r.stderr.count("\n") == 1
    assert not (tmp_path / "none").exists() and not (tmp_path / "h").exists()
