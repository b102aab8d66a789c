"""`capsule-capture cat`: the output stream of a real recording."""
from __future__ import annotations

import subprocess
import sys

from screen.cast import CastReader
from tests.conftest import cli, recording_cases


def test_cat_prints_exactly_the_output_events():
    case = recording_cases()[0]
    with CastReader(case / "session.cast") as r:
        want = "".join(e.data for e in r.events(warn=False) if e.code == "o")
    res = subprocess.run([sys.executable, "-m", "capsule_capture.cli", "cat", str(case / "session.cast")],
                         capture_output=True, timeout=60)
    assert res.returncode == 0
    assert res.stdout.decode("utf-8") == want


def test_cat_of_a_non_recording_is_one_line_error(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\n")
    res = cli("cat", str(bad))
    assert res.returncode != 0 and len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.stderr
