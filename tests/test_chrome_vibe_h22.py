"""Mistral Vibe 3.0.2: randomized probes (round h22).

The probes come from /tmp/h22-vibekimi/harness/vibe/gen22.py (gen21's
generator; from seed 2266 on more calls a turn, the same few commands again
in later turns, and some sessions started at a bash/zsh/fish prompt).

What was wrong before this round:

- A call run again in a later turn, then folded into a summary row. Vibe
  shows each call as `⏵ Ran ls -1` while the turn runs, and folds the calls
  into `⏵ Ran 1 command, thought` once a thought follows them; the replay
  fills the summary in with the calls it saw drawn alone in that turn. It
  kept one entry per distinct row (verb and command) for the whole session,
  so `ls -1` run in an earlier turn hid the later turn's own `ls -1`: the
  summary took the turn's other call (`for i in 1 2 3; …`) a second time
  and the `ls -1` was lost (h21-vibe-s2146-107x41). A call row drawn under
  the prompt last sent, once that prompt is drawn, is now that turn's call
  even when the session ran the same command before (`vibe._note_tools`,
  `vibe._below_prompt`). And a call the history keeps as its own row is no
  call a summary row of the turn folded (`vibe._shown_alone`): `Ran cat
  README.md` then `Ran 2 commands` filled the summary with the very `cat`
  again (probe seed 2267, h15-vibe-probe12-79x23: a `python3 -c` call named
  twice, the edit left nameless; its expected.json was reviewed against its
  truth.json and updated).
- `/help` run again right after the first turn of a short session, while
  the terminal had been widened in that turn (h22-vibe-s2266-68x36): the
  second block is a copy of the first and fills the view, and the document
  (the layout at the new width) was short, so the first copy lay near the
  tail: the view was placed on it and the turn between the two runs (its
  prompt, three calls and answer) was cut away. h21's rule (an older copy
  at the end continues the document) held only away from the tail, since a
  view at the end may still replace rows a tool's output folded away. After
  a slash command nothing folds (no tool runs until the next prompt), so
  Vibe now says so (`Stitcher.add(printed=True)`) and such a copy continues
  the document near the tail too. To know a slash command was sent, the
  input box is read while one is typed (`/ help`: the `/` takes the `>`
  marker's place). test_chrome_vibe_h21's help-sequence test holds on
  h22-vibe-s2266 now (it failed before).
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import regex

from tests.conftest import RECORDINGS, cli_replay, frames_of, recording_cases, truth_turns
from tests.segments import by_prompt

AGENT = "vibe"


def _commands(turns: list[dict]) -> list[Counter]:
    """The bash commands the truth says each typed prompt's turn ran."""
    return [Counter(t["input"]["command"] for t in seg
                    if t["role"] == "tool_call" and t.get("name") == "bash" and t.get("input", {}).get("command"))
            for seg in by_prompt(turns)]


def _runs_again(case: Path) -> bool:
    """A command run in two turns of the session (the truth alone: no replay at collection)."""
    per = _commands(truth_turns(case))
    return any(per[i] & per[j] for i in range(len(per)) for j in range(i + 1, len(per)))


CASES = [c for c in recording_cases(AGENT) if _runs_again(c)]
S2266 = RECORDINGS / "vibe" / "h22-vibe-s2266-68x36"


def test_the_situation_is_recorded() -> None:
    assert S2266 in CASES


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_each_call_is_shown_in_the_turn_that_ran_it(case: Path) -> None:
    """Every call the replay names with a command the session ran sits under
    a prompt whose turn ran it, no more often than that turn ran it: a command
    run again in a later turn is that turn's call, and no call of the turn
    stands in for it twice."""
    truth = truth_turns(case)
    want = _commands(truth)
    ran = set().union(*want) if want else set()
    got = by_prompt(cli_replay(case, AGENT, False)["turns"])
    assert len(got) == len(want)
    for n, (seg, cmds) in enumerate(zip(got, want)):
        shown = Counter(t["text"] for t in seg if t["role"] == "tool_call" and t.get("text") in ran)
        assert not shown - cmds, (n, dict(shown), dict(cmds))


#: a settled call row (`⏵ Ran ls -1`), the scrollbar's glyph at the right edge left out
RAN = regex.compile(r"^⏵ Ran (?P<cmd>.*?)\s*[\u2581-\u2588]?\s*$")


def _drawn_alone(case: Path, prompts: list[str]) -> list[Counter]:
    """For each typed prompt, the commands whose own settled row (`⏵ Ran
    <command>`) some frame showed under that prompt's row in the history
    (the most such rows one frame held): calls drawn alone before any
    summary folded them."""
    keys = ["".join(p.split())[:12] for p in prompts]
    out = [Counter() for _ in prompts]
    for f in frames_of(case):
        rows = f.lines
        head = max((i for i, r in enumerate(rows) if r.startswith("> ")), default=None)
        if head is None:
            continue
        key = "".join(rows[head][2:].split())[:12]
        if key not in keys:
            continue
        n = len(keys) - 1 - keys[::-1].index(key)  # the latest prompt opening so
        here = Counter(m.group("cmd") for r in rows[head + 1:] if (m := RAN.match(r)))
        out[n] |= here
    return out


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_each_call_drawn_alone_is_named(case: Path) -> None:
    """A call whose own row was drawn in its turn is named in that turn, also
    when a summary row folded it later and an earlier turn ran the same
    command (before: the summary left it nameless, `Ran 2 commands` -> a
    call with no command)."""
    truth = truth_turns(case)
    want = _commands(truth)
    prompts = [t["text"] for t in truth if t["role"] == "user" and not t.get("kind")]
    drawn = [d & w for d, w in zip(_drawn_alone(case, prompts), want)]
    got = by_prompt(cli_replay(case, AGENT, False)["turns"])
    assert len(got) == len(want)
    for n, (seg, must) in enumerate(zip(got, drawn)):
        shown = Counter(t["text"] for t in seg if t["role"] == "tool_call" and t.get("text"))
        assert not must - shown, (n, dict(must), dict(shown))
