"""OpenCode chrome, round h9: behaviour on real recordings (recordings/opencode/h9-*).

- h9-tramdepot-code-66x22: 11 turns at 66x22, code-heavy: code lines longer
  than the column, blank lines inside code blocks, a write and an edit (its
  diff), a failing command that wraps; the window shrinks to 58x20 during one
  answer, grows to 80x24 during another, and goes 64x21 then 76x23 around a
  third.
- h9-glacier-wide-182x51: a reasoning model, a Chinese prompt and table and a
  Korean answer with emoji written with a presentation selector (❄️ ⛏️ 🏔️),
  the ctrl+p palette and /models over the conversation, an answer taller than
  the screen scrolled back with PageUp while it streams, a shrink below the
  width that shows the sidebar and a grow back into it, both mid-answer.

Each test replays a real recording through the real CLI (or the real replay
functions) and checks a structural property against truth.json or the
recording's frames.
"""
from __future__ import annotations

import json
import re

import pytest

from agents_chrome.opencode import BOX_BOTTOM, BOX_EDGE, PROFILE, VS16, drop_vs16_shadow, sidebar_start
from screen.cast import CastReader
from screen.frames import iter_frames
from tests.test_chrome_opencode import answers, case, recall, replay, segments, truth_segments
from wcwidth import wcswidth

CODE = "h9-tramdepot-code-66x22"
WIDE = "h9-glacier-wide-182x51"
FENCE = re.compile(r"^```[\w-]*$")


def _truth_turns(name: str) -> list[dict]:
    return json.loads((case(name) / "truth.json").read_text())["turns"]


def _code_blocks(text: str) -> list[list[str]]:
    """The served answer's fenced code blocks, each as its lines."""
    blocks, cur = [], None
    for line in text.split("\n"):
        if FENCE.match(line):
            if cur is None:
                cur = []
            else:
                blocks.append(cur)
                cur = None
        elif cur is not None:
            cur.append(line.rstrip())
    return blocks


def _prose_lines(text: str) -> list[str]:
    """The served answer's lines outside code blocks and tables, as drawn
    (inline code marks concealed)."""
    out, code = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            code = not code
            continue
        if code or not line.strip() or line.lstrip().startswith("|"):
            continue
        out.append(line.replace("`", "").strip())
    return out


def _answer_of(turns: list[dict], prompt: str) -> str:
    """The replayed answer text under `prompt`."""
    for seg in segments(turns):
        if seg["user"] == prompt:
            return answers(seg)
    raise AssertionError(f"no prompt {prompt!r}")


@pytest.mark.parametrize("screen_only", [False, True])
def test_code_lines_come_back_whole_with_their_blank_lines(screen_only, tmp_path_factory):
    """A code line wider than the answer column is drawn over two rows (the
    rest at the answer column, after a bracket, dot or dash, or at a space);
    it comes back as the one line it was served as, and the blank lines of
    the block stay where they were: each code block is a run of the answer's
    lines, blank lines included. Three answers, drawn at 58, 66, 64 and 76
    columns."""
    got = replay(case(CODE), screen_only, tmp_path_factory)["turns"]
    truth = _truth_turns(CODE)
    prompt, checked = None, 0
    for t in truth:
        if t["role"] == "user":
            prompt = t["text"]
        elif t["role"] == "assistant" and "```" in t["text"]:
            lines = [ln.rstrip() for ln in _answer_of(got, prompt).split("\n")]
            for block in _code_blocks(t["text"]):
                n = len(block)
                assert any(lines[i:i + n] == block for i in range(len(lines) - n + 1)), (prompt, block)
                assert "" in block  # the case serves blank lines inside every block
                checked += 1
    assert checked == 3


@pytest.mark.parametrize("screen_only", [False, True])
def test_wrapped_paragraphs_and_list_items_are_one_line(screen_only, tmp_path_factory):
    """Prose rows word-wrapped at the terminal's width come back as the
    served paragraph or list item, one line each, whatever width each part
    was drawn at (a row wrapped at the old width stitched to the rest drawn
    at the new one, a word that ended on the last column pushing its space
    to the next row)."""
    got = replay(case(CODE), screen_only, tmp_path_factory)["turns"]
    prompt = None
    wrapped = 0
    for t in _truth_turns(CODE):
        if t["role"] == "user":
            prompt = t["text"]
        elif t["role"] == "assistant":
            lines = {ln.strip() for ln in _answer_of(got, prompt).split("\n")}
            for want in _prose_lines(t["text"]):
                assert want in lines, (prompt, want)
                wrapped += wcswidth(want) > 58
    assert wrapped >= 8  # the case holds lines that can only have been drawn wrapped


@pytest.mark.parametrize("screen_only", [False, True])
def test_wrapped_command_of_a_panel_seen_running(screen_only, tmp_path_factory):
    """The failing command wraps in its panel; its title was caught with the
    spinner where `$` settles. The call is the whole command, the wrapped
    tail glued where the wrap broke it (after a bracket), and the result
    opens with the traceback, not with the command's tail."""
    got = replay(case(CODE), screen_only, tmp_path_factory)["turns"]
    want = [t["input"]["command"] for t in _truth_turns(CODE) if t["role"] == "tool_call" and t["name"] == "bash"]
    calls = [t for t in got if t["role"] == "tool_call" and t["name"] == "bash"]
    assert [c["text"] for c in calls] == want
    i = got.index(calls[0])
    assert got[i + 1]["role"] == "tool_result"
    assert got[i + 1]["text"].startswith("Traceback (most recent call last):")


@pytest.mark.parametrize("screen_only", [False, True])
def test_emoji_with_presentation_selector_leaves_no_stray_cell(screen_only, tmp_path_factory):
    """OpenCode counts ❄️ (a narrow character and VS16) as two cells and
    draws what follows two cells on; the terminal gives it one, so the cell
    between keeps what an older frame drew there. Prompts and answer lines
    holding such emoji come back exactly as typed and served."""
    got = replay(case(WIDE), screen_only, tmp_path_factory)["turns"]
    truth = _truth_turns(WIDE)
    assert [t["text"] for t in got if t["role"] == "user"] == [t["text"] for t in truth if t["role"] == "user"]
    text = "\n".join(t["text"] for t in got if t["role"] == "assistant")
    lines = {ln.strip() for ln in text.split("\n")}
    with_vs16 = [ln for t in truth if t["role"] == "assistant" for ln in _prose_lines(t["text"])
                 if VS16 in ln and "|" not in ln]
    assert len(with_vs16) >= 3
    for want in with_vs16:
        assert want.replace("**", "") in {ln.replace("**", "") for ln in lines}, want


def test_the_cell_after_a_vs16_emoji_is_what_the_frames_hold():
    """On the recording's frames, every narrow character with VS16 in a
    conversation row is followed by a cell OpenCode did not draw: a space or
    a leftover. Reading the rows drops exactly that cell."""
    seen = 0
    with CastReader(case(WIDE) / "session.cast") as reader:
        for f in iter_frames(reader):
            if not f.alternate or PROFILE.viewport(f) is None:
                continue
            for ln in f.lines:
                i = ln.find(VS16)
                if i > 0 and i + 2 < len(ln) and wcswidth(ln[i - 1]) == 1 and wcswidth(ln[i + 1]) == 1:
                    assert drop_vs16_shadow(ln) == ln[:i + 1] + ln[i + 2:]
                    seen += 1
    assert seen > 20


def test_old_layout_wider_than_the_sidebar_leaves_is_not_conversation():
    """Grown mid-answer from 112 columns (no sidebar) to 140 (sidebar at its
    right), OpenCode's first frames at 140 still draw the 112 layout: its
    input box runs past where the sidebar now starts, and cropping those rows
    at the sidebar would cut every row (a table's right border) and leave a
    second, cut copy of the answer. Those frames have no viewport; the
    settled ones do."""
    stale = settled = 0
    PROFILE.transcript(_frames := list(_alt_frames(WIDE)))
    for f in _frames:
        if f.columns != 140:
            continue
        box = next((ln for ln in reversed(f.lines) if BOX_BOTTOM.match(ln)), None)
        edge = PROFILE._sidebar.get(140)
        if box is None or edge is None:
            continue
        if BOX_EDGE.match(box).end() > edge:
            stale += 1
            assert PROFILE.viewport(f) is None, f.time
        elif sidebar_start(f) is not None:
            settled += 1
            assert PROFILE.viewport(f) is not None, f.time
    assert stale and settled > 10


def _alt_frames(name: str):
    with CastReader(case(name) / "session.cast") as reader:
        yield from (f for f in iter_frames(reader) if f.alternate)


@pytest.mark.parametrize("name", [CODE, WIDE])
@pytest.mark.parametrize("screen_only", [False, True])
def test_every_prompt_once_every_answer_whole(name, screen_only, tmp_path_factory):
    """Each typed prompt comes back once and in order, each answer's served
    words in order under it (code fences are drawn as nothing)."""
    path = case(name)
    got = segments(replay(path, screen_only, tmp_path_factory)["turns"])
    want = truth_segments(path)
    assert [s["user"] for s in got] == [s["user"] for s in want]
    for g, w in zip(got, want):
        assert recall(re.sub(r"^```[\w-]*$", "", answers(w), flags=re.M), answers(g)) >= 0.99, g["user"]


@pytest.mark.parametrize("name", [CODE, WIDE])
def test_same_turns_with_pauses_squeezed(name, tmp_path):
    """Every pause taken out (all events at one instant) and the output cut
    and joined elsewhere: the same turns. The width each answer row was
    wrapped at, which says whether the next row goes on with its line, is
    the drawing's, not the clock's (frames before and after a resize share
    one time here)."""
    from tests.test_timing import retime, turns_of

    path = case(name)
    fast = tmp_path / "session.cast"
    retime(path / "session.cast", fast, 5, 0.0, 0.3, 0.6)
    assert turns_of(fast, "opencode") == turns_of(path / "session.cast", "opencode")
