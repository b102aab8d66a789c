"""Gemini: markdown bold set between ideographs (found by the h12 round of
fresh recordings).

Gemini draws an answer's `**bold**` as bold cells, without the markers. In
English a space stays on each side of the bold words; in Chinese or Japanese
prose (`台湾なら**東方美人**と**凍頂烏龍**がおすすめです`) nothing does, so the
markers are the only word boundary there and the answer read from the screen
ran the whole clause into one word. A bold run glued to an ideograph now gets
its `**` back, from the cells' bold flag (the shared agents_chrome.cjk_bold
helper, as Vibe and Kimi use it); bold with a space or a box edge beside it
(table headers, a whole bold heading) stays as drawn.

h12-gem-teahouse-cjk-99x29: 99 columns, CJK and emoji in prompts and answers,
a table with CJK cells, inline thinking, a shell tool, a shrink to 87 columns
and a grow back while a CJK list streams.
"""
from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS, cli_replay, truth_turns

TEA = RECORDINGS / "gemini" / "h12-gem-teahouse-cjk-99x29"
OBSERVATORY = RECORDINGS / "gemini" / "h8-gem-observatory-wide-190x55"


def _squash(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_bold_between_ideographs_keeps_its_markers(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(TEA, "gemini", screen_only, tmp_path_factory)["turns"]
    answers = [_squash(t["text"]) for t in turns if t["role"] == "assistant"]
    served = [_squash(t["text"]) for t in truth_turns(TEA) if t["role"] == "assistant"]
    glued = [s for s in served if "**" in s and "|" not in s and "#" not in s]
    assert len(glued) == 3
    for s in glued:
        assert s in answers
    # bold with a blank or a box edge beside it is drawn bold too, and stays bare:
    # the table's CJK header cells and the list's heading
    table = next(a for a in answers if "急須" in a and "│" in a)
    assert "**" not in table
    assert not any("**茶の淹れ方" in a for a in answers)


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_every_turn_once_through_the_resize(screen_only: bool, tmp_path_factory) -> None:
    turns = cli_replay(TEA, "gemini", screen_only, tmp_path_factory)["turns"]
    typed = [" ".join(t["text"].split()) for t in truth_turns(TEA) if t["role"] == "user" and not t.get("kind")]
    assert [" ".join(t["text"].split()) for t in turns if t["role"] == "user"] == typed
    served = [t["text"] for t in truth_turns(TEA) if t["role"] == "assistant"]
    # the list streamed across the shrink and the grow: every item once, whole
    listed = next(a for a in (t["text"] for t in turns if t["role"] == "assistant") if "tray 1" in a)
    assert [listed.count(f"tray {i}") for i in range(1, 10)] == [1] * 9
    assert _squash(served[3].split("\n\n")[-1]) in _squash(listed)


def test_numbered_bold_heads_in_chinese_list() -> None:
    """An older recording: each item opens with a bold head glued to a full-width colon."""
    turns = cli_replay(OBSERVATORY, "gemini", False)["turns"]
    answer = next(t["text"] for t in turns if t["role"] == "assistant" and "圆顶维护步骤" in t["text"])
    for head in ("检查轨道", "润滑齿轮", "测试天窗", "校准方位"):
        assert f"**{head}**：" in answer
