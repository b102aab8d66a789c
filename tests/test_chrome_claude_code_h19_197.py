"""Claude Code on real recordings: what round h19's randomized probes of
2.1.197 found, asserted on every Claude Code recording that shows the
situation (never on one case by name), against its truth.json, as recorded
and with the input events removed:

- a one-column character carrying U+FE0F (`🛠️`, `⚠️`) came back with a
  blank after it (`🛠️ :` for `🛠️:`, `🛠️  word` for `🛠️ word`): Claude
  Code counts the pair two columns wide, writes a space in the second
  column, the character in the first, then moves past both; a terminal that
  keeps the character one column wide shows that space. Every Claude Code
  version does it (2.1.197 probes, 2.1.330 shell recordings);
- full screen: a view caught right after the width changed, before Claude
  Code drew it anew, holds the old rows cut at the new width (`…
  tilttreiskshar 测` for `… tilttreiskshar 测试数据`); its cut words are no
  words the old copy lacked, and `fuller_reprint` must not put it in place
  of the old copy (relayout's rule, from the lead's h18 merge: asserted here
  on synthetic layouts, and on h18-cc-s1802 by
  tests/test_chrome_claude_code_h16.py);
- inline: `/clear` wipes the screen, not the terminal's scrollback; a taller
  window then pulls the scrollback's last rows (the turn before the clear)
  back above the header, and Claude Code's next redraw wipes them. They were
  taken as answer rows the redraw had wiped (`_with_rows_above_redraw`) and
  the turn before the clear came back twice.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from wcwidth import wcwidth

from agents_chrome.claude_code import HEADER, _close_vs16_shadows
from agents_chrome.relayout import _reprint_join
from tests.conftest import cli_replay, frames_of, meta_of, recording_cases, truth_turns, typed_prompts
from tests.selection import select

ALL = [c for c in recording_cases("claude-code") if (c / "truth.json").exists()]
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
VS16 = "\ufe0f"


def _render(case: Path) -> str:
    m = meta_of(case)
    return m.get("render_mode", m.get("render", "inline"))


# ------------------------------------------------------------------ VS16 after a one-column character
def _narrow_vs16(text: str) -> list[int]:
    """Where a one-column character carrying U+FE0F stands in `text`."""
    return [i for i in range(len(text) - 1) if text[i + 1] == VS16 and wcwidth(text[i]) == 1]


def _shows_narrow_vs16(case: Path) -> bool:
    return any(_narrow_vs16(t.get("text") or "") for t in truth_turns(case) if t["role"] in ("user", "assistant"))


NARROW_VS16 = [c for c in ALL if _shows_narrow_vs16(c)]


def _spacing(text: str) -> list[tuple[str, str]]:
    """(the character, what follows its U+FE0F up to the next word
    character: the spaces and marks between)."""
    out = []
    for i in _narrow_vs16(text):
        j = i + 2
        while j < len(text) and not (text[j].isalnum() or wcwidth(text[j]) == 2):
            j += 1
        out.append((text[i], text[i + 2:j].replace("*", "").replace("`", "")))
    return out


@BOTH
@pytest.mark.parametrize("case", NARROW_VS16, ids=lambda c: c.name)
def test_a_one_column_character_with_vs16_keeps_no_shadow_blank(case, screen_only):
    """Each such character comes back followed by what truth has after it
    (markdown marks aside): no second space, no space before punctuation."""
    want = {(r, s) for t in truth_turns(case) if t["role"] in ("user", "assistant")
            for r, s in _spacing(t["text"])}
    got = [(t["role"], rs) for t in cli_replay(case, "claude-code", screen_only)["turns"]
           if t["role"] in ("user", "assistant") for rs in _spacing(t["text"])]
    assert got, "the character never comes back"
    assert [g for g in got if g[1] not in want] == []


def test_the_shadow_blank_rule():
    assert _close_vs16_shadows("hep 🛠️ :") == "hep 🛠️:"
    assert _close_vs16_shadows("🛠️  krubre ⚠️ !") == "🛠️ krubre ⚠️!"
    # a wide character with U+FE0F covers both columns: its space is the text's
    assert _close_vs16_shadows("done \u2705\ufe0f late") == "done \u2705\ufe0f late"


# ------------------------------------------------------------------ a reprint cut at the new width
_VOCAB = ["zounbrel", "kaftmoor", "pleskivo", "drunthal", "mireskop", "vontalez", "grebsink", "hulmadra",
          "sporneth", "quilvaro", "tenbrisk", "yaldomur", "fexhorin", "blomquet", "carnivek", "dusplore"]


def _rows(n: int = 10, per: int = 8) -> list[str]:
    words = ["%s%d" % (_VOCAB[(r * per + k) % len(_VOCAB)], r * per + k) for r in range(n) for k in range(per)]
    return [" ".join(words[r * per:(r + 1) * per]) for r in range(n)]


def test_a_view_cut_at_the_new_width_is_no_fuller_reprint():
    """The new layout's rows are the old rows cut short (each row's last
    word down to its first letters): it holds no word the old copy lacks,
    and the old copy stays."""
    old = _rows(per=10)  # (nine words of ten in each row matched: as much as a reprint must hold)
    new = [r[:r.rindex(" ") + 3] for r in old]
    assert _reprint_join(old, [0.0] * len(old), set(), new, [1.0] * len(new), set(), 0) is None


def test_a_fuller_reprint_still_replaces_the_old_copy():
    """The new layout holds words the old copy never had (rows a short view
    scrolled past unseen): it replaces the old copy."""
    full = _rows(12)
    old = full[:4] + full[7:]
    joined = _reprint_join(old, [0.0] * len(old), set(), full, [1.0] * len(full), set(), 0)
    assert joined is not None and joined[0] == full


# ------------------------------------------------------------------ inline: rows pulled back above the header
def _pulled_back_above_header(case: Path) -> bool:
    """An inline frame with the header (the logo) below a conversation row:
    older rows a taller window pulled back from the scrollback."""
    for f in frames_of(case):
        if f.alternate:
            continue
        rows = f.lines
        head = next((y for y, r in enumerate(rows) if HEADER.match(r)), None)
        if head and any(r.startswith(("❯ ", "● ")) for r in rows[:head]):
            return True
    return False


PULLED_BACK = select("PULLED_BACK", ALL, lambda c: _render(c) == "inline" and _pulled_back_above_header(c))


def test_the_situations_are_recorded():
    assert NARROW_VS16 and PULLED_BACK


@BOTH
@pytest.mark.parametrize("case", PULLED_BACK, ids=lambda c: c.name)
def test_rows_pulled_back_above_the_header_add_no_turn(case, screen_only):
    """Each typed prompt comes back as often as it was typed."""
    conv = cli_replay(case, "claude-code", screen_only)
    assert Counter(typed_prompts(conv["turns"])) == Counter(typed_prompts(truth_turns(case)))
