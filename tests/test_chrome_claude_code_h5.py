"""Claude Code chrome on real recordings: what the h5 round of fresh
recordings found, asserted on every Claude Code recording that shows the
situation (never on one case by name), against its truth.json:

- a markdown table too wide for the screen is drawn as `key: value` records
  between rules: read back as the table, header first;
- numbered lists nested in a list are drawn with letters / roman numerals:
  read back as the numbers the answer wrote;
- a background agent's `● Agent "…" finished · 1s` notice is no answer;
- full-screen frames that still hold an older, narrower layout (the input
  box's rules stop short) open no new layout: no second copy of the
  conversation after the terminal grows;
- a screen wiped row by row from home (EL 2 + cursor down over every row,
  Claude Code before it reprints, e.g. after /compact) is a clear: the
  reprint replaces the copy already in history;
- a slash-menu entry's wrapped description is menu, not answer.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import regex

from agents_chrome.claude_code import PROFILE, RECORD_ROW, _nested_numbers
from screen.frames import FrameBuilder
from tests.conftest import frames_of, recording_cases, turns_of as shared_turns_of
from tests.selection import select

CASES = recording_cases("claude-code")
WORD = regex.compile(r"\w+")


def turns_of(case: Path) -> tuple:
    return shared_turns_of(case, "claude-code")


def truth_of(case: Path) -> dict:
    return json.loads((case / "truth.json").read_text(encoding="utf-8"))


def segments(turns: list[tuple[str, str]]) -> list[list[str]]:
    """Assistant texts per prompt (slash commands and system turns skipped)."""
    out: list[list[str]] = []
    for role, text in turns:
        if role == "user":
            out.append([])
        elif role == "assistant" and out:
            out[-1].append(text)
    return out


def truth_segments(case: Path) -> list[list[str]]:
    return segments([(t["role"], t.get("text") or "") for t in truth_of(case)["turns"]
                     if not (t["role"] == "user" and t.get("kind"))])


def replayed_segments(case: Path) -> list[list[str]]:
    return segments([(t.role, t.text) for t in turns_of(case)])


def table_of(markdown: str) -> list[list[str]] | None:
    """Cells of the first markdown table in an answer (separator row left out)."""
    rows = [ln.strip() for ln in markdown.splitlines() if ln.strip().startswith("|")]
    cells = [[c.strip() for c in r.strip("|").split("|")] for r in rows]
    cells = [r for r in cells if not all(regex.fullmatch(r":?-+:?", c) for c in r)]
    return cells if len(cells) >= 3 else None


def recorded_as_records(case: Path) -> bool:
    """Some frame draws a table as `key: value` records between rules."""
    for f in frames_of(case):
        rows = [ln for ln in f.lines if ln.strip()]
        for a, b in zip(rows, rows[1:]):
            if regex.match(r"^\s+─{20,}\s*$", a) and RECORD_ROW.match(b) and b.startswith("  "):
                return True
    return False


def _truth_tables(case: Path) -> bool:
    return any(table_of(answer) is not None for want in truth_segments(case) for answer in want)


#: recordings that draw a served table as records
RECORD_CASES = select("RECORD_CASES", CASES, lambda c: _truth_tables(c) and recorded_as_records(c))


def test_some_recording_draws_a_table_as_records() -> None:
    assert RECORD_CASES


@pytest.mark.parametrize("case", RECORD_CASES, ids=lambda c: c.name)
def test_tables_drawn_as_records_come_back_as_tables(case: Path) -> None:
    checked = 0
    for want, got in zip(truth_segments(case), replayed_segments(case)):
        for answer in want:
            table = table_of(answer)
            if table is None:
                continue
            text = "\n".join(got)
            # the header's words, then each row's, in the answer's order
            words = WORD.findall(text)
            expect = WORD.findall(" ".join(" ".join(r) for r in table))
            at = 0
            for w in expect:
                at = words.index(w, at) + 1 if w in words[at:] else -1
                assert at > 0, (case.name, w)
            checked += 1
    assert checked >= 1


NESTED = regex.compile(r"^ {2,}\d+\. \S", regex.M)
LETTERED = regex.compile(r"^ {2,}[a-z]{1,3}\. \S", regex.M)
#: recordings whose answers hold a nested numbered list (read from truth.json)
NESTED_CASES = [c for c in CASES if any(NESTED.search(a) for want in truth_segments(c) for a in want)]


def test_some_answer_holds_a_nested_numbered_list() -> None:
    assert NESTED_CASES


@pytest.mark.parametrize("case", NESTED_CASES, ids=lambda c: c.name)
def test_nested_numbered_items_keep_their_numbers(case: Path) -> None:
    for want, got in zip(truth_segments(case), replayed_segments(case)):
        if not any(NESTED.search(a) for a in want):
            continue
        text = "\n".join(got)
        assert NESTED.search(text), case.name
        assert not LETTERED.search(text), case.name


def test_nested_numbers_only_read_back_counting_runs() -> None:
    drawn = "1. top\n   a. first\n   b. second\n      i. deep\n      ii. deeper\n2. next\n   c. stray"
    assert _nested_numbers(drawn) == ("1. top\n   1. first\n   2. second\n      1. deep\n      2. deeper\n"
                                      "2. next\n   c. stray")


def test_background_agent_notices_are_no_answer() -> None:
    notice = regex.compile(r'^●\s+(Agent|Task)\s+"[^"]*"\s+\w+')
    seen = 0
    for case in CASES:
        if not any(notice.match(ln) for f in frames_of(case) for ln in f.lines):
            continue
        seen += 1
        for t in turns_of(case):
            if t.role == "assistant":
                assert not regex.search(r'(Agent|Task) "[^"]*" (finished|failed|completed)', t.text), case.name
    assert seen >= 1


def test_frames_of_an_older_narrower_layout_make_no_second_copy() -> None:
    """Full-screen recordings that grew while the old rows were still up:
    every prompt once, in order."""
    seen = 0
    for case in CASES:
        stale = [f for f in frames_of(case) if f.alternate and PROFILE._input_box_top(f.lines) is not None
                 and len(f.lines[PROFILE._input_box_top(f.lines)].rstrip()) < f.columns - 1]
        if not stale:
            continue
        seen += 1
        prompts = [" ".join(t["text"].split()) for t in truth_of(case)["turns"]
                   if t["role"] == "user" and not t.get("kind")]
        assert [" ".join(t.text.split()) for t in turns_of(case) if t.role == "user"] == prompts, case.name
        assert not any(f in PROFILE._laid_out([f]) for f in stale)
    assert seen >= 2


def test_a_screen_wiped_row_by_row_is_a_clear() -> None:
    def marks(rows: int, *writes: str) -> list[str]:
        b = FrameBuilder(20, rows)
        frames = []
        for k, data in enumerate(writes):
            frames += b.feed_event(float(k), "o", data)
        frames += b.finish()
        return [why for f in frames for _o, why in f.marks]

    wipe = "\x1b[H" + "\x1b[2K\x1b[1B" * 9
    assert "clear" in marks(10, "one\r\n" * 12, wipe + "\x1b[Hreprint")
    # too few rows erased (a live area redrawn in place): no clear
    assert "clear" not in marks(24, "one\r\n" * 30, wipe + "\x1b[Hlive")


def test_a_reprint_after_compact_is_not_a_second_answer() -> None:
    """/compact in the inline renderer: the screen is wiped row by row and the
    last answer reprinted; each answer's words come once."""
    seen = 0
    for case in CASES:
        if not any(t.get("text") == "/compact" for t in truth_of(case)["turns"]):
            continue
        seen += 1
        for want, got in zip(truth_segments(case), replayed_segments(case)):
            assert len(WORD.findall(" ".join(got))) <= len(WORD.findall(" ".join(want))) + 2, case.name
    assert seen >= 1


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_wrapped_slash_menu_descriptions_are_no_answer(case: Path) -> None:
    for t in turns_of(case):
        if t.role == "assistant":
            assert not regex.search(r"(?m)^\s*/(resume|clear|compact|config)\s*$", t.text), case.name


@pytest.mark.parametrize("case", [c for c in CASES if c.name.startswith("h5-")], ids=lambda c: c.name)
def test_every_prompt_once_in_order(case: Path) -> None:
    prompts = [" ".join(t["text"].split()) for t in truth_of(case)["turns"]
               if t["role"] == "user" and not t.get("kind")]
    assert [" ".join(t.text.split()) for t in turns_of(case) if t.role == "user"] == prompts


def test_what_the_cli_writes_in_the_users_place_is_no_prompt() -> None:
    """Native files: a background agent's <task-notification>, the
    '[Request interrupted by user]' marker and a /compact summary are
    system turns, on every recording whose session holds one."""
    from archive.discovery import discover
    seen = 0
    for case in CASES:
        raw = "".join(p.read_text(encoding="utf-8") for p in (case / "native").rglob("*.jsonl"))
        if not any(k in raw for k in ("<task-notification>", "[Request interrupted by user", "isCompactSummary")):
            continue
        seen += 1
        for f in discover(case / "native"):
            for conv in f.provider.parse(f.path).conversations:
                for t in conv.turns:
                    if t.role == "user":
                        assert not t.text.startswith(("<task-notification>", "[Request interrupted")), case.name
                        assert not t.text.startswith("This session is being continued"), case.name
    assert seen >= 2


def test_prompts_that_start_with_a_slash_are_prompts_and_commands_stay_commands() -> None:
    """A prompt that opens with a path (`/var/log keeps growing ...`) is a
    user turn; a local command the user ran (`/help`, `/clear`, `/compact`)
    stays a system turn, on every recording that has either."""
    prompts = commands = 0
    for case in CASES:
        truth = truth_of(case)["turns"]
        typed = [t["text"] for t in truth if t["role"] == "user" and not t.get("kind") and t["text"].startswith("/")]
        ran = [t["text"] for t in truth if t.get("kind") == "slash_command" and t["text"] != "/exit"]
        if not typed and not ran:
            continue
        users = [" ".join(t.text.split()) for t in turns_of(case) if t.role == "user"]
        for text in typed:
            prompts += 1
            assert " ".join(text.split()) in users, (case.name, text)
        for text in ran:
            commands += 1
            assert text not in users, (case.name, text)
    assert prompts >= 1 and commands >= 3
