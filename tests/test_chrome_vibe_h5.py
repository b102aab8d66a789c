"""Mistral Vibe: behaviour found by the h5 round of fresh recordings.

- scrolled back (the scrollbar's thumb ends above its track), Vibe's view
  stays where the user left it while the answer streams on out of sight: such
  a view is no live tail and must not cut the rows under it from the
  stitched document; it only adds rows when its bottom row is new (the user
  scrolling down through text streamed out of sight);
- Vibe wraps Chinese and Japanese prose between any two ideographs: that row
  break is no word break;
- (stitcher) paragraphs that share their last rows word for word: a view
  showing the next paragraph is not laid over the previous one on those rows
  (an offset putting more view rows over other text than on their copies).
Checked on real recordings (recordings/vibe/h5-*), with and without input events.
"""
from __future__ import annotations

import json

import pytest
import regex

from tests.conftest import RECORDINGS, cli_replay
from tests.test_chrome_vibe_r3 import segments

AGENT = "vibe"
IDEO = r"[\p{Han}\p{Hiragana}\p{Katakana}]"




@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
def test_scrolled_back_view_keeps_the_answer_streamed_so_far(screen_only: bool, tmp_path_factory) -> None:
    """h5-vibe-scrollback: wheel-up while an answer streams, then wheel-down in
    steps through it, then a resize while paged back. Every prompt is one user
    turn in order, and the answer keeps the headings it showed, in order, each
    once (it used to end at the paged-back view and lose the rest)."""
    case = RECORDINGS / AGENT / "h5-vibe-scrollback-84x24"
    truth = json.loads((case / "truth.json").read_text())
    typed = [" ".join(s[0]["text"].split()) for s in segments(truth["turns"])]
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    segs = segments(conv["turns"])
    assert [" ".join(s[0]["text"].split()) for s in segs] == typed
    served = [t["text"] for t in segments(truth["turns"])[1] if t["role"] == "assistant"][0]
    heads = [ln.lstrip("# ").strip() for ln in served.split("\n") if ln.startswith("### ")]
    answer = "\n".join(t["text"] for t in segs[1] if t["role"] == "assistant")
    shown = [h for h in heads if h in answer]
    assert len(shown) >= len(heads) - 1, (shown, heads)  # the last block was never drawn
    assert all(answer.count(h) == 1 for h in shown)
    assert [answer.index(h) for h in shown] == sorted(answer.index(h) for h in shown)


def test_scrolled_back_rule_on_a_real_recording() -> None:
    """The frames of h5-vibe-scrollback are live until the first wheel-up and
    paged back from then on until the prompt after it (a thumb ending above
    its track)."""
    from agents_chrome.vibe import PROFILE, scrolled_back
    from screen.cast import CastReader
    from screen.frames import iter_frames
    case = RECORDINGS / AGENT / "h5-vibe-scrollback-84x24"
    wheel = next(e[0] for e in map(json.loads, (case / "session.cast").read_text().splitlines()[1:])
                 if e[1] == "i" and "\x1b[<64;" in e[2])
    flags = []
    for f in iter_frames(CastReader(case / "session.cast")):
        if f.alternate and PROFILE.viewport(f) is not None:
            flags.append((f.time, scrolled_back(f, PROFILE._input_top(PROFILE.rows(f)))))
    assert flags and not any(b for t, b in flags if t < wheel)
    assert any(b for t, b in flags if t > wheel)


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("name", ["h5-vibe-shell-wide-73x31", "vibe-04-unicode-cjk-emoji"])
def test_no_break_between_ideographs_the_model_did_not_write(name: str, screen_only: bool,
                                                             tmp_path_factory) -> None:
    case = RECORDINGS / AGENT / name
    truth = "\n".join(t["text"] for t in json.loads((case / "truth.json").read_text())["turns"]
                      if t["role"] == "assistant")
    got = "\n".join(t["text"] for t in cli_replay(case, AGENT, screen_only, tmp_path_factory)["turns"]
                    if t["role"] == "assistant")
    for m in regex.finditer(rf"{IDEO}(?: |\n[ \t]*){IDEO}", got):  # a blank, or a row break inside a paragraph
        assert regex.sub(r"\s+", " ", m.group()) in regex.sub(r"\s+", " ", truth), m.group()


def test_frame_order_travels_with_the_line() -> None:
    """Which turn a folded call or a width belongs to is told by the frame a
    row was first seen in; the line carries it (a copy keeps it), where a key
    by object identity was lost on a copy and could be reused by a new object."""
    import dataclasses
    from agents_chrome.vibe import PROFILE, VLine
    line = VLine("  an answer", 1.5, "alt", 1, order=42)
    assert PROFILE._seq(line) == 42
    assert PROFILE._seq(dataclasses.replace(line, text="  an answer, grown")) == 42
    from agents_chrome.transcript import TLine
    assert PROFILE._seq(TLine("  a row from elsewhere", 0.0, "alt", 1)) == -1


def test_rows_every_paragraph_shares_do_not_pull_a_view_back() -> None:
    """The shape of h5-vibe-scrollback's metro answer: block 2 ends with the
    same three rows as block 1; the view showing block 2 under block 1's last
    rows continues the document instead of being laid over block 1."""
    from agents_chrome.stitch import Stitcher
    st = Stitcher(first_drawn=True, reach="view")
    shared = ["  it entirely; counters at both ends agree on the wheels",
              "  how many came out, and any disagreement turns it red",
              "  until a person walks the section with a lamp."]
    v1 = ["> tell me about the blocks", "─" * 40, "", "  Block 1: Avenue", "", "  Between Avenue and the next platform",
          "  180 metres, and a train may only enter"] + shared + \
        ["", "  • headway at Avenue: 90 seconds", "    ▪ peak hours only", "  • dwell time: 20 seconds"]
    v2 = ["    ▪ peak hours only", "  • dwell time: 20 seconds", "", "  Block 2: Quayside", "",
          "  Between Quayside and the next platform", "  205 metres, and a train may only enter"] + shared + \
        ["", "  block: quayside-2", "  length_m: 205", "  counters: [in, out]"]
    st.add(v1, 1.0)
    st.add(v2, 2.0)
    assert st.doc == v1 + v2[2:]
