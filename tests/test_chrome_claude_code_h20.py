"""Claude Code chrome: a table's middle rule left under a prompt's echo.

Started from fish and resized again and again while answers streamed
(h18-sh-cc-s1892-fish-76x47), Claude Code's redraw left one middle rule of
the next answer's table (`├────┼────┤`) on the row between a prompt's echo and
the answer's `●`, where its blank row belongs. The rule was read as the
prompt's second line (user_exact 0.92). A table typed into a prompt ends in
its bottom rule, and a blank row comes before the answer, so such a rule is
chrome (`claude_code._rule_left_under_prompt`).

Asserted on every Claude Code recording, against its truth.json, as recorded
and with the input events removed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from agents_chrome.claude_code import PROFILE
from agents_chrome.replay import replay
from agents_chrome.transcript import TLine
from tests.conftest import cli_replay, meta_of, truth_turns, typed_prompts
from tests.test_chrome_claude_code_h5 import CASES

WAYS = [False, True]  # as recorded, and with every input event removed
BOX = set("─│├┤┼┌┐└┘┬┴")


def _ruled_rows(prompts: list[str]) -> set[str]:
    return {row.strip() for p in prompts for row in p.split("\n") if row.strip() and set(row.strip()) <= BOX}


def _shell_resized(case: Path) -> bool:
    """Started from a shell (the recorded command is not the agent) and resized."""
    return meta_of(case).get("command") != "claude" and bool(meta_of(case).get("resizes"))


def test_there_are_recordings_with_a_rule_left_under_a_prompt():
    """The rule is met on a real recording, not only on made-up rows."""
    def rules(case: Path) -> set[str]:
        _meta, _turns, labeled = replay(case / "session.cast", agent="claude-code")
        return {lb.rule for lb in labeled}
    assert any("stale-table-rule" in rules(c) for c in CASES if _shell_resized(c))


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_prompt_holds_no_table_rule_the_user_did_not_type(case: Path, screen_only: bool):
    typed = _ruled_rows(typed_prompts(truth_turns(case)))
    got = _ruled_rows(typed_prompts(cli_replay(case, "claude-code", screen_only)["turns"]))
    assert got <= typed, sorted(got - typed)


def _kinds(rows: list[str]) -> list[str]:
    return [lb.kind for lb in PROFILE.label([TLine(r, 0.0, "main", 80) for r in rows])]


def test_a_middle_rule_where_the_blank_row_belongs_is_chrome():
    rows = ["❯ list the kilns", "  ├──────┼──────┤", "● ┌──────┬──────┐", "  │ kiln │ heat │", "  └──────┴──────┘"]
    assert _kinds(rows)[:3] == ["user", "chrome", "assistant"]


def test_a_table_typed_into_a_prompt_stays_the_prompts():
    rows = ["❯ fill this in:", "  ┌────┬────┐", "  │ a  │ b  │", "  ├────┼────┤", "  │ 1  │ 2  │",
            "  └────┴────┘", "", "● Done."]
    kinds = _kinds(rows)
    assert "chrome" not in kinds[:6], kinds
