"""`export --format cast`: the recording with a marker at each turn's start, played by asciinema itself."""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pexpect
import pytest

from tests.conftest import RECORDINGS, cli

CASE = RECORDINGS / "codex" / "x2-short-answers-140x36"
ASCIINEMA = shutil.which("asciinema") or str(Path(sys.executable).parent / "asciinema")


def exported(tmp_path: Path, case: Path = CASE) -> tuple[Path, list[str]]:
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "home")}
    res = cli("import", str(case / "session.cast"), env=env)
    assert res.returncode == 0, res.stderr
    cid = res.stdout.strip()
    out = tmp_path / "out"
    out.mkdir()
    res = cli("export", cid, "--format", "cast", "-o", str(out), env=env)
    assert res.returncode == 0, res.stderr
    conv = json.loads(cli("show", cid, "--format", "json", env=env).stdout)
    return out / f"{cid}.cast", [t["text"] for t in conv["turns"] if t["role"] == "user"]


def test_markers_at_each_prompt_in_time_order_and_nothing_else_changed(tmp_path):
    path, prompts = exported(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    src = (CASE / "session.cast").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == json.loads(src[0])
    evs = [json.loads(x) for x in lines[1:]]
    marks = [e for e in evs if e[1] == "m"]
    assert len(prompts) >= 3 and len(marks) == len(prompts)
    for (_, _, label), prompt in zip(marks, prompts):
        assert label and prompt.split()[0] in label and label.split()[0] == prompt.split()[0]
    times = [e[0] for e in evs]
    assert times == sorted(times)
    assert [e for e in evs if e[1] != "m"] == [json.loads(x) for x in src[1:] if x.strip()]
    assert os.stat(path).st_mode & 0o777 == 0o600


@pytest.mark.skipif(not os.path.exists(ASCIINEMA), reason="asciinema not installed (pip install asciinema)")
def test_asciinema_reads_the_markers_and_pauses_on_each(tmp_path):
    """asciinema 2.4's own parser loads the file; `play --pause-on-markers` stops at each marker
    and `]` goes to the next one, so it takes exactly one `]` per marker to reach the end."""
    path, prompts = exported(tmp_path)
    from asciinema.asciicast import v2
    fh = open(path, encoding="utf-8")
    with v2.open_from_file(fh.readline(), fh) as cast:
        kinds = [e[1] for e in cast.events()]
    assert kinds.count("m") == len(prompts)
    h = json.loads(path.read_text().split("\n", 1)[0])
    p = pexpect.spawn(ASCIINEMA, ["play", "--pause-on-markers", "-i", "0.05", "-s", "20", str(path)],
                      dimensions=(h["height"], h["width"]), timeout=20, encoding="utf-8", codec_errors="replace")
    presses = 0
    while True:
        try:
            p.expect(pexpect.EOF, timeout=2.0)  # not over by itself: paused at a marker
            break
        except pexpect.TIMEOUT:
            assert presses <= len(prompts), "more pauses than markers"
            p.send("]")
            presses += 1
    p.close()
    assert p.exitstatus == 0
    assert presses == len(prompts)


def test_conversation_without_a_recording_is_skipped_with_a_message(tmp_path):
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "home")}
    copy = tmp_path / "gone.cast"
    shutil.copyfile(CASE / "session.cast", copy)
    cid = cli("import", str(copy), env=env).stdout.strip()
    copy.unlink()
    out = tmp_path / "out"
    out.mkdir()
    res = cli("export", cid, "--format", "cast", "-o", str(out), env=env)
    assert "recording is gone" in res.stderr and "Traceback" not in res.stderr
    assert not list(out.iterdir())
