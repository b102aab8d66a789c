"""Shells around agents, round h16: randomized probes of the shell situation,
pools widened (very narrow, very tall and very wide windows, 12-16 turns,
`exec agent` from a nested shell, `agent; echo done $?`, `(agent)`, a command
whose output reprints an agent's banner, Ctrl+Z and `fg` while an answer
streams, two resizes in one answer). On the recordings' real bytes, through
the real CLI, chosen by what their meta.json shows (never one case by name),
as recorded and with the input events stripped.

- Claude Code full screen stopped with Ctrl+Z while an answer streamed: the
  answer arrives whole while the agent is stopped, and `fg` draws it at once
  with its first rows (its `●` row included) above the view. What was drawn
  follows the call's row and the working status under it, and was taken for
  the status's continuation: the whole answer was lost (asst_recall 0.889
  on h16-sh-cc-s1605). An answer without its marker is now also known after
  a call or its result (rows at the answer's indent, after the status).
- A command that only prints, whose output shows an agent's banner and
  glyphs (`cat banner.txt`), typed at a prompt after the window was resized
  there: the resize redrew the prompt, which the check that the run only
  printed took for an agent's drawing, so the run became an agent's. The
  check now starts where the line editor accepted the command. The same
  after the window grew at the prompt: the rows a taller screen brought back
  from history leave the top again as output scrolls, unchanged and not in
  the frame's scrolled lines; counted now (`_moved_up`).
- Codex inline started with `exec` from a nested shell, stopped with Ctrl+Z
  while it answered, brought back, resized right after the next prompt was
  sent: Codex prints the whole session again at the new width, from its
  launch, and the echo of the prompt just sent was cleared before a frame
  took it. The resumed stretch holds the earlier session's turns again
  (asst_prec 0.985, turns_ok 0, 2 prompts too many on h16-sh-cx-s1641):
  a copy of everything shown before, then the stretch's own turns with a
  turn more between them, is now that reprint too.
- A shell loop's `\\r` progress line (`syncing 100% [====]`) caught by a
  pause with the cursor after it looks like a prompt row with a command
  typed: a run of its own that came or went with the pauses (2 of 36
  retimings of a Ctrl+Z recording, h15). A shell that marks its accepted
  lines (bash, zsh: bracketed paste off) turns bracketed paste on again
  before it reads the next line; until then no run opens (`Frame.paste_ons`).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import meta_of, recording_cases, replay_json, truth_turns, typed_prompts

SHELL_CASES = [c for c in recording_cases() if (meta_of(c).get("shell") or {}).get("typed_at_shell")]
#: a full-screen agent stopped with Ctrl+Z while an answer streamed, then `fg`
STOPPED_FULLSCREEN = [c for c in SHELL_CASES if (meta_of(c).get("render_mode") == "fullscreen"
                                                 or "launch:resume-fullscreen" in meta_of(c).get("features", []))
                      and "ctrl-z-mid-answer" in (meta_of(c)["shell"].get("exits") or [])]
#: an agent stopped with Ctrl+Z while it answered, then brought back with `fg`
STOPPED = [c for c in SHELL_CASES if "stopped-mid-answer" in meta_of(c).get("features", [])]
#: a prefix put in front of the shell's prompt between runs (`PS1="(.venv) $PS1"`)
PREFIXED = [c for c in SHELL_CASES if "prompt-prefix-venv" in meta_of(c).get("features", [])]
#: a command typed at the shell printed an agent's banner (not run as an agent)
BANNER_PRINTED = [c for c in SHELL_CASES if "shell-output-shows-agent-banner" in meta_of(c).get("features", [])]
#: the agent was started with `exec` from a nested shell, stopped and brought back
EXEC_STOPPED = [c for c in SHELL_CASES if any(x.startswith("exec ") for x in meta_of(c)["shell"].get("launches", []))
                and "fg" in meta_of(c)["shell"]["typed_at_shell"]]
#: a shell loop redrew one row with `\r` (a progress line) before an agent ran
PROGRESS_LINE = [c for c in SHELL_CASES if any("printf '\\r" in x for x in meta_of(c)["shell"]["typed_at_shell"])
                 and (meta_of(c)["shell"].get("program") or meta_of(c).get("command")) in ("bash", "zsh")]


def _ids(cases: list[Path]) -> list[str]:
    return [f"{c.parent.name}/{c.name}" for c in cases]


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def test_cases_exist():
    assert STOPPED_FULLSCREEN and BANNER_PRINTED and EXEC_STOPPED and PROGRESS_LINE and STOPPED and PREFIXED


def _shell_lines(out: dict) -> list[str]:
    """The first row of each shell turn: its prompt and the command typed there."""
    return [t["text"].splitlines()[0] for t in out["turns"]
            if t["role"] == "system" and t.get("name") == "shell" and t["text"].strip()]


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", PREFIXED, ids=_ids(PREFIXED))
def test_each_command_once_after_the_prompt_got_a_prefix(case: Path, screen_only: bool):
    """A virtualenv's `(.venv) ` put in front of a prompt the recording taught
    (`dir (trunk ±1) > `): every line typed at the shell, before and after,
    is a shell turn of its own, once; none joins an agent's run."""
    out = replay_json(case / "session.cast", case.parent.name, screen_only)
    lines = _shell_lines(out)
    typed = [" ".join(x.split()) for x in meta_of(case)["shell"]["typed_at_shell"] if not x.endswith("^C")]
    for cmd in typed:
        assert sum(1 for ln in lines if " ".join(ln.split()).endswith(cmd)) == typed.count(cmd), (cmd, lines)
    # the lines typed after the prefix came, up to the next change of the prompt, show it
    at = next(i for i, x in enumerate(typed) if x.startswith("PS1=") and "(" in x)
    upto = next((i for i in range(at + 1, len(typed)) if typed[i].startswith(("PS1=", "PROMPT="))), len(typed) - 1)
    assert sum(1 for ln in lines if ln.startswith("(")) == upto - at


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", STOPPED, ids=_ids(STOPPED))
def test_prompt_stopped_in_comes_back_once(case: Path, screen_only: bool):
    """The prompt an agent was stopped in comes back once, where it was asked,
    with the whole answer: Claude Code inline draws it again after `fg` with
    its calls summed up (`Read 2 files` where the live row said `Reading 1
    file…`), which no longer keeps the prompt a second time; full screen, a
    single shell call running when it stopped (`● Running cat` over `⎿  $ cat
    norlo.txt`, read as an answer with a result under it) is a call too."""
    out = replay_json(case / "session.cast", case.parent.name, screen_only)
    assert typed_prompts(out["turns"]) == typed_prompts(truth_turns(case))


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", STOPPED_FULLSCREEN, ids=_ids(STOPPED_FULLSCREEN))
def test_answer_drawn_whole_after_fg_is_the_answer(case: Path, screen_only: bool):
    """Every truth answer's last words come back in an answer of its own
    prompt's turn: the one that arrived while the agent was stopped too."""
    out = replay_json(case / "session.cast", case.parent.name, screen_only)
    got: dict[str, list[str]] = {}
    prompt = None
    for t in out["turns"]:
        if t["role"] == "user" and not t.get("kind"):
            prompt = " ".join(t["text"].split())
            got.setdefault(prompt, [])
        elif t["role"] == "assistant" and prompt is not None:
            got[prompt] += _words(t["text"])
    prompt = None
    for t in truth_turns(case):
        if t["role"] == "user" and not t.get("kind"):
            prompt = " ".join(t["text"].split())
        elif t["role"] == "assistant" and prompt is not None and len(_words(t["text"])) >= 20:
            tail = _words(t["text"])[-12:]
            have = got.get(prompt, [])
            assert sum(w in have for w in tail) >= 10, (prompt, tail)


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", BANNER_PRINTED, ids=_ids(BANNER_PRINTED))
def test_printed_banner_is_shell_output(case: Path, screen_only: bool):
    """`cat` of a file showing an agent's banner is a shell command with its
    output, every time it is typed, and no agent turn comes of it."""
    out = replay_json(case / "session.cast", case.parent.name, screen_only)
    typed = [x for x in meta_of(case)["shell"]["typed_at_shell"] if x.startswith("cat ")]
    shell = [t["text"] for t in out["turns"] if t["role"] == "system" and t.get("name") == "shell"]
    for cmd in typed:
        assert sum(1 for s in shell if s.splitlines()[0].endswith(cmd)) == typed.count(cmd), cmd
    printed = {" ".join(r.strip("│ ").split()) for s in shell if s.splitlines()[0].endswith(tuple(typed))
               for r in s.splitlines()[1:] if len(r.split()) >= 3}
    said = [" ".join(t["text"].split()) for t in out["turns"] if t["role"] in ("user", "assistant")]
    assert printed and not any(r in t for r in printed for t in said)


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", EXEC_STOPPED, ids=_ids(EXEC_STOPPED))
def test_reprint_after_fg_and_resize_comes_back_once(case: Path, screen_only: bool):
    """Each prompt once, in order, and each answer once: the session Codex
    prints again at the new width after `fg` is not a second conversation."""
    out = replay_json(case / "session.cast", case.parent.name, screen_only)
    assert typed_prompts(out["turns"]) == typed_prompts(truth_turns(case))
    answers = [" ".join(t["text"].split()) for t in out["turns"] if t["role"] == "assistant"]
    truth = [" ".join(t["text"].split()) for t in truth_turns(case) if t["role"] == "assistant"]
    assert len(answers) <= len(truth)


@pytest.mark.parametrize("case", PROGRESS_LINE, ids=_ids(PROGRESS_LINE))
@pytest.mark.parametrize(("seed", "max_pause", "split", "merge"), [(0, 0.01, 0.3, 0.95), (1, 0.01, 0.0, 0.95)])
def test_progress_line_opens_no_run_whatever_the_pauses(case: Path, seed: int, max_pause: float, split: float,
                                                        merge: float, tmp_path: Path):
    """Re-timed so that a pause catches the loop's last `\\r` line with the
    cursor after it (the two timings h15 saw fail), the turns are the same."""
    from tests.test_timing import retime, turns_of

    agent = case.parent.name
    fast = tmp_path / "session.cast"
    retime(case / "session.cast", fast, seed, max_pause, split, merge)
    assert turns_of(fast, agent) == turns_of(case / "session.cast", agent)

