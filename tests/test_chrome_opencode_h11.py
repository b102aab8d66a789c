"""OpenCode started from bash, stopped with Ctrl+Z twice and brought back
with `fg` (found by the h11 round of fresh recordings).

The terminal grew from 86x26 to 108x30 while OpenCode was stopped. Brought
back, OpenCode is sent no SIGWINCH: it paints its 86-column layout on the
108x30 screen for as long as it runs. Every one of those frames looked like
the first frames after a grow, before OpenCode takes the new size, and was
left out: nothing after the first `fg` was read (user_exact 0.500,
asst_recall 0.181). The second stop came while the third answer streamed:
the part drawn before it came back, then the whole answer again after the
prompt repeated by the redraw, and the last answer before the stop (cut at
the top) once more.
"""
from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns

LOOM = RECORDINGS / "opencode" / "h11-sh-oc-loom-stop-86x26"


def plain(text: str) -> str:  # markdown's marks are drawn as styles, not characters
    return " ".join(text.replace("`", "").replace("*", "").split())


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_turns_after_fg_on_a_screen_grown_while_stopped_are_read(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(LOOM, "opencode", screen_only, tmp_path_factory)["turns"]
    typed = [t["text"] for t in truth_turns(LOOM) if t["role"] == "user"]
    assert [t["text"] for t in turns if t["role"] == "user"] == typed
    served = [plain(t["text"]) for t in truth_turns(LOOM) if t["role"] == "assistant"]
    # each answer whole and once, in order: rows laid out at 86 columns on a
    # 108-column screen are unwrapped at the width they were drawn at
    assert [plain(t["text"]) for t in turns if t["role"] == "assistant"] == served


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_answer_stopped_while_streaming_comes_back_once_after_its_prompt(screen_only: bool,
                                                                          tmp_path_factory) -> None:
    turns = cli_replay(LOOM, "opencode", screen_only, tmp_path_factory)["turns"]
    fg = [i for i, t in enumerate(turns) if t["role"] == "system" and t["text"].split("\n")[0].endswith("❯ fg")]
    assert len(fg) == 2
    asked = max(i for i, t in enumerate(turns[:fg[1]]) if t["role"] == "user")
    # the prompt stays where it was asked (before the stop), the answer after the second `fg`
    assert asked > fg[0]
    assert not any(t["role"] == "assistant" for t in turns[asked:fg[1]])
    assert turns[fg[1] + 1]["role"] == "assistant"
    whole = plain([t["text"] for t in truth_turns(LOOM) if t["role"] == "assistant"][2])
    assert plain(turns[fg[1] + 1]["text"]) == whole
    assert sum(plain(t["text"]).startswith(whole.split(":")[0]) for t in turns) == 1
