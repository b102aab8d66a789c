"""OpenCode on fresh recordings of round h12: CJK prompts and answers at an
odd width (101x33) with answers shrunk to 89 columns mid-stream and grown
back, and OpenCode started from bash with a bracketed paste.

What was wrong in the drawing:
- OpenCode's wrap breaks CJK text after its punctuation (`，`), moving the
  run up to the next break down whole, or inside a run wider than a row.
  A prompt row broken there came back with a newline in the middle of a
  sentence (a space once whitespace is normalised), and an answer row that
  ended at a `，` well short of the edge was read as a line of its own.
- A pasted prompt's blank lines are drawn as empty bar rows inside the
  prompt's bar: each paragraph came back as a prompt of its own.
- A stream's closing `。` that only the layout after a resize drew was lost:
  the row before the resize was kept, as all its words reappeared.
- A prompt row opening with `/` (a pasted path) was read as a slash command.
"""
from __future__ import annotations

import pytest

from agents_chrome.opencode import PROFILE, WRAP_MARGIN, AnswerRow, answer_body, unwrap_answer
from agents_chrome.relayout import LayoutStitcher
from agents_chrome.transcript import TLine
from tests.conftest import RECORDINGS, cli_replay, truth_turns

TEA = RECORDINGS / "opencode" / "h12-teaterrace-cjk-101x33"
FERRY = RECORDINGS / "opencode" / "h12-sh-oc-ferry-paste-112x30"


def unmarked(text: str) -> str:  # markdown's marks are drawn as styles, not characters
    return text.replace("`", "").replace("**", "")


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_cjk_prompts_wrapped_by_the_prompt_box_read_as_typed(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(TEA, "opencode", screen_only, tmp_path_factory)["turns"]
    typed = [t["text"] for t in truth_turns(TEA) if t["role"] == "user"]
    # exact text: a row broken after `，` or inside a long run joins with no
    # space and no newline (three prompts wrap, one inside a run)
    assert [t["text"] for t in turns if t["role"] == "user"] == typed


# Rows of an answer as OpenCode drew them at 89 columns (h12-teaterrace's
# first probe, 26.1 s into it, the answer shrunk from 101 columns mid-stream):
# a list item and a paragraph broken after `，` with room left on the row,
# as the run after it did not fit; the stitch kept these rows when the grow
# back to 101 came while the answer streamed.
WITHER_AT_89 = [
    "     3. **看叶子而不是看钟**：叶面失去光泽、叶质变软、梗折不断，青草气转成淡淡的花香，",
    "        就可以杀青了。",
    "     4. **雨水叶要先晾干表面水**，再按正常流程摊放，时间通常要延长两到三个小时。",
    "",
    "     整个摊青过程一般在六到十小时之间。春茶前期气温低，时间偏长；到了谷雨前后，",
    "     四五个小时就够了。记录每一批的起止时间、室温和湿度，",
    "     一季下来就能总结出适合自己茶园的节奏 📒。",
]


def test_cjk_answer_rows_broken_after_punctuation_are_one_line() -> None:
    rows: list[AnswerRow] = []
    for raw in WITHER_AT_89:
        if raw:
            rows.append(AnswerRow(raw, answer_body(raw), 89 - WRAP_MARGIN))
        else:
            rows[-1].blanks += 1
    assert unwrap_answer(rows).split("\n") == [
        "3. **看叶子而不是看钟**：叶面失去光泽、叶质变软、梗折不断，青草气转成淡淡的花香，就可以杀青了。",
        "4. **雨水叶要先晾干表面水**，再按正常流程摊放，时间通常要延长两到三个小时。",
        "",
        "整个摊青过程一般在六到十小时之间。春茶前期气温低，时间偏长；到了谷雨前后，四五个小时就够了。"
        "记录每一批的起止时间、室温和湿度，一季下来就能总结出适合自己茶园的节奏 📒。",
    ]


def test_a_cjk_row_that_ends_a_line_with_room_for_the_next_run_stays_a_line() -> None:
    # the run after the `。` would have fitted on the row: no wrap broke it there
    rows = [AnswerRow(raw, answer_body(raw), 89 - WRAP_MARGIN)
            for raw in ("     记录每一批的起止时间。", "     一季下来就能总结出节奏。")]
    assert unwrap_answer(rows) == "记录每一批的起止时间。\n一季下来就能总结出节奏。"


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_pasted_prompt_with_blank_lines_is_one_prompt(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(FERRY, "opencode", screen_only, tmp_path_factory)["turns"]
    typed = [t["text"] for t in truth_turns(FERRY) if t["role"] == "user"]
    users = [t["text"] for t in turns if t["role"] == "user"]
    assert users == typed
    pasted = next(u for u in users if "```" in u)
    assert pasted.count("\n\n") == 2  # its paragraphs, the fenced block, its list


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_code_first_answers_and_the_one_liner_after_a_long_answer(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(FERRY, "opencode", screen_only, tmp_path_factory)["turns"]
    answers = [t for t in turns if t["role"] == "assistant"]
    served = [t["text"] for t in truth_turns(FERRY) if t["role"] == "assistant"]
    assert len(answers) == len(served)
    # an answer that opens with a code block opens with its first code line
    assert answers[0]["text"].startswith("from datetime import time\n")
    assert answers[2]["text"].startswith("awk 'NR > 1")
    # the long answer whole (headings drawn without their `##`), then the one-liner alone
    assert unmarked(answers[3]["text"]).split() == unmarked(served[3]).replace("## ", "").split()
    assert unmarked(answers[4]["text"]) == unmarked(served[4])
    shell = [t["text"].split("\n")[0] for t in turns if t["role"] == "system"]
    assert shell[-3:] == ['⚓ ferry:proj# echo "opencode left with $?"', "⚓ ferry:proj# ls -1 | head -3",
                          "⚓ ferry:proj# exit"]


# The rows of h12-teaterrace's first probe around its table answer's last
# chunk: OpenCode drew `…四倍` at 101 columns, the terminal went to 89 and
# back to 101 within two milliseconds (one frame of the 101-column rows on the
# 89-column screen), and the next 101-column frame drew `…四倍。` and the
# turn's duration.
TABLE_TAIL = ["     今年春茶的分级如下：", "     ┌┐", "     │ 等级 │ 采摘标准 │ 产量（公斤） │ 备注 🍃 │", "     ├┤",
              "     │ 三级 │ 对夹叶 │ 96 │ 多用于拼配 🫖 │", "     └┘", ""]


def test_a_closing_mark_drawn_only_after_a_resize_is_kept() -> None:
    st = LayoutStitcher()
    cut = TABLE_TAIL + ["     特级茶只占总量的 **9%** 左右，但价格是二级茶的四倍", "", "     ▣  Build · Mock Model"]
    st.add(TABLE_TAIL + ["     特级茶只占总量的 **9%** 左右，但价格是", "", "     ▣  Build · Mock Model"], width=101)
    st.add(cut, width=101)
    st.add(cut, width=89)
    st.add(cut, width=101)
    st.add(TABLE_TAIL + ["     特级茶只占总量的 **9%** 左右，但价格是二级茶的四倍。", "",
                         "     ▣  Build · Mock Model · 1.3s"], width=101)
    assert st.doc[-3:] == ["     特级茶只占总量的 **9%** 左右，但价格是二级茶的四倍。", "",
                           "     ▣  Build · Mock Model · 1.3s"]
    assert sum("四倍" in r for r in st.doc) == 1


def test_a_row_that_only_gained_a_closing_mark_is_replaced_not_one_that_gained_words() -> None:
    st = LayoutStitcher()
    st.add(TABLE_TAIL + ["     特级茶只占总量的 **9%** 左右", "", "     ▣  Build · Mock Model"], width=101)
    st.add(TABLE_TAIL + ["     特级茶只占总量的 **9%** 左右", "", "     ▣  Build · Mock Model"], width=89)
    # a row with more words than the old one is no copy of it: the word join settles it
    st.add(TABLE_TAIL + ["     特级茶只占总量的 **9%** 左右，但价格是二级茶的四倍。", "",
                         "     ▣  Build · Mock Model · 1.3s"], width=101)
    assert "     特级茶只占总量的 **9%** 左右，但价格是二级茶的四倍。" in st.doc
    assert sum("特级茶" in r for r in st.doc) == 1


# A pasted prompt as OpenCode drew it at 94x28 (a probe of round h12, 27 s
# in): wrapped prose, a blank line, a path and a shell line, indented code, a
# list. Its row opening with `/` was read as a slash command, which split
# the prompt in two turns with a system turn between.
PASTED_AT_94 = [
    "",
    "  ┃",
    "  ┃  why does this deploy script fail on the second host? it works on the first one every",
    "  ┃  time, and the log on the second host only says that the interpreter was not found,",
    "  ┃  which makes no sense to me because both hosts were built from the same image last",
    "  ┃  spring",
    "  ┃",
    "  ┃  /usr/bin/env python3 deploy.py --host lantern-2",
    "  ┃  $ ls -la /opt/deploy",
    "  ┃  drwxr-xr-x 2 root root 4096 deploy",
    "  ┃",
    "  ┃      def main():",
    "  ┃          for host in HOSTS:",
    "  ┃              push(host)",
    "  ┃",
    "  ┃  1. copy the bundle",
    "  ┃  2. restart the service",
    "  ┃",
    "",
    "     ▣  Build · Mock Model",
]


def test_a_pasted_prompt_line_opening_with_a_path_stays_in_the_prompt() -> None:
    lines = [TLine(row, 27.0, "alt", 1, 94) for row in PASTED_AT_94]
    turns = PROFILE.turns(PROFILE.label(lines))
    assert [t.role for t in turns] == ["user"]
    text = turns[0].text
    assert text.split("\n\n") == [
        # the box wrapped the first line at blanks (round h15: rejoined with blanks, as pasted)
        "why does this deploy script fail on the second host? it works on the first one every "
        "time, and the log on the second host only says that the interpreter was not found, "
        "which makes no sense to me because both hosts were built from the same image last "
        "spring",
        "/usr/bin/env python3 deploy.py --host lantern-2\n$ ls -la /opt/deploy\ndrwxr-xr-x 2 root root 4096 deploy",
        "    def main():\n        for host in HOSTS:\n            push(host)",
        "1. copy the bundle\n2. restart the service",
    ]


# The stitched rows of a probe of round h12 (107x31, a slow bash call, the
# terminal shrunk and grown back while it ran): the prompt, then the copy the
# resize redrew, apart only by empty bar rows. Read as one bar, the prompt
# came back twice over in one turn.
REDRAWN_AT_107 = [
    "  ┃",
    "  ┃  盘点一下仓库：先等三秒再列出文件 📦",
    "  ┃",
    "  ┃",
    "  ┃  盘点一下仓库：先等三秒再列出文件 📦",
    "  ┃",
    "",
    "     好的，先等三秒：",
]


def _read(rows: list[str], width: int) -> list[tuple[str, str]]:
    turns = PROFILE.turns(PROFILE.label([TLine(row, 1.0, "alt", 1, width) for row in rows]))
    return [(t.role, t.text) for t in turns]


def test_a_prompt_redrawn_under_itself_in_one_bar_comes_once() -> None:
    assert _read(REDRAWN_AT_107, 107) == [("user", "盘点一下仓库：先等三秒再列出文件 📦"),
                                         ("assistant", "好的，先等三秒：")]


def test_a_pasted_prompt_redrawn_under_itself_in_one_bar_comes_once() -> None:
    # PASTED_AT_94's prompt followed in its bar by the same prompt again, as a
    # resize redraws it (the probe's rows, the redraw put together from them)
    bar = PASTED_AT_94[1:18]
    once = _read([""] + bar + ["", "     ▣  Build · Mock Model"], 94)
    twice = _read([""] + bar + bar[1:] + ["", "     ▣  Build · Mock Model"], 94)
    assert twice == once and len(once) == 1
