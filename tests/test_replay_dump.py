"""tests.replay_dump: the before/after check of every replay."""
from __future__ import annotations

import json

from tests.conftest import RECORDINGS
from tests.replay_dump import compare, main


def test_compare_names_what_moved_came_and_went():
    before = {"a": {"turns": [1]}, "b": {"turns": []}, "c": {"turns": []}}
    after = {"a": {"turns": [2]}, "b": {"turns": []}, "d": {"turns": []}}
    assert compare(before, after) == ["moved   a", "new     d", "gone    c"]
    assert compare(after, after) == []


def test_a_dump_of_one_agent_holds_each_of_its_recordings(tmp_path, capsys):
    out = tmp_path / "vibe.json"
    assert main([str(out), "vibe"]) == 0
    got = json.loads(out.read_text(encoding="utf-8"))
    names = {f"recordings/vibe/{c.parent.name}" for c in RECORDINGS.glob("vibe/*/session.cast")}
    assert names <= got.keys() and all(k.split("/")[1] == "vibe" for k in got)
    assert all("turns" in v and v["turns"] for v in got.values())
    assert main(["--compare", str(out), str(out)]) == 0
    assert capsys.readouterr().out.strip().endswith(f"identical: {len(got)} replays")


def test_no_output_file_is_a_usage_error(capsys):
    assert main([]) == 2
    assert "usage" in capsys.readouterr().err
