"""Every recording a test module chose by its frames is still the right choice.

The choices are stored (tests/selection.py says why); each is decided again
here, on the worker that holds the recording's frames for its other tests,
and compared with the store. A stale or missing choice fails with the
command that stores them again.
"""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tests import selection

# The modules whose choices are stored declare their selectors when imported;
# import them here too, so that this file alone checks every stored choice.
for _name in sorted({name.split(":")[0] for name in selection.stored()}):
    try:
        importlib.import_module(_name)
    except ImportError:
        pass  # a module gone: test_every_stored_selector_is_declared names it

_ASKED: dict[str, Path] = {key: case for sel in selection.SELECTORS.values() for key, case in sel.asked.items()}
_FIX = "run `python -m tests.selection --write` and commit tests/selections.json"


def test_the_store_holds_choices() -> None:
    assert selection.stored(), f"tests/selections.json is missing or empty: {_FIX}"


def test_every_stored_selector_is_declared() -> None:
    gone = sorted(set(selection.stored()) - set(selection.SELECTORS))
    assert not gone, f"stored selectors no module declares: {gone}: {_FIX}"


def test_every_declared_choice_is_stored() -> None:
    """A selector or recording the store lacks is decided at every collection, by every worker."""
    missing = sorted(f"{name} {key}" for name, sel in selection.SELECTORS.items()
                     for key in sel.asked if key not in selection.stored().get(name, {}))
    assert not missing, f"{len(missing)} choices not stored, e.g. {missing[:3]}: {_FIX}"


@pytest.mark.parametrize("case", [_ASKED[k] for k in sorted(_ASKED)], ids=sorted(_ASKED))
def test_stored_choices_hold(case: Path) -> None:
    key = selection.case_key(case)
    wrong = []
    for name, sel in sorted(selection.SELECTORS.items()):
        if key not in sel.asked:
            continue
        kept = selection.stored().get(name, {}).get(key)
        if kept is None:
            continue  # not stored: decided at collection (test_every_declared_choice_is_stored)
        now = sel(case)
        if kept != now:
            wrong.append(f"{name}: stored {kept}, now {now}")
    assert not wrong, f"{key}: {wrong}: {_FIX}"
