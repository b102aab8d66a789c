"""Shells around agents, round h15: randomized probes of the shell situation
(seeded generator: shell and prompt style, how the agent starts, commands
around it, 1-3 runs with resumes, resizes, Ctrl-C at the prompt). On the
recordings' real bytes, through the real CLI, on every recording whose
meta.json shows the situation (never one case by name), as recorded and with
the input events stripped.

- Claude Code (inline) left with `/exit`, then `claude -c` from the shell:
  the resumed session draws the whole earlier conversation again, down to
  the `/exit` it ended with and its `See ya!` notice, before the new
  prompts. The split drops a resumed run's leading turns that repeat what
  the agent showed before (`_redrawn`), counted up to a user turn; the
  local command's record (a `system` turn the earlier stretch never held)
  stopped the count, so the last exchange came back a second time after the
  launch line (asst_prec 0.775, turns_ok 0 on h15-sh-cc-s20). A system turn
  met inside the redraw is part of it when only the run's own turns follow.
- The same, resumed at another width than the earlier run was drawn at
  (`clear`, the window resized at the prompt, `claude --continue`): the
  redraw lays its box tables out anew (columns of other widths, cells
  wrapped elsewhere) and draws a quote's bar on each row it now wraps to, so
  an answer's text no longer matched its first copy and the whole earlier
  session came back a second time (asst_prec 0.683, turns_ok 0 on
  h15-sh-cc-s21). An answer of the same characters, less white space, box
  drawing and block elements, in any order, is the same answer laid out
  anew.
- `clear`, then the window shrunk at the bash prompt: bash redraws its
  prompt row (`\r`, erase the line, the prompt again); the screen takes that
  wipe for a program redrawing the last screenful after a shrink and sends
  the rows the shrink kept at the top to history. The prompt row, drawn
  again where it was, then counted 4 rows further down: a new run with no
  command, a bare prompt turn that came or went with the pauses (timing
  probe: 1 turn apart on h15-sh-cc-s21). A frame that wipes right after a
  resize lays the screen out again too: the open run keeps its row.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import meta_of, recording_cases, replay_json, truth_turns, typed_prompts

#: recordings where the shell started an agent more than once (later runs may resume)
RELAUNCHED = [c for c in recording_cases() if len((meta_of(c).get("shell") or {}).get("launches") or []) >= 2]
#: recordings where a run left with the agent's own exit command is resumed by the next launch
RESUMED_AFTER_EXIT = [c for c in RELAUNCHED if "resume-after-exit-command" in meta_of(c).get("features", [])]


def _ids(cases: list[Path]) -> list[str]:
    return [f"{c.parent.name}/{c.name}" for c in cases]


def test_cases_exist():
    assert RELAUNCHED and RESUMED_AFTER_EXIT


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", RELAUNCHED, ids=_ids(RELAUNCHED))
def test_each_prompt_once_across_launches(case: Path, screen_only: bool):
    """Every prompt typed in any of the agent's runs comes back once, in the
    order typed: a resumed run's redraw of the earlier session adds none."""
    meta = meta_of(case)
    conv = replay_json(case / "session.cast", meta["agent"], screen_only=screen_only)
    assert typed_prompts(conv["turns"]) == typed_prompts(truth_turns(case))


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", RESUMED_AFTER_EXIT, ids=_ids(RESUMED_AFTER_EXIT))
def test_resumed_run_opens_with_its_own_prompt(case: Path, screen_only: bool):
    """After the launch line that resumes a session, the next agent turn is the
    first prompt typed in that run: neither the redrawn last answer nor the
    exit command the earlier run ended with comes between."""
    meta = meta_of(case)
    conv = replay_json(case / "session.cast", meta["agent"], screen_only=screen_only)
    turns = conv["turns"]
    resume_words = ("--continue", "-c", "resume", "--resume", "-r")
    launches = [k for k, t in enumerate(turns) if t["role"] == "system" and t.get("name") == "shell"
                and any(w in resume_words for w in t["text"].split("\n")[-1].split()[1:])]
    assert launches
    typed = typed_prompts(truth_turns(case))
    for k in launches:
        nxt = turns[k + 1]
        assert nxt["role"] == "user", nxt
        assert " ".join(nxt["text"].split()) in typed
        before = typed_prompts(turns[:k])
        assert " ".join(nxt["text"].split()) not in before


def _resized_at_prompt(case: Path) -> bool:
    """The window changed size while the shell waited at its prompt."""
    meta = meta_of(case)
    if not meta.get("shell"):
        return False
    return (any(isinstance(r, dict) and "shell prompt" in str(r.get("where", "")) for r in meta.get("resizes") or [])
            or any(isinstance(e, dict) and e.get("action") == "resize" for e in meta.get("timeline") or []))


RESIZED_AT_PROMPT = [c for c in recording_cases() if _resized_at_prompt(c)]


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", RESIZED_AT_PROMPT, ids=_ids(RESIZED_AT_PROMPT))
def test_prompt_redrawn_after_shrink_is_no_command(case: Path, screen_only: bool):
    """bash redraws its prompt row when the window shrinks (`\\r`, erase the
    line, the prompt again); the rows the shrink kept at the top are then
    wiped and the screen sends them to history, as if they had scrolled. The
    prompt drawn again on the same row is the same prompt, not a new one:
    every shell turn holds a line that was typed at the shell, none is a
    prompt alone (that turn came or went with the pauses between events)."""
    meta = meta_of(case)
    typed = [t for t in meta["shell"]["typed_at_shell"] if not t.endswith("^C")]
    conv = replay_json(case / "session.cast", meta["agent"], screen_only=screen_only)
    shell_turns = [t["text"] for t in conv["turns"] if t["role"] == "system" and t.get("name") == "shell"]
    assert shell_turns
    for text in shell_turns:
        assert any(line in text for line in typed), text


def test_redraw_of_a_prompt_typed_with_marks_is_the_prompt():
    """A prompt typed with markdown marks comes back from the first run as
    typed (read from the input box); the resumed session's redraw echoes it
    with the marks drawn as styles. Both are the same prompt: the redraw is
    counted through it (probe seed 9: `claude -c` after a second `claude`,
    asst_prec 0.815, turns_ok 0 before). The marks alone never make two
    prompts the same."""
    from agents_chrome.shell import _redrawn
    from agents_chrome.turns import Turn

    prev = [Turn("user", "list the jars"), Turn("assistant", "Three jars."),
            Turn("user", "what does **misul** mean in `motka.py`?"), Turn("assistant", "A helper.")]
    new = [Turn("user", "list the jars"), Turn("assistant", "Three jars."),
           Turn("user", "what does misul mean in motka.py?"), Turn("assistant", "A helper."),
           Turn("user", "and the next one?"), Turn("assistant", "None left.")]
    assert _redrawn(prev, new) == 4
    other = new[:2] + [Turn("user", "what does misul mean in motka.rs?")] + new[3:]
    assert _redrawn(prev, other) == 2
