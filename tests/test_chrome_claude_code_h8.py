"""Claude Code chrome on real recordings: what the h8 round of fresh
recordings found, asserted on every Claude Code recording that shows the
situation (never on one case by name), against its truth.json:

- a prompt typed with markdown (`# heading`, `**bold**`, `` `code` ``,
  `*italic*`) is echoed with it rendered: the marks are gone from the
  screen's text, only the echo's styles (bold, italic, underline, a colour
  of its own) tell them. The prompt comes back as typed, through the real
  CLI, as recorded, with the input events stripped, and with every pause
  compressed (which frames catch the echo depends on the pauses; the marks
  must not);
- an answer interrupted with Esc keeps only what was drawn: the
  `⎿ Interrupted · What should Claude do instead?` row is no answer text.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from agents_chrome.claude_code import _echo_rows, _typed_markdown, _without_stale_tables
from tests.conftest import cli_replay, frames_of
from tests.test_chrome_claude_code_h5 import CASES, replayed_segments, truth_of, truth_segments, turns_of
from tests.test_timing import retime, turns_of as replay_turns
from tests.segments import headless_prompts
from tests.selection import select

#: what CommonMark would render in a prompt, as Claude Code's echo does:
#: a heading, bold, italic, inline code (`_`, `~~` and links stay as typed)
MARKDOWN = regex.compile(r"(?m)^#{1,2}\s\S|\*\*\S|(?<![*\w])\*[^*\s][^*]*\*(?!\*)|`[^`\n]+`")
WORD = regex.compile(r"\w+")


def _typed_with_markdown(case: Path) -> list[str]:
    return [t["text"] for t in truth_of(case)["turns"]
            if t["role"] == "user" and not t.get("kind") and MARKDOWN.search(t["text"])]


MD_CASES = [c for c in CASES if _typed_with_markdown(c)]


def _norm(s: str) -> str:
    return " ".join(s.split())


def test_some_recording_has_a_prompt_typed_with_markdown() -> None:
    assert MD_CASES, "no Claude Code recording has a prompt typed with markdown"


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", MD_CASES, ids=lambda p: p.name)
def test_prompts_typed_with_markdown_come_back_as_typed(case: Path, screen_only: bool, tmp_path_factory) -> None:
    got = [_norm(t["text"]) for t in cli_replay(case, "claude-code", screen_only, tmp_path_factory)["turns"]
           if t["role"] == "user"]
    # (a prompt taller than the full-screen view whose echo's first rows no frame showed
    # comes back, without the input events, as what was drawn of it: its tail)
    never = {_norm(p) for p in headless_prompts(case)} if screen_only else set()
    for typed in _typed_with_markdown(case):
        if _norm(typed) in never:
            assert any(u and _norm(typed).endswith(u) for u in got), f"{case.name}: {typed!r}"
            continue
        assert _norm(typed) in got, f"{case.name}: {typed!r} not among the replayed prompts {got}"


@pytest.mark.parametrize("case", MD_CASES, ids=lambda p: p.name)
def test_markdown_of_prompts_does_not_depend_on_the_pauses(case: Path, tmp_path: Path) -> None:
    fast = tmp_path / "session.cast"
    retime(case / "session.cast", fast, seed=11, max_pause=0.0, split=0.3, merge=0.95)
    got = [_norm(text) for role, text, _name in replay_turns(fast, "claude-code") if role == "user"]
    for typed in _typed_with_markdown(case):
        assert _norm(typed) in got


def test_echo_rows_read_marks_from_styles_only() -> None:
    """The echo block as the screen holds it (text, spans); the marks come
    from the styles: the same text without styles gives none."""
    bg = "3a3a3a"
    block = [
        ("❯ tonight", ((0, 2, "949494", bg, 0), (2, 9, "ffffff", bg, 7), (9, 40, "default", bg, 0))),
        ("", ((0, 40, "default", bg, 0),)),
        ("  - trim the wick", ((0, 2, "default", bg, 0), (2, 13, "ffffff", bg, 0), (13, 17, "ffffff", bg, 1),
                               (17, 40, "default", bg, 0))),
        ("  - test the horn", ((0, 2, "default", bg, 0), (2, 13, "ffffff", bg, 0), (13, 17, "afd7ff", bg, 0),
                               (17, 40, "default", bg, 0))),
    ]
    assert _echo_rows(block) == ["# tonight", "- trim the **wick**", "- test the `horn`"]
    plain = [(t, ((0, 40, "ffffff", bg, 0),)) for t, _s in block]
    assert _echo_rows(plain) is None


BG = "3a3a3a"  # rows below as a 2.1.330 recording's frames hold them (70 and 58 columns)
FENCED = [("❯ why does this fail?", ((0, 2, "949494", BG, 0), (2, 21, "ffffff", BG, 0), (21, 70, "default", BG, 0))),
          ("  for i in range(3) print(i)", ((0, 2, "default", BG, 0), (2, 28, "afd7ff", BG, 0),
                                           (28, 70, "default", BG, 0)))]
WRAPPED = [("❯ please explain very carefully how the bridle point of a",
            ((0, 2, "949494", BG, 0), (2, 40, "ffffff", BG, 0), (40, 57, "ffffff", BG, 1), (57, 58, "default", BG, 0))),
           ("  diamond kite changes the angle of attack and what",
            ((0, 2, "default", BG, 0), (2, 42, "ffffff", BG, 1), (42, 52, "ffffff", BG, 0), (52, 58, "default", BG, 0))),
           ("  tail_length_cm should be",
            ((0, 2, "default", BG, 0), (2, 16, "afd7ff", BG, 0), (16, 26, "ffffff", BG, 0), (26, 58, "default", BG, 0)))]


def test_a_row_all_in_the_code_colour_is_a_fenced_block() -> None:
    """The fences of a code block typed in a prompt are not drawn: the rows
    in the code colour alone (the text's own colour is the first row's) are
    the block, fenced again."""
    rows = _echo_rows(FENCED)
    assert rows == ["why does this fail?", "```", "for i in range(3) print(i)", "```"]
    echo = "why does this fail?\nfor i in range(3) print(i)"
    assert _typed_markdown(echo, rows) == "why does this fail?\n```\nfor i in range(3) print(i)\n```"


def test_a_bold_run_the_wrap_cut_is_one_run() -> None:
    """Claude Code wraps the echo itself (a row break of its own inside a
    bold run): the run is closed at the row's end and opened on the next
    row, and comes back as one."""
    rows = _echo_rows(WRAPPED)
    echo = ("please explain very carefully how the bridle point of a\n"
            "diamond kite changes the angle of attack and what\ntail_length_cm should be")
    got = " ".join(_typed_markdown(echo, rows).split())
    assert got == ("please explain very carefully how the **bridle point of a diamond kite changes the angle of "
                   "attack** and what `tail_length_cm` should be")


def _interrupted(case: Path) -> list[int]:
    """Indices (among the typed prompts) of the turns the user interrupted."""
    out, k = [], -1
    for t in truth_of(case)["turns"]:
        if t["role"] == "user" and not t.get("kind"):
            k += 1
        elif t["role"] == "assistant" and t.get("interrupted"):
            out.append(k)
    return out


INTERRUPTED = [c for c in CASES if _interrupted(c)]


@pytest.mark.parametrize("case", INTERRUPTED, ids=lambda p: p.name)
def test_an_interrupted_answer_is_what_was_served_and_no_more(case: Path) -> None:
    assert any(any("Interrupted" in ln for ln in f.lines) for f in frames_of(case))
    segs: list[list[str]] = []
    for t in turns_of(case):
        if t.role == "user":
            segs.append([])
        elif t.role == "assistant" and segs:
            segs[-1].append(t.text)
    served: list[str] = []
    for t in truth_of(case)["turns"]:
        if t["role"] == "user" and not t.get("kind"):
            served.append("")
        elif t["role"] == "assistant" and served:
            served[-1] += " " + t["text"]
    for k in _interrupted(case):
        got = " ".join(segs[k])
        assert "Interrupted" not in got and "What should Claude do" not in got
        vocab = set(WORD.findall(served[k]))
        assert WORD.findall(got), f"{case.name}: the interrupted answer {k} is lost"
        words = WORD.findall(got)
        # the last row drawn may stop inside a word the client had whole (`bolt` of `bolted`)
        if words[-1] not in vocab and any(v.startswith(words[-1]) for v in vocab):
            words.pop()
        assert set(words) <= vocab


#: an inline answer whose box table streamed through a shrink (72 -> 60
#: columns) and a grow (-> 110), as the replay read it from a 2.1.330
#: recording before stale copies were left out: a partial copy at 72
#: columns, one at 60, a row where two layouts overlap, the table at 110
STALE_COPIES = "Here are the ferry departures for the week:\n\n\n┌───────────┬───────┬───────┬───────────────┬──────────────────────┐\n│    day    │ first │ last  │    vessel     │         note         │\n├───────────┼───────┼───────┼───────────────┼──────────────────────┤\n│ Monday    │ 06:10 │ 21:40 │ Skerry Queen  │ car deck closed      │\n├───────────┼───────┼───────┼───────────────┼──────────────────────┤\n│ Tuesday   │ 06:10 │ 21:40 │ Skerry Queen  │ freight only at noon │\n\n┌───────────┬───────┬───────┬──────────┬──────────────┐\n│    day    │ first │ last  │  vessel  │     note     │\n├───────────┼───────┼───────┼──────────┼──────────────┤\n│ Monday │ 06:10 │ 21:40 │ Skerry Queen │ car deck closed │\n├───────────┼───────┼───────┼──────────┼──────────────┤\n│ Tuesday │ 06:10 │ 21:40 │ Skerry Queen │ freight only at noon │\n├───────────┼───────┼───────┼──────────┼──────────────┤\n│ Wednesday │ 06:25 │ 22:05 │ Island Dawn │ extra sailing 14:00 │\n├───────────┼───────┼───────┼──────────┼──────────────┤\n│ Thursday │ 06:25 │ 22:05 │ Island Dawn │ dog-friendly lounge │\n├───────────┼───────┼───────┼──────────┼──────────────┤\n│ Friday    │ 05:55 │ 23:30 │ Northern │ late return  │\n├───────────┼─────────┼─────────┼──────────┼───────────┤\n│ Friday │ 05:55 │ 23:30 │ Northern Lark │ late return │\n├───────────┼─────────┼─────────┼──────────┼───────────┤\n│ Saturday │ 07:00 │ 23:30 │ Northern Lark │ market day crowds │\n├───────────┼─────────┼─────────┼──────────┼───────────┤\n│ Sunday day │ 08:15 first │ 20:00 last │ Harbour vessel │ reduced note │\n├──────────────┼────────────┼────────────┼───────────────┼────────────────────────┤\n│ Monday       │ 06:10      │ 21:40      │ Skerry Queen  │ car deck closed        │\n├──────────────┼────────────┼────────────┼───────────────┼────────────────────────┤\n│ Tuesday      │ 06:10      │ 21:40      │ Skerry Queen  │ freight only at noon   │\n├──────────────┼────────────┼────────────┼───────────────┼────────────────────────┤\n│ Wednesday    │ 06:25      │ 22:05      │ Island Dawn   │ extra sailing 14:00    │\n├──────────────┼────────────┼────────────┼───────────────┼────────────────────────┤\n│ Thursday     │ 06:25      │ 22:05      │ Island Dawn   │ dog-friendly lounge    │\n├──────────────┼────────────┼────────────┼───────────────┼────────────────────────┤\n│ Friday       │ 05:55      │ 23:30      │ Northern Lark │ late return            │\n├──────────────┼────────────┼────────────┼───────────────┼────────────────────────┤\n│ Saturday     │ 07:00      │ 23:30      │ Northern Lark │ market day crowds      │\n├──────────────┼────────────┼────────────┼───────────────┼────────────────────────┤\n│ Sunday       │ 08:15      │ 20:00      │ Harbour Wren  │ reduced timetable      │\n├──────────────┼────────────┼────────────┼───────────────┼────────────────────────┤\n│ Bank holiday │ 08:15      │ 19:10      │ Harbour Wren  │ book ahead             │\n├──────────────┼────────────┼────────────┼───────────────┼────────────────────────┤\n│ Winter storm │ none       │ none       │ none          │ check the notice board │\n├──────────────┼────────────┼────────────┼───────────────┼────────────────────────┤\n│ Charter      │ on request │ on request │ Gull          │ minimum twelve people  │\n└──────────────┴────────────┴────────────┴───────────────┴────────────────────────┘\n\nThe Friday late return is the only sailing after 23:00."


def test_copies_of_a_table_drawn_before_its_last_layout_are_left_out() -> None:
    got = _without_stale_tables(STALE_COPIES)
    rows = [ln for ln in got.splitlines() if ln.startswith("│")]
    assert [r.split("│")[1].strip() for r in rows] == [
        "day", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Bank holiday",
        "Winter storm", "Charter"]
    assert got.startswith("Here are the ferry departures for the week:\n\n")
    assert got.endswith("The Friday late return is the only sailing after 23:00.")
    assert got.count("└") == 1


def test_another_table_above_the_last_one_stays() -> None:
    """A grid above the last one whose records are its own is another table."""
    text = ("Two tables:\n\n┌────┬────┐\n│ a  │ b  │\n├────┼────┤\n│ oak │ 3 │\n└────┴────┘\n\n"
            "┌──────┬──────┐\n│ tree │ age  │\n├──────┼──────┤\n│ ash  │ 40   │\n├──────┼──────┤\n"
            "│ elm  │ 12   │\n└──────┴──────┘")
    assert _without_stale_tables(text) == text


#: an inline answer with two tables, the first streamed through a shrink
#: (76 -> 62 columns) and a grow (-> 100), as the replay read it from a
#: 2.1.330 recording before stale copies were left out: the first table's
#: rows at 76 columns, a row where layouts overlap, a record at 62, then
#: its last rows at 100; the second table drawn once
TWO_TABLES = "First the tea regions:\n\n┌──────┬──────────────────────────┬─────────────────────────────────┐\n│ 产地 │           tea            │              note               │\n├──────┼──────────────────────────┼─────────────────────────────────┤\n│ 杭州 │ 龙井 Longjing            │ pan-fired green, chestnut aroma │\n├──────┼──────────────────────────┼─────────────────────────────────┤\n│ 福建 │ 铁观音 Tieguanyin        │ rolled oolong, orchid notes     │\n├──────┼──────────────────────────┼─────────────────────────────────┤\n│ 云南 │ 普洱 Pu'er               │ aged, earthy, compressed cakes  │\n├──────┼──────────────────────────┼─────────────────────────────────┤\n│ 安徽 │ 祁门 Keemun              │ black tea, smoky and sweet      │\n├──────┼──────────────────────────┼─────────────────────────────────┤\n│ 台湾 │ 东方美人 Oriental Beauty │ bug-bitten oolong, honey  │      │                     │ notes                    │\n├──────┼─────────────────────┼──────────────────────────┤\n│ 云南 │ 普洱 Pu'er │ aged, earthy, compressed cakes │\n├──────┼─────────────────────┼──────────────────────────┤\n├──────┼──────────────────────────┼─────────────────────────────────┤\n│ 云南 │ 普洱 Pu'er               │ aged, earthy, compressed cakes  │\n├──────┼──────────────────────────┼─────────────────────────────────┤\n│ 安徽 │ 祁门 Keemun              │ black tea, smoky and sweet      │\n├──────┼──────────────────────────┼─────────────────────────────────┤\n│ 台湾 │ 东方美人 Oriental Beauty │ bug-bitten oolong, honey        │\n└──────┴──────────────────────────┴─────────────────────────────────┘\n\nThen brewing:\n\n┌────────┬────────┬───────────────────────┐\n│  tea   │ water  │         time          │\n├────────┼────────┼───────────────────────┤\n│ green  │ 80 °C  │ 2 min                 │\n├────────┼────────┼───────────────────────┤\n│ oolong │ 95 °C  │ 1 min, many infusions │\n├────────┼────────┼───────────────────────┤\n│ black  │ 100 °C │ 3 min                 │\n├────────┼────────┼───────────────────────┤\n│ pu'er  │ 100 °C │ rinse, then 20 s      │\n└────────┴────────┴───────────────────────┘\n\nEnjoy slowly."


def test_each_table_of_an_answer_keeps_one_copy() -> None:
    got = _without_stale_tables(TWO_TABLES)
    firsts = [ln.split("│")[1].strip() for ln in got.splitlines() if ln.startswith("│")]
    assert firsts == ["产地", "杭州", "福建", "云南", "安徽", "台湾", "tea", "green", "oolong", "black", "pu'er"]
    assert got.count("┌") == 2 and got.count("└") == 2
    # every rule of a table kept: one between each two records
    first = got[got.index("┌"):got.index("└")]
    assert first.count("├") == 5


def _resized_in_fullscreen(case: Path) -> bool:
    """The terminal changed size while the full-screen view was up."""
    size = None
    for f in frames_of(case):
        if f.alternate and size is not None and (f.columns, f.rows) != size:
            return True
        size = (f.columns, f.rows)
    return False


FULLSCREEN_RESIZED = select("FULLSCREEN_RESIZED", CASES, lambda c: _resized_in_fullscreen(c))
#: known to add words (a real defect, kept visible as a strict xfail): "<case>": "reason"
ADDS_WORDS: dict[str, str] = {}


def test_some_recording_resizes_the_fullscreen_view() -> None:
    assert FULLSCREEN_RESIZED


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=ADDS_WORDS[c.name]))
                                  if c.name in ADDS_WORDS else c for c in FULLSCREEN_RESIZED],
                         ids=lambda p: p.name)
def test_fullscreen_views_caught_before_the_repaint_add_nothing(case: Path) -> None:
    """After a resize the full-screen view holds the old rows cut at the new
    edge, then Ink's diff over them (cells of two layouts mixed), then the
    repaint; and leaving the view restores main-screen rows that repeat it.
    Neither adds a prompt or a word the model did not serve to its turn."""
    truth, got = truth_segments(case), replayed_segments(case)
    assert len(got) == len(truth)
    for n, (served, shown) in enumerate(zip(truth, got)):
        have = set(WORD.findall(" ".join(served)))
        extra = [w for w in WORD.findall(" ".join(shown)) if w not in have]
        assert len(extra) <= 2, (n, extra[:20])
