"""The archive end to end through the real CLI: sync, idempotency, growth,
malformed input, browse, and concurrent writers."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import RECORDINGS, cli

CLAUDE = RECORDINGS / "claude-code" / "cc-bash-tools-100x30"
CODEX = RECORDINGS / "codex" / "s3-tool-chain-120x40"
OPENCODE = RECORDINGS / "opencode" / "s3-tool-chain-120x40"
GEMINI = RECORDINGS / "gemini" / "gem-07-long-and-tools-wide"
AMP_STREAM = RECORDINGS / "amp-stream" / "amp-s02-stream-tool"


def home_env(tmp_path: Path) -> dict:
    return {"CAPSULE_CAPTURE_HOME": str(tmp_path / "capcap")}


def copy_native(case: Path, dst: Path) -> Path:
    shutil.copytree(case / "native", dst, dirs_exist_ok=True)
    for p in dst.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    return dst


def show_json(env: dict, ident: str = "--latest") -> dict:
    args = ["show", "--format", "json"] + ([ident] if ident != "--latest" else ["--latest"])
    res = cli(*args, env=env)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def truth_users(case: Path) -> list[str]:
    truth = json.loads((case / "truth.json").read_text())
    return [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]


@pytest.mark.parametrize("case", [CLAUDE, CODEX, OPENCODE, GEMINI, AMP_STREAM], ids=lambda c: c.parent.name)
def test_sync_recovers_every_prompt_and_answer_exactly(tmp_path, case):
    env = home_env(tmp_path)
    res = cli("sync", "--home", str(case / "native"), env=env)
    assert res.returncode == 0, res.stderr
    conv = show_json(env)
    truth = json.loads((case / "truth.json").read_text())
    got_users = [t["text"] for t in conv["turns"] if t["role"] == "user"]
    assert got_users == truth_users(case)
    got_answers = [t["text"] for t in conv["turns"] if t["role"] == "assistant"]
    for t in truth["turns"]:
        if t["role"] == "assistant":
            assert t["text"] in got_answers
    calls = [t for t in conv["turns"] if t["role"] == "tool_call"]
    assert len(calls) == sum(1 for t in truth["turns"] if t["role"] == "tool_call")
    assert all(t["vector"] in ("native", "stream") for t in conv["turns"])


def test_second_sync_adds_nothing_and_grown_file_adds_only_new_turns(tmp_path):
    env = home_env(tmp_path)
    home = copy_native(CLAUDE, tmp_path / "home")
    jsonl = next((home / ".claude" / "projects").glob("*/*.jsonl"))
    lines = jsonl.read_bytes().splitlines(keepends=True)
    cut = next(i for i, l in enumerate(lines) if b'"say hi from the shell' in l and b'"type":"user"' in l)
    jsonl.write_bytes(b"".join(lines[:cut]))
    first = json.loads(cli("sync", "--home", str(home), "--format", "json", env=env).stdout)
    assert first["new"] == 1 and first["turns_added"] > 0
    again = json.loads(cli("sync", "--home", str(home), "--format", "json", env=env).stdout)
    assert again["new"] == 0 and again["updated"] == 0 and again["turns_added"] == 0
    before = show_json(env)["turns"]
    jsonl.write_bytes(b"".join(lines))  # the session went on
    grown = json.loads(cli("sync", "--home", str(home), "--format", "json", env=env).stdout)
    after = show_json(env)["turns"]
    assert grown["updated"] == 1 and grown["turns_added"] == len(after) - len(before) > 0
    assert after[:len(before)] == before
    assert [t["text"] for t in after if t["role"] == "user"] == truth_users(CLAUDE)


def test_malformed_inputs_are_skipped_counted_and_named(tmp_path):
    env = home_env(tmp_path)
    home = copy_native(CLAUDE, tmp_path / "home")
    proj = next((home / ".claude" / "projects").glob("*"))
    good = next(proj.glob("*.jsonl"))
    broken = proj / "broken.jsonl"
    lines = good.read_text().splitlines()
    broken.write_text("\n".join(lines[:20] + ["{not json", "[1, 2"] + lines[20:]) + "\n")
    (proj / "binary.jsonl").write_bytes(bytes(range(256)) * 4)
    (proj / "empty.jsonl").write_bytes(b"")
    (proj / "gone.jsonl").symlink_to(tmp_path / "does-not-exist")  # unreadable
    (proj.parent / "loop").symlink_to(proj.parent / "loop")  # a folder nobody can list, root included
    oc = copy_native(OPENCODE, tmp_path / "oc")
    db = oc / ".local" / "share" / "opencode" / "opencode.db"
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 3])  # truncated SQLite
    shutil.copytree(oc / ".local", home / ".local", dirs_exist_ok=True)
    res = cli("sync", "--home", str(home), env=env)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    summary = res.stdout
    assert "malformed lines skipped" in summary
    json.loads(cli("sync", "--home", str(home), "--format", "json", env=env).stdout)  # the summary is JSON
    listing = json.loads(cli("list", "--format", "json", env=env).stdout)
    assert len(listing) >= 1  # the good session (and the broken copy's good lines) made it
    first = json.loads(cli("sync", "--home", str(home), "--format", "json",
                           env={"CAPSULE_CAPTURE_HOME": str(tmp_path / "fresh")}).stdout)
    assert first["skipped_lines"] >= 2
    problems = " ".join(first["problems"])
    assert "broken.jsonl" in problems and "gone.jsonl" in problems and "opencode.db" in problems
    assert "binary.jsonl" in problems and "loop" in problems
    # the broken copy holds the same session: its good lines land in the same conversation
    conv = show_json({"CAPSULE_CAPTURE_HOME": str(tmp_path / "fresh")})
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == truth_users(CLAUDE)


def test_nothing_readable_is_an_error(tmp_path):
    env = home_env(tmp_path)
    home = tmp_path / "home"
    proj = home / ".claude" / "projects" / "p"
    proj.mkdir(parents=True)
    (proj / "s.jsonl").symlink_to(tmp_path / "missing")
    res = cli("sync", "--home", str(home), env=env)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    res = cli("sync", "--home", str(tmp_path / "nope"), env=env)
    assert res.returncode != 0 and len(res.stderr.strip().splitlines()) == 1


def test_list_show_search_export(tmp_path):
    env = home_env(tmp_path)
    for case in (CLAUDE, CODEX, GEMINI):
        assert cli("sync", "--home", str(case / "native"), env=env).returncode == 0
    rows = json.loads(cli("list", "--format", "json", env=env).stdout)
    assert {r["agent"] for r in rows} == {"claude-code", "codex", "gemini"}
    assert all({"id", "agent", "title", "workspace", "started_at", "ended_at", "turns"} <= set(r) for r in rows)
    starts = [r["started_at"] for r in rows]
    assert starts == sorted(starts, reverse=True)
    only = json.loads(cli("list", "--agent", "codex", "--format", "json", env=env).stdout)
    assert [r["agent"] for r in only] == ["codex"]
    prefix = only[0]["id"][:6]
    assert show_json(env, prefix)["id"] == only[0]["id"]
    assert "python3 --version" in cli("show", prefix, "--format", "markdown", env=env).stdout
    hits = json.loads(cli("search", "python version", "--format", "json", env=env).stdout)
    assert hits and hits[0]["agent"] == "codex" and "python" in hits[0]["snippet"].lower()
    assert cli("search", "python version", env=env).returncode == 0
    out = tmp_path / "export"
    assert cli("export", "--all", "--format", "json", "-o", str(out), env=env).returncode == 0
    assert len(list(out.glob("*.json"))) == 3
    res = cli("show", "zzzzzz", env=env)
    assert res.returncode != 0 and len(res.stderr.strip().splitlines()) == 1


def test_eight_concurrent_writers_lose_nothing(tmp_path):
    env = dict(__import__("os").environ, **home_env(tmp_path))
    cases = sorted(p.parent for p in RECORDINGS.glob("*/*/native") if (p.parent / "truth.json").exists())
    homes = []
    for i, case in enumerate(cases[:4]):
        homes.append(copy_native(case, tmp_path / f"h{i}"))
    casts = [c / "session.cast" for c in cases if (c / "session.cast").exists()][-4:]
    procs = [subprocess.Popen([sys.executable, "-m", "capsule_capture.cli", "sync", "--home", str(h)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for h in homes]
    procs += [subprocess.Popen([sys.executable, "-m", "capsule_capture.cli", "import", str(c)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for c in casts]
    for p in procs:
        assert p.wait(timeout=300) == 0, p.stderr.read()
    concurrent = {r["id"]: r["turns"] for r in json.loads(cli("list", "--format", "json", env=env).stdout)}
    # the same work done one at a time must give the same archive
    seq_env = dict(env, CAPSULE_CAPTURE_HOME=str(tmp_path / "sequential"))
    for h in homes:
        assert cli("sync", "--home", str(h), env=seq_env).returncode == 0
    for c in casts:
        assert cli("import", str(c), env=seq_env).returncode == 0
    sequential = {r["id"]: r["turns"] for r in json.loads(cli("list", "--format", "json", env=seq_env).stdout)}
    assert concurrent == sequential
    assert len(concurrent) >= len(homes)


def test_archive_is_a_copy_and_list_filters_by_date(tmp_path):
    env = home_env(tmp_path)
    home = copy_native(GEMINI, tmp_path / "home")
    assert cli("sync", "--home", str(home), env=env).returncode == 0
    shutil.copytree(CODEX / "native", tmp_path / "codex")
    assert cli("sync", "--home", str(tmp_path / "codex"), env=env).returncode == 0
    shutil.rmtree(home)  # the agent's files are gone: the archive keeps its copy
    assert cli("sync", "--home", str(tmp_path), env=env).returncode == 0
    rows = json.loads(cli("list", "--format", "json", env=env).stdout)
    assert {r["agent"] for r in rows} == {"gemini", "codex"}
    gem = next(r for r in rows if r["agent"] == "gemini")
    conv = show_json(env, gem["id"])
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == truth_users(GEMINI)
    raw = json.loads(cli("show", gem["id"], "--format", "json", "--raw", env=env).stdout)
    assert all("raw" in t for t in raw["turns"] if t["role"] == "user") and "raw" not in conv["turns"][0]
    day = gem["started_at"][:10]
    since = json.loads(cli("list", "--since", day, "--format", "json", env=env).stdout)
    assert gem["id"] in [r["id"] for r in since]
    until = json.loads(cli("list", "--until", "2000-01-01", "--format", "json", env=env).stdout)
    assert until == []
    ws = json.loads(cli("list", "--workspace", gem["workspace"], "--format", "json", env=env).stdout)
    assert [r["id"] for r in ws] == [gem["id"]]
