"""Gemini CLI: what round h22's randomized probes found.

h22-gemini-s2283-bash-79x49 is the seeded probe `gen22.py --seed 2283`
(harness copy /tmp/lead-h22/harness/gemini: round h21's generator): twelve
prompts typed at a bash prompt (`gemini --yolo` after `echo done`; `echo
done`, `cat README.md`, `exit` after), ten resizes between and in the middle
of answers and running tools (123x41, 76x46, 134x39, 83x58, 111x22, 86x39,
94x56, 121x24, 198x50, 176x29), `/help`, an unknown `/qui`, pastes, tables
with CJK cells, code blocks opening with empty lines. Before (both ways):
prompts 0.92, recall 0.81, precision 0.75, tools 0.67, turns not ok. After:
1.00, 1.00, 1.00, 1.00, turns ok. The eight h22 Gemini probes (seeds
2281-2288): .990/.967/.955/.983/.875 before, 1.000/.995/.997/1.000/1.000
after, both ways.

- After a resize that grew the width and cut the height, Ink wrote the
  erase of its live area (`CSI 4B`, `CSI 2K` / `CSI 1A` twelve times) in an
  event of its own and the rows it draws again in the next. The shrink had
  deleted the rows under the cursor (tmux), so the erase reached four rows
  higher: the prompt's band above the live area, never drawn again. The
  screen checks such a wipe only in the event holding the first drawing,
  so split across two events it went unseen and the prompt was lost (with
  it the turn's answer and call went to the turn before). The wipe is now
  gathered across the events that draw nothing (screen.frames
  FrameBuilder._wait_drawing / _wipe_before): where the bytes fall between
  events no longer matters.
- A resize just after Ink drew a table's top border, or while it drew the
  last answer's table, left one row of it behind at the old width (the
  erase missed it), the whole table drawn below it at the new one: a lone
  `✦ ┌──┬──┐` was an answer of its own, a lone `│ Qui │ Ul gol 测试 │`
  words of an answer that never held them (gemini._drop_lone_grid_rows).
- A table row the terminal wrapped at a narrowing, where a wide character
  did not fit in the last cell, was joined with a space in that cell
  (`設定文 件`): the cell a wide character left empty is no cell of the row
  (gemini._rejoin_wrapped).
- A code block whose first two lines are empty draws `1` and `2` alone: the
  gutter was told only by a `2` with code, so the numbers stayed
  (gemini._gutter_follows walks the bare numbers to the first with code).
- A link streams as the model wrote it (`See [lunqui](https://example.o`)
  and is drawn `lunqui (https://…)` once whole; a resize left the draft
  behind. Copies left by a resize are now compared with brackets and
  parens left out (gemini._drop_prefix_copies).

Seen and left: fence languages are never drawn (`python`); a tool's empty
result (`Output: (empty)`) draws no row.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import regex

from agents_chrome.replay import replay
from screen.frames import FrameBuilder
from tests.conftest import cli_replay, recording_cases, truth_turns, turns_of

BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
GEMINI = recording_cases("gemini")

# ------------------------------------------------------------------ the screen: a wipe split across events

_LIVE = "L1 live\r\nIN >\r\nfooter\x1b[1A"
_WIPE = "\x1b[1B" + "\x1b[2K\x1b[1A" * 2 + "\x1b[2K\x1b[G"


def _history_after_shrink(events: list[str]) -> list[str]:
    # the live area (`L1 live`, `IN >`, `footer`) with the cursor on its input row, one
    # above its last; the shrink deletes the rows under the cursor (tmux), the renderer's
    # move down to its last row stops on the bottom row and its 3-row erase wipes
    # `cc finished`, which it never draws again
    fb = FrameBuilder(20, 10)
    fb.feed_event(0.0, "o", "aa static\r\nbb static\r\ncc finished\r\n" + _LIVE)
    fb.feed_event(1.0, "r", "20x5")
    for k, data in enumerate(events):
        fb.feed_event(1.1 + k / 10, "o", data)
    fb.finish()
    return [h for h in fb.screen.history if h.strip()]


def test_a_wipe_in_an_event_of_its_own_keeps_the_row_it_erased() -> None:
    whole = _history_after_shrink([_WIPE + _LIVE])
    assert whole == ["aa static", "bb static", "cc finished"]
    assert _history_after_shrink([_WIPE, _LIVE]) == whole
    # cut anywhere in the wipe's moves, and with a title set between
    assert _history_after_shrink([_WIPE[:9], _WIPE[9:], "\x1b]0;title\x07", _LIVE]) == whole


def test_a_display_erase_before_the_drawing_is_a_redraw_of_the_whole_screen() -> None:
    # the renderer cleared the display (what it draws next is everything): nothing goes
    # to the history as wiped, split or not
    assert _history_after_shrink([_WIPE + "\x1b[J", _LIVE]) == _history_after_shrink([_WIPE + "\x1b[J" + _LIVE])


# ------------------------------------------------------------------ recordings


def _undrawn_wipes(case: Path) -> list[int]:
    """The indexes of the output events right after a resize that erase
    lines and draw nothing (the renderer's drawing comes in the next)."""
    out: list[int] = []
    after_resize = False
    with (case / "session.cast").open(encoding="utf-8") as fh:
        next(fh)
        for k, line in enumerate(fh):
            if '"r"' in line[:40]:
                after_resize = True
                continue
            if not after_resize or '"o"' not in line[:40]:
                continue
            after_resize = False
            data = json.loads(line)[2]
            if "\x1b[2K" in data and not regex.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|[\r\n]", "", data):
                out.append(k)
    return out


SPLIT = [c for c in GEMINI if _undrawn_wipes(c)]


def test_the_recordings_show_a_wipe_in_an_event_of_its_own() -> None:
    assert any(c.name.startswith("h22-") for c in SPLIT)


@pytest.mark.parametrize("case", SPLIT, ids=lambda c: c.name)
def test_a_wipe_joined_to_its_drawing_gives_the_same_turns(case: Path, tmp_path: Path) -> None:
    """The same bytes with the wipe and the drawing in one event (a recorder
    that batched its writes): the same turns."""
    joined = set(_undrawn_wipes(case))
    lines = (case / "session.cast").read_text(encoding="utf-8").splitlines()
    out, carry = [lines[0]], ""
    for k, line in enumerate(lines[1:]):
        ev = json.loads(line)
        if k in joined:
            carry = ev[2]
            continue
        if carry and ev[1] == "o":
            ev[2], carry = carry + ev[2], ""
        out.append(json.dumps(ev, ensure_ascii=False))
    cast = tmp_path / "session.cast"
    cast.write_text("\n".join(out) + "\n", encoding="utf-8")
    _meta, turns, _labeled = replay(cast, agent="gemini")
    assert [(t.role, t.text) for t in turns] == [(t.role, t.text) for t in turns_of(case, "gemini")]


_GRID_ROW = regex.compile(r"^(?:┌[─┬]*┐|│.*│)$")
_BOX = regex.compile(r"^[\u2500-\u257f]|[\u2500-\u257f]$")  # a row opening or ending on a box edge
_BARE_NUMBER = regex.compile(r"^\s*\d{1,4}\s*$")
_LINK_DRAFT = regex.compile(r"\[[^\]\n]+\]\(https?:")


def _answer_rows(turns: list[dict]) -> list[list[str]]:
    return [t["text"].split("\n") for t in turns if t["role"] == "assistant"]


@BOTH
@pytest.mark.parametrize("case", GEMINI, ids=lambda c: c.name)
def test_no_answer_holds_what_a_resize_left_of_its_drawing(case: Path, screen_only: bool) -> None:
    """A grid row with nothing of its table around it, a gutter's bare
    numbers and a link as the model wrote it are leftovers of a drawing a
    resize cut short (Gemini draws every link as `text (url)`)."""
    answers = _answer_rows(cli_replay(case, "gemini", screen_only)["turns"])
    for rows in answers:
        inked = [r.strip() for r in rows if r.strip()]
        for k, row in enumerate(inked):
            if _GRID_ROW.match(row):
                around = inked[max(0, k - 1):k] + inked[k + 1:k + 2]
                assert any(_BOX.search(r) for r in around), row
    bare = sum(bool(_BARE_NUMBER.match(r)) for rows in answers for r in rows)
    served = sum(bool(_BARE_NUMBER.match(r)) for rows in _answer_rows(truth_turns(case)) for r in rows)
    assert bare <= served
    assert not [r for rows in answers for r in rows if _LINK_DRAFT.search(r)]
