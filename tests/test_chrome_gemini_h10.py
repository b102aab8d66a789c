"""Gemini CLI: behaviour found by the h10 round of fresh recordings.

A window edge dragged narrower while an answer streams (six resizes within
a second, 200x60 down to 134x40) reflows Ink's live area (a full-width rule
or footer takes two rows), so Ink erases too few rows on its next draw and
what it drew before stays in the scrollback: the answer as far as it had
streamed (its last row cut anywhere: `- Ga`), bits of the spinner and of
the footer (`? for` / `shortcuts`), one such copy per resize, then the
answer again, whole. Before, those copies came back inside the answer
(asst_prec 0.845 on h10-gem-glassworks-drag-200x60: the whole numbered
list, its `✦` row with it, left behind twice). The answer's `✦` row drawn
twice with no prompt or tool between marks such an answer as well as the
live area's chrome does.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from agents_chrome.replay import replay
from tests.conftest import RECORDINGS, cli_replay, truth_turns

GLASS = RECORDINGS / "gemini" / "h10-gem-glassworks-drag-200x60"
# recordings of the same CLI without any resize: the rule must not fire there
STILL = [RECORDINGS / "gemini" / "h9-gem-bindery-think-80x24", RECORDINGS / "gemini" / "h5-gem-confirm-96x28"]


def words(text: str) -> list[str]:
    return regex.sub(r"[`*#]", "", text).split()


def answers_by_prompt(turns: list[dict]) -> dict[str, str]:
    out: dict[str, str] = {}
    prompt = None
    for t in turns:
        if t["role"] == "user" and not t.get("kind"):
            prompt = t["text"]
        elif t["role"] == "assistant" and prompt is not None:
            out[prompt] = (out.get(prompt, "") + "\n" + t["text"]).strip()
    return out


def dragged_prompts() -> list[str]:
    """The prompts whose answers streamed while the window was dragged: the
    long ones (eight lines or more; meta.json's notes say which turns)."""
    return [p for p, a in answers_by_prompt(truth_turns(GLASS)).items() if len(a.splitlines()) >= 8]


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_dragged_answers_come_back_once_and_whole(screen_only: bool, tmp_path_factory) -> None:
    got = answers_by_prompt(cli_replay(GLASS, "gemini", screen_only, tmp_path_factory)["turns"])
    served = answers_by_prompt(truth_turns(GLASS))
    prompts = dragged_prompts()
    assert len(prompts) == 2
    for p in prompts:
        # every word once, in order: no cut copy (`- Ga`), no second copy of a list item
        assert words(got[p]) == words(served[p]), p


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_no_live_area_chrome_in_any_answer(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(GLASS, "gemini", screen_only, tmp_path_factory)["turns"]
    for t in turns:
        if t["role"] == "assistant":
            assert not regex.search(r"(?m)\? for|shortcuts|Thinking\.\.\.|esc to cancel|^\s*─{10,}\s*$", t["text"]), t["text"]


def test_every_dropped_row_is_drawn_again_later_in_its_answer() -> None:
    """Each row dropped as a stale copy of the live area is in the answer's
    kept rows after it (compared without spaces: the reflow cut rows at other
    places), so dropping it loses no word."""
    _meta, _turns, labeled = replay(GLASS / "session.cast", "gemini")
    squash = lambda s: "".join(s.split())  # noqa: E731
    dropped = [i for i, lb in enumerate(labeled) if lb.rule == "stale-live-copy"]
    assert len(dropped) >= 2
    for i in dropped:
        end = next((k for k in range(i + 1, len(labeled)) if labeled[k].kind == "user"), len(labeled))
        rest = squash("".join(lb.line.text for lb in labeled[i + 1:end] if lb.kind in ("assistant", "cont")))
        assert squash(labeled[i].line.text) in rest, labeled[i].line.text


@pytest.mark.parametrize("case", STILL, ids=[c.name for c in STILL])
def test_no_stale_copy_without_a_resize(case: Path) -> None:
    _meta, _turns, labeled = replay(case / "session.cast", "gemini")
    assert not [lb.line.text for lb in labeled if lb.rule in ("stale-live-copy", "live-fragment")]


LONG_B = RECORDINGS / "gemini" / "gem-h2-long-b-80x24"


def test_inline_code_keeps_its_backticks_whatever_the_frames(tmp_path: Path) -> None:
    """Inline code is drawn in the colour of the answers' `✦`, learnt from the
    first `✦` row seen. A row holding code drawn before that (the first answer
    opens with a code block, so its `✦` row is a code row) was passed over for
    good unless it happened to be drawn again later: with the output events
    merged (fewer frames) `audit.run()` lost its backticks. Such rows are now
    kept and read once the colour is known."""
    from tests.test_timing import retime, turns_of

    base = turns_of(LONG_B / "session.cast", "gemini")
    merged = tmp_path / "merged.cast"
    retime(LONG_B / "session.cast", merged, 1, 0.0, 0.0, 0.95)
    got = turns_of(merged, "gemini")
    assert any("`audit.run()`" in str(t[1]) for t in base)
    assert got == base
