"""Kimi CLI: behaviour found by the h15 round of seeded randomized probes.

- h15-sh-kimi-resume-75x22 (75x22, bash around Kimi, no --yolo, 12 turns):
  Kimi started from bash, three turns, /exit, `ls`, then `kimi --continue`
  (the first session drawn again) and nine more turns. The first turn's
  WriteFile approval panel fills the screen; once approved, Kimi erases it
  from the top row, which moves the live area (spinner, input rule, footer)
  into the history, and draws `• Used WriteFile (…)` right under the footer,
  whose right-aligned `context: …` reaches the last column: the two rows
  were joined as one wrapped row, the call was lost and the diff box rows
  ran into the prompt. A row opening with Kimi's bullet at column 0 starts
  a block of its own now.
- The shell split blanked the shell's rows out of the rows that scrolled off
  between two frames (`scrolled`) but not out of the same rows kept with
  their colours (`scrolled_lines`): Kimi read a row's colours from the row
  four places up, so the reprint's `• Used SetTodoList` (green bullet) read
  as an answer's and its thinking blocks (grey italic) as answers; the
  reprint no longer matched the first session's turns and came back twice
  (turns_ok 0, asst_prec 0.75). `_blank_outside` keeps them aligned, and a
  thinking block that scrolls off between two frames is read from its
  history row's colours.
- h15-sh-kimi-tables-63x36 (63x36, bash around Kimi, 8 turns, an answer
  interrupted with Ctrl+C, a shrink to 60x39 while an answer streams):
  Markdown links. Rich draws a link's text and hands its target to the
  terminal (OSC 8), so the target is on no row and its words were lost
  (five words a link). The screen records the links it was given
  (`VirtualScreen.links`, `Frame.links`); Kimi puts the target after the
  link's text, `text (url)`, as Markdown has it.
- Tables as wide as the terminal: Rich narrowed their columns and folds a
  cell by character, and two drawn rows that both fill every column were
  read as two table rows (`staistf` / `lainggong` cut in two, their cells
  crossed). In a table whose top rule reaches a width the terminal had, a
  full row under a full row goes on when, in a column that wraps elsewhere
  in that table, the fold cut a word the session draws nowhere else as two,
  and no cell of the row below opens with a capital.
- Columns that wrap were read over the whole answer: an answer with three
  tables (h15 probe seed 10, 60x35) merged two genuine rows of its second
  table because its first table wrapped the same column indexes. Each
  table's own rows decide now.
- CJK in a table cell: Rich folds a run of ideographs anywhere (`影茶石灯` /
  `虫`) and a wide character that does not fit leaves the last cell empty;
  the halves were joined with a space.
- A table row whose first cell is empty was read as the rest of the row
  above (cells crossed: `trean hoostpouk 木湾塔土`). Body cells are aligned
  to the top, so text in any column a drawn row of the table row had left
  blank opens the next row; only a filled first cell counted before.
"""
from __future__ import annotations

import re

import pytest

from agents_chrome.kimi import unfold_table_rows
from screen.vscreen import VirtualScreen
from tests.conftest import RECORDINGS, cli_replay, truth_turns, typed_prompts
from tests.segments import by_prompt as _by_prompt

AGENT = "kimi"
RESUME = RECORDINGS / AGENT / "h15-sh-kimi-resume-75x22"
TABLES = RECORDINGS / AGENT / "h15-sh-kimi-tables-63x36"
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")


@BOTH
def test_resumed_session_gives_each_turn_once(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(RESUME, AGENT, screen_only, tmp_path_factory)
    assert typed_prompts(conv["turns"]) == typed_prompts(truth_turns(RESUME))
    # the reprint's thinking blocks and calls were dropped with it, not left as answers
    truth = _by_prompt(truth_turns(RESUME))
    ours = _by_prompt(conv["turns"])
    for k, (t, o) in enumerate(zip(truth, ours)):
        assert sum(x["role"] == "thinking" for x in o) == sum(x["role"] == "thinking" for x in t), k
        assert [x["name"] for x in o if x["role"] == "tool_call"] == \
            [x["name"] for x in t if x["role"] == "tool_call"], k


@BOTH
def test_call_drawn_under_a_live_area_that_scrolled_off(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(RESUME, AGENT, screen_only, tmp_path_factory)
    first = next(t for t in conv["turns"] if t["role"] == "user")
    assert first["text"] == truth_turns(RESUME)[0]["text"]  # no blank rows, no diff box rows
    after = conv["turns"][conv["turns"].index(first) + 1]
    assert (after["role"], after["name"], after["text"]) == ("tool_call", "WriteFile", "lestdoust.md")


@BOTH
@pytest.mark.parametrize("case", [RESUME, TABLES], ids=lambda c: c.name)
def test_links_keep_their_targets(case, screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    truth = _by_prompt(truth_turns(case))
    ours = _by_prompt(conv["turns"])
    links = 0
    for t, o in zip(truth, ours):
        answer = "\n".join(x["text"] for x in o if x["role"] == "assistant")
        for served in (x["text"] for x in t if x["role"] == "assistant"):
            for text, url in LINK.findall(served):
                links += 1
                assert re.search(r"\s+".join(map(re.escape, text.split())) + r" \(" + re.escape(url) + r"\)",
                                 answer), (text, url)
    assert links >= 1


def _rows(answer: str) -> list[list[str]]:
    return [[c.strip() for c in r.strip().strip("│").split("│")] for r in answer.split("\n") if r.startswith("│")]


@BOTH
def test_rows_of_a_narrowed_table_come_back_whole(screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(TABLES, AGENT, screen_only, tmp_path_factory)
    answers = "\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant")
    rows = _rows(answers)
    # the table opening the first answer (63 columns, the terminal's width)
    assert ["hearkflaind faiwyng skylist dryrk", "drumvitskust dimnas staistflainggong loostshil"] in rows
    assert ["wuszoot zorchoust", "brasrom vaforkquoux bimquymgyng"] in rows
    # drawn at 60 columns after the shrink: three cells cut by the same fold
    assert ["skynghas duxhairk drarmeskyst", "brooxvairkshu sea greasmi",
            "slarkgaicot jeastlistquit peanslon"] in rows
    # ideographs folded in a cell join without a space
    assert any("影茶石灯虫" in cells for cells in rows)


@BOTH
def test_row_with_an_empty_first_cell_is_a_row(screen_only: bool, tmp_path_factory) -> None:
    """Rich aligns body cells to the top: text in a column the table row had left
    blank opens the next row, even under an empty first cell (a generated table
    with empty cells, h15-sh-kimi-resume-75x22)."""
    conv = cli_replay(RESUME, AGENT, screen_only, tmp_path_factory)
    rows = _rows("\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant"))
    assert ["", "木湾塔土", "chynd veastsloux", "traimgroux gangtril cheark louxnoum",
            "deasslourgrin lalshookroung"] in rows
    assert ["", "路川海金", "lyrgraim troorsest chabrol tairk", ""] in rows
    assert ["choon betsil deszoorkcin sloomdymclor", "trean hoostpouk", "影书火", "shandourkgaik",
            "kongdour clessla rosploor"] in rows


def test_columns_that_wrap_are_read_per_table() -> None:
    """Rows of two tables of one answer as Kimi drew them at 60 columns (h15 probe
    seed 10): the first table wraps its columns 0-3, the second only its
    column 1; the second's `stemfirk jaifix` and `灯灯湾火金` rows are two rows."""
    first = ["┌─────────────┬─────────────┬──────────────┬─────────────┐",
             "│ Bimdoumget  │ Modout      │ Kaspol       │ Trusshook   │",
             "├─────────────┼─────────────┼──────────────┼─────────────┤",
             "│ jendas quyk │ thulhoondfl │ plasplarcler │ 2509        │",
             "│ slukfloork  │ eark tryqua │ nukvu chi    │             │",
             "│ trelquounmy │ k tal       │              │             │",
             "│ wealwostzux │ thalsus tho │ rut          │ wounpyrfan  │",
             "│             │ oxvul floon │              │ falwaist fa │",
             "│             │ drunval bro │              │ lwaist      │",
             "│             │ ollainjeark │              │             │",
             "└─────────────┴─────────────┴──────────────┴─────────────┘"]
    second = ["┌─────────────────┬─────────────────────────┬────────────┐",
              "│ Breandsku       │ Maxplongquo             │ Saischutem │",
              "├─────────────────┼─────────────────────────┼────────────┤",
              "│ 3146            │ trendpluvok thandthond  │ kounsyrror │",
              "│ stemfirk jaifix │ grol congmul plind trus │ congmul    │",
              "│ 灯灯湾火金      │ pexhoum jorkgeantheast  │ quilflil   │",
              "│                 │ footjut kailpax         │            │",
              "│ 5745            │ cek perfe               │ 湾港       │",
              "└─────────────────┴─────────────────────────┴────────────┘"]
    out = _rows("\n".join(unfold_table_rows(first + ["", "Paragraph between."] + second, {})))
    assert ["stemfirk jaifix", "grol congmul plind trus", "congmul"] in out
    assert ["灯灯湾火金", "pexhoum jorkgeantheast footjut kailpax", "quilflil"] in out


def test_screen_records_hyperlinks() -> None:
    """OSC 8: the text drawn under a link, one piece per row, with its target."""
    s = VirtualScreen(30, 5)
    s.feed("See \x1b]8;id=7;https://a.example.org/x\x1b\\\x1b[4mtwo words\x1b[0m\x1b]8;;\x1b\\ here\r\n"
           "\x1b]8;;https://b.example.org\x07next\x1b]8;;\x07")
    assert s.links == [("https://a.example.org/x", "two words"), ("https://b.example.org", "next")]
