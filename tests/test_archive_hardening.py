"""The archive under bad conditions, through the real CLI on real files:
damaged data files, read-only folders and mounts, file modes, delete and
its tombstone, doctor, backup and restore, signals."""
from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import lmdb
import pytest

from archive.ingest import BATCH_CONVERSATIONS
from tests.conftest import RECORDINGS, cli

CLAUDE = RECORDINGS / "claude-code" / "cc-bash-tools-100x30"
CODEX = RECORDINGS / "codex" / "s3-tool-chain-120x40"
CAST = RECORDINGS / "claude-code" / "cc197-regex-dates-120x40" / "session.cast"


def env_for(data: Path) -> dict:
    return {"CAPSULE_CAPTURE_HOME": str(data)}


def synced(tmp_path: Path, *cases: Path) -> tuple[dict, Path]:
    """A data home holding the native sessions of `cases`."""
    env = env_for(tmp_path / "data")
    for case in cases:
        res = cli("sync", "--home", str(case / "native"), env=env)
        assert res.returncode == 0, res.stderr
    return env, tmp_path / "data" / "archive" / "data.mdb"


def ids(env: dict) -> list[str]:
    res = cli("list", "--format", "json", env=env)
    assert res.returncode == 0, res.stderr
    return [r["id"] for r in json.loads(res.stdout)]


def one_line_error(res: subprocess.CompletedProcess) -> str:
    assert res.returncode != 0, res.stdout
    assert "Traceback" not in res.stderr, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    return lines[0]


# -- damaged data files ---------------------------------------------------------

def _truncate(f: Path) -> None:
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])


def _garbage(f: Path) -> None:
    f.write_bytes(os.urandom(f.stat().st_size))


def _empty(f: Path) -> None:
    f.write_bytes(b"")


def _zero_meta(f: Path) -> None:
    data = bytearray(f.read_bytes())
    data[:8192] = bytes(8192)
    f.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [_truncate, _garbage, _empty, _zero_meta], ids=lambda d: d.__name__[1:])
def test_damaged_data_file_is_refused_in_one_line_and_left_unchanged(tmp_path, damage):
    env, data = synced(tmp_path, CLAUDE, CODEX)
    damage(data)
    before = data.read_bytes()
    commands = [("list",), ("show", "--latest"), ("search", "shell"), ("sync", "--home", str(CLAUDE / "native")),
                ("import", str(CAST)), ("export", "--all", "-o", str(tmp_path / "out")), ("delete", "abc", "--yes"),
                ("backup", str(tmp_path / "bk"))]
    for args in commands:
        line = one_line_error(cli(*args, env=env))
        assert "doctor" in line, line
        assert data.read_bytes() == before, f"{args[0]} changed the damaged file"
    res = cli("doctor", env=env)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert "restore" in res.stdout and data.read_bytes() == before


def test_damaged_tree_pages_give_one_line_not_a_crash(tmp_path):
    """Meta pages whole, pages of the B-trees zeroed: lmdb reports corruption; each
    command fails (or reads around it) in one line, and doctor names it."""
    env, data = synced(tmp_path, CLAUDE, CODEX)
    raw = bytearray(data.read_bytes())
    raw[2 * 4096:] = bytes(len(raw) - 2 * 4096)
    data.write_bytes(bytes(raw))
    for args in [("list",), ("show", "--latest"), ("search", "shell")]:
        res = cli(*args, env=env)
        assert "Traceback" not in res.stderr and res.returncode in (0, 1), res.stderr
        if res.returncode:
            assert len(res.stderr.strip().splitlines()) == 1
    res = cli("doctor", env=env)
    assert res.returncode == 1 and "damaged" in res.stdout and "Traceback" not in res.stderr
    assert data.read_bytes() == bytes(raw)


# -- read-only folders and mounts -----------------------------------------------

def _unshare_ok() -> bool:
    try:
        return subprocess.run(["unshare", "-rm", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


needs_ro_mount = pytest.mark.skipif(not _unshare_ok(), reason="needs user namespaces (unshare -rm) for a read-only mount")


def cli_ro(readonly: list[Path], *args: str, env: dict) -> subprocess.CompletedProcess:
    """The CLI with `readonly` folders bind-mounted read-only (a real EROFS, which even
    root meets), in a private mount namespace."""
    mounts = " && ".join(f"mount --bind {d} {d} && mount -o remount,ro,bind {d} {d}" for d in readonly)
    cmd = f"{mounts} && exec \"$0\" -m capsule_capture.cli \"$@\""
    return subprocess.run(["unshare", "-rm", "sh", "-c", cmd, sys.executable, *args], capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=120)


@needs_ro_mount
def test_export_into_a_read_only_folder_is_one_line(tmp_path):
    env, _ = synced(tmp_path, CLAUDE)
    out = tmp_path / "ro-out"
    out.mkdir()
    line = one_line_error(cli_ro([out], "export", "--all", "--format", "json", "-o", str(out), env=env))
    assert "Read-only file system" in line and str(out) in line


@needs_ro_mount
def test_data_home_on_a_read_only_mount_reads_and_refuses_writes_in_one_line(tmp_path):
    env, data = synced(tmp_path, CLAUDE)
    home = data.parent.parent
    before = data.read_bytes()
    for args in [("list", "--format", "json"), ("show", "--latest", "--format", "json"), ("search", "shell")]:
        res = cli_ro([home], *args, env=env)
        assert res.returncode == 0, res.stderr
    assert json.loads(cli_ro([home], "list", "--format", "json", env=env).stdout)[0]["turns"] > 0
    for args in [("sync", "--home", str(CODEX / "native")), ("delete", "--yes", ids(env)[0])]:
        line = one_line_error(cli_ro([home], *args, env=env))
        assert "read-only" in line.lower() or "not writable" in line, line
    assert data.read_bytes() == before


@needs_ro_mount
def test_data_home_missing_on_a_read_only_parent_is_one_line(tmp_path):
    parent = tmp_path / "ro-parent"
    parent.mkdir()
    env = env_for(parent / "capcap")
    one_line_error(cli_ro([parent], "sync", "--home", str(CLAUDE / "native"), env=env))
    one_line_error(cli_ro([parent], "list", env=env))


# -- private by default ---------------------------------------------------------------

def test_everything_we_create_is_private_and_loose_modes_are_tightened(tmp_path):
    data = tmp_path / "data"
    (data / "archive").mkdir(parents=True)
    data.chmod(0o755)
    (data / "archive").chmod(0o755)
    env = env_for(data)
    assert cli("sync", "--home", str(CLAUDE / "native"), env=env).returncode == 0
    backup = tmp_path / "nested" / "backup"
    res = cli("backup", str(backup), env=env)
    assert res.returncode == 0, res.stderr
    seen = 0
    for root in (data, backup):
        for p in [root, *root.rglob("*")]:
            mode = stat.S_IMODE(p.stat().st_mode)
            assert mode == (0o700 if p.is_dir() else 0o600), f"{p}: {oct(mode)}"
            seen += 1
    assert seen >= 6  # data home, archive, data.mdb, lock.mdb, backup folder, its data.mdb
    assert stat.S_IMODE((tmp_path / "nested").stat().st_mode) == 0o700  # a parent we created


# -- delete and its tombstone ---------------------------------------------------------

def test_delete_asks_then_sync_does_not_bring_it_back(tmp_path):
    home = tmp_path / "home"
    shutil.copytree(CLAUDE / "native", home)
    shutil.copytree(CODEX / "native", home, dirs_exist_ok=True)
    env = env_for(tmp_path / "data")
    assert cli("sync", "--home", str(home), env=env).returncode == 0
    before = ids(env)
    assert len(before) == 2
    victim = next(i for i in before if json.loads(cli("show", i, "--format", "json", env=env).stdout)["agent"] == "claude-code")
    line = one_line_error(cli("delete", victim[:8], env=env, input=""))  # no terminal, no --yes
    assert "--yes" in line and ids(env) == before
    res = cli("delete", victim[:8], "--yes", env=env)
    assert res.returncode == 0, res.stderr
    assert ids(env) == [i for i in before if i != victim]
    assert cli("search", "shell", "--format", "json", env=env).stdout.count(victim) == 0
    # the same source again, even re-read (its mtime changed, its content did not)
    jsonl = next(home.glob(".claude/projects/*/*.jsonl"))
    os.utime(jsonl, (time.time() + 5, time.time() + 5))
    res = cli("sync", "--home", str(home), "--format", "json", env=env)
    assert res.returncode == 0, res.stderr
    assert ids(env) == [i for i in before if i != victim]
    # the session went on: its new content brings it back
    last = json.loads(jsonl.read_bytes().splitlines()[-1])
    last.update(uuid="a-new-line", type="user", message={"role": "user", "content": "one more question"})
    with jsonl.open("ab") as fh:
        fh.write(json.dumps(last).encode() + b"\n")
    assert cli("sync", "--home", str(home), env=env).returncode == 0
    assert victim in ids(env)
    assert cli("doctor", env=env).returncode == 0


def test_delete_unknown_id_is_one_line(tmp_path):
    env, _ = synced(tmp_path, CLAUDE)
    assert "no conversation" in one_line_error(cli("delete", "zzzz", "--yes", env=env))


# -- doctor -------------------------------------------------------------------------------

def test_doctor_healthy_then_broken_index_repaired_then_broken_record(tmp_path):
    env, data = synced(tmp_path, CLAUDE, CODEX)
    res = cli("doctor", env=env)
    assert res.returncode == 0 and "2 conversations" in res.stdout and "agree" in res.stdout
    victim = ids(env)[0]
    e = lmdb.open(str(data.parent), max_dbs=16)
    with e.begin(write=True) as txn:
        by_time = e.open_db(b"by_time", txn=txn)
        cur = txn.cursor(db=by_time)
        assert cur.first()
        cur.delete()
        txn.delete(victim.encode(), db=e.open_db(b"meta", txn=txn))
    e.close()
    res = cli("doctor", env=env)
    assert res.returncode == 1 and "index" in res.stdout and "--repair" in res.stdout
    res = cli("doctor", "--repair", env=env)
    assert res.returncode == 0, res.stdout
    assert sorted(ids(env)) == sorted([victim] + [i for i in ids(env) if i != victim])
    assert len(ids(env)) == 2
    e = lmdb.open(str(data.parent), max_dbs=16)
    with e.begin(write=True) as txn:
        txn.put(victim.encode(), b"not a record", db=e.open_db(b"conv", txn=txn))
    e.close()
    res = cli("doctor", env=env)
    assert res.returncode == 1 and victim in res.stdout and "does not decode" in res.stdout
    assert "delete" in res.stdout and "restore" in res.stdout
    assert "doctor" in one_line_error(cli("show", victim, env=env))
    # the advice works: delete the damaged record, sync reads it again from the agent's files
    assert cli("delete", victim, "--yes", env=env).returncode == 0
    assert cli("doctor", "--repair", env=env).returncode == 0
    for case in (CLAUDE, CODEX):
        assert cli("sync", "--home", str(case / "native"), env=env).returncode == 0
    assert len(ids(env)) == 2 and cli("doctor", env=env).returncode == 0


# -- backup and restore (the README's steps) ----------------------------------------------

def test_backup_then_restore(tmp_path):
    env, data = synced(tmp_path, CLAUDE, CODEX)
    shown = {i: cli("show", i, "--format", "json", "--raw", env=env).stdout for i in ids(env)}
    backup = tmp_path / "bk"
    res = cli("backup", str(backup), env=env)
    assert res.returncode == 0 and "2 conversations" in res.stdout, res.stderr
    assert "already" in one_line_error(cli("backup", str(backup), env=env))
    assert cli("doctor", "--archive", str(backup), env=env).returncode == 0
    _truncate(data)
    one_line_error(cli("list", env=env))
    # restore: move the damaged archive aside, copy the backup's data.mdb in its place
    archive = data.parent
    archive.rename(archive.with_name("archive.damaged"))
    archive.mkdir(mode=0o700)
    shutil.copy(backup / "data.mdb", archive / "data.mdb")
    assert cli("doctor", env=env).returncode == 0
    assert {i: cli("show", i, "--format", "json", "--raw", env=env).stdout for i in ids(env)} == shown


# -- signals -------------------------------------------------------------------------------

def _many_sessions(home: Path, n: int) -> None:
    src = next((CLAUDE / "native").glob(".claude/projects/*/*.jsonl"))
    lines = src.read_bytes().splitlines()
    proj = home / ".claude" / "projects" / "-many"
    proj.mkdir(parents=True)
    for i in range(n):
        sid = f"00000000-0000-4000-8000-{i:012d}"
        out = []
        for line in lines:
            d = json.loads(line)
            if "sessionId" in d:
                d["sessionId"] = sid
            out.append(json.dumps(d))
        (proj / f"{sid}.jsonl").write_text("\n".join(out) + "\n")


@pytest.mark.parametrize("sig,code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["TERM", "INT"])
def test_signal_during_sync_is_one_line_and_archive_stays_consistent(tmp_path, sig, code):
    home = tmp_path / "home"
    n = 3 * BATCH_CONVERSATIONS + 16  # the signal lands after the first batch, with two more to go
    _many_sessions(home, n)
    env = env_for(tmp_path / "data")
    # as a foreground program gets ^C: a shell runs a background job (a CI runner's
    # `cmd &`) with SIGINT ignored, which a program keeps, as it should
    proc = subprocess.Popen([sys.executable, "-m", "capsule_capture.cli", "sync", "--home", str(home)],
                            env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    data = tmp_path / "data" / "archive" / "data.mdb"
    deadline = time.time() + 60
    while time.time() < deadline and not (data.exists() and data.stat().st_size > 64_000):
        time.sleep(0.01)  # the first batch is in: the signal lands mid-sync
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, (out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    res = cli("doctor", env=env)
    assert res.returncode == 0, res.stdout
    got = len(ids(env))
    assert 0 < got < n
    res = cli("sync", "--home", str(home), "--format", "json", env=env)  # picks up where it stopped
    assert res.returncode == 0 and len(ids(env)) == n


# -- sessions without a conversation ---------------------------------------------------------

def test_a_session_without_a_conversation_is_not_archived(tmp_path):
    """`cat`, a shell, vim: recorded (the file stays), never a 0-turn conversation."""
    env = env_for(tmp_path / "data")
    note = tmp_path / "note.txt"
    note.write_text("a line of text\n")
    cast = tmp_path / "cat.cast"
    res = cli("record", "-o", str(cast), "--", "cat", str(note), env=env)
    assert res.returncode == 0, res.stderr
    assert cast.stat().st_size > 0
    res = cli("import", str(cast), env=env)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    assert ids(env) == []
    assert cli("doctor", env=env).returncode == 0
