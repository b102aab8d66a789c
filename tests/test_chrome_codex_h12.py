"""Codex replay: behaviours the h12 round of recordings found broken.

- A prompt holding a fenced code block (pasted, bracketed paste): the
  composer shows it as typed, fences and their language included; once
  sent, its card renders the markdown, the block's rows without the fence
  rows. The prompt came back without its fences (user_exact 0.86 on
  h12-chrome-alt-c-150x45). The composer's rows are now remembered under
  the words of their non-fence rows, and the sent prompt whose card shows
  those words takes them back.
- Inline (`--no-alt-screen`), left with `/quit`: Codex clears its live area
  (composer and footer) as it shuts down, so the last prompt's card sits a
  few rows from the bottom with only its answer under it. It was taken for
  the composer (the last background card near the bottom) and the view
  ended above it: the last turn of every session was lost.
- `codex resume --last` from the shell prints the resumed session's turns
  again before the new prompt: they came back twice (asst_prec 0.61 on
  h12-sh-codex-twice-132x40). A launch whose words resume a session
  (`resume_words` of the profile) now drops the turns that repeat, in
  order, the turns the agent already gave in the recording.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from agents_chrome.codex import PROFILE
from agents_chrome import shell
from tests.conftest import RECORDINGS, cast_events, cli_replay, frames_of, meta_of, truth_turns
from tests.test_chrome_codex_r3 import WORD, norm

CHROME = RECORDINGS / "codex" / "h12-chrome-alt-c-150x45"
TWICE = RECORDINGS / "codex" / "h12-sh-codex-twice-132x40"
H12 = [CHROME, TWICE]
WAYS = [False, True]  # as recorded, and with every input event removed


def _conv(case: Path, screen_only: bool) -> dict:
    return cli_replay(case, "codex", screen_only)


def test_recordings_hold_the_situations() -> None:
    """The drawings the tests below rely on are in the bytes."""
    # CHROME: the prompt pasted (bracketed paste) with a fenced block; the
    # composer draws the fence row, the card after Enter draws none
    typed = "".join(e[2] for e in cast_events(CHROME) if e[1] == "i")
    assert "\x1b[200~" in typed and "```python" in typed
    assert "--no-alt-screen" not in meta_of(CHROME).get("argv", [])
    # TWICE: bash; Codex inline three times, the last one `codex resume --last`
    launches = meta_of(TWICE)["shell"]["launches"]
    assert len(launches) == 3 and all("--no-alt-screen" in c for c in launches)
    assert launches[2].startswith("codex resume --last")
    assert meta_of(TWICE)["shell"]["exits"] == ["own"] * 3


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
@pytest.mark.parametrize("case", H12, ids=lambda c: c.name)
def test_every_prompt_exactly_once(case: Path, screen_only: bool) -> None:
    want = [norm(t["text"]) for t in truth_turns(case) if t["role"] == "user"]
    got = [norm(t["text"]) for t in _conv(case, screen_only)["turns"] if t["role"] == "user"]
    assert got == want


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
def test_fenced_prompt_comes_back_as_typed(screen_only: bool) -> None:
    """The fence rows and their language, drawn only in the composer, are the prompt's."""
    want = next(t["text"] for t in truth_turns(CHROME) if t["role"] == "user")
    assert "```python" in want
    got = next(t["text"] for t in _conv(CHROME, screen_only)["turns"] if t["role"] == "user")
    assert got == want


@pytest.mark.parametrize("screen_only", WAYS, ids=["recorded", "screen-only"])
def test_last_answer_of_each_session_is_kept(screen_only: bool) -> None:
    """Each session's last prompt before `/quit` comes back once, its answer after it."""
    timeline = meta_of(TWICE)["timeline"]
    last = [max(a["turn"] for a in timeline[:k] if a["action"] == "enter")
            for k, a in enumerate(timeline) if a["action"] == "exit"]
    assert len(last) == 3
    truth = truth_turns(TWICE)
    prompts = [i for i, t in enumerate(truth) if t["role"] == "user"]
    turns = _conv(TWICE, screen_only)["turns"]
    for n in last:
        asked, answer = truth[prompts[n]]["text"], truth[prompts[n] + 1]["text"]
        at = [k for k, t in enumerate(turns) if t["role"] == "user" and norm(t["text"]) == norm(asked)]
        assert len(at) == 1, asked
        got = turns[at[0] + 1]
        assert got["role"] == "assistant" and WORD.findall(got["text"]) == WORD.findall(answer), asked


def test_card_with_answer_under_it_is_no_composer() -> None:
    """The frames the shell gives each Codex run end with its last screen, cut
    where the exit lines began (trailing rows gone): the view runs to the
    bottom, the last prompt's card with its answer under it is conversation."""
    frames = list(frames_of(TWICE))
    hist = shell._absolute(frames)
    runs = shell.find_runs(frames, hist, shell.learn_prompt(frames))
    shell.classify(frames, runs, hist)
    agent_runs = [i for i, r in enumerate(runs) if r.agent == "codex"]
    assert len(agent_runs) == 3
    for i in agent_runs:
        f = shell.agent_frames(frames, runs, i, hist)[-1]
        tops = [y for y, ln in enumerate(f.lines) if ln.startswith("› ")]
        assert tops and any(ln.startswith("• ") for ln in f.lines[tops[-1]:])
        assert not any("mock-model" in ln for ln in f.lines[tops[-1]:])  # no composer footer
        vp = PROFILE.viewport(f)
        assert vp is not None and vp[1] > tops[-1], (i, f.lines[tops[-1]])
