"""Reading recordings (v2, v3, truncated, not a recording) and the `screen` command."""
from __future__ import annotations

import json

import pytest

from screen.cast import CastError, CastReader
from tests.conftest import cli


def write(path, lines):
    path.write_text("".join(lines), encoding="utf-8")
    return path


def v2(tmp_path, events, header=None):
    head = header or {"version": 2, "width": 20, "height": 3}
    return write(tmp_path / "a.cast", [json.dumps(head) + "\n"] + [json.dumps(e) + "\n" for e in events])


def test_v3_relative_times_and_exit_event(tmp_path):
    p = write(tmp_path / "b.cast", [json.dumps({"version": 3, "term": {"cols": 10, "rows": 2}}) + "\n",
                                    json.dumps([0.5, "o", "a"]) + "\n", json.dumps([0.25, "o", "b"]) + "\n",
                                    "# a comment\n", json.dumps([1.0, "x", "0"]) + "\n"])
    with CastReader(p) as r:
        evs = list(r.events())
    assert [(e.time, e.code) for e in evs] == [(0.5, "o"), (0.75, "o"), (1.75, "x")]
    assert (r.header.width, r.header.height) == (10, 2)


def test_truncated_last_line_is_skipped_with_warning(tmp_path, capsys):
    p = v2(tmp_path, [[0.1, "o", "hello"]])
    with p.open("a") as f:
        f.write('[0.2, "o", "wor')
    with CastReader(p) as r:
        evs = list(r.events())
    assert [e.data for e in evs] == ["hello"] and r.skipped == 1
    assert "truncated" in capsys.readouterr().err
    res = cli("screen", str(p), "--format", "text")
    assert res.returncode == 0 and res.stdout.splitlines()[0] == "hello"


@pytest.mark.parametrize("content", ["", "not json\n", '{"foo": 1}\n', '{"version": 9, "width": 1, "height": 1}\n'])
def test_not_a_recording(tmp_path, content):
    p = write(tmp_path / "x.cast", [content])
    with pytest.raises(CastError):
        CastReader(p)
    res = cli("screen", str(p))
    if content == "not json\n":
        # not a cast, but text: the CLI reads it as a raw terminal log (screen/rawlog.py)
        assert res.returncode == 0 and "--size" in res.stderr
        return
    assert res.returncode != 0
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_missing_file_is_one_line_error(tmp_path):
    res = cli("replay", str(tmp_path / "nope.cast"))
    assert res.returncode != 0 and len(res.stderr.strip().splitlines()) == 1


def test_screen_at_a_moment_and_frames(tmp_path):
    p = v2(tmp_path, [[0.0, "o", "first"], [1.0, "o", "\x1b[2J\x1b[Hsecond"], [2.0, "r", "30x4"]])
    assert cli("screen", str(p), "--at", "0.5", "--format", "text").stdout.splitlines()[0] == "first"
    out = cli("screen", str(p), "--format", "json").stdout
    state = json.loads(out)
    assert state["lines"][0] == "second" and state["columns"] == 30 and state["rows"] == 4
    assert state["scrollback"] == ["first"]
    frames = cli("screen", str(p), "--frames", "--format", "json").stdout.splitlines()
    reasons = [json.loads(f)["reason"] for f in frames]
    assert reasons[0] in ("quiet", "clear") and reasons[-1] == "end"
    rich = cli("screen", str(p))
    assert rich.returncode == 0 and "second" in rich.stdout
