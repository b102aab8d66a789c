"""Shells around agents, round h10: an agent suspended with Ctrl+Z and brought
back with `fg`, a prompt no rule knows read with no pauses, fish's lines
accepted with no frame at their prompt. All on the recordings' real bytes
through the real CLI / replay functions.

- `fg` brings a stopped agent back: Codex redraws only its input box and
  footer, no banner, so nothing on screen names it. The latest agent run is
  the job: its turns are the agent's (before: the fourth prompt and its answer
  were read as shell output, user_exact 0.75, turns 3 of 4).
- A prompt no rule knows (`wharf:proj ▸ `) under a first command holding
  `%% `: with no pauses the first frame shows the line already typed and
  PROMPT stopped at the `% ` inside it; every shell turn after it was lost
  (23 turns -> 13). The prompt is learned from what the accepted lines share.
- Codex on the alternate screen, stopped at fish, the terminal shrunk while
  it is stopped, `fg`: it redraws its whole conversation at the new width
  (the first answer cut at the top). The turns it showed before it stopped
  are not given twice (before: 2 turns and a cut answer again, asst_prec
  0.67, turns 6 of 4), and fish's `Send job 1 (codex) to foreground`, which
  the main screen shows again when Codex leaves, is the `fg` line's output,
  not the end of the last answer. The job `fg` brings back is the latest run
  that could have stopped: after a full-screen program (less, vim) it is not
  the agent.
- fish draws its autosuggestion after the cursor, so no frame is idle at a
  prompt; with no pauses the next prompt comes in the same frame as the line
  before: a row above the new prompt opening with the very same prompt is a
  run of its own (h5's `ls src` and its output were lost).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents_chrome import shell
from screen.frames import iter_frames
from screen.rawlog import open_recording
from tests.conftest import RECORDINGS, meta_of, replay_json
from tests.test_timing import retime, turns_of

SUSPEND = RECORDINGS / "codex" / "h10-sh-codex-suspend-61x20"
FISH = RECORDINGS / "codex" / "h5-sh-codex-fish-110x32"
FISH_STOP = RECORDINGS / "codex" / "h10-sh-codex-fish-stop-100x28"
#: no pauses, events cut up; no pauses, events merged (the timing probe's two ways)
NO_PAUSES = [(0.001, 0.8, 0.0), (0.0, 0.0, 0.95)]


def _turns(case: Path, screen_only: bool = False) -> list[dict]:
    return replay_json(case / "session.cast", case.parent.name, screen_only)["turns"]


def _truth(case: Path) -> dict:
    return json.loads((case / "truth.json").read_text(encoding="utf-8"))


def _frames(cast: Path) -> list:
    with open_recording(cast) as reader:
        return list(iter_frames(reader))


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_a_resumed_agent_keeps_its_turns(screen_only):
    """Four prompts, the last typed after Ctrl+Z, `jobs` and `fg`: four user
    turns, exactly as typed; the shell turns hold no prompt or answer of it."""
    truth = _truth(SUSPEND)
    turns = _turns(SUSPEND, screen_only)
    want = [t["text"] for t in truth["turns"] if t["role"] == "user"]
    assert [t["text"] for t in turns if t["role"] == "user"] == want
    last = truth["turns"][-1]["text"].replace("`", "")
    assert [t for t in turns if t["role"] == "assistant"][-1]["text"].replace("\n", " ") == last
    for t in turns:
        if t["role"] == "system":
            assert "›" not in t["text"] and want[-1] not in t["text"], t


def test_fg_opens_the_agents_stretch_and_jobs_stays_the_shells():
    """The `fg` run is the agent's; `jobs` (which names the stopped agent) is not."""
    frames = _frames(SUSPEND / "session.cast")
    hist = shell._absolute(frames)
    runs = shell.find_runs(frames, hist, shell.learn_prompt(frames))
    shell.classify(frames, runs, hist)
    got = [(r.command, r.agent) for r in runs if r.prompt_abs is not None]
    typed = meta_of(SUSPEND)["shell"]["typed_at_shell"]
    assert [c for c, _ in got] == typed
    agents = {c: a for c, a in got}
    assert agents["codex --no-alt-screen"] == agents["fg"] == "codex"
    assert agents["jobs"] is None and agents["date -u +%A"] is None


@pytest.mark.parametrize("params", NO_PAUSES, ids=["cut", "merged"])
def test_a_learned_prompt_is_found_with_no_pauses(params, tmp_path):
    """The first line typed holds `%3d%% `: read with no pauses, the prompt is
    still the one every prompt row opens with, and the turns are the same."""
    fast = tmp_path / "session.cast"
    retime(SUSPEND / "session.cast", fast, 0, *params)
    learned = shell.learn_prompt(_frames(fast))
    assert learned is not None and learned.prompt == meta_of(SUSPEND)["shell"]["prompt_rendered"]
    assert turns_of(fast, "codex") == turns_of(SUSPEND / "session.cast", "codex")


@pytest.mark.parametrize("params", NO_PAUSES, ids=["cut", "merged"])
def test_fish_lines_accepted_with_no_frame_at_their_prompt(params, tmp_path):
    """h5's fish: every line typed at the prompt opens a shell turn of its own
    with no pauses too, with its output and without the right prompt."""
    fast = tmp_path / "session.cast"
    retime(FISH / "session.cast", fast, 0, *params)
    got = turns_of(fast, "codex")
    assert got == turns_of(FISH / "session.cast", "codex")
    prompt = meta_of(FISH)["shell"]["prompt_rendered"][0]
    rows = [text.split("\n") for role, text, name in got if role == "system" and name == "shell"]
    assert [r[0][len(prompt):] for r in rows] == meta_of(FISH)["shell"]["typed_at_shell"]
    assert rows[0][1:] == ["app.py  util.py"]


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_a_redrawn_conversation_is_not_given_twice(screen_only):
    """Four prompts, two before Ctrl+Z and two after `fg`: each once, in order,
    and as many answers as were served, each once."""
    truth = _truth(FISH_STOP)
    turns = _turns(FISH_STOP, screen_only)
    for role in ("user", "assistant"):
        want = [t["text"] for t in truth["turns"] if t["role"] == role]
        got = [t["text"] for t in turns if t["role"] == role]
        assert len(got) == len(want), (role, got)
    assert [t["text"] for t in turns if t["role"] == "user"] == [t["text"] for t in truth["turns"]
                                                                  if t["role"] == "user"]


def test_the_shells_resume_notice_is_the_fg_lines_output():
    """fish's notice is printed below `fg` before Codex takes the alternate
    screen: it is in the `fg` shell turn and in no turn of the agent."""
    turns = _turns(FISH_STOP)
    prompt = meta_of(FISH_STOP)["shell"]["prompt_rendered"][0]
    fg = [t["text"].split("\n") for t in turns if t["role"] == "system" and t["text"].startswith(prompt + "fg")]
    assert len(fg) == 1 and len(fg[0]) == 2 and "codex" in fg[0][1]
    for t in turns:
        if t["role"] != "system":
            assert fg[0][1] not in t["text"], t


def _spliced_less_before_fg(dst: Path) -> Path:
    """The suspend recording's real bytes with `date -u +%A` (typed while Codex
    is stopped) replaced by its own `less src/util.py` run: a full-screen
    program runs between the stopped agent and `fg`."""
    lines = (SUSPEND / "session.cast").read_text(encoding="utf-8").splitlines()
    ev = [json.loads(ln) for ln in lines[1:]]
    cmds = meta_of(SUSPEND)["shell"]["typed_at_shell"]
    typed = [i for i, e in enumerate(ev) if e[1] == "i"]
    after = (lambda k: next(i for i in typed if i > k))
    # the Enter that ran each line typed at the shell, in order
    enter, line = [], ""
    for i in typed:
        line += ev[i][2]
        if ev[i][2] == "\r":
            if len(enter) < len(cmds) and line[:-1].endswith(cmds[len(enter)]):
                enter.append(i)
            line = ""
    n_less, n_date = cmds.index("less src/util.py"), cmds.index("date -u +%A")
    less_from = after(enter[n_less - 1])
    less_to = after(next(i for i in typed if i > enter[n_less] and ev[i][2] == "q"))  # `q` quit less
    date_from, fg_from = after(enter[n_date - 1]), after(enter[n_date])
    out, t, prev = [], 0.0, 0.0
    for e in ev[:date_from] + ev[less_from:less_to] + ev[fg_from:]:
        t += max(0.0, min(e[0] - prev, 1.0)) if out else e[0]
        prev = e[0]
        out.append([round(t, 6), e[1], e[2]])
    dst.write_text(lines[0] + "\n" + "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in out),
                   encoding="utf-8")
    return dst


def test_fg_after_a_full_screen_program_brings_that_program_back(tmp_path):
    """The job `fg` resumes is the latest run that could have stopped: after
    `less` (the alternate screen) it is no longer the agent."""
    frames = _frames(_spliced_less_before_fg(tmp_path / "session.cast"))
    hist = shell._absolute(frames)
    runs = shell.find_runs(frames, hist, shell.learn_prompt(frames))
    shell.classify(frames, runs, hist)
    got = [(r.command, r.agent) for r in runs if r.prompt_abs is not None]
    cmds = [c for c, _ in got]
    assert cmds.index("jobs") < cmds.index("less src/util.py", cmds.index("jobs")) < cmds.index("fg")
    agents = dict(got)
    assert agents["codex --no-alt-screen"] == "codex" and agents["fg"] is None
