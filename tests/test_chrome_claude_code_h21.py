"""Claude Code chrome on real recordings: what round h21's randomized probes
(2.1.330 and 2.1.197, inline and full screen, a third started from
bash/zsh/fish) found, asserted on every Claude Code recording that shows the
situation (never on one case by name), against its truth.json, as recorded
and with the input events removed:

- inline, a reprint the fold could not lay over its older copy: after a
  resize (or as the `/help` dialog closes) the inline renderer wipes its
  live area and draws it again from a prompt's echo on; a table there is
  laid out anew (`key: value` records at the old width, a box at the new
  one), its words come in another order, and `fold_redraws` kept both
  copies: the same prompts came twice (h21-sh-cc-s2103: turns_ok 0,
  recall/prec 0.88/0.87). The older run goes when the same run of prompts
  follows at once and holds no word the newer one lacks
  (`claude_code._unfolded_reprints`).
- a row the terminal re-wrapped at a space (`… woozospzhaim ` / `briolt`)
  joined again with nothing between: the cut fills the row to its last
  column, so a row whose text stops short of it was cut at a space
  (`claude_code._reflow_gap`).
- a prompt whose input box wrapped at the space before a Chinese or Japanese
  word (`… 表格` / `中文字符`, the word did not fit) came back with the two
  words joined (`表格中文字符`): the box cuts a run of wide characters only
  where the next one does not fit (`claude_code._box_lines`;
  h21-cc-s2105: user_exact 0.93; h21-sh-cc-s2108, zsh, full screen: 0.92 as
  recorded, 0.83 screen-only).

Recordings: h21-sh-cc-s2103-fish-inline-80x52 (fish, inline, a table drawn as
records at 80 columns, relaid as a box at 182 right after) and
h21-cc-s2105-inline-97x58 (inline, 21 resizes, tables relaid mid-answer,
/help, /clear, pastes, a prompt's Chinese words wrapped at a space in the
input box at 114 columns). h21-sh-cc-s2108 stays out: zsh's `zsh: suspended
claude` (Ctrl+Z in the full-screen renderer) is read as answer text, which
older files' checks (h8, h10) flag, and an answer's `日本語 漢字` wrapped at the
space is joined (a width the screen cannot tell from a cut).
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import regex
from wcwidth import wcswidth, wcwidth

from agents_chrome.claude_code import PROFILE, _box_lines, _reflow_gap
from agents_chrome.transcript import TLine
from tests.conftest import cli_replay, recording_cases, truth_turns, typed_prompts

WAYS = [False, True]  # as recorded, and with every input event removed
CASES = recording_cases("claude-code")


def _wide_spaced(text: str) -> bool:
    """A space between two wide characters (Chinese, Japanese, Korean, emoji)."""
    return any(c == " " and wcwidth(a) == 2 and wcwidth(b) == 2 for a, c, b in zip(text, text[1:], text[2:]))


_RESIZE = regex.compile(r', "r", "(\d+)x\d+"\]')
_RULE_ROW = regex.compile(r"^\|[-:| ]+\|$")


def _table_widths(text: str) -> list[int]:
    """Cells each markdown table of an answer takes drawn as a box: its
    columns' widest cells, a border and two blanks per column, the indent."""
    out, block = [], []
    for ln in text.split("\n") + [""]:
        if ln.strip().startswith("|"):
            block.append(ln.strip())
            continue
        cells = [[c.strip() for c in r.strip("|").split("|")] for r in block if not _RULE_ROW.match(r)]
        block = []
        if cells:
            n = max(map(len, cells))
            out.append(sum(max(wcswidth(r[i]) if i < len(r) else 0 for r in cells) for i in range(n)) + 3 * n + 3)
    return out


def _table_relaid(case: Path) -> bool:
    """Inline (the main screen only), an answer's table as wide as a box at one
    of the recording's widths and too wide at another: drawn as records, and
    as a box, by the reprints of a resize (a cheap look at the raw cast text)."""
    text = (case / "session.cast").read_text(encoding="utf-8")
    if "\\u001b[?1049h" in text:
        return False
    widths = _widths(case)
    tables = [w for t in truth_turns(case) if t["role"] == "assistant" for w in _table_widths(t["text"])]
    return len(widths) > 1 and any(min(widths) < w <= max(widths) for w in tables)


def _widths(case: Path) -> list[int]:
    """The recording's widths: the header's, then each resize's (the raw cast text)."""
    text = (case / "session.cast").read_text(encoding="utf-8")
    return [json.loads(text.split("\n", 1)[0])["width"]] + [int(w) for w in _RESIZE.findall(text)]


def _wide_spaced_prompts(case: Path) -> list[str]:
    """Prompts typed with a space between two wide characters."""
    return [p for p in typed_prompts(truth_turns(case)) if _wide_spaced(p)]


def _wrapped_wide_spaced(case: Path) -> bool:
    """Such a prompt is too wide for the input box at one of the recording's
    widths: the box wraps it, perhaps at that space."""
    narrowest = min(_widths(case))
    return any(wcswidth(p) > narrowest - 6 for p in _wide_spaced_prompts(case))


RELAID = [c for c in CASES if (c / "truth.json").exists() and _table_relaid(c)]
WIDE_SPACED = [c for c in CASES if (c / "truth.json").exists() and _wrapped_wide_spaced(c)]


def test_the_situations_are_recorded():
    assert RELAID and WIDE_SPACED


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", RELAID, ids=lambda c: c.name)
def test_no_prompt_comes_more_often_than_it_was_typed(case: Path, screen_only: bool):
    """A reprint left unfolded shows as prompts doubled: each typed prompt
    comes back at most as many times as it was typed."""
    typed = Counter(typed_prompts(truth_turns(case)))
    got = Counter(typed_prompts(cli_replay(case, "claude-code", screen_only)["turns"]))
    assert {p: n for p, n in got.items() if n > typed.get(p, 0) and typed.get(p, 0)} == {}


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", WIDE_SPACED, ids=lambda c: c.name)
def test_a_space_between_wide_words_of_a_prompt_stays(case: Path, screen_only: bool):
    """Each prompt typed with a space between two wide characters comes back
    with it (whitespace-normalised)."""
    got = typed_prompts(cli_replay(case, "claude-code", screen_only)["turns"])
    assert [p for p in _wide_spaced_prompts(case) if p not in got] == []


# -- the rules, on rows laid out as the recordings show them -------------------

def _row(text: str, width: int, wrapped: bool = True) -> TLine:
    return TLine(text, 0.0, "history", 0, width, wrapped)


def test_a_row_the_terminal_cut_at_a_space_goes_on_after_a_space():
    head = "❯ Zhainddult gund 表格 geindpluftdelt thoft goospmoxvooft woozospzhaim"  # 70 cells
    assert _reflow_gap(_row(head, 71), _row("briolt", 71)) == " "
    # a row full to its last column was cut inside a word
    full = "x" * 71
    assert _reflow_gap(_row(full, 71), _row("yz", 71)) == ""
    # one cell short before a wide character: the character that did not fit
    assert _reflow_gap(_row("x" * 70, 71), _row("表格", 71)) == ""


def test_an_input_box_wrapped_before_a_wide_word_keeps_the_space():
    first = "Geskzhoond shombreft choft daispstandnon brurrouck zarkroxdran quespkrulsken chuxdeask brioltpeack 表格"
    assert _box_lines([first, "  中文字符"], 114) == first + " 中文字符"
    # a run of wide characters cut where the row was full goes on with nothing between
    run = "漢" * 54
    assert _box_lines([run, "  字字"], 114) == run + "字字"


def _labels(rows: list[str]) -> list[str]:
    return [lb.kind for lb in PROFILE.label([TLine(r, 0.0, "history", 0, 80) for r in rows])]


def test_a_prompt_reprinted_with_its_table_relaid_comes_once():
    rows = ["❯ list the kilns", "", "● kiln: Anagama", "  heat: 1300", "  ────────────", "  kiln: Noborigama",
            "  heat: 1250", "", "✻ Brewed for 2s", "", "❯ list the kilns", "",
            "● ┌───────────┬──────┐", "  │ kiln      │ heat │", "  ├───────────┼──────┤",
            "  │ Anagama   │ 1300 │", "  ├───────────┼──────┤", "  │ Noborigama│ 1250 │", "  └───────────┴──────┘"]
    kinds = _labels(rows)
    assert kinds.count("user") == 1 and kinds[10] == "user", kinds
    # the same prompt sent again and answered with words of its own: both stay
    again = rows[:10] + ["❯ list the kilns", "", "● Both fire wood; the climbing kiln is cooler."]
    assert _labels(again).count("user") == 2
