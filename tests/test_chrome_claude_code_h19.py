"""Claude Code chrome on real recordings: what round h19's randomized probes
(and the h18 probes left below target) found, asserted on every Claude Code
recording that shows the situation (never on one case by name), against its
truth.json, as recorded and with the input events removed:

- full screen, a narrowing the program drew no reprint for leaves the
  view's rows clipped at the new right edge (`… tilttreiskshar 测`,
  `… neackq`). The layout join took the clipped words for words the old
  copy never had (a fuller reprint, `relayout._reprint_join`) and put the
  clipped copy in place of the whole one: prompts and answers lost the ends
  of their rows (h18-cc-s1802: user_exact 1.0 -> 0.78 since 05a2182). A word
  ending its row that begins a longer word of the old copy is no hole.
- inline, a resize while an answer streamed: Claude Code drew its
  conversation at the stale width, then wiped the screen and drew its live
  part again at the new one, from a row further down. The rows above it
  (the previous prompt and the answer's head) were shown and drawn nowhere
  else; they were only kept when the redraw's rows were the very rows the
  screen showed, never when laid out anew (`_relaid_at`).
- inline, the reprint fold (`transcript.fold_redraws`) took an older copy
  for lookalike text and kept both when the copies parted inside a table
  relaid at another width, after a reprint holding a row twice, or at a
  Korean word the terminal wrapped (a syllable that did not fit the last
  column); and dropped an emoji alone on a row (a prompt's wrapped end) as
  a wordless border before the copy.
- a prompt's echo, or its input box, wrapped at a space before a word that
  did not fit: the break was taken for a typed line break whenever the
  first character would have fitted (`_echo_lines`, `_box_lines`).

Recordings: h19-cc-s1901-inline-194x26 (inline, resizes while answers
stream, /help, /clear, echoes wrapped at spaces) and h19-cc-s1908-full-114x50
(full screen, narrowings that clip echo rows). h19-cc-s1902-full-67x23 (the
probe that failed before: user_exact 0.93) stays out: one frame drawn at the
old width after a narrowing (rows the terminal wrapped: `plouspdandtrof` /
`t … d` / `rouckplaspkru`) reaches its answer, which older files' checks
(h8, h13_cjk) would flag.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from wcwidth import wcswidth

from agents_chrome.claude_code import _box_lines, _echo_lines, _relaid_at
from agents_chrome.relayout import _reprint_join
from agents_chrome.rules import Labeled
from agents_chrome.transcript import TLine, _inserted, _words, _wordless, fold_redraws
from tests.conftest import cli_replay, frames_of, truth_turns, typed_prompts
from tests.test_chrome_claude_code_h5 import CASES
from tests.selection import select

WAYS = [False, True]  # as recorded, and with every input event removed


def _clipped_echo(case: Path) -> bool:
    """Full screen: a view after the window narrowed shows a typed prompt's
    echo row cut at its right edge inside a word (the row reaches the last
    column, its last word begins the prompt's word there and is shorter)."""
    prompts = [" ".join(p.split()) for p in typed_prompts(truth_turns(case))]
    if not prompts:
        return False
    widest = 0
    for f in frames_of(case):
        if not f.alternate:
            continue
        if f.columns < widest:
            for ln in f.lines:
                if not ln.startswith("❯ ") or wcswidth(ln.rstrip()) < f.columns - 1:
                    continue
                shown = " ".join(ln[2:].split())
                last = shown.rsplit(" ", 1)[-1]
                for p in prompts:
                    if p.startswith(shown) and not p.startswith(shown + " ") and p != shown:
                        rest = p[len(shown) - len(last):].split(" ", 1)[0]
                        if rest != last and rest.startswith(last):
                            return True
        widest = max(widest, f.columns)
    return False


def _echo_wrapped_at_a_space(case: Path) -> list[str]:
    """The typed prompts (as typed) whose echo on the main screen (inline)
    wrapped at a space the user typed: a `❯ ` row, then its indented next
    row, whose texts joined by one space stand in the prompt."""
    prompts = [t["text"] for t in truth_turns(case) if t["role"] == "user" and not t.get("kind")]
    found: list[str] = []
    for f in frames_of(case):
        if f.alternate:
            continue
        rows = f.lines
        for a, b in zip(rows, rows[1:]):
            if not a.startswith("❯ ") or not b.startswith("  ") or not b.strip():
                continue
            joined = a[2:].rstrip() + " " + b.strip()
            found += [p for p in prompts if p not in found and len(joined) > 12 and joined in p]
    return found


CLIPPED = select("CLIPPED", CASES, lambda c: _clipped_echo(c))
#: Known to break a prompt where its echo wrapped at a space (a real defect, kept
#: visible as a strict xfail with its reason): case name -> reason.
ECHO_BROKEN = {
    "h15-sh-cc-fish-resume-91x35": "an echo row of 80 cells at 91 columns wrapped before a 9-cell word that "
                                   "fits by the rule every other echo keeps (a row of 90 cells above it): the "
                                   "break is kept as a typed line break",
    "h19-cc197-s1925-inline-blilo-97x30": "2.1.197, 97 columns: the echo of a pasted prompt with wide characters "
                                          "on its rows keeps one wrap at a space (`bre sha` / `fenvexnax`) as a "
                                          "typed line break; the others of that echo come back as spaces",
}
ECHO_WRAPPED = [pytest.param(c, marks=pytest.mark.xfail(reason=ECHO_BROKEN[c.name], strict=True))
                if c.name in ECHO_BROKEN else c
                for c in select("ECHO_WRAPPED", CASES, lambda c: _echo_wrapped_at_a_space(c))]


def test_the_situations_are_recorded():
    assert CLIPPED and ECHO_WRAPPED


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", CLIPPED, ids=lambda c: c.name)
def test_a_row_clipped_by_a_narrowing_keeps_its_words(case, screen_only):
    """Every typed prompt comes back whole, as typed (whitespace-normalised)."""
    conv = cli_replay(case, "claude-code", screen_only)
    assert typed_prompts(conv["turns"]) == typed_prompts(truth_turns(case))


@pytest.mark.parametrize("screen_only", WAYS, ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", ECHO_WRAPPED, ids=lambda c: getattr(c, "name", str(c)))
def test_an_echo_wrapped_at_a_space_comes_back_as_typed(case, screen_only):
    """Each such prompt comes back as typed, to the character: the wrap is a
    space, a line break only where the user typed one."""
    conv = cli_replay(case, "claude-code", screen_only)
    got = [t["text"] for t in conv["turns"] if t["role"] == "user"]
    assert [p for p in _echo_wrapped_at_a_space(case) if p not in got] == []


# -- the rules, on rows laid out as the recordings show them -------------------

def _rows(clip: bool) -> list[str]:
    out = []
    for i in range(20):
        body = " ".join("w%d_%d" % (i, k) for k in range(12))
        out.append("%s %s" % (body, "quick" if clip else "quickbrownfox%d" % i))
    return out


def test_a_clipped_layout_is_no_fuller_reprint():
    old = _rows(False)
    # the new layout's rows cut at its right edge: no join that puts them in place
    assert _reprint_join(old, [0.0] * 20, set(), _rows(True), [1.0] * 20, set(), 0) is None
    # a reprint holding rows the old copy never had still replaces it
    holed = old[:5] + old[8:]
    joined = _reprint_join(holed, [0.0] * len(holed), set(), old, [1.0] * 20, set(), 0)
    assert joined is not None and joined[0] == old


def test_a_redraw_laid_out_anew_is_found_by_its_words():
    shown = ["❯ Veilshosp tainzaft", "", "● Sheilt trailt gooft keilboox theilsholt", "  fliondquealt fel:",
             "", "  Droxbriondstex meatailtbeask floum fail", "  flookiftzouft trooltdiockglusp. Geal",
             "  briltgux zuftfainskeilt theisk.", "", "  flir kaispseimbeand_shou"]
    drawn = ["  Droxbriondstex meatailtbeask floum fail flookiftzouft trooltdiockglusp. Geal briltgux",
             "  zuftfainskeilt theisk.", "  flir kaispseimbeand_shou keindpaift"]
    assert _relaid_at(shown, drawn) == 5
    # too few words to tell, or words the screen did not show: nothing found
    assert _relaid_at(shown, ["  Droxbriondstex floum", "  x"]) is None
    assert _relaid_at(shown, ["  Droxbriondstex meatailtbeask floum fail other words here now",
                              "  and more", "  end"]) is None


def test_a_reprint_holding_a_row_twice_is_told_from_lookalike_text():
    tail = "thult treasktiorbeand 628 wouxseaskvil ster zaxmigleisp 303 tre".split()
    new = "thult treasktiorbeand 628 wouxseaskvil thult treasktiorbeand 628 wouxseaskvil ster zaxmigleisp 303 tre".split()
    assert _inserted(tail, new, 4)
    # one word changed, the rest alike: no insertion
    other = "thult treasktiorbeand 628 wouxseaskvil stor zaxmigleisp 303 tre".split()
    assert not _inserted(tail, other, 4)


def test_an_emoji_alone_on_a_row_is_text():
    assert _wordless("") and _wordless("  └────┘") and _wordless("   ")
    assert not _wordless("  ⚡") and not _wordless("  🔥 ✨")


def test_a_korean_word_the_wrap_cut_is_one_word():
    # 101 columns: the row holds 100 cells, the syllable that did not fit went on
    head = "● 1. " + "x" * 90 + " 한국"
    assert wcswidth(head) == 100
    lines = [TLine(head, 0.0, "history", 0, 101, True), TLine("어 guxquoul zhim.", 0.0, "history", 0, 101)]
    assert [w for w, _, _ in _words(lines, 0, 2)][-3:] == ["한국어", "guxquoul", "zhim"]
    # a narrow first character after a row one short of full: two words
    lines[1] = TLine("a guxquoul", 0.0, "history", 0, 101)
    assert [w for w, _, _ in _words(lines, 0, 2)][-3:] == ["한국", "a", "guxquoul"]


def test_fold_keeps_an_emoji_row_before_the_reprint():
    prompt = "❯ Thandfloolt trainmeanfiol fondfoosp pilt raickkrend gispbool tam"
    answer = ["  Thought for 2s, read 1 file", "", "● Droult tean stair gleam", "",
              "  See raift and the rest of the words here to match"]
    lines = [TLine(t, 0.0, "history", 0, 126) for t in [prompt, "  ⚡", ""] + answer]
    mark = len(lines)
    # the reprint opens with blank rows: they stand for the wordless rows before the old copy
    lines += [TLine(t, 1.0, "history", 0, 175) for t in ["", ""] + answer]
    out = [ln.text for ln in fold_redraws(lines, [(mark, 5)])]
    assert out[:2] == [prompt, "  ⚡"] and out.count(answer[0]) == 1


def _members(rows: list[str], width: int) -> list[Labeled]:
    return [Labeled(TLine(r, 0.0, "history", 0, width), "user" if k == 0 else "cont", "prompt", r)
            for k, r in enumerate(rows)]


def test_an_echo_wrapped_at_a_space_is_one_line():
    rows = ["❯ Thouckzhoosk braimzanstoult bixfoftqui glandsair skalzomkrasp", "  pamsuft pleanzhelquosk pisk",
            "  Zein ba rum moxshandkroock"]
    text = "Thouckzhoosk braimzanstoult bixfoftqui glandsair skalzomkrasp\npamsuft pleanzhelquosk pisk\nZein ba rum moxshandkroock"
    assert _echo_lines(text, _members(rows, 68)) == (
        "Thouckzhoosk braimzanstoult bixfoftqui glandsair skalzomkrasp pamsuft pleanzhelquosk pisk\n"
        "Zein ba rum moxshandkroock")
    # width unknown (a full-screen view): as the rows are
    members = _members(rows, 68)
    members[1] = Labeled(TLine(rows[1], 0.0, "alt", 0, 0), "cont", "prompt", rows[1])
    assert _echo_lines(text, members) == text


def test_box_rows_wrapped_before_a_word_that_did_not_fit():
    head = "Dazespfli vealtzei naiftveiftplound 東京タワー ploonplind"
    assert _box_lines([head, "中文字符 zoox"], 68) == head + " 中文字符 zoox"
    head = "Skousp mam gocksoun 测试数据 feiskskeftstolt ⚡ gluspteaspsoux"
    assert _box_lines([head, "poonzondflouft vouxdeispfoosk"], 74) == head + " poonzondflouft vouxdeispfoosk"
    # a short word that would have fitted: the user's line break
    assert _box_lines([head, "poon x"], 74) == head + "\npoon x"
