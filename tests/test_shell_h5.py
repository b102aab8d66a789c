"""Shells the earlier rounds did not try, around real agents (h5-sh-* recordings):
zsh with an oh-my-zsh-like `➜  dir git:(main) ✗ ` prompt (Claude Code, after
less and vim, through `time`, Ctrl-C twice, then started again at once), fish
with a right prompt and a resize at the prompt (Codex through `command`, a
resize mid-answer, Ctrl-C twice, again at once), bash inside script(1) with the
time and last status in its PS1 (Gemini through `stdbuf`; the typescript and
its advanced timing file are kept), zsh with an RPROMPT it redraws, with a new
time, on each resize at the prompt (Gemini, left by Ctrl-D twice).

Checked through the CLI, with the typed keys and without: every line typed at
the prompt is one `system` turn named `shell` whose prompt line ends with the
command (no right prompt after it, no second turn for a prompt the shell
redrew after a resize); the agent's turns are exactly the typed prompts and
hold nothing of the shell."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents_chrome import registry, shell
from screen.cast import CastReader
from screen.frames import FrameBuilder, iter_frames
from screen.rawlog import open_recording
from tests.conftest import RECORDINGS, cli, strip_inputs

# the h5 shell cases: their meta.json says what each shell turn carries (`shell_turn_commands`)
CASES = sorted(c for c in RECORDINGS.glob("*/h5-sh-*/session.cast")
               if "shell_turn_commands" in json.loads((c.parent / "meta.json").read_text()).get("shell", {}))


def ids(p: Path) -> str:
    return f"{p.parent.parent.name}/{p.parent.name}"


def _replay(path: Path, *args: str) -> dict:
    res = cli("replay", str(path), *args, "--format", "json")  # no --agent: found from the typed command
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def _meta(cast: Path) -> tuple[dict, list[str]]:
    meta = json.loads((cast.parent / "meta.json").read_text())
    truth = json.loads((cast.parent / "truth.json").read_text())
    return meta, [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]


def _shell_commands(conv: dict, expected: list[str]) -> list[str]:
    """The command each shell turn's prompt line carries, in order: the line of
    the turn that ends with one of the expected commands right after a space."""
    out = []
    for t in conv["turns"]:
        if t["role"] != "system" or t.get("name") != "shell":
            continue
        for line in t["text"].split("\n"):
            hit = [c for c in expected if line.endswith(" " + c)]
            if hit:
                out.append(max(hit, key=len))
                break
    return out


def _frames(cast: Path):
    with CastReader(cast) as r:
        return r.header, list(iter_frames(r))


def test_h5_shell_cases_cover_three_agents_and_new_shells():
    assert {c.parent.parent.name for c in CASES} >= {"claude-code", "codex", "gemini"}
    programs = {json.loads((c.parent / "meta.json").read_text())["shell"]["shell_program"].split()[0] for c in CASES}
    assert {"zsh", "fish", "bash"} <= programs


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-input", "screen-only"])
@pytest.mark.parametrize("cast", CASES, ids=ids)
def test_each_typed_line_is_one_shell_turn_and_agent_turns_stay_clean(cast, screen_only, tmp_path):
    meta, prompts = _meta(cast)
    conv = _replay(strip_inputs(cast, tmp_path / "s.cast") if screen_only else cast)
    assert conv["agent"] == cast.parent.parent.name
    want = meta["shell"]["shell_turn_commands"]
    # in order, once each: a prompt redrawn after a resize is no new turn, a right
    # prompt is no part of the command line
    assert _shell_commands(conv, want) == want
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == prompts
    mark = meta["shell"]["prompt_mark"]
    for t in conv["turns"]:
        if t["role"] in ("user", "assistant", "tool_call", "tool_result"):
            assert mark not in t["text"], t
            assert not any(len(c) > 6 and c in t["text"] for c in want), t


def test_oh_my_zsh_prompt_is_learned_from_the_first_idle_prompt():
    """`➜  dir git:(main) ✗ ` matches no known prompt ending: the shell's first
    prompt, drawn with the cursor after it, teaches its first glyph."""
    cast = RECORDINGS / "claude-code" / "h5-sh-cc-omz-96x28" / "session.cast"
    header, frames = _frames(cast)
    learned = shell.learn_prompt(frames)
    assert learned is not None and learned.mark == "➜" and learned.prompt is None
    runs = shell.find_runs(frames, None, learned)
    shell.classify(frames, runs)
    assert [r.agent for r in runs if r.agent] == ["claude-code", "claude-code"]
    assert all(r.prompt.startswith("➜  ") and r.prompt.endswith("✗ ") for r in runs if r.prompt_abs is not None)
    # without learning nothing is cut: the whole recording would go to Claude Code
    assert not any(r.prompt_abs is not None for r in shell.find_runs(frames))


def test_a_known_prompt_shape_is_not_learned():
    for cast in (RECORDINGS / "gemini" / "h5-sh-gem-clock-script-104x30" / "session.cast",
                 RECORDINGS / "codex" / "h5-sh-codex-fish-110x32" / "session.cast"):
        assert shell.learn_prompt(_frames(cast)[1]) is None


def test_raw_log_of_the_oh_my_zsh_session_learns_the_prompt_from_accepted_lines(tmp_path):
    """Without timing a log shows each command line only as accepted: the prompt is
    what the first lines share. The output bytes alone give the recording's turns."""
    cast = RECORDINGS / "claude-code" / "h5-sh-cc-omz-96x28" / "session.cast"
    meta, prompts = _meta(cast)
    with CastReader(cast) as r:
        w, h = r.header.width, r.header.height
        out = "".join(e.data for e in r.events(warn=False) if e.code == "o")
    log = tmp_path / "pane.log"
    log.write_bytes(out.encode())
    with open_recording(log, size=(w, h)) as r:
        learned = shell.learn_prompt(list(iter_frames(r)))
    assert learned is not None and learned.mark == "➜" and learned.prompt.endswith("git:(main) ✗ ")
    got = _replay(log, "--size", f"{w}x{h}")
    want = _replay(cast)
    assert got["agent"] == "claude-code"
    assert _shell_commands(got, meta["shell"]["shell_turn_commands"]) == meta["shell"]["shell_turn_commands"]
    agent = ("user", "assistant", "tool_call", "tool_result")
    assert [(t["role"], t["text"]) for t in got["turns"] if t["role"] in agent] == \
        [(t["role"], t["text"]) for t in want["turns"] if t["role"] in agent]


@pytest.mark.parametrize("cast", [RECORDINGS / "codex" / "h5-sh-codex-fish-110x32" / "session.cast",
                                  RECORDINGS / "gemini" / "h5-sh-gem-zsh-rprompt-96x28" / "session.cast"], ids=ids)
def test_resize_at_a_prompt_is_no_new_run_and_the_right_prompt_is_cut(cast):
    """fish draws `[1] 08:29:32` at the right edge, zsh `9:21:46 [0]`; a resize
    reflows the rows above the prompt (the absolute row count shifts), fish
    redraws the prompt at the next key, zsh at once with a new time: still one
    run per prompt, its command without the right prompt."""
    _, frames = _frames(cast)
    hist = shell._absolute(frames)
    runs = [r for r in shell.find_runs(frames, hist) if r.prompt_abs is not None]
    typed = json.loads((cast.parent / "meta.json").read_text())["shell"]["typed_at_shell"]
    assert len(runs) == len(typed)
    assert any(r.rprompt for r in runs)
    for r, c in zip(runs, typed):
        assert r.command == c or r.command.endswith(c.split()[-1]), (r.command, c)
        assert ":" not in r.command.split()[-1]  # no HH:MM:SS after the command
    assert len({r.prompt_abs for r in runs}) == len(runs)


def test_script_typescript_with_advanced_output_only_timing_reads_like_the_recording():
    """bash inside `script -m advanced -T timing -O typescript`: with its timing
    file (resizes included) the typescript gives the recording's turns."""
    d = RECORDINGS / "gemini" / "h5-sh-gem-clock-script-104x30"
    want = _replay(d / "session.cast")
    timed = _replay(d / "session.typescript", "--timing", str(d / "session.timing"))
    assert [(t["role"], t["text"]) for t in timed["turns"]] == [(t["role"], t["text"]) for t in want["turns"]]
    # without it the resize at the prompt is lost (the prompt lines wrap elsewhere),
    # the conversation is not
    alone = _replay(d / "session.typescript")
    agent = ("user", "assistant", "tool_call", "tool_result")
    assert alone["agent"] == "gemini"
    assert [(t["role"], t["text"]) for t in alone["turns"] if t["role"] in agent] == \
        [(t["role"], t["text"]) for t in want["turns"] if t["role"] in agent]


def test_command_line_that_wrapped_is_read_from_its_first_row():
    """A log without timing shows a long command only once accepted, the cursor on
    its wrapped tail: the prompt is read from the line's first row."""
    fb = FrameBuilder(30, 8)
    frames = []
    for t, chunk in enumerate(["ops@box:~$ ", "echo one two three four five six\r\nx\r\n", "ops@box:~$ "]):
        frames += fb.feed_event(float(t), "o", chunk)
    frames += fb.finish()
    runs = [r for r in shell.find_runs(frames) if r.prompt_abs is not None]
    assert [r.command for r in runs] == ["echo one two three four five six", ""]
    fb = FrameBuilder(30, 8)
    frames = fb.feed_event(0.0, "o", "ops@box:~$ echo one two three four five six")
    frames += fb.finish()
    assert shell.shell_input(frames[-1]) == ("ops@box:~$ ", "echo one two three four five six")


@pytest.mark.parametrize("header,exe,shellish", [
    ("/usr/bin/script -q -f -m advanced -T t -O ts -c 'PS1=x exec bash --norc --noprofile'", "bash", True),
    ("script -q log.txt", "sh", True),
    ("script", "sh", True),
    ("script -qfT t.tm -c zsh", "zsh", True),
    ("script -qc claude x.log", "claude", False),
    ("script -q -c 'codex --yolo' x", "codex", False),
    ("taskset -c 0,1 codex", "codex", False),
    ("taskset 0x3 gemini", "gemini", False),
    ("chrt -f 10 claude", "claude", False),
    ("ionice -c 3 opencode", "opencode", False),
    ("time -p gemini --yolo", "gemini", False),
    ("command codex", "codex", False),
])
def test_script_and_scheduling_wrappers(header, exe, shellish):
    assert registry.executable(registry.command_words(header)) == exe
    assert shell.is_shell_command(header) is shellish
