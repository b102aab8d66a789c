"""Several real processes writing one archive at once (sync, import of the same and of
different recordings, sync importing the recordings folder): nothing lost, nothing doubled."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from capsule_capture.pipeline import screen_conversation
from tests.conftest import RECORDINGS

CLI = [sys.executable, "-m", "capsule_capture.cli"]
from tests.conftest import CORPUS  # noqa: E402
CASES = [RECORDINGS / "codex" / "x2-short-answers-140x36", RECORDINGS / "kimi" / "kimi-x2-slash-narrow-70x22",
         RECORDINGS / "vibe" / "vibe-x2-slash-narrow-70x22"]


def both_vectors() -> Path:
    """A Claude Code case with a recording and its native session (they merge into one)."""
    for base in (RECORDINGS / "claude-code", CORPUS / "claude-code"):
        for d in sorted(base.glob("*")):
            if (d / "session.cast").exists() and list(d.glob("native/.claude/projects/*/*.jsonl")):
                return d
    pytest.skip("no Claude Code case with both a recording and a native session")


def listing(env: dict) -> list[dict]:
    res = subprocess.run([*CLI, "list", "--format", "json"], capture_output=True, text=True, env=env, timeout=60)
    return json.loads(res.stdout or "[]") if res.returncode == 0 else []


def test_concurrent_writers_lose_and_duplicate_nothing(tmp_path):
    home = tmp_path / "data"
    agents = tmp_path / "agents"
    merged_case = both_vectors()
    shutil.copytree(merged_case / "native", agents)
    recs = home / "recordings" / "2026" / "01" / "01"
    recs.mkdir(parents=True)
    mine = []
    for i, c in enumerate(CASES):
        dst = recs / f"{i}.cast"
        shutil.copyfile(c / "session.cast", dst)
        mine.append(dst)
    env = dict(os.environ, CAPSULE_CAPTURE_HOME=str(home))
    cmds = [["sync", "--home", str(agents)], ["sync", "--home", str(agents)],
            ["import", str(merged_case / "session.cast")], ["import", str(merged_case / "session.cast")]]
    cmds += [["import", str(p)] for p in mine] + [["import", str(p)] for p in reversed(mine)]
    for _ in range(2):  # a second round over a full archive changes nothing
        procs = [subprocess.Popen([*CLI, *c], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                 for c in cmds]
        for p in procs:
            _, err = p.communicate(timeout=300)
            assert p.returncode == 0, err
            assert "Traceback" not in err
        rows = listing(env)
        ids = [r["id"] for r in rows]
        assert len(ids) == len(set(ids)) == len(CASES) + 1, rows
        by_id = {r["id"]: r for r in rows}
        for p in mine:
            conv = screen_conversation(p)
            assert by_id[conv.id]["turns"] == len(conv.turns)
        merged = [r for r in rows if r["agent"] == "claude-code"]
        assert len(merged) == 1
        shown = json.loads(subprocess.run([*CLI, "show", merged[0]["id"], "--format", "json"], capture_output=True,
                                          text=True, env=env, timeout=60).stdout)
        vectors = {s["vector"] for s in shown["sources"]}
        assert vectors == {"native", "screen"}
        keys = [(t["role"], t["text"], t["vector"]) for t in shown["turns"]]
        assert len(keys) == len(set(keys))  # no turn twice


@pytest.mark.parametrize("native_first", [False, True])
def test_recording_id_still_shows_after_merging_into_the_native_conversation(tmp_path, native_first):
    """`record` prints the recording's id; a native session that matches later absorbs the
    capture, and `show <that id>` still finds it (and re-imports land there, never a second copy)."""
    case = both_vectors()
    cast = tmp_path / "s.cast"
    shutil.copyfile(case / "session.cast", cast)
    rid = screen_conversation(cast).id
    agents = tmp_path / "agents"
    shutil.copytree(case / "native", agents)
    env = dict(os.environ, CAPSULE_CAPTURE_HOME=str(tmp_path / "data"))

    def run(*args: str) -> str:
        res = subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, timeout=120)
        assert res.returncode == 0, res.stderr
        return res.stdout

    steps = [("sync", "--home", str(agents)), ("import", str(cast))]
    for step in (steps if native_first else steps[::-1]) + [("import", str(cast)), ("sync", "--home", str(agents))]:
        run(*step)
    rows = listing(env)
    assert len(rows) == 1 and rows[0]["id"] != rid
    conv = json.loads(run("show", rid, "--format", "json"))
    assert conv["id"] == rows[0]["id"] and {s["vector"] for s in conv["sources"]} == {"native", "screen"}
