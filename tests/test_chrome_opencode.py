"""OpenCode chrome: behaviour on real recordings (recordings/opencode/r3-*).

Each test replays a real recording through the real CLI (with and without
its input events) and checks a structural property against truth.json:
what was typed and what the mock served, never the screen.
"""
from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

import pytest

from tests.conftest import CORPUS, RECORDINGS, cli_replay

AGENT = "opencode"
WORD = re.compile(r"\w+", re.UNICODE)
def replay(case: Path, screen_only: bool, tmp_path_factory) -> dict:
    return cli_replay(case, AGENT, screen_only, tmp_path_factory)


def case(name: str) -> Path:
    path = RECORDINGS / AGENT / name
    if not (path / "session.cast").exists():
        pytest.skip(f"recording {name} not present")
    return path


def segments(turns: list[dict]) -> list[dict]:
    """Turns grouped under the user turn that opens them."""
    out: list[dict] = []
    for t in turns:
        if t["role"] == "user":
            out.append({"user": t["text"], "turns": []})
        elif out:
            out[-1]["turns"].append(t)
    return out


def truth_segments(path: Path) -> list[dict]:
    return segments(json.loads((path / "truth.json").read_text())["turns"])


def recall(truth_text: str, got_text: str) -> float:
    a, b = WORD.findall(truth_text), WORD.findall(got_text)
    if not a:
        return 1.0
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return sum(m.size for m in sm.get_matching_blocks()) / len(a)


def answers(seg: dict) -> str:
    return "\n".join(t["text"] for t in seg["turns"] if t["role"] == "assistant")


@pytest.mark.parametrize("screen_only", [False, True])
def test_tool_panels_open_with_their_title(screen_only, tmp_path_factory):
    """write/edit/todowrite draw a panel whose first row is an icon and a verb:
    that row is the tool call, the rest its result, and no panel row joins
    the prompt above it."""
    for name, want in (("r3-long-tools-90x26", {"write": "plan.md", "edit": "notes.txt"}),
                       ("r3-chrome-md-200x60", {"todowrite": ""})):
        path = case(name)
        got = replay(path, screen_only, tmp_path_factory)
        prompts = [t["text"] for t in got["turns"] if t["role"] == "user"]
        assert prompts == [s["user"] for s in truth_segments(path)]
        calls = {t["name"]: t["text"] for t in got["turns"] if t["role"] == "tool_call"}
        for tool, arg in want.items():
            assert tool in calls, (name, calls)
            assert calls[tool] == arg
        for seg in segments(got["turns"]):
            kinds = [t["role"] for t in seg["turns"]]
            for i, k in enumerate(kinds):
                if k == "tool_result":
                    assert i > 0 and kinds[i - 1] in ("tool_call", "tool_result")


def test_output_that_looks_like_a_title_stays_output(tmp_path_factory):
    """`cat README.md` prints `# tinyhttp`: inside a bash panel it is output."""
    path = CORPUS / AGENT / "s4-long-scroll-parallel-160x48"
    if not (path / "session.cast").exists():
        pytest.skip("shared corpus not present")
    got = replay(path, False, tmp_path_factory)
    calls = [t for t in got["turns"] if t["role"] == "tool_call"]
    assert [t["name"] for t in calls] == ["bash", "bash"]
    results = [t["text"] for t in got["turns"] if t["role"] == "tool_result"]
    assert results[0].startswith("# tinyhttp")


@pytest.mark.parametrize("screen_only", [False, True])
def test_sidebar_of_an_old_width_crops_no_settled_frame(screen_only, tmp_path_factory):
    """Resized 130x20 -> 96x30 while an answer streams: the first frames at 96
    still show the 130-wide sidebar clipped; cropping every 96 frame there cut
    each row of the answer. Every answer is whole and no sidebar text leaks."""
    path = case("r3-resize-mid-110x32")
    got = segments(replay(path, screen_only, tmp_path_factory)["turns"])
    want = truth_segments(path)
    assert [s["user"] for s in got] == [s["user"] for s in want]
    for g, w in zip(got, want):
        truth_text = re.sub(r"^```\w+$", "", answers(w), flags=re.M)  # a fence's language is not drawn
        assert recall(truth_text, answers(g)) == 1.0, g["user"]
        assert not re.search(r"\b(Context|LSPs?)\b", answers(g) + g["user"])


def test_slash_menu_is_not_a_dialog(tmp_path_factory):
    """Typing `/exit` opens the command menu above the input box: not a dialog
    (no system turn); `/help` and ctrl+p open real ones, also when the help
    dialog is drawn over a bash panel's bar."""
    for name in ("r3-long-tools-90x26", "h2-long-a-100x30", "x2-short-answers-140x36"):
        assert not [t for t in replay(case(name), False, tmp_path_factory)["turns"] if t["role"] == "system"]
    systems = [t["text"] for t in replay(case("r3-scroll-popups-120x36"), False, tmp_path_factory)["turns"]
               if t["role"] == "system"]
    assert len(systems) == 2
    assert systems[0].startswith("Help")
    assert "ctrl+x" in systems[1]  # the command palette lists key bindings
    for text in systems:
        assert not re.search(r"^/\w+", text, re.M)


@pytest.mark.parametrize("screen_only", [False, True])
def test_rewrapped_old_layout_after_a_shrink_is_skipped(screen_only, tmp_path_factory):
    """Grown to 200x60 and shrunk back to 60x20 before OpenCode redrew: the
    terminal re-wraps the wide home screen (the input box's edge runs on to
    the next rows). Nothing of it becomes a turn; the typed prompt opens the
    conversation."""
    turns = replay(case("r3-small-grow-60x20"), screen_only, tmp_path_factory)["turns"]
    assert turns[0]["role"] == "user" and turns[0]["text"] == "the valve module"
    assert not any(re.search(r"0x20|\bproj\b", t["text"]) for t in turns if t["role"] == "assistant")


@pytest.mark.parametrize("name", ["r3-chrome-md-200x60", "r3-small-grow-60x20"])
def test_folded_thinking_row_is_chrome(name, tmp_path_factory):
    path = case(name)
    thinking = [t for t in json.loads((path / "truth.json").read_text())["turns"] if t["role"] == "thinking"]
    assert thinking  # the mock served reasoning, which OpenCode folds to one row
    turns = replay(path, False, tmp_path_factory)["turns"]
    assert not any(re.search(r"Thought:\s+[\d.]+m?s", t["text"]) for t in turns)


@pytest.mark.parametrize("screen_only", [False, True])
def test_table_widened_while_streaming_is_one_table(screen_only, tmp_path_factory):
    """OpenCode widens a box-grid table's columns as rows stream in; on a
    20-row screen both drawings scroll by. Each data row comes out once."""
    path = case("r3-small-grow-60x20")
    for seg in segments(replay(path, screen_only, tmp_path_factory)["turns"]):
        rows = [r for r in answers(seg).splitlines() if r.startswith("│ ")]
        assert len(rows) == len(set(rows)), seg["user"]
    table = [s for s in segments(replay(path, screen_only, tmp_path_factory)["turns"]) if s["user"] == "valve table"]
    assert len([r for r in answers(table[0]).splitlines() if r.startswith("│ ")]) == 5  # header + 4 beds


@pytest.mark.parametrize("screen_only", [False, True])
def test_frame_without_input_box_is_not_conversation(screen_only, tmp_path_factory):
    """The terminal went 99x27 -> 99x45 -> 99x18 right after the first prompt:
    a frame caught before the redraw shows the home screen cut, its centred
    input box (holding the typed prompt) without its bottom edge. It is not
    read as conversation: the prompt comes out once."""
    path = case("r3-height-emoji-99x27")
    prompts = [t["text"] for t in replay(path, screen_only, tmp_path_factory)["turns"] if t["role"] == "user"]
    assert prompts == [s["user"] for s in truth_segments(path)]


@pytest.mark.parametrize("screen_only", [False, True])
def test_bash_panel_seen_only_while_running_is_a_call(screen_only, tmp_path_factory):
    """Two parallel bash calls on an 11-row viewport: `seq 1 80` scrolled out
    while its title still showed the spinner, so its settled `$ seq 1 80` is
    on no frame. The running title is the call; `ls -la src`, seen settled,
    comes out once."""
    path = case("r3-height-emoji-99x27")
    segs = segments(replay(path, screen_only, tmp_path_factory)["turns"])
    seg = next(s for s in segs if s["user"].startswith("count to 80"))
    calls = [(t["name"], t["text"]) for t in seg["turns"] if t["role"] == "tool_call"]
    assert calls == [("bash", "seq 1 80"), ("bash", "ls -la src")]


@pytest.mark.parametrize("name", ["r3-cjk-odd-73x31", "r3-height-emoji-99x27"])
def test_wide_characters_at_odd_widths_come_back_whole(name, tmp_path_factory):
    """CJK and emoji prompts and answers at odd widths, resized mid-answer:
    every prompt exact, every answer's words recovered in order."""
    path = case(name)
    got = segments(replay(path, True, tmp_path_factory)["turns"])
    want = truth_segments(path)
    assert [s["user"] for s in got] == [s["user"] for s in want]
    for g, w in zip(got, want):
        truth_text = re.sub(r"^```\w+$", "", answers(w), flags=re.M)
        assert recall(truth_text, answers(g)) == 1.0, g["user"]


@pytest.mark.parametrize("name", ["r3-scroll-popups-120x36", "r3-resize-mid-110x32", "r3-small-grow-60x20"])
@pytest.mark.parametrize("seed,max_pause,split,merge", [(1, 0.0, 0.3, 0.5), (2, 0.01, 0.8, 0.95)])
def test_same_turns_with_pauses_squeezed(name, seed, max_pause, split, merge, tmp_path):
    """Pauses capped (to nothing), output cut and joined differently: the same
    turns, dialogs (/help, ctrl+p) in the same place among them (they are
    placed after the prompts seen before them, never by time)."""
    from agents_chrome.replay import replay as replay_turns
    from tests.test_timing import retime

    path = case(name)
    fast = tmp_path / "session.cast"
    retime(path / "session.cast", fast, seed, max_pause, split, merge)

    def turns(cast: Path) -> list[tuple[str, str, str | None]]:
        return [(t.role, t.text, t.name) for t in replay_turns(cast, AGENT)[1]]

    assert turns(fast) == turns(path / "session.cast")
