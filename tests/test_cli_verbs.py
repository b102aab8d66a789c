"""The verb map that lets one command build only its own parser must name every verb, and the
module it names must be the one that defines it: else a verb would parse differently, or not
at all, when typed first."""
from __future__ import annotations

import argparse

from capsule_capture import cli
from tests.conftest import cli as run_cli


def _verbs(parser: argparse.ArgumentParser) -> set[str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def test_every_verb_is_mapped_to_the_module_that_defines_it():
    assert _verbs(cli.build_parser()) == set(cli.VERBS)
    for verb, module in cli.VERBS.items():
        assert verb in _verbs(cli.build_parser(module)), (verb, module)


def test_a_verb_typed_first_parses_as_in_the_full_parser():
    argv = ["list", "--limit", "3", "--format", "json"]
    full = cli.build_parser().parse_args(argv)
    only = cli.build_parser(cli.VERBS["list"]).parse_args(argv)
    assert {k: v for k, v in vars(full).items() if k != "func"} == {k: v for k, v in vars(only).items() if k != "func"}


def test_unknown_verb_is_one_usage_error_listing_the_verbs():
    r = run_cli("frobnicate")
    assert r.returncode == 2
    assert "invalid choice" in r.stderr and "replay" in r.stderr and "Traceback" not in r.stderr
