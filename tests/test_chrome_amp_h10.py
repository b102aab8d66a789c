"""Amp started from bash, suspended with Ctrl-Z and brought back with `fg`
(found by the h10 round of fresh recordings).

Amp leaves its alternate screen on Ctrl-Z, bash prints `[1]+  Stopped  amp …`
and its prompt; `fg` makes bash print the job's command line (`amp --no-ide
--no-notifications`) and Amp repaints its screen: the end of the
conversation so far, then what follows. Since 19955f4 the `fg` run is read
as Amp's (it took everything after the first suspension for shell output:
user_exact 0.333, turns_ok 0), but the turns Amp repaints came back twice
(asst_prec 0.650, turns_ok 0); since 3fce55a they are taken once. The
`fg` line's output (the job's command line) is read from the main screen
Amp returns to when it stops again; it ran on to bash's `[1]+  Stopped`
printed then, which came twice (once in the `fg` turn, before the turns it
follows) and cut at the width. It now stops where the shell's own output
after the agent (`after_exit_text`) begins.
"""
from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns

SUSPEND = RECORDINGS / "amp" / "h10-sh-amp-suspend-60x20"


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_every_prompt_comes_back_once_across_suspensions(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(SUSPEND, "amp", screen_only, tmp_path_factory)["turns"]
    typed = [t["text"] for t in truth_turns(SUSPEND) if t["role"] == "user" and not t.get("kind")]
    assert [t["text"] for t in turns if t["role"] == "user"] == typed
    # each answer once, in its own turn: the last words of every served answer once in all
    def plain(text: str) -> str:  # markdown's marks are drawn as styles, not characters
        return " ".join(text.replace("`", "").replace("*", "").split())

    served = [t["text"] for t in truth_turns(SUSPEND) if t["role"] == "assistant"]
    answers = plain(" ".join(t["text"] for t in turns if t["role"] == "assistant"))
    for text in served:
        tail = " ".join(plain(text).split()[-4:])
        assert answers.count(tail) == 1, tail


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_shell_between_stays_shell_in_its_place(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(SUSPEND, "amp", screen_only, tmp_path_factory)["turns"]
    roles = [(t["role"], t.get("name")) for t in turns]
    fg = [i for i, t in enumerate(turns) if t["role"] == "system" and t["text"].split("\n")[0].endswith("$ fg")]
    assert len(fg) == 2
    # the `fg` line and the job's command line bash printed under it, nothing the shell printed later
    for f in fg:
        assert turns[f]["text"].split("\n")[1:] == ["amp --no-ide --no-notifications"]
    stopped = [i for i, t in enumerate(turns) if t["role"] == "system" and "Stopped" in t["text"]
               and "jobs" not in t["text"]]
    assert len(stopped) == 2
    for s, f in zip(stopped, fg):
        assert s < f and roles[f + 1] == ("user", None)  # the conversation goes on right after `fg`
    assert not any("Stopped" in t["text"] or "$ fg" in t["text"] for t in turns if t["role"] != "system")
