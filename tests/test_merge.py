"""Structured-first merge on real cases: a Claude Code recording and its
own session file, through the real CLI (replay included)."""
from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import RECORDINGS, cli

CASE = RECORDINGS / "claude-code" / "cc-bash-tools-100x30"

# the end-to-end merge tests need the real replay (screen -> turns)
HAVE_REPLAY = importlib.util.find_spec("agents_chrome.replay") is not None
pytestmark = pytest.mark.skipif(not HAVE_REPLAY, reason="agents_chrome.replay (the screen replay) is not importable")


def env_for(tmp_path: Path) -> dict:
    return {"CAPSULE_CAPTURE_HOME": str(tmp_path / "capcap")}


def truth_users() -> list[str]:
    truth = json.loads((CASE / "truth.json").read_text())
    return [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]


def only_conversation(env: dict) -> dict:
    rows = json.loads(cli("list", "--format", "json", env=env).stdout)
    assert len(rows) == 1, rows
    return json.loads(cli("show", rows[0]["id"], "--format", "json", env=env).stdout)


def test_recording_alone(tmp_path):
    env = env_for(tmp_path)
    assert cli("import", str(CASE / "session.cast"), env=env).returncode == 0
    conv = only_conversation(env)
    assert {t["vector"] for t in conv["turns"]} == {"screen"}
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == truth_users()


def test_native_and_recording_become_one_native_conversation(tmp_path):
    env = env_for(tmp_path)
    assert cli("sync", "--home", str(CASE / "native"), env=env).returncode == 0
    assert cli("import", str(CASE / "session.cast"), env=env).returncode == 0
    conv = only_conversation(env)
    users = [t for t in conv["turns"] if t["role"] == "user"]
    assert [t["text"] for t in users] == truth_users()  # no duplicates
    assert all(t["vector"] == "native" for t in conv["turns"])
    assert {s["vector"] for s in conv["sources"]} == {"native", "screen"}


def test_import_first_then_sync_gives_the_same(tmp_path):
    env = env_for(tmp_path)
    assert cli("import", str(CASE / "session.cast"), env=env).returncode == 0
    assert cli("sync", "--home", str(CASE / "native"), env=env).returncode == 0
    conv = only_conversation(env)
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == truth_users()
    assert all(t["vector"] == "native" for t in conv["turns"])


def test_truncated_native_file_is_completed_by_the_screen(tmp_path):
    env = env_for(tmp_path)
    home = tmp_path / "home"
    shutil.copytree(CASE / "native", home)
    for p in home.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    jsonl = next((home / ".claude" / "projects").glob("*/*.jsonl"))
    lines = jsonl.read_bytes().splitlines(keepends=True)
    records = [json.loads(l) for l in lines]
    users = [i for i, d in enumerate(records)
             if d.get("type") == "user" and isinstance((d.get("message") or {}).get("content"), str)]
    jsonl.write_bytes(b"".join(lines[: users[1] + 1]))  # cut right after the second prompt
    assert cli("sync", "--home", str(home), env=env).returncode == 0
    assert cli("import", str(CASE / "session.cast"), env=env).returncode == 0
    conv = only_conversation(env)
    turns = conv["turns"]
    user_turns = [t for t in turns if t["role"] == "user"]
    assert [t["text"] for t in user_turns] == truth_users()  # all turns present, once
    assert [t["vector"] for t in user_turns] == ["native", "native", "screen"]
    # the second prompt's answer was cut off the file: the screen fills it in
    second = turns.index(user_turns[1])
    after = turns[second + 1: turns.index(user_turns[2])]
    assert after and all(t["vector"] == "screen" for t in after)
    assert any("Now the row count" in t["text"] for t in after if t["role"] == "assistant")


def _cut_after_second_prompt(case: Path, home: Path) -> None:
    """Copy `case`'s native files to `home` with its session file cut right
    after the line of the second typed prompt."""
    from archive.discovery import discover
    shutil.copytree(case / "native", home)
    for p in home.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    f = discover(home)[0]
    conv = f.provider.parse(f.path).conversations[0]
    second = [t for t in conv.turns if t.role == "user"][1]
    lines = f.path.read_bytes().splitlines(keepends=True)
    cut = next(i for i, l in enumerate(lines) if l.strip() == second.raw)
    f.path.write_bytes(b"".join(lines[: cut + 1]))


@pytest.mark.parametrize("case", [RECORDINGS / "codex" / "s5-inline-noalt-80x24",
                                  RECORDINGS / "gemini" / "gem-09-alternate-buffer"], ids=lambda c: c.parent.name)
def test_cut_native_file_completed_by_the_recording(tmp_path, case):
    env = env_for(tmp_path)
    _cut_after_second_prompt(case, tmp_path / "home")
    assert cli("sync", "--home", str(tmp_path / "home"), env=env).returncode == 0
    assert cli("import", str(case / "session.cast"), env=env).returncode == 0
    conv = only_conversation(env)
    truth = json.loads((case / "truth.json").read_text())
    want = [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]
    users = [t for t in conv["turns"] if t["role"] == "user"]
    assert [t["text"] for t in users] == want
    assert [t["vector"] for t in users] == ["native"] * 2 + ["screen"] * (len(want) - 2)
    last = conv["turns"].index(users[2])
    assert all(t["vector"] == "screen" for t in conv["turns"][last:])
    assert all(t["vector"] == "native" for t in conv["turns"][: conv["turns"].index(users[1]) + 1])


def test_amp_prompt_history_and_recording_become_one_conversation(tmp_path):
    """Amp keeps its threads on its server: locally only the typed prompts.
    Merged with the recording, the prompts stay native and the answers,
    which no file has, come from the screen."""
    case = RECORDINGS / "amp" / "amp-c05-glob-grep-shell-100x30"
    env = env_for(tmp_path)
    assert cli("sync", "--home", str(case / "native"), env=env).returncode == 0
    assert cli("import", str(case / "session.cast"), env=env).returncode == 0
    conv = only_conversation(env)
    truth = json.loads((case / "truth.json").read_text())
    want = [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]
    users = [t for t in conv["turns"] if t["role"] == "user"]
    assert [t["text"] for t in users] == want and {t["vector"] for t in users} == {"native"}
    answers = [t for t in conv["turns"] if t["role"] == "assistant"]
    assert answers and {t["vector"] for t in answers} == {"screen"}
    assert conv["started_at"]  # the recording's times fill what the history lacks


def test_second_import_of_the_same_recording_adds_nothing(tmp_path):
    env = env_for(tmp_path)
    assert cli("sync", "--home", str(CASE / "native"), env=env).returncode == 0
    for _ in range(2):
        assert cli("import", str(CASE / "session.cast"), env=env).returncode == 0
    conv = only_conversation(env)
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == truth_users()
    assert len([s for s in conv["sources"] if s["vector"] == "screen"]) == 1
