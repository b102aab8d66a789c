"""OpenCode 1.18.33: randomized probes (round h20).

The probes come from a seeded generator (made-up words, CJK words and emoji,
markdown lists, tables with CJK cells, code blocks, links, bash calls with
multi-line output, pastes, `/help`, Esc, resizes between turns and one or
two in an answer). What was wrong before this round:

- after a shrink the terminal cuts each row of the old, wider layout at its
  new right edge, and OpenCode patches a few rows in place before it redraws
  the whole conversation at the new width. Those frames kept the input box
  (cut too, so it ran to the last column) and were read as a settled layout:
  the cut rows of the answer before became a second copy of its turn (the
  prompt twice, the answer once cut and once whole). OpenCode ends the input
  box two columns short of its layout's right edge, always: a box that runs
  to the terminal's last column is the old layout, cut, and is not read.
- a frame caught between a grow and the redraw shows the old layout's
  sidebar (its own background) away from the right edge, in the middle of
  the screen: read as a dialog, it became a system turn holding a piece of
  the sidebar's wrapped path. A dialog opens over a settled layout.
- a width OpenCode draws in an older, narrower layout (the input box well
  short of the right edge, in every frame of that width) kept what the
  terminal left to the right of that layout: after a grow in a shell the
  re-wrapped rows leave pieces of earlier rows there (words of another
  answer, the input box's `▀` edge next to a prompt). Rows are cropped at
  that layout's right edge, as at the sidebar's.

The third shows in h18's shell probe (OpenCode started from fish, a grow
from 75 to 106 columns in an answer), not landed: a synthetic screen here.

h20-opencode-s2021-163x60 is seed 2021: `/help` right after resizes to
121x40 and 192x23 in an answer (the sidebar at 121 columns caught in the
middle of the wider screen), and a shrink from 158 to 61 columns right after
an answer that ends in a table.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import RECORDINGS, cast_events, cli, cli_replay, recording_cases, truth_turns, typed_prompts


def _header(case: Path) -> dict:
    with (case / "session.cast").open(encoding="utf-8") as fh:
        return json.loads(fh.readline())


def _shrinks(case: Path) -> int:
    """How many resizes of the recording make the terminal narrower."""
    width, n = _header(case)["width"], 0
    for _t, code, data in cast_events(case):
        if code == "r":
            cols = int(str(data).split("x")[0])
            n += cols < width
            width = cols
    return n


def _alone(case: Path) -> bool:
    """OpenCode started on its own, not from a shell (a shell's commands
    are system turns of their own)."""
    return str(_header(case).get("command", "")).split()[:1] == ["opencode"]


SHRINK_CASES = [c for c in recording_cases("opencode") if _shrinks(c)]
ALONE_CASES = [c for c in recording_cases("opencode") if _alone(c)]
PROBE = RECORDINGS / "opencode" / "h20-opencode-s2021-163x60"


def test_the_situation_is_recorded() -> None:
    """The new recording is among the cases this file checks."""
    assert PROBE in SHRINK_CASES
    assert PROBE in ALONE_CASES


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", SHRINK_CASES, ids=lambda c: c.name)
def test_a_shrink_leaves_every_prompt_once(case: Path, screen_only: bool) -> None:
    """Each prompt typed is one user turn, in order, however often the
    terminal got narrower: the cut frames of the wider layout before
    OpenCode's redraw add no second copy of a turn."""
    got = typed_prompts(cli_replay(case, "opencode", screen_only)["turns"])
    assert got == typed_prompts(truth_turns(case))


def _dialog_keys(case: Path) -> int:
    """The dialogs the recording's keys can have opened: its slash commands
    (`/help` ...) and Ctrl+P (the command palette)."""
    truth = json.loads((case / "truth.json").read_text(encoding="utf-8"))
    ctrl_p = sum(str(data).count("\x10") for _t, code, data in cast_events(case) if code == "i")
    return len(truth.get("slash_commands", [])) + ctrl_p


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", ALONE_CASES, ids=lambda c: c.name)
def test_no_dialog_without_a_key_that_opens_one(case: Path, screen_only: bool) -> None:
    """A system turn (a dialog's text) only where a slash command or Ctrl+P
    opened one: a resize's half-drawn frame shows none."""
    turns = cli_replay(case, "opencode", screen_only)["turns"]
    assert sum(t["role"] == "system" for t in turns) <= _dialog_keys(case)


BAR = "\x1b[38;5;4m┃\x1b[0m"


def _old_layout_cast(path: Path) -> Path:
    """An 80-column screen OpenCode draws in a 44-column layout (its input box
    ends at column 43 in every frame), with what a shell's re-wrap left to
    the right of it: the input box's edge beside the prompt, another
    answer's words beside the answer."""
    screen = ["", "  " + BAR, "  " + BAR + "  tell me about the kiln" + " " * 20 + "▀" * 20, "  " + BAR, "",
              "     The kiln runs hot." + " " * 27 + "zanaxbru fen dyska", "", "  " + BAR,
              "  " + BAR + "  Build · Mock Model", "  ╹" + "▀" * 40, "   ~/proj"]
    out = "\x1b[?1049h\x1b[H\x1b[2J" + "".join(f"\x1b[{y + 1};1H{t}" for y, t in enumerate(screen))
    path.write_text(json.dumps({"version": 2, "width": 80, "height": 12}) + "\n"
                    + json.dumps([0.1, "o", out]) + "\n", encoding="utf-8")
    return path


def test_rows_past_an_older_layout_are_cropped(tmp_path: Path) -> None:
    """A width drawn in an older, narrower layout is read up to that
    layout's right edge, as at the sidebar's: what the terminal left past it
    is in no turn."""
    got = cli("replay", str(_old_layout_cast(tmp_path / "session.cast")), "--agent", "opencode",
              "--format", "json")
    assert got.returncode == 0, got.stderr
    turns = [(t["role"], t["text"]) for t in json.loads(got.stdout)["turns"]]
    assert turns == [("user", "tell me about the kiln"), ("assistant", "The kiln runs hot.")]
