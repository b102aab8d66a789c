"""Agents started from a shell inside a recording (`record -- bash`, then the agent
typed at the prompt, then more shell): real recordings whose meta.json lists
what was typed at the shell, checked through the CLI; and the structural
prompt test on a real screen."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents_chrome import shell
from screen.cast import CastHeader, CastReader
from screen.frames import FrameBuilder, iter_frames
from tests.conftest import RECORDINGS, cli, strip_inputs

CASES = sorted(RECORDINGS.glob("*/sh-*/session.cast"))


def ids(p: Path) -> str:
    return f"{p.parent.parent.name}/{p.parent.name}"


def _replay(cast: Path, *extra: str) -> dict:
    res = cli("replay", str(cast), "--format", "json", *extra)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def _expect(cast: Path) -> tuple[dict, list[str]]:
    meta = json.loads((cast.parent / "meta.json").read_text())["shell"]
    truth = json.loads((cast.parent / "truth.json").read_text())
    prompts = [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]
    return meta, prompts


def test_there_are_shell_cases_for_several_agents():
    assert len({c.parent.parent.name for c in CASES}) >= 3


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-input", "screen-only"])
@pytest.mark.parametrize("cast", CASES, ids=ids)
def test_shell_commands_are_system_turns_and_agent_turns_stay_clean(cast, screen_only, tmp_path):
    meta, prompts = _expect(cast)
    src = strip_inputs(cast, tmp_path / "s.cast") if screen_only else cast
    with CastReader(src) as r:
        assert r.header.command and shell.is_shell_command(r.header.command)
    conv = _replay(src)  # no --agent: found from the shell's typed command / the screen
    agent = cast.parent.parent.name
    assert conv["agent"] == agent
    ps1 = meta["ps1"]
    shell_turns = [t for t in conv["turns"] if t["role"] == "system" and t["name"] == "shell"]
    # every line typed at the prompt, in order, each its own turn opened by its prompt line
    assert [t["text"].split("\n")[0] for t in shell_turns] == [ps1 + c for c in meta["typed_at_shell"]]
    # the agent's turns: exactly the typed prompts, nothing of the shell in any of them
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == prompts
    for t in conv["turns"]:
        if t["name"] != "shell":
            assert ps1.strip() not in t["text"], t
    # the prompts come after the agent's launch line and before the next shell command
    order = [("launch" if t["name"] == "shell" and t["text"].endswith(meta["agent_command"]) else
              "shell" if t["name"] == "shell" else t["role"]) for t in conv["turns"]]
    first_user, last_user = order.index("user"), len(order) - 1 - order[::-1].index("user")
    assert "launch" in order[:first_user]
    kinds = ["shell" if t["name"] == "shell" else "agent" for t in conv["turns"]]
    launches = sum(1 for a, b in zip(kinds, kinds[1:]) if (a, b) == ("shell", "agent"))
    if launches == 1:  # one agent sitting: no shell command inside it
        assert "shell" not in order[order.index("launch", 0, first_user):last_user]


@pytest.mark.parametrize("cast", CASES[:1] + [c for c in CASES if "fullscreen" in c.parent.name][:1], ids=ids)
def test_shell_output_is_kept_whole(cast):
    """What a command printed is in its turn (a user reading the conversation sees it)."""
    conv = _replay(cast)
    outputs = {t["text"].split("\n")[0]: t["text"].split("\n")[1:] for t in conv["turns"] if t["name"] == "shell"}
    echoed = [(k, v) for k, v in outputs.items() if "$ echo '" in k]
    assert echoed
    for k, v in echoed:
        assert v == [k.split("echo '", 1)[1].rstrip("'")]


def test_the_same_agent_twice_in_one_shell():
    cast = RECORDINGS / "claude-code" / "sh-cc-twice-inline-90x26" / "session.cast"
    if not cast.exists():
        pytest.skip("recording not present")
    meta, prompts = _expect(cast)
    conv = _replay(cast)
    order = [("launch" if t["name"] == "shell" and t["text"].endswith("$ claude") else
              "shell" if t["name"] == "shell" else t["role"]) for t in conv["turns"]]
    assert order.count("launch") == 2
    # each sitting's prompt follows its own launch, with shell commands between the two
    a, b = [i for i, k in enumerate(order) if k == "launch"]
    users = [i for i, k in enumerate(order) if k == "user"]
    assert len(users) == 2 and a < users[0] < b < users[1]
    assert "shell" in order[users[0]:b]
    assert [conv["turns"][i]["text"] for i in users] == prompts


def test_two_agents_in_one_shell_each_read_by_its_own_profile():
    cast = RECORDINGS / "codex" / "sh-codex-then-opencode-100x30" / "session.cast"
    if not cast.exists():
        pytest.skip("recording not present")
    meta, prompts = _expect(cast)
    conv = _replay(cast)
    agents = [(t.get("agent"), t["role"]) for t in conv["turns"] if t["role"] in ("user", "assistant")]
    assert [a for a, r in agents if r == "user"] == ["codex", "opencode"]
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == prompts
    assert conv["agent"] == "codex"  # the first one; each turn names its own


def _frames(data: str, cols: int = 40, rows: int = 6):
    fb = FrameBuilder(cols, rows)
    out = fb.feed_event(0.0, "o", data)
    out += fb.feed_event(1.0, "o", "")
    return out + fb.finish()


@pytest.mark.parametrize("data,want", [
    ("user@host:~/p$ ", ("user@host:~/p$ ", "")),
    ("\x1b[1;32mroot@box\x1b[0m:/# ls -l", ("root@box:/# ", "ls -l")),
    ("out\r\nhost% ", ("host% ", "")),
    ("~/proj (main)\r\n$ make", ("$ ", "make")),  # sh's bare prompt, or a two-line prompt's second row
    ("> ", None),  # a bare `>` is every TUI's input marker, not a shell prompt
    ("me@box ~ % git st\x1b[34G[main]\x1b[18G", ("me@box ~ % ", "git st")),  # zsh RPROMPT at the right edge
    ("user@host:~$ typed\x1b[6D", None),  # text after the cursor: an editor-like line, not a prompt
    ("\x1b[?1049huser@host:~$ ", None),  # the alternate screen is never a shell
    ("   $ ", None),  # indented: a drawn `$`, not a prompt at the start of a row
])
def test_shell_prompt_is_structural(data, want):
    f = _frames(data)[-1]
    assert shell.shell_input(f) == want


def test_a_recording_of_an_agent_is_never_cut():
    """The header names an agent: even a `$ ` prompt inside it does not split it."""
    cast = RECORDINGS / "codex" / "s5-inline-noalt-80x24" / "session.cast"
    with CastReader(cast) as r:
        frames = list(iter_frames(r))
        assert shell.split(frames, r.header) is None
    # the same frames under a shell header are a shell session only when a prompt and an agent show
    assert shell.is_shell_command("bash --norc") and shell.is_shell_command("-zsh") and shell.is_shell_command(None)
    assert not shell.is_shell_command("codex --no-alt-screen")
    assert shell.is_shell_command("PS1='x$ ' exec bash --norc") and shell.is_shell_command("/usr/bin/env zsh")


def test_a_shell_without_an_agent_is_left_to_the_generic_profile(tmp_path):
    frames = _frames("u@h:~$ ls\r\na  b\r\nu@h:~$ echo hi\r\nhi\r\nu@h:~$ ")
    assert shell.split(frames, CastHeader(version=2, width=40, height=6, command="bash")) is None


@pytest.mark.parametrize("line,want", [
    ("codex", "codex"), ("claude --resume", "claude-code"), ("npx codex", "codex"),
    ("env FOO=1 gemini --yolo", "gemini"), ("sudo -E opencode", "opencode"), ("DEBUG=1 claude", "claude-code"),
    ("/opt/bin/codex --no-alt-screen", "codex"),
    ("man codex", None), ("cat claude.md", None), ("git log -- codex", None), ("ls", None), ("", None),
    ("echo 'unclosed", None),
])
def test_the_agent_a_typed_command_runs(line, want):
    assert shell.typed_agent(line) == want


def test_an_agent_that_did_not_start_is_a_shell_command():
    """`codex` answered by "command not found" draws one row: the run stays the shell's."""
    fb = FrameBuilder(60, 8)
    frames = []
    for t, data in enumerate(["u@h:~$ ", "codex", "\r\nbash: codex: command not found\r\nu@h:~$ ",
                              "ls", "\r\na  b\r\nu@h:~$ "]):
        frames += fb.feed_event(float(t), "o", data)
    frames += fb.finish()
    assert shell.split(frames, CastHeader(version=2, width=60, height=8, command="bash")) is None


def test_import_archives_the_agent_turns_of_a_shell_recording(tmp_path):
    cast = RECORDINGS / "claude-code" / "sh-cc-inline-tools-100x30" / "session.cast"
    meta, prompts = _expect(cast)
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "home")}
    res = cli("import", str(cast), env=env)
    assert res.returncode == 0, res.stderr
    shown = cli("show", res.stdout.strip(), "--format", "json", env=env)
    assert shown.returncode == 0, shown.stderr
    conv = json.loads(shown.stdout)
    assert conv["agent"] == "claude-code"
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == prompts
    assert not any(meta["ps1"].strip() in t["text"] for t in conv["turns"] if t["role"] in ("user", "assistant"))


def test_blanked_frames_keep_their_per_line_data_aligned():
    """Every list that runs along `scrolled` or the rows stays the same length."""
    cast = RECORDINGS / "claude-code" / "sh-cc-inline-long-80x24" / "session.cast"
    with CastReader(cast) as r:
        frames = list(iter_frames(r))
    runs = shell.find_runs(frames)
    shell.classify(frames, runs)
    i = next(k for k, r in enumerate(runs) if r.agent == "claude-code")
    blanked = shell.agent_frames(frames, runs, i)
    assert any(len(b.scrolled) < len(frames[runs[i].start + k].scrolled) for k, b in enumerate(blanked))
    for b in blanked:
        for name in ("widths", "wrapped"):
            per = getattr(b, name, None)
            if per:
                assert len(per) == len(b.scrolled)
        assert all(0 <= off <= len(b.scrolled) for off, _ in getattr(b, "marks", []))
        assert not any("$ " in t for t in b.scrolled + b.lines)
