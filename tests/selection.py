"""Recordings chosen by what their frames show, stored in the tree.

Many test modules parametrize over the recordings that show a situation (a
table cut by a resize, a menu, an after-turn notice), and finding them means
building every frame of every recording of an agent. Done at import, that
cost is paid at collection by every xdist worker, about two minutes of CI's
fifteen. The choices are instead kept in `selections.json` beside this file:
collection reads them, and `test_selection.py` checks each stored choice
against its predicate on the recording's own worker, where the frames are
built once and shared with that recording's other tests. A recording or
predicate the store does not know yet is decided at collection (correct,
only slower) and the check names the command that stores it:

    python -m tests.selection --write
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

STORE = Path(__file__).with_name("selections.json")
#: set by `--write`: decide every choice afresh and store them at the end of collection
WRITE_ENV = "CAPCAP_SELECTIONS_WRITE"


class Selector:
    """One predicate over recordings, as a test module declared it."""

    def __init__(self, name: str, shows: Callable[[Path], object]) -> None:
        self.name = name
        self.shows = shows
        self.asked: dict[str, Path] = {}
        self.decided: dict[str, bool] = {}

    def __call__(self, case: Path) -> bool:
        return bool(self.shows(case))


#: every selector the imported test modules declared, by name
SELECTORS: dict[str, Selector] = {}
_stored: dict[str, dict[str, bool]] | None = None


def case_key(case: Path) -> str:
    """A recording as "agent/case", the same on every checkout."""
    return f"{case.parent.name}/{case.name}"


def stored() -> dict[str, dict[str, bool]]:
    """The stored choices, by selector name, then by "agent/case"."""
    global _stored
    if _stored is None:
        try:
            _stored = json.loads(STORE.read_text(encoding="utf-8"))["selectors"]
        except (OSError, ValueError, KeyError, TypeError):
            _stored = {}
    return _stored


def writing() -> bool:
    return bool(os.environ.get(WRITE_ENV))


def select(name: str, cases: Iterable[Path], shows: Callable[[Path], object]) -> list[Path]:
    """The cases for which `shows(case)` is true, read from the store when it
    knows them. `name` is unique within the calling module."""
    module = sys._getframe(1).f_globals.get("__name__", "?")
    full = f"{module}:{name}"
    sel = SELECTORS.get(full)
    if sel is None:
        sel = SELECTORS[full] = Selector(full, shows)
    known = {} if writing() else stored().get(full, {})
    out = []
    for case in cases:
        key = case_key(case)
        sel.asked[key] = case
        value = known.get(key)
        if value is None:
            value = sel(case)
        sel.decided[key] = value
        if value:
            out.append(case)
    return out


def write_store() -> None:
    """Store what every declared selector decided (called after collection in `--write`)."""
    data = {"selectors": {name: dict(sorted(sel.decided.items())) for name, sel in sorted(SELECTORS.items())}}
    part = STORE.with_suffix(".json.part")
    part.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(part, STORE)


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print("usage: python -m tests.selection --write", file=sys.stderr)
        return 2
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, **{WRITE_ENV: "1"})
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                       cwd=root, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout[-2000:] + p.stderr[-2000:])
        return p.returncode
    global _stored
    _stored = None  # the store the collection just wrote
    print(f"wrote {STORE.relative_to(root)}: {len(stored())} selectors")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
