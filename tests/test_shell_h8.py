"""Shells around agents, round h8: prompts the rules had not met.

- A one-glyph prompt (`⟫ `) the shell draws on its own row: the rows come
  right-trimmed, so an idle prompt shows as `⟫` alone; the learned mark must
  still open a run there (before: no run at all, every shell line joined the
  last answer of Codex).
- A PROMPT_COMMAND status line printed above a two-line PS1: every prompt
  draws it, so it is the prompt's head (rows above the input row), not the
  tail of the previous command's output or an agent's last turn.
- A prompt whose first segment is painted on a background colour (` shore `):
  its leading space is drawing, not indentation (before: no prompt was seen,
  the shell lines vanished or joined the agent).
- dash (no line editor) writes prompt, echo and output as plain text: with
  no pauses no frame was taken at its prompt and every shell line before and
  after OpenCode was lost. A frame is now taken where plain text that began a
  row and went on over rows meets a control sequence with the cursor at a
  row's start (`reason == "plain"`), and prompt rows inside such plain text
  open runs of their own (`shell._plain_prompts`).
- Shell output after an agent ended that looks like chrome (box drawing, a
  `>` line, bullets) stays a shell turn.

All on the recordings' real bytes through the real CLI / replay functions.
"""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from agents_chrome import shell
from screen.frames import iter_frames
from screen.rawlog import open_recording
from tests.conftest import RECORDINGS, meta_of, replay_json

CODEX = RECORDINGS / "codex" / "h8-sh-codex-status-140x40"
OPENCODE = RECORDINGS / "opencode" / "h8-sh-oc-dash-resize-90x26"
AMP = RECORDINGS / "amp" / "h8-sh-amp-ctrlc-92x26"
CASES = [CODEX, OPENCODE, AMP]


def ids(p: Path) -> str:
    return f"{p.parent.name}/{p.name}"




def _turns(case: Path, cast: Path | None = None) -> list[dict]:
    return replay_json(cast or case / "session.cast", case.parent.name)["turns"]


def _frames(case: Path) -> list:
    with open_recording(case / "session.cast") as reader:
        return list(iter_frames(reader))


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_every_line_typed_at_the_shell_is_a_system_turn(case):
    """Each command typed at the prompt opens a system turn of its own, in order,
    its prompt row first after the prompt's head rows."""
    sh = meta_of(case)["shell"]
    mark = sh["prompt_mark"].strip()
    commands = [t["text"] for t in _turns(case) if t["role"] == "system" and t.get("name") == "shell"]
    typed = []
    for text in commands:
        row = next((r for r in text.split("\n") if mark in r), None)
        assert row is not None, text
        typed.append(row.split(mark, 1)[1].strip())
    assert typed == sh["typed_at_shell"]


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_no_shell_text_in_the_agents_turns(case):
    sh = meta_of(case)["shell"]
    mark = sh["prompt_mark"].strip()
    for t in _turns(case):
        if t["role"] == "system":
            continue
        assert mark not in t["text"], t
        for cmd in sh["typed_at_shell"]:
            if len(cmd) > 6:
                assert cmd not in t["text"], t


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_agent_turns_match_truth(case):
    """The prompts come back exactly, in order, one user turn per truth prompt."""
    truth = json.loads((case / "truth.json").read_text(encoding="utf-8"))
    want = [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]
    got = [t["text"] for t in _turns(case) if t["role"] == "user"]
    assert got == want


def test_status_line_above_a_two_line_prompt_is_the_prompts_head():
    """The PROMPT_COMMAND row and the PS1's first line are drawn above every
    prompt: each shell turn opens with both, and nothing is left over as a
    turn of its own after an agent ends."""
    turns = _turns(CODEX)
    mark = meta_of(CODEX)["shell"]["prompt_mark"].strip()
    shells = [t["text"].split("\n") for t in turns if t["role"] == "system" and t.get("name") == "shell"]
    heads = {next(i for i, r in enumerate(rows) if r.startswith(mark)) for rows in shells}
    assert heads == {2}
    firsts = {rows[0].split()[0] for rows in shells}
    assert len(firsts) == 1  # the status line's first word, at every prompt
    assert not [t for t in turns if t.get("name") == shell.AFTER_EXIT]


def test_an_idle_one_glyph_prompt_opens_a_run():
    """The very first frame waits at `⟫` (trimmed) with the cursor after its
    space: the learned mark opens a run there, with the full prompt."""
    frames = _frames(CODEX)
    learned = shell.learn_prompt(frames)
    assert learned is not None
    idle = [f for f in frames if not f.alternate and f.cursor[1] < len(f.lines)
            and f.lines[f.cursor[1]] == learned.mark]
    assert idle
    for f in idle:
        assert len(f.lines[f.cursor[1]]) < f.cursor[0]  # trimmed: the space after the mark is gone
        assert shell._learned_input(f, learned, None) == (learned.mark + " ", "")


def test_a_painted_prompt_lead_is_drawing_not_indentation():
    """Amp's shell prompt opens with a space on a background colour. With that
    colour the frame waits at a prompt; the same cells on the default background
    (plain indentation, as an agent's input row may have) are no prompt."""
    frames = _frames(AMP)
    f = next(f for f in frames if shell.shell_input(f) is not None)
    prompt, _ = shell.shell_input(f)
    assert prompt.startswith(" ") and prompt.strip()
    y = shell.prompt_row(f)
    cells = list(f.cells)
    cells[y] = tuple(c._replace(bg="default") for c in cells[y])
    plain = replace(f, cells=cells, _styles=None)
    assert shell.shell_input(plain) is None


def test_chrome_like_shell_output_after_the_agent_stays_the_shells():
    """Box drawing, a `>` line and bullets printed at the shell after Amp ended
    are shell turns, after the agent's last answer, never an agent's turn."""
    turns = _turns(AMP)
    last = max(i for i, t in enumerate(turns) if t["role"] == "assistant")
    after = turns[last + 1:]
    assert after and all(t["role"] == "system" for t in after)
    rows = [r for t in after for r in t["text"].split("\n")]
    assert any(r.startswith("┌") for r in rows)
    assert any(r.startswith(">") for r in rows)
    assert any(r.startswith("•") for r in rows)


def _retimed(src: Path, dst: Path, max_pause: float) -> Path:
    lines = src.read_text(encoding="utf-8").splitlines()
    events = [json.loads(ln) for ln in lines[1:] if ln.strip()]
    t = prev = 0.0
    for e in events:
        t += min(max(0.0, e[0] - prev), max_pause)
        prev, e[0] = e[0], round(t, 6)
    dst.write_text(lines[0] + "\n" + "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events),
                   encoding="utf-8")
    return dst


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_shell_turns_do_not_depend_on_the_pauses(case, tmp_path):
    fast = _retimed(case / "session.cast", tmp_path / "session.cast", 0.01)
    view = lambda ts: [(t["role"], t["text"], t.get("name")) for t in ts]  # noqa: E731
    assert view(_turns(case, fast)) == view(_turns(case))


def test_dash_with_no_pauses_shows_its_lines_before_the_agent(tmp_path):
    """All pauses cut: the frame where dash's plain text meets OpenCode's first
    control sequence shows the command typed before and the launch line, the
    cursor at the start of the row below."""
    fast = _retimed(OPENCODE / "session.cast", tmp_path / "session.cast", 0.0)
    with open_recording(fast) as reader:
        frames = list(iter_frames(reader))
    first_alt = next(k for k, f in enumerate(frames) if f.alternate)
    plain = [f for f in frames[:first_alt] if f.reason == "plain"]
    assert plain, [f.reason for f in frames[:first_alt]]
    f = plain[-1]
    assert f.cursor[0] == 0
    launch = meta_of(OPENCODE)["shell"]["launches"][0]
    assert f.lines[f.cursor[1] - 1].endswith(launch)
    runs = shell.find_runs(frames)
    assert [r.command for r in runs if r.prompt_abs is not None] == meta_of(OPENCODE)["shell"]["typed_at_shell"]
