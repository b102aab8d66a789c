"""A reader that leaves early (`capsule-capture replay x.cast | head`) ends the command quietly.

Every output format answers a closed pipe the same way: status 0, nothing on stderr, as a filter in
a shell pipeline is expected to. rich's own answer is status 1 with no word, which a script reads as
a failed replay.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import RECORDINGS

CAST = RECORDINGS / "codex" / "s3-tool-chain-120x40" / "session.cast"


@pytest.mark.parametrize("fmt", ["rich", "text", "markdown", "json"])
def test_replay_into_a_closed_pipe_exits_zero_and_quiet(fmt):
    proc = subprocess.Popen([sys.executable, "-m", "capsule_capture.cli", "replay", str(CAST), "--agent", "codex",
                             "--format", fmt], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "COLUMNS": "100"})
    proc.stdout.close()  # the reader is gone before the first byte: every write meets a closed pipe
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert err == ""
