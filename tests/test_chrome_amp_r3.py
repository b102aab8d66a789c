"""Amp chrome, fresh round (issue 11): what new content showed, on real recordings.

Every test walks all Amp recordings and asserts a behaviour wherever the
screen shows the structure in question (a blockquote bar, wide text cut
by the width, a command laid out over rows), so a new recording with that
structure is checked too; none is keyed to a case's name or words.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import regex

from agents_chrome.amp import COUNTED, AmpProfile, join_wide_wraps, shell_command
from tests import drawn_recall
from tests.conftest import frames_of, recording_cases, replay_json
from tests.selection import select

AGENT = "amp"
CASES = recording_cases(AGENT)


# h7 recordings whose failure is known and reported, not fixed (strict: a fix shows)
H7_KNOWN = {"h7-amp-quarry-narrow-60x20": 'h7: a tall answer streamed in one burst at 60x20, then the window grew to 84x25 between turns: Amp re-laid it out and only its bottom (items 7-12) is ever drawn at 84; the rows drawn at 60 columns (items 10-12) are not given back as drawn there (its partial mark is right)'}


def known(cases: list) -> list:
    """`cases` with the H7_KNOWN ones marked strict xfail."""
    return [pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=H7_KNOWN[c.name])) if c.name in H7_KNOWN
            else c for c in cases]
QUOTE = re.compile(r"^\s{2,4}│\s+(\S.*?)\s*$")
WIDE_WORD = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}][\w\p{Han}\p{Hiragana}\p{Katakana}]*")

def turns_of(case: Path) -> list[dict]:
    return replay_json(case / "session.cast", AGENT)["turns"]


def truth_of(case: Path) -> list[dict]:
    return json.loads((case / "truth.json").read_text())["turns"]


def quote_rows(case: Path) -> set[str]:
    """Blockquote rows drawn on the alternate screen: a bar a few columns in
    (on frames that are a view of the conversation: not the old layout a
    resize left before Amp drew again, h20)."""
    rows: set[str] = set()
    profile = AmpProfile()
    for f in frames_of(case):
        if f.alternate and profile.viewport(f) is not None:
            for ln in f.lines:
                m = QUOTE.match(ln.rstrip("█▁▂▃▄▅▆▇ "))
                if m and "│" not in m.group(1):
                    rows.add(m.group(1).strip())
    return rows


QUOTED = select("QUOTED", CASES, lambda c: quote_rows(c))


def test_there_are_recordings_with_blockquotes_wide_text_and_a_shell_around_amp():
    assert QUOTED
    assert any(regex.search(r"\p{Han}", t.get("text") or "") for c in CASES for t in truth_of(c))
    assert any(json.loads((c / "meta.json").read_text()).get("shell") for c in CASES)


@pytest.mark.parametrize("case", QUOTED, ids=[c.name for c in QUOTED])
def test_a_blockquote_in_an_answer_is_answer_text_not_box_chrome(case: Path):
    answers = "\n".join(t["text"] for t in turns_of(case) if t["role"] == "assistant")
    for row in quote_rows(case):
        assert row in answers, row


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_wide_text_cut_by_the_width_is_whole_again(case: Path):
    """A word of wide characters in the replay is a word of the truth (a
    row break inside one would make two words the model never wrote)."""
    truth = set(WIDE_WORD.findall(" ".join(t.get("text") or "" for t in truth_of(case))))
    for t in turns_of(case):
        if t["role"] in ("user", "assistant"):
            for w in WIDE_WORD.findall(t["text"]):
                assert w in truth, w


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_shell_tool_row_is_the_command_the_model_asked_for(case: Path):
    """Amp lays a long command over rows ending in ` \\`: the tool call is
    the one command line (every `$` row Amp drew is a served command)."""
    served = {" ".join(str((t.get("input") or {}).get("command", "")).split())
              for t in truth_of(case) if t["role"] == "tool_call"}
    for t in turns_of(case):
        # (a summary row, `Ran 2 commands`, stands for calls it does not spell out)
        if t["role"] == "tool_call" and t.get("name") == "shell_command" and not COUNTED.search(t["text"]):
            got = " ".join(t["text"].split())
            # Amp may draw a chain's first command as the `$` row and sum up
            # the rest (`ls`, `grep`) as searches: a leading part up to `&&`
            # A command too long for even one row is cut by Amp with `…` and
            # never drawn whole: the row is then a leading part of the command
            cut = got.endswith("…") and got[:-1].rstrip()
            assert any(s == got or s.startswith(got) and s[len(got):].lstrip().startswith(("&&", "||", ";", "|"))
                       or cut and s.startswith(cut) for s in served), t["text"]


SHELLED = [c for c in CASES if json.loads((c / "meta.json").read_text()).get("shell")]


@pytest.mark.parametrize("case", SHELLED, ids=[c.name for c in SHELLED])
def test_shell_commands_around_amp_are_system_turns_outside_the_conversation(case: Path):
    meta = json.loads((case / "meta.json").read_text())["shell"]
    turns = turns_of(case)
    first_user = next(i for i, t in enumerate(turns) if t["role"] == "user")
    last_user = max(i for i, t in enumerate(turns) if t["role"] == "user")
    system = [t["text"] for t in turns if t["role"] == "system"]
    # every line typed at the shell prompt is a system turn, none joins the agent's
    for typed in meta["typed_at_shell"]:
        assert any(typed in s for s in system), typed
        for t in turns[first_user:last_user + 1]:
            if t["role"] != "system":
                assert meta["ps1"].strip() not in t["text"]
    assert all(t["role"] == "system" for t in turns[:first_user])


@pytest.mark.parametrize("case", known(CASES), ids=[c.name for c in CASES])
def test_every_answer_word_drawn_in_its_turn_is_replayed_in_it(case: Path):
    truth = truth_of(case)
    drawn = drawn_recall.drawn_sequence(case / "session.cast", drawn_recall.typed_prompts(truth))
    total, got = drawn_recall.recall(truth, turns_of(case), drawn)
    assert got >= 0.98 * total, f"{got}/{total} of the drawn answer words"


def test_join_wide_wraps_joins_only_rows_cut_at_the_width():
    wrapped = "- 第1日目：朝は出発し駅で弁当を買\nいます。\n短い行。\n次の行"
    # the first row is the widest: cut by the width; the short rows ended on a break
    assert join_wide_wraps(wrapped) == "- 第1日目：朝は出発し駅で弁当を買います。\n短い行。\n次の行"
    assert join_wide_wraps("-\n第2日目：雨") == "- 第2日目：雨"
    assert join_wide_wraps("plain\nascii rows") == "plain\nascii rows"


def test_shell_command_joins_rows_continued_with_a_backslash_only():
    assert shell_command("ls tests 2>&1 || \\\n    echo no tests ▸") == "ls tests 2>&1 || echo no tests"
    assert shell_command("python3 src/main.py ▸\nhello") == "python3 src/main.py"
    assert shell_command("sh ./gone.sh (exit code: 2) ▸") == "sh ./gone.sh"


SETTLED = re.compile(r"^\s{0,2}[✓✗]\s+(\S.*?)\s*▸?\s*$")
SPINNING = re.compile(r"^\s{0,2}[⠀-⣿]\s+(\S.*?)\s*▸?\s*$")


def tool_rows(case: Path) -> tuple[set[str], set[str], dict[str, int]]:
    """Tool header bodies drawn settled (✓/✗) and drawn with a spinner, and
    for each settled header's tail (`1 search`) the most rows with it one
    frame showed (so at least that many calls were drawn settled)."""
    settled: set[str] = set()
    spinning: set[str] = set()
    most: dict[str, int] = {}
    for f in frames_of(case):
        if f.alternate:
            here: dict[str, int] = {}
            for ln in f.lines:
                ln = ln.rstrip("█▁▂▃▄▅▆▇ ")
                if m := SETTLED.match(ln):
                    settled.add(m.group(1))
                    tail = m.group(1).split(None, 1)[-1]
                    here[tail] = here.get(tail, 0) + 1
                elif m := SPINNING.match(ln):
                    spinning.add(m.group(1))
            for tail, n in here.items():
                most[tail] = max(most.get(tail, 0), n)
    return settled, spinning, most


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_tool_header_drawn_settled_anywhere_is_replayed_settled(case: Path):
    """A tool row drawn with a spinner ('Exploring 1 file') and later shown
    settled ('✓ Explored 1 file', maybe only in a scrolled-back view) is
    replayed in its settled form. Calls with the same header are told apart
    by count: a call left spinning is allowed only beside as many settled
    ones as a single frame showed at once (h16-amp-gen1609: a third
    `Exploring 1 search` spun until a burst of answer scrolled it away, and
    its settled row was never written to the terminal)."""
    settled, spinning, most = tool_rows(case)
    tails = {s.split(None, 1)[-1] for s in settled}
    calls = [t["text"] for t in turns_of(case) if t["role"] == "tool_call"]
    for text in calls:
        if text in spinning and text not in settled:
            tail = text.split(None, 1)[-1]
            # Several calls share a header (`Explored 1 search`): one whose
            # settled row was never drawn (the answer scrolled it away while
            # it still spun) stays as drawn, but only once every call whose
            # settled row one frame showed together is replayed settled
            kept = sum(1 for c in calls if c in settled and c.split(None, 1)[-1] == tail)
            assert tail not in tails or kept >= most[tail], text


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_an_answer_opening_with_a_code_block_keeps_its_indentation(case: Path):
    """Amp draws such an answer with no text row first: its code rows are
    dedented together, so nesting inside the block survives."""
    answers = [t["text"] for t in turns_of(case) if t["role"] == "assistant"]
    for t in truth_of(case):
        text = t.get("text") or ""
        if t["role"] != "assistant" or not text.startswith("```"):
            continue
        code = text.split("\n", 1)[1].split("```", 1)[0].rstrip("\n")
        rows = [r for r in code.splitlines() if r.strip()]
        shown = [a for a in answers if rows[0].strip() in a]
        if shown:  # its top was on screen
            got = [r for r in shown[0].splitlines() if r.strip()]
            k = next(i for i, r in enumerate(got) if r.strip() == rows[0].strip())
            for want in rows:  # a code row wider than the screen wraps: its first part opens the row
                while k < len(got) and not want.strip().startswith(got[k].strip()):
                    k += 1
                assert k < len(got), want
                assert len(got[k]) - len(got[k].lstrip()) == len(want) - len(want.lstrip()), (got[k], want)
                k += 1
