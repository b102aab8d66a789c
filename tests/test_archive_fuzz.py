"""Property: `sync` takes ANY JSON in the agents' native files.

Hypothesis picks one native file of a real session store (from recordings/
and the shared corpus, grouped per agent so most homes hold several
sessions), one record in it (a JSONL line, a JSON document, an OpenCode
database row) and one value anywhere inside that record (the record itself
included), and replaces it with a value of ANOTHER JSON type: a message
that is a number, a list where an object was, a null, an object where text
was. Then the real CLI syncs that home into a new archive:
- it exits 0 (sessions were read), never with a traceback;
- every conversation that does not come from the mutated file is archived
  exactly as from the untouched home (turns, raw lines, metadata);
- everything archived reads back (`show` of every conversation).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from capsule_capture.cli import main
from tests.conftest import RECORDINGS

from tests.conftest import CORPUS  # noqa: E402


def _cases(agent: str) -> list[Path]:
    seen: dict[str, Path] = {}
    for root in (RECORDINGS, CORPUS):
        for case in sorted((root / agent).glob("*/native")):
            seen.setdefault(case.parent.name, case)
    return list(seen.values())


def _build_homes(base: Path) -> dict[str, Path]:
    """One home per agent with all its sessions (OpenCode and Amp keep one store file per
    home, so one case each)."""
    homes: dict[str, Path] = {}
    for agent in ("claude-code", "codex", "gemini", "kimi", "vibe"):
        home = base / agent
        for native in _cases(agent):
            shutil.copytree(native, home, dirs_exist_ok=True)
        homes[agent] = home
    for agent in ("opencode", "amp"):
        for native in _cases(agent)[:2]:
            home = base / f"{agent}-{native.parent.name}"
            shutil.copytree(native, home)
            homes[home.name] = home
    streams = base / "amp-stream"
    streams.mkdir()
    for native in _cases("amp-stream"):
        for f in native.glob("*.jsonl"):
            shutil.copy(f, streams / f"{native.parent.name}-{f.name}")
    homes["amp-stream"] = streams
    for home in homes.values():
        for p in home.rglob("*"):
            p.chmod(0o700 if p.is_dir() else 0o600)
    return homes


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(args))
        except SystemExit as e:  # argparse
            rc = int(e.code or 0)
    return rc, out.getvalue(), err.getvalue()


def _archive(home: Path, data: Path, baseline: bool = True) -> dict[str, dict[str, Any]]:
    """Sync `home` into a new archive under `data`; every conversation as `show --raw` JSON,
    paths made relative to the home."""
    os.environ["CAPSULE_CAPTURE_HOME"] = str(data)
    rc, out, err = _run("sync", "--home", str(home), "--format", "json")
    assert "Traceback" not in err
    assert rc == 0 or (not baseline and rc == 1 and json.loads(out)["conversations_read"] == 0), err
    rc, out, err = _run("list", "--format", "json")
    assert rc == 0, err
    convs = {}
    for row in json.loads(out):
        rc, shown, err = _run("show", row["id"], "--format", "json", "--raw")
        assert rc == 0, err
        convs[row["id"]] = json.loads(shown.replace(str(home), "$HOME"))
    return convs


# -- the mutation ----------------------------------------------------------------

def _paths(v: Any, at: tuple = ()) -> list[tuple]:
    out = [at]
    if isinstance(v, dict):
        for k, x in v.items():
            out += _paths(x, at + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += _paths(x, at + (i,))
    return out


def _set(v: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    v[path[0]] = _set(v[path[0]], path[1:], new)
    return v


def _get(v: Any, path: tuple) -> Any:
    for k in path:
        v = v[k]
    return v


KINDS = {
    "null": st.none(), "bool": st.booleans(), "int": st.integers(-(2 ** 70), 2 ** 70),
    "float": st.floats(allow_nan=False, allow_infinity=False), "str": st.text(max_size=6),
    "list": st.lists(st.one_of(st.none(), st.integers(), st.text(max_size=3), st.just({})), max_size=3),
    "dict": st.dictionaries(st.sampled_from(["type", "text", "content", "id", "x"]),
                            st.one_of(st.none(), st.integers(), st.text(max_size=3), st.just([])), max_size=3),
}


def _kind(v: Any) -> str:
    return {type(None): "null", bool: "bool", int: "int", float: "float", str: "str", list: "list",
            dict: "dict"}[type(v)]


def _other_type(data: st.DataObject, current: Any) -> Any:
    kind = data.draw(st.sampled_from(sorted(k for k in KINDS if k != _kind(current))), label="new type")
    return data.draw(KINDS[kind], label="new value")


def _mutate_json(data: st.DataObject, doc: Any) -> Any:
    path = data.draw(st.sampled_from(_paths(doc)), label="path")
    return _set(doc, path, _other_type(data, _get(doc, path)))


def _mutate_file(data: st.DataObject, f: Path) -> None:
    if f.suffix == ".db":
        con = sqlite3.connect(f)
        table = data.draw(st.sampled_from(["message", "part"]), label="table")
        rows = con.execute(f"select id, data from {table}").fetchall()
        rid, text = data.draw(st.sampled_from(rows), label="row")
        con.execute(f"update {table} set data = ? where id = ?", (json.dumps(_mutate_json(data, json.loads(text))), rid))
        con.commit()
        con.close()
        return
    raw = f.read_bytes()
    if f.suffix == ".jsonl":
        lines = raw.splitlines(keepends=True)
        good = [i for i, line in enumerate(lines) if line.strip() and _parses(line)]
        i = data.draw(st.sampled_from(good), label="line")
        lines[i] = json.dumps(_mutate_json(data, json.loads(lines[i])), ensure_ascii=False).encode() + b"\n"
        f.write_bytes(b"".join(lines))
    else:
        f.write_text(json.dumps(_mutate_json(data, json.loads(raw)), ensure_ascii=False))


def _parses(line: bytes) -> bool:
    try:
        json.loads(line)
        return True
    except ValueError:
        return False


def _native_files(home: Path) -> list[Path]:
    out = []
    for p in sorted(home.rglob("*")):
        if p.is_file() and (p.suffix in (".jsonl", ".json", ".db") or p.name == "CURRENT"):
            if p.suffix == ".db" or _json_file(p):
                out.append(p)
    return out


def _json_file(p: Path) -> bool:
    raw = p.read_bytes()
    if p.suffix == ".jsonl":
        return any(line.strip() and _parses(line) for line in raw.splitlines())
    return _parses(raw)


# -- the property -------------------------------------------------------------------

@pytest.fixture(scope="module")
def world():
    base = Path(tempfile.mkdtemp(prefix="capcap-fuzz-"))
    saved = os.environ.get("CAPSULE_CAPTURE_HOME")
    try:
        homes = _build_homes(base / "homes")
        baseline = {name: _archive(home, base / "baseline" / name) for name, home in homes.items()}
        assert all(baseline.values()), "every home gives at least one conversation"
        files = [(name, f) for name, home in homes.items() for f in _native_files(home)]
        yield base, homes, baseline, files
    finally:
        if saved is None:
            os.environ.pop("CAPSULE_CAPTURE_HOME", None)
        else:
            os.environ["CAPSULE_CAPTURE_HOME"] = saved
        shutil.rmtree(base, ignore_errors=True)


def _from(conv: dict[str, Any], rel: str, home: str) -> bool:
    """Does `conv` come from the file `rel` (relative to its home)? A session folder
    (Vibe's is the source itself; Kimi's holds context.jsonl, the source, and
    wire.jsonl, its times) counts as a whole: its files are one store."""
    for s in conv["sources"]:
        src = s["path"].replace("$HOME/", "")
        if src == rel or rel.startswith(src.rstrip("/") + "/"):
            return True
        if home == "kimi" and Path(src).parent == Path(rel).parent:
            return True
    return False


@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_sync_takes_any_json_and_keeps_untouched_sessions_exact(world, data):
    base, homes, baseline, files = world
    name, original = data.draw(st.sampled_from(files), label="file")
    work = Path(tempfile.mkdtemp(dir=base))
    try:
        home = work / "home"
        shutil.copytree(homes[name], home)
        rel = str(original.relative_to(homes[name]))
        _mutate_file(data, home / rel)
        got = _archive(home, work / "data", baseline=False)
        for cid, conv in baseline[name].items():
            if _from(conv, rel, name):
                continue
            assert got.get(cid) == conv, f"{cid} changed though {rel} is not its source"
        # nothing archived is empty, and everything decodes against the schema (show worked)
        assert all(c["turns"] for c in got.values())
    finally:
        shutil.rmtree(work, ignore_errors=True)
