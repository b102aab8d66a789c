"""OpenCode chrome, round h5: behaviour on real recordings (recordings/opencode/h5-*).

Each test replays a real recording through the real CLI (with and without
its input events) and checks a structural property against truth.json
(what was typed and what the mock served), never against the screen.
"""
from __future__ import annotations

import json
import re

import pytest

from tests.test_chrome_opencode import answers, case, recall, replay, segments, truth_segments

#: markdown emphasis and code marks the answer's source has and the screen does not
MARKS = re.compile(r"[*`]")
#: a skin-tone modifier and what a ZWJ joins to it
TONED = re.compile("[\U0001F3FB-\U0001F3FF](?:\u200d\\S)*")


def users(segs: list[dict]) -> list[str]:
    """Prompts, whitespace-normalised (a long one is drawn over several rows)."""
    return [" ".join(s["user"].split()) for s in segs]


def truth_table_rows(text: str) -> set[tuple[str, ...]]:
    """The cells of every markdown table row in a served answer, normalised."""
    rows = set()
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("|") and line.endswith("|") and not re.fullmatch(r"[|:\-\s]+", line):
            rows.add(tuple(" ".join(MARKS.sub("", c).split()) for c in line[1:-1].split("|")))
    return rows


def drawn_table_rows(text: str) -> list[tuple[str, ...]]:
    return [tuple(" ".join(c.split()) for c in line.strip()[1:-1].split("│"))
            for line in text.splitlines() if line.strip().startswith("│") and line.strip().endswith("│")]


@pytest.mark.parametrize("screen_only", [False, True])
@pytest.mark.parametrize("name", ["h5-resize-narrow-128x38", "h5-narrow-tables-62x22"])
def test_table_rows_wrapped_in_narrow_cells_come_out_whole(name, screen_only, tmp_path_factory):
    """At 48-62 columns OpenCode wraps a table's cells over several screen rows
    (cut by character, the first column too), and a row cut at the top of the
    screen shows only its ends. Every table row that comes out is a row of
    the served table, each cell whole or (the row still streaming when the
    screen jumped past it) its start, never a fragment like `│ ion │ nt │`;
    each at most once, and most of each table's rows come out."""
    path = case(name)
    got, want = segments(replay(path, screen_only, tmp_path_factory)["turns"]), truth_segments(path)
    assert users(got) == users(want)
    tables = 0
    for g, w in zip(got, want):
        truth_rows = truth_table_rows(answers(w))
        if not truth_rows:
            continue
        tables += 1
        rows = drawn_table_rows(answers(g))
        def known(row: tuple[str, ...]) -> bool:
            return any(len(t) == len(row) and all(a.startswith(b) for a, b in zip(t, row)) for t in truth_rows)

        assert rows and all(known(r) for r in rows), (g["user"], [r for r in rows if not known(r)])
        assert len(rows) == len(set(rows)), g["user"]
        assert len(rows) >= len(truth_rows) - 2, g["user"]  # a row streamed past between two frames is lost
    assert tables >= 1


@pytest.mark.parametrize("screen_only", [False, True])
def test_table_source_shown_before_the_grid_is_not_answer_text(screen_only, tmp_path_factory):
    """While a table's first rows stream OpenCode shows its markdown source
    (`| Stage of the dough | ...`); the grid then jumps in past a whole
    screen. The source rows left above the grid are not answer text."""
    path = case("h5-narrow-tables-62x22")
    for seg in segments(replay(path, screen_only, tmp_path_factory)["turns"]):
        assert not [ln for ln in answers(seg).splitlines() if ln.lstrip().startswith("|")], seg["user"]


@pytest.mark.parametrize("screen_only", [False, True])
def test_write_row_taken_over_by_its_panel_is_one_call(screen_only, tmp_path_factory):
    """`← Write ovens.md` shows until the write's panel (`# Wrote ovens.md` and
    the file) replaces it in one jump past the whole screen: one call. A
    session of 14 turns with failed tools (a missing file for bash and for
    read) and three parallel calls: the calls come out in order, one each."""
    path = case("h5-long-bakery-88x27")
    got = [(t["name"], t["text"]) for t in replay(path, screen_only, tmp_path_factory)["turns"]
           if t["role"] == "tool_call"]
    truth = [t for t in json.loads((path / "truth.json").read_text())["turns"] if t["role"] == "tool_call"]
    assert [n for n, _ in got] == [t["name"] for t in truth]
    for (_, text), t in zip(got, truth):
        main = t["input"].get("command") or t["input"].get("filePath") or t["input"].get("pattern")
        assert main.strip('"') in text


@pytest.mark.parametrize("screen_only", [False, True])
def test_zwj_emoji_in_a_prompt_is_one_cluster(screen_only, tmp_path_factory):
    """OpenCode counts 👩‍🍳 as one cluster two cells wide; tmux (and the
    screen, tests/test_screen_tmux_edges.py) join a ZWJ sequence into one
    cluster the same way, so the text after it stays. Every prompt comes
    back exact."""
    path = case("h5-cjk-marks-71x25")
    prompts = [t["text"] for t in replay(path, screen_only, tmp_path_factory)["turns"] if t["role"] == "user"]
    assert prompts == [s["user"] for s in truth_segments(path)]
    assert any("\u200d" in p for p in prompts)


@pytest.mark.parametrize("name", ["h5-resize-narrow-128x38", "h5-long-bakery-88x27"])
def test_h5_answers_recovered(name, tmp_path_factory):
    """Resized mid-answer down to 48 columns and back, a 14-turn session:
    every answer's words recovered except what was never drawn (a fence's
    language; a table row streamed past between two frames)."""
    path = case(name)
    got, want = segments(replay(path, True, tmp_path_factory)["turns"]), truth_segments(path)
    assert users(got) == users(want)
    total = sum(recall(re.sub(r"^```\w+$", "", answers(w), flags=re.M), answers(g)) for g, w in zip(got, want))
    assert total / len(want) >= 0.98


@pytest.mark.parametrize("screen_only", [False, True])
def test_bold_words_keep_their_marks(screen_only, tmp_path_factory):
    """OpenCode draws `**最后发酵**` bold without the marks: in CJK text with no
    space around it the phrase would join its neighbours into one word. An
    answer row's bold runs (not a heading, not a table's header) get their
    `**` back: every bold phrase of the served answers comes out marked, and
    the CJK answers' words all come back."""
    path = case("h5-cjk-marks-71x25")
    got, want = segments(replay(path, screen_only, tmp_path_factory)["turns"]), truth_segments(path)
    assert users(got) == users(want)
    phrases = 0
    for g, w in zip(got, want):
        body = [ln for ln in answers(w).splitlines() if not ln.lstrip().startswith(("#", "|"))]
        for phrase in re.findall(r"\*\*([^*]+)\*\*", "\n".join(body)):
            phrases += 1
            assert f"**{phrase}**" in answers(g), (g["user"], phrase)
        # every word but what follows a skin-tone modifier: tmux (and the
        # screen) give the modifier cells of its own, so OpenCode's next
        # cursor move writes over it and the emoji it joins (🧑🏽‍🍳 -> 🧑)
        assert recall(TONED.sub("", answers(w)), TONED.sub("", answers(g))) == 1.0, g["user"]
    assert phrases >= 4


def test_bold_in_a_quote_is_marked_but_not_in_a_table_row():
    """A quote is one italic run after its grey bar: its bold phrase is marked
    (the bar is no table). A table row's bold header cells are not: OpenCode
    bolds a header of itself, the source has no marks there."""
    from agents_chrome.opencode import PROFILE
    from screen.frames import FrameBuilder

    fb = FrameBuilder(60, 6)
    frames = list(fb.feed_event(0.0, "o", (
        "\x1b[?1049h\x1b[1;6H\x1b[38;5;244m│\x1b[0m \x1b[3m如果停电，先把\x1b[1m发酵箱\x1b[22m的门关好。\x1b[0m"
        "\x1b[2;6H│\x1b[1m产品\x1b[0m│\x1b[1m温度\x1b[0m│"
        "\x1b[4;3H\x1b[38;5;15m╹▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀\x1b[0m")))
    frames += list(fb.finish())
    rows = PROFILE.rows(frames[-1])
    assert rows[0].strip() == "│ 如果停电，先把**发酵箱**的门关好。"
    assert rows[1].strip() == "│ 产品 │ 温度 │"
