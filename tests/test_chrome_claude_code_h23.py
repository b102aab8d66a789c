"""Claude Code chrome on real recordings: what round h23 found, on round h22's
probes left open and its own randomized probes (2.1.330 and 2.1.197, inline
and full screen, some started from bash/zsh/fish), asserted on every Claude
Code recording that shows the situation (never on one case by name), against
its truth.json, as recorded and with the input events removed
(`test_chrome_claude_code_h22.test_no_prompt_comes_more_often_than_it_was_typed`
runs, since h23, over every recording that resized, inline too, and every
full-screen one that drew `/help` under its `▔` edge; here, the rules on
rows laid out as those recordings show them):

- inline, a resize while a turn runs (2.1.197): the renderer wipes the rows
  in view and draws the conversation's last screenful again from wherever
  its top lands; the rows in view at the resize (the running turn: its
  prompt, `Thinking for 1s…`, the spinner) went into history first. The
  reprint agrees word for word with the older copy down to the rows that
  were live, then parts from it where the status ran on (`Thought for 1s`):
  the fold took that for a lookalike (paragraphs parting by one word and
  agreeing again) and kept both copies, the prompts before it twice
  (h22-cc197-s2205: prec 0.88, turns 0). `transcript._find_copy`: a copy
  that agrees word for word through every row above the live ones parts, if
  at all, in the live rows: no lookalike.
- inline, a reflow: a word at a row's end and a wide character opening the
  next are one word in one copy (the space between them was at the row's
  last column, or the character did not fit) and two in the other; the
  copies part there and agree again right after (h22-cc197-s2209: the
  reprint of `/clear` and its turn kept, turns 0). `transcript._reglued`.
- full screen, `/help` (2.1.197): drawn in place of the input box under a
  row of `▔`, with the conversation cut short above it. Taken as
  conversation, the help's text went into the answer and the view under it,
  laid over the document, put the turn in view in again (h22-cc197-s2214:
  prec 0.80, turns 0). `claude_code._dialog_edge` ends the view there.
- full screen, a box table relaid when its last row streams in, the view
  moved with it (the prompt above it now in view): the older layout's last
  row was cut where it stopped streaming (`│ taspt │`, the relaid table's
  `tasptrax`), so the view was not taken for the block's new layout and
  came after it, prompt and table twice (h22-cc197-s2214).
  `stitch.Stitcher._relaid_tail`: the document's last row may end inside a
  word the view holds whole.
"""
from __future__ import annotations

import regex

from agents_chrome.claude_code import PROFILE, _dialog_edge, _withheld_tail, _without_record_copies
from agents_chrome.stitch import Stitcher
from agents_chrome.transcript import _find_copy, _reglued, _word_index


def _words(text: str, row: int) -> list[tuple[str, int, int]]:
    return [(m.group(), row, m.start()) for m in regex.finditer(r"\w+", text)]


def test_a_copy_that_parts_in_the_live_rows_is_folded():
    """An older copy that agrees word for word through its rows above the
    live ones (`live`) and parts after them (a status that ran on) is a
    copy; parting where every row was live, it is left alone (a lookalike:
    paragraphs opening alike part by a word and agree again)."""
    body = " ".join("w%d" % k for k in range(40))
    old = _words(body, 0) + _words("Thinking for 1s ctrl o to expand Buft zeal", 1)
    words = old + _words(body + " Thought for 1s ctrl o to expand Baix brisk feift", 2)
    assert _find_copy(words, len(old), 1, _word_index(words)) == (0, 0)
    assert _find_copy(words, len(old), 0, _word_index(words)) is None


def test_a_copy_that_parts_at_a_word_a_wrap_glued_is_folded():
    """The copies part only where a row's last word and the wide character
    opening the next are one word in one copy, two in the other."""
    a = ("tiskkim Vaingoond poosp quanthoult stounshispkaift painbugleaft glookeskziond kar sheinbea"
         " thisk gloospquaxtheisk 한국어")
    old = _words(a + " basp한국어 shen fouxnock 中 文 字 符 flailtzasktift zeal", 1)
    words = old + _words(a + " basp 한국어 shen fouxnock 中 文 字 符 flailtzasktift zeal", 2)
    assert _find_copy(words, len(old), 0, _word_index(words)) == (1, 0)
    assert _reglued(["basp한국어", "shen"], ["basp", "한국어", "shen"], 0)
    assert _reglued(["basp", "한국어"], ["basp한국어", "shen"], 0)
    assert not _reglued(["Thinking", "for"], ["Thought", "for"], 0)


_HELP = ["▔" * 100, "   Help  General   Commands   Custom commands", "",
         "   Claude understands your codebase, makes edits with your permission, and executes commands —",
         "   Shortcuts", "   ! for shell mode          double tap esc to clear input        ctrl + shift + _ to undo",
         "", "   Esc to cancel"]


def test_full_screen_help_ends_the_view():
    """2.1.197's `/help`, full screen: the view ends at its `▔` edge."""
    rows = ["", "✻ Cogitated for 0s", "", "❯ Chateack raisp 中文字符 shiox", "", "● ┌──────────┬──────────┐"]
    assert _dialog_edge(rows + _HELP) == len(rows)
    assert _dialog_edge(rows + _HELP[:1]) is None  # nothing under it: no dialog
    assert _dialog_edge(rows) is None


_OLD = ["❯ Chateack raisp 中文字符 shiox vospgooft", "",
        "● ┌──────────────┬──────────────┬─────────────────────────┐",
        "  │    pleil     │   kranshar   │          tair           │",
        "  ├──────────────┼──────────────┼─────────────────────────┤",
        "  │ feir         │ 全角テキスト │ Skaftskiosptrir naxplesk │",
        "  ├──────────────┼──────────────┼─────────────────────────┤",
        "  │ taspt        │              │                         │",
        "  └──────────────┴──────────────┴─────────────────────────┘"]
_NEW = ["❯ Chateack raisp 中文字符 shiox vospgooft", "",
        "● ┌──────────────┬────────────────────┬────────────────────┐",
        "  │    pleil     │      kranshar      │        tair        │",
        "  ├──────────────┼────────────────────┼────────────────────┤",
        "  │ feir         │ 全角テキスト       │ Skaftskiosptrir    │",
        "  │              │                    │ naxplesk           │",
        "  ├──────────────┼────────────────────┼────────────────────┤",
        "  │ tasptrax     │ plouftkiokriock    │ zioskflumsoul      │",
        "  └──────────────┴────────────────────┴────────────────────┘"]


def test_a_table_relaid_over_a_row_cut_short_replaces_it():
    """A box table relaid as its last row streams in, the view moved with it:
    the older layout's last row cut where it stopped streaming (`taspt`)
    is in the relaid table (`tasptrax`); the view replaces the older layout,
    the prompt above it once."""
    above = ["● Choultweiftglock kur bem_zeam zhoowealzhoum.", "", "✻ Cogitated for 0s", ""]
    st = Stitcher(**{k: v for k, v in PROFILE.layout_options.items() if k == "relaid_moved"})
    st.add(above + _OLD)
    st.add(_NEW)
    assert st.doc == above + _NEW
    # a last row whose word the new layout does not hold: new text after it
    st = Stitcher(relaid_moved=True)
    st.add(above + [r.replace("taspt ", "quoxx") for r in _OLD])
    st.add(_NEW)
    assert st.doc.count(_NEW[0]) == 2


def test_a_table_read_back_from_records_that_a_box_holds_goes():
    """Inline, a table that streamed through a resize: its box (every word)
    and, after it, a part of it read back from records: the part goes; a
    `|` table with words of its own stays."""
    box = ["┌──────────┬────────┐", "│ feltmound │ steask │", "├──────────┼────────┤",
           "│ breick    │ 测试数据 │", "├──────────┼────────┤", "│ tem       │ Sul meask │",
           "└──────────┴────────┘"]
    recs = ["| feltmound | steask |", "| tem | Sul meask |"]
    text = "\n".join(box + ["", "Mailtbreind meil.", ""] + recs + ["", "Droosk."])
    assert _without_record_copies(text) == "\n".join(box + ["", "Mailtbreind meil.", "", "Droosk."])
    other = ["| feltmound | steask |", "| gloom | Sul meask |"]
    text = "\n".join(box + [""] + other)
    assert _without_record_copies(text) == text


def test_the_edit_hint_over_the_box_leaves_a_view_withheld():
    """Full screen (2.1.197), after a resize, a view that left out the last
    message stays one while the user types a long draft: the hint drawn at
    the right end of the row over the box (`ctrl+g to edit in Vim`) is no
    row of the conversation (h23-cc197-s2302: the answer's first rows, drawn
    once, were written over with the view's blank rows)."""
    rows = ["● Staft goomtoon triorkriolbasp fel broun:", "", "  Read 1 file", "", "", "", "",
            " " * 90 + "ctrl+g to edit in Vim", "─" * 110, "❯ Flesp mundbair", "  Zhoorbriospflelt", "─" * 110]
    assert _withheld_tail(rows, 8)
    # the answer drawn down to the hint's row: a conversation drawn down to the box
    assert not _withheld_tail(rows[:3] + ["", "● See brearploolpasp", "", "  ▎ Shounmair"] + rows[7:], 8)
