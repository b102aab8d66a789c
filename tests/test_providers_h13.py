"""Native files of round h12/h13's recordings: what the agents store for a
paste and for a shell-mode command, read back as the user typed it."""
from __future__ import annotations

import json
from pathlib import Path

from archive.providers.claude_code import _as_typed
from archive.providers.gemini import SHELL_MODE
from tests.conftest import RECORDINGS, truth_turns
from tests.test_providers import parse_home


def _turns(case: Path) -> list:
    return [t for c in sorted(parse_home(case / "native"), key=lambda c: c.started_at or "") for t in c.turns]


def _typed(case: Path) -> list[str]:
    return [t["text"] for t in truth_turns(case) if t["role"] == "user" and not t.get("kind")]


def test_claude_code_paste_unwrapped_from_its_tag() -> None:
    case = RECORDINGS / "claude-code" / "h13-cc-paste-inline-92x26"
    raw = "".join(p.read_text() for p in (case / "native").rglob("*.jsonl"))
    assert "<pasted_content " in raw  # the situation is in the file
    users = [t.text for t in _turns(case) if t.role == "user"]
    assert users == _typed(case)
    assert not any("pasted_content" in u for u in users)


def test_claude_code_typed_text_around_a_paste_stays() -> None:
    text = 'see:\n\n<pasted_content id="a1">\nx = 1\ny = 2\n</pasted_content id="a1">\n'
    # typed `see:`, then pasted: the box read `see:[Pasted text #1 +2 lines]`, the text sent is both
    assert _as_typed(text) == "see:x = 1\ny = 2"
    # a tag with another id closing is not this paste: left as it is
    odd = '<pasted_content id="a1">\nx\n</pasted_content id="b2">'
    assert _as_typed(odd) == odd


def test_gemini_shell_mode_command_is_the_users_with_its_call() -> None:
    case = RECORDINGS / "gemini" / "h12-gem-luthier-bang-144x40"
    turns = _turns(case)
    users = [t.text for t in turns if t.role == "user"]
    assert users == _typed(case)
    n = next(i for i, t in enumerate(turns) if t.role == "user" and t.text == "ls -1 src; wc -l README.md")
    assert [t.role for t in turns[n:n + 3]] == ["user", "tool_call", "tool_result"]
    assert turns[n + 1].name == "shell" and turns[n + 1].input == {"command": "ls -1 src; wc -l README.md"}
    assert turns[n + 2].text.splitlines() == ["main.py", "util.py", "3 README.md"]


def test_gemini_shell_mode_without_a_result_block() -> None:
    m = SHELL_MODE.match("I ran the following shell command:\n```sh\ntrue\n```\n\nThis produced no output.")
    assert m and m.group("cmd") == "true" and m.group("out") is None and m.group("note") == "This produced no output."
    assert SHELL_MODE.match("I ran the following shell command but then typed more") is None


def test_opencode_paste_sent_with_a_trailing_space() -> None:
    case = RECORDINGS / "opencode" / "h12-sh-oc-ferry-paste-112x30"
    history = (case / "native" / ".local/state/opencode/prompt-history.jsonl").read_text()
    assert "[Pasted ~" in history  # typed as a placeholder, then a space
    users = [t.text for t in _turns(case) if t.role == "user"]
    assert users == _typed(case)
    assert json.dumps(users).count('-- "') == 0
