"""OpenCode chrome, round h7: behaviour on real recordings (recordings/opencode/h7-*).

Code-heavy answers (nested Python, YAML, shell) and bash commands longer
than the panel. Each test replays a real recording through the real CLI and
checks a structural property against truth.json (what was typed and what
the mock served).
"""
from __future__ import annotations

import re

import pytest

from tests.test_chrome_opencode import answers, case, replay, segments, truth_segments

#: a fenced code block of a served answer: its language line, then its body
FENCE = re.compile(r"^```[\w-]*\n(?P<body>.*?)^```", re.M | re.S)


def code_lines(text: str) -> list[str]:
    """The non-empty lines of every fenced code block in `text`, as served."""
    return [ln.rstrip() for m in FENCE.finditer(text) for ln in m.group("body").splitlines() if ln.strip()]


@pytest.mark.parametrize("name", ["h7-code-nest-113x33", "h6-wide-hives-200x60"])
def test_code_block_lines_keep_their_indentation(name, tmp_path_factory):
    """OpenCode draws an answer as its markdown source from the answer column
    on: a code block's nested lines keep their leading spaces relative to
    that column, and come back as served (Python methods and loops, YAML
    mappings in lists, a shell `if` in a `for`), on screens wide enough to
    hold each line on one row."""
    path = case(name)
    got = segments(replay(path, False, tmp_path_factory)["turns"])
    checked = 0
    for g, w in zip(got, truth_segments(path)):
        rows = set(answers(g).splitlines())
        for line in code_lines(answers(w)):
            assert line in rows, (g["user"], line)
            checked += line.startswith("  ")
    assert checked >= 10  # nested lines were there to check


def test_prose_wrapped_at_a_space_is_not_indented(tmp_path_factory):
    """A word wrap may open a row with the space it broke at: one space past
    the answer column is no indentation, the row comes back without it (and,
    since h9, joined to the row it continues, with one space)."""
    path = case("h6-long-harbour-104x31")
    got = segments(replay(path, False, tmp_path_factory)["turns"])
    text = "\n".join(answers(g) for g in got)
    assert re.search(r"0\.4 m\. If the bar dries", text)
    assert not re.search(r"^ \S", text, re.M)


@pytest.mark.parametrize("name", ["h7-code-nest-113x33", "h7-long-narrow-60x20", "h6-long-harbour-104x31"])
def test_wrapped_bash_command_is_the_call(name, tmp_path_factory):
    """A bash command longer than its panel wraps onto the bar rows before
    the empty row that opens the output: the rows are the call's (joined at
    the space the wrap dropped, or none after a dot, slash or dash), and the
    result holds only the output."""
    path = case(name)
    cols = int(re.search(r"-(\d+)x\d+$", name).group(1))
    got = segments(replay(path, False, tmp_path_factory)["turns"])
    wrapped = 0
    for g, w in zip(got, truth_segments(path)):
        want = [t["input"]["command"] for t in w["turns"] if t["role"] == "tool_call"]
        calls = [t["text"] for t in g["turns"] if t["role"] == "tool_call"]
        assert calls == want, g["user"]
        results = "\n".join(t["text"] for t in g["turns"] if t["role"] == "tool_result")
        for cmd in want:
            if len(cmd) > cols - 8:  # wider than the panel's text
                wrapped += 1
                tail = cmd.split()[-1]
                assert not results.startswith(tail), (g["user"], results[:80])
    assert wrapped


def test_dialog_with_a_highlighted_row_comes_back_whole(tmp_path_factory):
    """The command palette and the model picker paint their selected row in
    the accent colour, all but the box's edge cells: that row is inside the
    box, so the dialog comes back from its title to its footer (the picker's
    list, its selected `● Mock Model`, its key hints), not the rows under
    the highlight only."""
    turns = replay(case("h7-popups-code-137x41"), False, tmp_path_factory)["turns"]
    dialogs = [t["text"].splitlines() for t in turns if t["role"] == "system"]
    palettes = [d for d in dialogs if d[0] == "Commands"]
    pickers = [d for d in dialogs if d[0] == "Select model"]
    assert len(palettes) == 2 and len(pickers) == 1, [d[:1] for d in dialogs]
    for d in palettes:
        assert any(r.startswith("Switch session") for r in d)  # the highlighted row
    assert "● Mock Model" in pickers[0]
    assert pickers[0][-1].startswith("Connect provider")
