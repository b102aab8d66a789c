"""Shells as users really have them, around a real agent (r3-sh-* recordings):
a coloured two-line bash prompt ending in `❯ ` (Claude Code, launched with an
env setting and options, then again through `env` by a full path that wraps),
zsh with `%` (Codex, the second time through `exec`: the shell is gone when it
exits), dash with a bare `$ ` (Gemini through `env`); `clear` between runs,
Ctrl-C at the prompt, and command output that looks like a prompt.

Checked through the CLI, with the typed keys and without (`strip_inputs`):
every line typed at the prompt is its own `system` turn named `shell`, opened
by the prompt as the screen shows it; the agent's turns are exactly the typed
prompts and hold nothing of the shell."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents_chrome import registry, shell
from screen.cast import CastReader
from screen.frames import FrameBuilder, iter_frames
from tests.conftest import RECORDINGS, cli, strip_inputs

# the r3 shell cases: their meta.json says how the prompt renders (`prompt_rendered`)
CASES = sorted(c for c in RECORDINGS.glob("*/r3-sh-*/session.cast")
               if "prompt_rendered" in json.loads((c.parent / "meta.json").read_text()).get("shell", {}))


def ids(p: Path) -> str:
    return f"{p.parent.parent.name}/{p.parent.name}"


def _replay(cast: Path) -> dict:
    res = cli("replay", str(cast), "--format", "json")  # no --agent: found from the typed command
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def _meta(cast: Path) -> tuple[dict, list[str]]:
    meta = json.loads((cast.parent / "meta.json").read_text())["shell"]
    truth = json.loads((cast.parent / "truth.json").read_text())
    return meta, [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]


def test_r3_shell_cases_cover_three_agents_and_three_shells():
    assert len({c.parent.parent.name for c in CASES}) >= 3
    commands = set()
    for c in CASES:
        with CastReader(c) as r:
            assert shell.is_shell_command(r.header.command)
            commands.add(shell._executable(registry.command_words(r.header.command)).rsplit("/", 1)[-1])
    assert {"bash", "zsh", "dash"} <= commands


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-input", "screen-only"])
@pytest.mark.parametrize("cast", CASES, ids=ids)
def test_typed_shell_lines_are_shell_turns_and_agent_turns_stay_clean(cast, screen_only, tmp_path):
    meta, prompts = _meta(cast)
    conv = _replay(strip_inputs(cast, tmp_path / "s.cast") if screen_only else cast)
    assert conv["agent"] == cast.parent.parent.name
    *head, prompt = meta["prompt_rendered"]
    is_shell = [t["role"] == "system" and t.get("name") == "shell" for t in conv["turns"]]
    shell_turns = [t for t, s in zip(conv["turns"], is_shell) if s]
    # a two-line prompt's first row opens each shell turn, the input row follows
    for t in shell_turns:
        assert t["text"].split("\n")[:len(head)] == head, t["text"]
    typed = [t["text"].split("\n")[len(head)] for t in shell_turns]
    assert all(line.startswith(prompt) for line in typed)
    typed = [line[len(prompt):] for line in typed]
    # every line typed at the prompt, in order, whole (a wrapped command line too);
    # a line cancelled with Ctrl-C stays as typed, ending in ^C
    cancelled = [k["typed"] + "^C" for k in meta.get("keys_at_shell", [])]
    assert [c for c in typed if c not in cancelled] == meta["typed_at_shell"]
    assert len(typed) == len(meta["typed_at_shell"]) + len(cancelled)
    # the agent's turns: exactly the typed prompts; nothing of the shell in any of them
    assert [t["text"] for t in conv["turns"] if t["role"] == "user"] == prompts
    for t, s in zip(conv["turns"], is_shell):
        if s:
            continue
        assert prompt.strip() not in t["text"].split(), t
        assert not any(h in t["text"] for h in head), t
        assert not any(c and c in t["text"] for c in meta["typed_at_shell"] if len(c) > 6), t


@pytest.mark.parametrize("cast", CASES, ids=ids)
def test_each_launch_is_followed_by_its_own_agent_turns(cast):
    """The agent run twice (or once): each sitting's prompts after its own launch line,
    whatever the launch looked like (`FOO=1 claude --model x`, `env ... /full/path/claude`,
    `exec codex`)."""
    meta, prompts = _meta(cast)
    conv = _replay(cast)
    launches = [c for c in meta["typed_at_shell"] if shell.typed_agent(c)]
    assert launches and all(shell.typed_agent(c) == registry_name(cast) for c in launches)
    sh = [t["role"] == "system" and t.get("name") == "shell" for t in conv["turns"]]
    order = ["launch" if s and any(t["text"].endswith(c) for c in launches) else "shell" if s else t["role"]
             for t, s in zip(conv["turns"], sh)]
    assert order.count("launch") == len(launches)
    starts = [i for i, k in enumerate(order) if k == "launch"] + [len(order)]
    for a, b in zip(starts, starts[1:]):
        inside = order[a + 1:b]
        assert "user" in inside  # each sitting has its prompt
        first_shell = inside.index("shell") if "shell" in inside else len(inside)
        assert "user" not in inside[first_shell:] and "assistant" not in inside[first_shell:]
    if meta.get("exec"):
        assert order[-1] != "shell"  # `exec`: nothing of the shell after the agent


def registry_name(cast: Path) -> str:
    return cast.parent.parent.name


def test_two_line_prompt_head_is_found_structurally():
    """The coloured `dev@box ~/proj on main` row above `❯ ` is found as the prompt's
    head at every prompt, and is no part of the Claude Code stretch before the next one."""
    cast = RECORDINGS / "claude-code" / "r3-sh-cc-twoline-80x24" / "session.cast"
    with CastReader(cast) as r:
        frames = list(iter_frames(r))
    runs = shell.find_runs(frames)
    shell.classify(frames, runs)
    prompted = [r for r in runs if r.prompt_abs is not None]
    assert all(r.prompt == "❯ " and r.head == ["dev@box ~/proj on main"] for r in prompted)
    agents = [i for i, r in enumerate(runs) if r.agent == "claude-code"]
    assert len(agents) == 2
    for i in agents:
        for f in shell.agent_frames(frames, runs, i):
            assert not any("dev@box" in t for t in f.lines + f.scrolled)


@pytest.mark.parametrize("line,want", [
    ("FOO=1 claude --model claude-sonnet-4-5", "claude-code"),
    ("env -u HTTPS_PROXY X=1 /opt/x/node_modules/.bin/codex", "codex"),
    ("env -i PATH=/bin gemini", "gemini"),
    ("sudo -u dev -E claude", "claude-code"),
    ("timeout 600 codex exec 'hi'", "codex"),
    ("timeout -s INT 5m gemini", "gemini"),
    ("exec opencode", "opencode"),
    ("pnpm dlx opencode", "opencode"),
    ("npm exec -- codex", "codex"),
    ("npx -y @openai/codex", "codex"),
    ("npx @anthropic-ai/claude-code", "claude-code"),
    ("uv tool run vibe", "vibe"),
    ("nice -n 5 kimi", "kimi"),
    ("npm install codex", None), ("sudo -u claude ls", None), ("timeout 5 ls codex", None),
    ("pnpm dlx prettier claude.md", None),
])
def test_wrapped_launch_lines(line, want):
    assert shell.typed_agent(line) == want


def test_ctrl_c_and_clear_and_lookalike_output_are_shell_turns():
    cast = RECORDINGS / "claude-code" / "r3-sh-cc-twoline-80x24" / "session.cast"
    conv = _replay(cast)
    texts = [t["text"] for t in conv["turns"] if t["role"] == "system" and t.get("name") == "shell"]
    assert any(t.endswith("❯ echo never run^C") for t in texts)
    assert any(t.endswith("❯ clear") for t in texts)
    # printf output that looks like prompts is that command's output, not new runs
    printed = next(t for t in texts if "printf" in t)
    assert printed.split("\n")[2:] == ["ops@gw:/srv$", "root@gw:~#"]


def _runs_of(data: list[str], cols: int = 50, rows: int = 12):
    fb = FrameBuilder(cols, rows)
    frames = []
    for t, chunk in enumerate(data):
        frames += fb.feed_event(float(t), "o", chunk)
    frames += fb.finish()
    return shell.find_runs(frames)


def test_repeated_output_above_prompts_is_no_prompt_head():
    """`echo hi` three times puts `hi` above most prompts; the first prompt, on the top
    row of a fresh screen, has nothing above it: a one-line prompt, no head."""
    runs = _runs_of(["u@h:~$ ", "echo hi", "\r\nhi\r\nu@h:~$ ", "echo hi", "\r\nhi\r\nu@h:~$ ",
                     "echo hi", "\r\nhi\r\nu@h:~$ "])
    assert [r.command for r in runs] == ["echo hi"] * 3 + [""]
    assert all(r.head == [] for r in runs)


def test_two_line_prompt_head_on_a_fresh_screen():
    ps1 = "\x1b[32mme@box\x1b[0m ~/w\r\n\x1b[35m❯\x1b[0m "
    runs = _runs_of([ps1, "ls", "\r\na  b\r\n" + ps1, "cd w", "\r\n" + ps1, "pwd", "\r\n/w\r\n" + ps1])
    assert [r.prompt for r in runs] == ["❯ "] * 4
    assert [r.command for r in runs] == ["ls", "cd w", "pwd", ""]
    assert all(r.head == ["me@box ~/w"] for r in runs)


@pytest.mark.parametrize("header,want", [
    ("env -u HTTPS_PROXY codex", "codex"), ("timeout 3600 claude --resume", "claude-code"),
    ("sudo -u dev gemini", "gemini"), ("codex --no-alt-screen", "codex"), ("bash --norc", None),
    ("/usr/bin/env ZDOTDIR=/x/codex/zdot /usr/bin/zsh -d -i", None),
])
def test_a_recordings_command_names_its_agent_through_wrappers(header, want):
    """`capsule-capture record -- env -u X codex`: the header's agent is the word it runs."""
    assert registry.from_command(header) == want
