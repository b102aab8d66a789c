"""Kimi CLI: behaviour found on recordings nobody tuned rules for (r3 round).

Each test reads every Kimi recording (recordings/kimi/*) and asserts what
its truth.json says must come out, or checks one rule on rows built the
way kimi-cli draws them:
- thinking blocks (grey bullet, italic body) are `thinking` turns, never
  answer text;
- a typed prompt comes out exactly as typed (spaces and line breaks), the
  echo's word wrap repaired from the input box it was typed in;
- a table row whose cells rich folded onto the rows under it is one row;
- a wide character that did not fit in the last column, and a quote's bar
  on the rows a quote wraps onto, do not split or pollute words.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from tests.conftest import cli_replay, recording_cases
from tests.test_chrome_kimi_h22 import full_width_pastes
from tests.test_timing import retime, turns_of

AGENT = "kimi"
CASES = recording_cases(AGENT)
WORD = re.compile(r"\w+", re.UNICODE)
# prompts the agent never received whole (see test_chrome_kimi.SWALLOWED)
SWALLOWED = {("kimi-04-slash-unicode-wide", 0)}

def replay(case: Path, screen_only: bool, tmp_path_factory) -> dict:
    return cli_replay(case, AGENT, screen_only, tmp_path_factory)


def truth(case: Path) -> dict:
    return json.loads((case / "truth.json").read_text())


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_prompts_exactly_as_typed(case: Path, screen_only: bool, tmp_path_factory) -> None:
    """Not whitespace-normalised: a space the echo's wrap dropped, or a line
    break it added, is a wrong prompt."""
    want = [t["text"] for t in truth(case)["turns"] if t["role"] == "user" and not t.get("kind")]
    got = [t["text"] for t in replay(case, screen_only, tmp_path_factory)["turns"] if t["role"] == "user"]
    assert len(got) == len(want)
    # a pasted line as wide as the terminal, then a line break: on screen alone it
    # reads as a longer line folded there (test_chrome_kimi_h22: a strict xfail)
    folded = full_width_pastes(case) if screen_only else []
    for i, (w, g) in enumerate(zip(want, got)):
        if (case.name, i) in SWALLOWED or any(p in w for p in folded):
            continue
        # spaces typed at the end are drawn as blank cells, and Kimi sends the prompt
        # without them (its own session files hold it so)
        assert g == w.rstrip()


EMPHASIS = re.compile(r"(\*\*|\*|`)(\S(?:.*?\S)?)\1")
THINKING_CASES = [c for c in CASES if any(t["role"] == "thinking" for t in truth(c)["turns"])]


#: thinking blocks Kimi itself never drew whole (checked with tests.drawn_recall)
NOT_DRAWN = {
    "h15-sh-kimi-tables-63x36": "after the shrink to 60 columns Kimi lays a thinking block out two columns "
                                "too wide and crops the row: `realgyngrym dryk` is drawn `realgyngrym dry…`",
    "h17-kimi-toolwrap-link-91x58": "Kimi crops a thinking row it laid out too wide after the shrink to 60 "
                                    "columns: `thoxfly shoundjostdun` is drawn `thoxfl…`",
    "h17-sh-kimi-continue-crop-61x40": "Kimi crops a thinking row it laid out too wide after a width change: "
                                       "`shybo zoost` is drawn `shyb…`",
    "h18-kimi-s1846-tool-187x46": "Kimi crops a thinking row it laid out too wide after a width change: "
                                  "`bopekbo peku tor` is drawn `bopekbo pek… tor`",
}


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=NOT_DRAWN[c.name]))
                                  if c.name in NOT_DRAWN else c for c in THINKING_CASES],
                         ids=[c.name for c in THINKING_CASES])
def test_thinking_is_not_answer(case: Path, tmp_path_factory) -> None:
    turns = replay(case, True, tmp_path_factory)["turns"]
    # Kimi renders a thinking block's Markdown (`**b**` bold, `*i*` italic, `` `c` ``):
    # the marks are never drawn
    thought = [EMPHASIS.sub(r"\2", t["text"]) for t in truth(case)["turns"] if t["role"] == "thinking"]
    shown = [" ".join(t["text"].split()) for t in turns if t["role"] == "thinking"]
    assert shown == [" ".join(t.split()) for t in thought]
    answers = " ".join(t["text"] for t in turns if t["role"] == "assistant")
    for th in thought:
        assert " ".join(th.split()) not in " ".join(answers.split())


def test_thinking_cases_exist() -> None:
    assert THINKING_CASES, "no Kimi recording serves thinking"


def _md_table_rows(text: str) -> list[list[str]]:
    """The rows of the markdown tables in `text`: runs of `|…|` lines whose
    second line is the delimiter row (`| rabbit | --> | workers |` between
    two `+----+` lines is ASCII art, no table)."""
    rows = []
    block: list[str] = []
    for ln in text.splitlines() + [""]:
        ln = ln.strip()
        if ln.startswith("|") and ln.endswith("|"):
            block.append(ln)
            continue
        if len(block) >= 2 and re.fullmatch(r"\|[-:| ]+\|", block[1]):
            rows.extend([" ".join(c.replace("**", "").replace("`", "").split()) for c in b[1:-1].split("|")]
                        for k, b in enumerate(block) if k != 1)
        block = []
    return rows


TABLE_CASES = [c for c in CASES
               if any(t["role"] == "assistant" and _md_table_rows(t["text"]) for t in truth(c)["turns"])]


@pytest.mark.parametrize("case", TABLE_CASES, ids=[c.name for c in TABLE_CASES])
def test_table_rows_whole(case: Path, tmp_path_factory) -> None:
    """Every served table row is one drawn row with its cells whole, also
    where the terminal was too narrow and rich folded cells by character."""
    shown = []
    for t in replay(case, True, tmp_path_factory)["turns"]:
        for ln in t["text"].splitlines():
            ln = ln.strip()
            if ln.startswith("│") and ln.endswith("│"):
                shown.append([" ".join(c.split()) for c in ln[1:-1].split("│")])
    for t in truth(case)["turns"]:
        if t["role"] == "assistant":
            for row in _md_table_rows(t["text"]):
                assert any(_same_row(row, s) for s in shown), (row, shown[:8])


def _same_row(want: list[str], got: list[str]) -> bool:
    """Cells equal, but for a space that fell on a character fold: Kimi
    folds a cell by character and drops the space a row would start with
    (`polyvinyl` / `acetate` in a 9-wide column), which no screen can tell
    from a word cut at the edge. At most one such space per cell."""
    return len(want) == len(got) and all(
        w == g or (w.replace(" ", "") == g.replace(" ", "") and w.count(" ") - g.count(" ") == 1)
        for w, g in zip(want, got))


def test_table_unfold_rules() -> None:
    from agents_chrome.kimi import unfold_table_rows
    drawn = [
        "│ name        │ when   │ note        │",
        "│ Egremont Ru │ late   │ dry, pear-l │",
        "│ sset        │        │ ike         │",
        "│ Cox         │ Sept   │ aromatic, n │",
        "│             │        │ utty        │",
        "│ abcdefghijk │ 123456 │ abcdefghijk │",  # fills every column: an ordinary row
        "│ next        │ 7      │ x           │",
        "after the table",
    ]
    out = unfold_table_rows(drawn)
    assert out[0] == drawn[0]
    assert out[1] == "│ Egremont Russet │ late │ dry, pear-like │"
    assert out[2] == "│ Cox │ Sept │ aromatic, nutty │"
    assert out[3:] == drawn[5:]
    # a cell wrapped at a word: the row under it leaves the first cell empty
    worded = ["│ Bramley   │ sharp, cooks  │", "│           │ to a fluff    │", "│ Cox       │ nutty         │"]
    assert unfold_table_rows(worded) == ["│ Bramley │ sharp, cooks to a fluff │", worded[2]]
    # wide characters: a row under the widest cells of every column is not a continuation
    cjk = ["│ 种类 │ 代表   │ 发酵   │", "│ 青茶 │ 铁观音 │ 半发酵 │", "│ 红茶 │ 祁门   │ 全发酵 │"]
    assert unfold_table_rows(cjk) == cjk


def test_wide_char_and_quote_joins() -> None:
    from agents_chrome.kimi import KLine, join_wrapped

    def rows(width: int, *texts: str) -> list[KLine]:
        return [KLine(t, 0.0, "history", 0, width) for t in texts]

    cjk = "  中文中文中文中文中文"  # 22 columns: the next wide character did not fit in 23
    quote = "  ▌ a quote that wraps at the ed"
    out = [ln.text for ln in join_wrapped(rows(23, cjk, "  不同的字符", "") + rows(len(quote), quote, "  ▌ ge of the row"))]
    assert out[0] == "  中文中文中文中文中文不同的字符"
    assert out[-1] == "  ▌ a quote that wraps at the edge of the row"
    # a narrow character at the start of the next row does not join a row one short
    assert [ln.text for ln in join_wrapped(rows(23, cjk, "  next", ""))][:2] == [cjk, "  next"]


def _echo(text: str, width: int) -> str:
    """The prompt echo as kimi-cli draws it: `✨ ` then the text word-wrapped
    at the width (the space at a break dropped), typed lines kept, rows
    joined back the way the chrome joins them (full rows run on)."""
    out_rows = []
    for line in text.split("\n"):
        cur = ""
        for w in line.split(" "):
            cand = w if not cur else cur + " " + w
            room = width - (3 if not out_rows else 0)
            if len(cand) <= room or not cur:
                cur = cand
            else:
                out_rows.append(cur)
                cur = w
        out_rows.append(cur)
    joined = out_rows[0]
    for k, row in enumerate(out_rows[1:]):
        full = len(out_rows[k]) + (3 if k == 0 else 0) >= width
        joined += ("" if full else "\n") + row
    return joined


def _box(text: str, width: int) -> str:
    """The input box's text read back: wrapped by character (one column of
    margin on the first row), rows rstripped as a screen gives them."""
    rows = []
    for k, line in enumerate(text.split("\n")):
        room = width - 1 if k == 0 else width
        first = True
        while first or line:
            rows.append(line[:room])
            line, room, first = line[room:], width, False
    out = ""
    for k, row in enumerate(rows):
        row = row.rstrip()
        out += row
        if k + 1 < len(rows) and len(row) < (width - 1 if k == 0 else width):
            out += "\n"
    return out


def _breaks(view: str) -> set[int]:
    """Where `view` has a line break, counted in the characters that are not
    white space before it."""
    return _at(view, "\n")


def _spaces(text: str) -> set[int]:
    """Where `text` has a space, counted as `_breaks` counts."""
    return _at(text, " ")


def _at(text: str, mark: str) -> set[int]:
    """Where `text` has `mark`, counted in the characters that are not white space before it."""
    out, n = set(), 0
    for ch in text:
        if ch == mark:
            out.add(n)
        elif not ch.isspace():
            n += 1
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "bc", "def", "ghij", "klmno", "pq", "\n", "r"]), min_size=1, max_size=40),
       st.integers(min_value=12, max_value=40))
def test_merge_prompt_recovers_spaces(parts: list[str], width: int) -> None:
    from agents_chrome.kimi import merge_prompt
    text = " ".join(parts).replace(" \n ", "\n").strip()
    if not text or "\n\n" in text or text.startswith("\n") or text.endswith("\n"):
        return
    # a typed line that ends exactly at the box's edge looks wrapped in both
    # views: that line break cannot be seen (left out here)
    lines = text.split("\n")
    assume(not any((len(ln) + (1 if k == 0 else 0)) % width == 0 for k, ln in enumerate(lines[:-1])))
    echo = _echo(text, width)
    box = _box(text, width)
    # a typed space where both views break the row (the echo's word wrap and the
    # box's character wrap cut at the same place) is drawn in neither: left out
    assume(not (_breaks(echo) & _breaks(box) & _spaces(text)))
    got = merge_prompt(echo, box)
    # every dropped space is back: the result differs from the typed text at
    # most where a space and a line break trade places (a row end that both
    # views hide the same way)
    assert len(got) == len(text)
    assert all(g == t or {g, t} == {" ", "\n"} for g, t in zip(got, text))
    assert sum(g != t for g, t in zip(got, text)) <= max(1, text.count("\n") + 1)
    # and never worse than the echo alone
    assert sum(g != t for g, t in zip(got, text)) <= sum(1 for a, b in zip(echo, text) if a != b) or len(echo) != len(text)


# Recordings whose turns lean on the input box (prompts), a slash command's
# output window, thinking styles and folded tables: re-timed and re-cut,
# they must give the same turns (see tests/test_timing.py).
TIMED = [c for c in CASES if c.name.startswith("kimi-r3-") and
         any(t["role"] in ("thinking",) or t.get("kind") == "slash_command" for t in truth(c)["turns"])]


@pytest.mark.parametrize("case", TIMED, ids=[c.name for c in TIMED])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**16), max_pause=st.sampled_from([0.0, 0.001, 0.01]),
       split=st.sampled_from([0.0, 0.3, 0.8]), merge=st.sampled_from([0.0, 0.5, 0.95]))
def test_same_turns_whatever_the_timing(case: Path, seed: int, max_pause: float, split: float, merge: float,
                                        tmp_path_factory) -> None:
    if case not in _TIMED_BASE:
        _TIMED_BASE[case] = turns_of(case / "session.cast", AGENT)
    fast = tmp_path_factory.mktemp("retimed") / "session.cast"
    retime(case / "session.cast", fast, seed, max_pause, split, merge)
    # the exit command is read from the input box of the last frame before
    # `Bye!`; cut into tiny events, the frame with its last key can be lost
    # (a screen-layer limit), so the closing `/exit` system turn is left out
    assert drop_exit(turns_of(fast, AGENT)) == drop_exit(_TIMED_BASE[case])


def drop_exit(turns: list[tuple]) -> list[tuple]:
    return turns[:-1] if turns and turns[-1][0] == "system" and turns[-1][1].startswith("/") else turns


_TIMED_BASE: dict[Path, list] = {}


SHELL_CASES = [c for c in CASES if json.loads((c / "meta.json").read_text()).get("shell")]


@pytest.mark.parametrize("case", SHELL_CASES, ids=[c.name for c in SHELL_CASES])
def test_shell_output_before_kimi_is_not_conversation(case: Path, tmp_path: Path) -> None:
    """Kimi started from a shell, its pauses cut: whether or not the shell's
    stretches are told apart, nothing drawn above kimi's welcome box (the
    shell's commands and output, a `• ` line a command printed) becomes a
    conversation turn."""
    want = [t for t in turns_of(case / "session.cast", AGENT) if t[0] != "system"]
    for seed, max_pause in ((1, 0.0), (2, 0.01)):
        fast = tmp_path / f"fast{seed}.cast"
        retime(case / "session.cast", fast, seed, max_pause, 0.3, 0.0)
        got = turns_of(fast, AGENT)
        assert [t for t in got if t[0] != "system"] == want


@pytest.mark.parametrize("case", THINKING_CASES, ids=[c.name for c in THINKING_CASES])
def test_native_thinking(case: Path) -> None:
    """The session's own context.jsonl keeps the reasoning the model
    streamed (`{"type": "think"}` parts): the provider gives it as thinking
    turns, in order, and never as answer text."""
    from archive.providers.kimi import PROVIDER
    sessions = [d for d in (case / "native" / ".kimi" / "sessions").glob("*/*") if (d / "context.jsonl").exists()]
    assert sessions
    # a `/clear` leaves a second session: in the order they began (a folder's listing
    # order is the filesystem's, not the sessions')
    convs = sorted((c for d in sessions for c in PROVIDER._parse(d).conversations), key=lambda c: c.started_at or "")
    turns = [t for c in convs for t in c.turns]
    # a turn interrupted while it streamed (Ctrl-C) leaves no message in
    # context.jsonl (only in wire.jsonl): its reasoning is not there either
    segments: list[list[dict]] = []
    for t in truth(case)["turns"]:
        if t["role"] == "user" or not segments:
            segments.append([])
        segments[-1].append(t)
    want = [t["text"] for seg in segments if not any(t.get("interrupted") for t in seg)
            for t in seg if t["role"] == "thinking"]
    assert [t.text for t in turns if t.role == "thinking"] == want
    answers = "\n".join(t.text for t in turns if t.role == "assistant")
    assert not any(w in answers for w in want)
