"""Which launch lines resume an agent's earlier session (a profile's
`resume_words`, read by the shell layer): the resumed agent reprints the
session's turns, which must come back once (rounds h12, h13).

One table for every agent that declares them: the flag after the agent's
own executable resumes; the same word elsewhere on the line (an argument
of another command, a quoted prompt) does not."""
from __future__ import annotations

import pytest

from agents_chrome import registry
from agents_chrome.shell import _resumes_session, typed_agent

LINES = [
    ("claude-code", "claude --continue", True), ("claude-code", "claude -c", True),
    ("claude-code", "claude --resume 3f2a9c1e", True),
    ("claude-code", "claude --resume=3f2a9c1e", True), ("opencode", "opencode --session=ses_df43", True),
    ("gemini", "gemini --model=gemini-2.5-pro", False), ("claude-code", "env FOO=1 claude -r", True),
    ("claude-code", "claude", False), ("claude-code", "claude --model opus", False),
    ("claude-code", "claude 'what does -c do?'", False), ("claude-code", "cat --continue", False),
    ("codex", "codex resume --last --no-alt-screen", True), ("codex", "env TERM=xterm codex resume 01a2", True),
    ("codex", "codex --no-alt-screen -a on-request", False), ("codex", "grep resume codex.log", False),
    ("gemini", "gemini --yolo --resume latest", True), ("gemini", "gemini -r 3", True),
    ("gemini", "gemini --resume", True), ("gemini", "gemini --yolo", False),
    ("gemini", "gemini --list-sessions", False), ("gemini", "echo gemini --resume latest", False),
    ("kimi", "kimi --yolo --continue", True), ("kimi", "kimi -C", True),
    ("kimi", "kimi -r f33a277f-214d-45de-b4da-dbf91b04c4ac", True), ("kimi", "kimi --session f33a277f", True),
    ("kimi", "kimi --yolo", False), ("kimi", "echo kimi --continue", False),
    ("opencode", "opencode --continue", True), ("opencode", "opencode -c", True),
    ("opencode", "opencode -s ses_df4340430ffeOIEw7wUhMCuN9S", True), ("opencode", "opencode --session ses_df43", True),
    ("opencode", "opencode", False), ("opencode", "opencode run 'tidy the parser'", False),
    ("opencode", "echo opencode --continue", False),
    ("vibe", "vibe --trust --auto-approve --continue", True), ("vibe", "vibe -c", True),
    ("vibe", "vibe --resume 368cd7f6", True), ("vibe", "vibe --trust --auto-approve", False),
    ("vibe", "echo vibe --continue", False),
]


@pytest.mark.parametrize("agent, line, resumes", LINES)
def test_launch_line_resumes_a_session(agent: str, line: str, resumes: bool) -> None:
    assert _resumes_session(registry.load(agent), line) is (resumes and typed_agent(line) == agent)
