"""Shared test helpers: the real CLI, run as a user would."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDINGS = ROOT / "recordings"


def _keep_bytecode() -> None:
    """Let the suite's own processes keep the bytecode they compile.

    A machine that sets PYTHONDONTWRITEBYTECODE (this one's image does) makes every CLI process the
    suite starts (about 800 replays, records, syncs) compile the package from source again: 0.6 s of
    CPU each, a third of the suite's time. The bytecode goes to a cache folder of its own
    (PYTHONPYCACHEPREFIX), so the checkout stays as the machine asked; what runs is the same code.
    The environment is changed here, at conftest import, so xdist's workers and every subprocess
    inherit it.
    """
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is None:
        return
    cache = Path(tempfile.gettempdir()) / f"capsule-capture-tests-pyc-{os.getuid()}"
    cache.mkdir(mode=0o700, exist_ok=True)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(cache))
    sys.dont_write_bytecode = False
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]


_keep_bytecode()


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


#: A folder the whole test run shares (every xdist worker), set by the
#: controller: a recording's replay runs once per run, not once per test that
#: reads it (the golden test, the truth test and the agent's chrome tests all
#: read the same replays; the replay is deterministic).
_REPLAY_DIR_ENV = "CAPCAP_TEST_REPLAYS"
_REPLAYS: dict[tuple[str, str, bool], dict] = {}


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and _REPLAY_DIR_ENV not in os.environ:
        config._capcap_replays = tempfile.mkdtemp(prefix="capcap-test-replays-")  # type: ignore[attr-defined]
        os.environ[_REPLAY_DIR_ENV] = config._capcap_replays  # type: ignore[attr-defined]


def _recording_group(item: pytest.Item) -> str | None:
    """The one recording (or corpus case) a parametrized test reads, as
    "agent/case", or None when it reads none or several."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    found: set[str] = set()
    for value in callspec.params.values():
        for part in value if isinstance(value, tuple) else (value,):
            if isinstance(part, str):
                found.update(_cases_named().get(part, ()))
            if not isinstance(part, Path):
                continue
            case = part.parent if part.suffix == ".cast" else part
            for base in (RECORDINGS, CORPUS):
                if case.parent.parent == base:
                    found.add(f"{case.parent.name}/{case.name}")
    return found.pop() if len(found) == 1 else None


@lru_cache(maxsize=None)
def _cases_named() -> dict[str, tuple[str, ...]]:
    """Recording and corpus case folder names -> "agent/case" (tests that
    parametrize by a case's name)."""
    named: dict[str, tuple[str, ...]] = {}
    for base in (RECORDINGS, CORPUS):
        for cast in base.glob("*/*/session.cast"):
            named[cast.parent.name] = named.get(cast.parent.name, ()) + (f"{cast.parent.parent.name}/{cast.parent.name}",)
    return named


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test of one recording goes to one xdist worker (`--dist loadgroup`):
    a worker builds a recording's frames and turns once (`frames_of`,
    `turns_of` and the agents' own in-process caches) and every test of that
    recording reads them, where spreading a recording's tests over both
    workers built them twice."""
    for item in items:
        group = _recording_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def pytest_collection_finish(session: pytest.Session) -> None:
    from tests import selection

    if selection.writing():
        selection.write_store()


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = getattr(config, "_capcap_replays", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(_REPLAY_DIR_ENV, None)


def replay_json(cast: Path, agent: str, screen_only: bool = False) -> dict:
    """`capsule-capture replay --agent A --format json` of a recording (input
    events stripped when `screen_only`), through the real CLI once per test
    run. Read, never change the result."""
    st = cast.stat()
    key = (f"{cast.resolve()}|{st.st_size}|{st.st_mtime_ns}", agent, screen_only)
    if key in _REPLAYS:
        return _REPLAYS[key]
    folder = os.environ.get(_REPLAY_DIR_ENV)
    stored = Path(folder, hashlib.sha1(repr(key).encode()).hexdigest() + ".json") if folder else None
    if stored is not None and stored.exists():
        out = json.loads(stored.read_text(encoding="utf-8"))
    else:
        with tempfile.TemporaryDirectory(prefix="capcap-so-") as tmp:
            src = strip_inputs(cast, Path(tmp) / "session.cast") if screen_only else cast
            p = cli("replay", str(src), "--agent", agent, "--format", "json")
        assert p.returncode == 0, p.stderr
        out = json.loads(p.stdout)
        if stored is not None:
            part = stored.with_suffix(f".{os.getpid()}.part")
            part.write_text(p.stdout, encoding="utf-8")
            os.replace(part, stored)
    _REPLAYS[key] = out
    return out


def truth_turns(case: Path) -> list[dict]:
    """The turns a recording's truth.json says were typed and served."""
    return json.loads((case / "truth.json").read_text())["turns"]


def typed_prompts(turns: list[dict]) -> list[str]:
    """The prompts of a replay's or a truth's turns (slash and exit commands
    left out), spaces as one: what a user typed, however the row wrapped it."""
    return [" ".join(t["text"].split()) for t in turns if t["role"] == "user" and not t.get("kind")]


def answer_with(turns: list[dict], head: str) -> str:
    """The first answer holding `head`."""
    return next(t["text"] for t in turns if t["role"] == "assistant" and head in t["text"])


def meta_of(case: Path) -> dict:
    """A recording's meta.json (size, command, timeline of what the harness did)."""
    return json.loads((case / "meta.json").read_text(encoding="utf-8"))


def cast_events(case: Path) -> list[list]:
    """A recording's events ([time, code, data]), its header left out."""
    with (case / "session.cast").open(encoding="utf-8") as fh:
        next(fh)
        return [json.loads(line) for line in fh]


def cli_replay(case: Path, agent: str, screen_only: bool, tmp_path_factory=None) -> dict:
    """The CLI replay of a recording's folder (see replay_json)."""
    return replay_json(case / "session.cast", agent, screen_only)


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
