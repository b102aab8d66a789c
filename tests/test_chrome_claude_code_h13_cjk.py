"""Claude Code on real recordings: what the h13 CJK round found, asserted on
every Claude Code full-screen recording that shows the situation (never on
one case by name), against its truth.json, as recorded and with the input
events stripped:

- grown back while an answer streams, the full-screen renderer lays the
  conversation out again at the wider width. A row the narrower width had
  wrapped before a run with no word in it (`…工芸品です` over `🏮。`: a
  wide emoji and a full stop) is one row again. The words join the two
  layouts; the old row took the new copy's closing marks, but the old row
  under it, holding only those marks, stayed, and the wide-wrap join glued
  it on: `工芸品です 🏮。🏮。`. The scorer counts words only and did not see it.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import regex
from wcwidth import wcswidth

from agents_chrome.relayout import LayoutStitcher
from tests.conftest import cli_replay, recording_cases, truth_turns
from tests.test_chrome_claude_code_h12 import wide_answer_then_resize

CASES = recording_cases("claude-code")
_GRID = regex.compile(r"^\s*[┌├└│╭╰]")
_MARKS = regex.compile(r"\*\*|`")


WIDE_RESIZED = [c for c in CASES if wide_answer_then_resize(c, fullscreen=True)]
#: known to lose an answer (a real defect, kept visible): "<case>": "reason"
LOSES_AN_ANSWER = {
    "h17-cc-s1704-full-53x20": "two Write results of the same shape (`⎿  Wrote 11 lines to …`, numbered rows, "
                               "`… +1 line`) in a 20-row view: the second is laid over the first, and the "
                               "answer row between them (`● Traftglos plairtruft traispzerne.`) is lost",
    "h18-cc-s1802-full-198x44": "a block quote with wide characters keeps Claude Code's `▎` bar on each of its "
                                "rows (`▎ sheal_troftskooskquoft 한국어 …`): the bar is no text the model served "
                                "(it served one `> ` line); the replay does not give the quote back as markdown",
    "h22-cc197-s2202-full-64x25": "a block quote with wide characters keeps Claude Code's `▎` bar (`▎ defleindkoun_"
                                  "kreackfear … 設定ファイル piondzhoum nanquer:`), as h18-cc-s1802's",
    "h22-cc197-s2218-full-81x37": "a block quote with wide characters keeps Claude Code's `▎` bar (`▎ Fultpeand "
                                  "fixpainmou pendgaftvoock 测试数据.`), as h18-cc-s1802's",
}


def _flat(text: str) -> str:
    return "".join(_MARKS.sub("", text).split())


def test_some_recordings_show_the_situation() -> None:
    assert WIDE_RESIZED, "no full-screen Claude Code recording resized while an answer with wide characters streamed"


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=LOSES_AN_ANSWER[c.name]))
                                  if c.name in LOSES_AN_ANSWER else c for c in WIDE_RESIZED], ids=lambda p: p.name)
def test_every_answer_row_is_text_the_model_served_once(case: Path, screen_only: bool, tmp_path_factory) -> None:
    """Each replayed answer row that holds wide characters (blanks and the
    marks the renderer does not draw left out, box-table rows aside) is a
    run of the served answer: nothing glued on twice."""
    got = [t for t in cli_replay(case, "claude-code", screen_only, tmp_path_factory)["turns"] if t["role"] == "assistant"]
    served = [t for t in truth_turns(case) if t["role"] == "assistant"]
    assert len(got) == len(served)
    for g, s in zip(got, served):
        want = _flat(s["text"])
        rows = [r for r in g["text"].split("\n") if wcswidth(r) > len(r) and not _GRID.match(r)]
        for r in rows:
            assert _flat(r) in want, r


def _stitch(old: list[str], new: list[str]) -> list[str]:
    st = LayoutStitcher()
    st.add(old, 1.0, width=86)
    st.add(new, 2.0, width=93)
    return st.doc


# rows of h13-cjk-resize-fullscreen-93x27 at 86 and at 93 columns
HEAD = "● 和紙の提灯は、竹ひごで骨組みを作ってから紙を貼るという、とても手間のかかる工芸品です"
NEXT = "  まず、細く割った竹ひごを型に螺旋状に巻きつけて、提灯の形を決めます。この段階で間隔が"


def test_a_wordless_row_the_wider_layout_takes_in_goes() -> None:
    old = ["❯ 提灯はどうやって作るの？段落に分けて教えて", "", HEAD, "  🏮。", "", NEXT]
    new = ["❯ 提灯はどうやって作るの？段落に分けて教えて", "", HEAD + " 🏮。", "", NEXT + "揃って"]
    assert _stitch(old, new) == new


def test_a_wordless_row_the_wider_layout_still_draws_under_it_stays() -> None:
    """The same marks on a row of their own in both layouts: that row is
    the text's own (a line of its own), not the narrower width's wrap."""
    old = ["❯ 提灯はどうやって作るの？段落に分けて教えて", "", HEAD, "  🏮。", "", NEXT]
    new = ["❯ 提灯はどうやって作るの？段落に分けて教えて", "", HEAD + " 🏮。", "  🏮。", "", NEXT + "揃って"]
    assert _stitch(old, new) == new
