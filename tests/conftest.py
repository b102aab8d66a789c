"""Shared test helpers: the real CLI, run as a user would."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDINGS = ROOT / "recordings"


def _shared() -> Path:
    """The team's shared folder (corpus, harness): beside the checkout, as CI lays it out."""
    for cand in (os.environ.get("CAPSULE_SHARED"), ROOT.parent / "shared", "/work/shared"):
        if cand and Path(cand).is_dir():
            return Path(cand)
    return ROOT.parent / "shared"


SHARED = _shared()
CORPUS = Path(os.environ.get("CAPSULE_CORPUS") or SHARED / "corpus")


def cli(*args: str, env: dict | None = None, input: str | None = None, timeout: float = 120,
        cwd: str | None = None) -> subprocess.CompletedProcess:
    """Run `capsule-capture` as a subprocess (the installed entry point's module)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "capsule_capture.cli", *args], capture_output=True,
                          text=True, env=full_env, input=input, timeout=timeout, cwd=cwd)


def recording_cases(agent: str | None = None) -> list[Path]:
    pat = f"{agent}/*/session.cast" if agent else "*/*/session.cast"
    return sorted(p.parent for p in RECORDINGS.glob(pat))


def strip_inputs(src: Path, dst: Path) -> Path:
    """A copy of a recording with every input event removed (like score.py --screen-only)."""
    with src.open(encoding="utf-8") as fi, dst.open("w", encoding="utf-8") as fo:
        fo.write(fi.readline())
        for line in fi:
            try:
                if json.loads(line)[1] == "i":
                    continue
            except (ValueError, IndexError, TypeError):
                pass
            fo.write(line)
    return dst


@pytest.fixture
def capcap_home(tmp_path, monkeypatch):
    home = tmp_path / "capcap-home"
    monkeypatch.setenv("CAPSULE_CAPTURE_HOME", str(home))
    return home


_REPLAYS: dict[tuple[str, str, bool], dict] = {}


def cli_replay(case: Path, agent: str, screen_only: bool, tmp_path_factory) -> dict:
    """`capsule-capture replay --format json` of a recording (input events
    stripped when `screen_only`), run once per test session: an agent's
    chrome tests ask many questions of the same replays. Read, never change
    the result."""
    key = (str(case), agent, screen_only)
    if key not in _REPLAYS:
        cast = case / "session.cast"
        if screen_only:
            cast = strip_inputs(cast, tmp_path_factory.mktemp("so") / "session.cast")
        p = cli("replay", str(cast), "--agent", agent, "--format", "json")
        assert p.returncode == 0, p.stderr
        _REPLAYS[key] = json.loads(p.stdout)
    return _REPLAYS[key]


@lru_cache(maxsize=None)
def frames_of(case: Path) -> tuple:
    """Every frame of a recording, read once per test session: several test
    files ask the same frames of the same recording."""
    from screen.frames import iter_frames
    from screen.rawlog import open_recording

    with open_recording(case / "session.cast") as reader:
        return tuple(iter_frames(reader))


@lru_cache(maxsize=None)
def turns_of(case: Path, agent: str) -> tuple:
    """The turns replay gives a recording (in process), read once per test session."""
    from agents_chrome.replay import replay

    _meta, turns, _labeled = replay(case / "session.cast", agent=agent)
    return tuple(turns)
