"""Where capsule-capture keeps its data: one definition for the recorder and the archive."""
from __future__ import annotations

import os
from pathlib import Path


def data_home() -> Path:
    """$CAPSULE_CAPTURE_HOME, else `capsule-capture` in the XDG data dir (~/.local/share)."""
    env = os.environ.get("CAPSULE_CAPTURE_HOME")
    if env:
        return Path(env).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data) / "capsule-capture"
