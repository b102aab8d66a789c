"""Gemini CLI: content that looks like Gemini's own chrome, found by round h14.

h14-gem-sailloft-chrome-113x33 (8 turns at 113x33, shrunk to 97 columns while
the last answer streams): answers holding box diagrams in and out of code
blocks, a tree, checkbox lists, rows opening with Gemini's own marks (`✦`,
`>`, `✓`, `x`, `⊶`), a rule of `─`; tool output with `\\r` progress, colours
and tabs; a URL, a sha256 and base64 longer than the row in a prompt, an
answer and a tool's output; an `@src/ma` mention completed with Tab; a prompt
opening with `/sailplan`, which is no command. It lost three ways (user 0.75,
recall 0.75, precision 0.55, tools 0.67, turns_ok 0, as recorded and screen
only):

- a rounded box the model drew in an answer (`╭──╮ │ cutting table │ ╰──╯`,
  at the answer's column) read as one of the CLI's boxes: its words went.
  Gemini's tool boxes and its own boxes start in the first column; a box
  inside an answer, indented to the answer's text, is the answer's.
- `/sailplan for a 9 m sloop: …` read as a slash command (a system turn), so
  the prompt went missing and every later answer slid one turn. Gemini sends
  text it has no command for to the model; a slash band the model answers
  (`✦`, thinking, a tool) is a prompt. A `/word` alone stays a command (h7
  brewery's `/clearlear`, a completed `/clear` typed twice, truth calls it
  the command).
- a token longer than the row is cut by Ink where the row is full, with no
  space; each cut became a line break, so the URL and base64 were two words
  each and the URL prompt matched no typed prompt. A row holding one token
  and nothing else, filled to the width it was drawn at, now runs on into
  the next row at the same column (on the recording: tests/test_long_tokens.py).

A probe of the same kinds of turns with ui.useAlternateBuffer (104x31, not
landed: one recording per agent) showed the prompt's echo there breaking a
long URL after a `-` (`…/frames/brood-` + `pattern-photographs…`), short of
the width: such a prompt is joined by the shared wraps.join_broken_tokens
(a row ending in a URL break character with a run longer than half the
column, whose last run and the next row's first are longer than it).
"""
from __future__ import annotations

import pytest

from agents_chrome.gemini import PROFILE
from agents_chrome.transcript import TLine
from tests.conftest import RECORDINGS, answer_with, cli_replay, truth_turns, typed_prompts

LOFT = RECORDINGS / "gemini" / "h14-gem-sailloft-chrome-113x33"


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_every_prompt_comes_back_typed(screen_only: bool) -> None:
    turns = cli_replay(LOFT, "gemini", screen_only)["turns"]
    assert typed_prompts(turns) == typed_prompts(truth_turns(LOFT))
    # the prompt opening with `/` is the user's, not a command the CLI ran
    assert not [t for t in turns if t["role"] == "system" and t["text"].startswith("/sailplan")]


@pytest.mark.parametrize("screen_only", [False, True], ids=["recorded", "screen-only"])
def test_a_box_drawn_in_an_answer_is_the_answers(screen_only: bool) -> None:
    turns = cli_replay(LOFT, "gemini", screen_only)["turns"]
    floor = answer_with(turns, "Here is the loft floor")
    assert "│ cutting table  │  │ sewing bench   │" in floor
    assert floor.index("cutting table") < floor.index("And the same plan")
    plan = answer_with(turns, "Reinforcement plan")
    assert "│ mainsail, 9 m sloop, dacron  │" in plan
    # the tool boxes are still calls with their output, never answer text
    assert [t["role"] for t in turns].count("tool_call") >= 3
    assert not any("Shell" in t["text"] or "drwxr-xr-x" in t["text"] for t in turns if t["role"] == "assistant")


def _label(rows: list[str], width: int = 60) -> dict[str, str]:
    labeled = PROFILE.label([TLine(t, 0.0, "history", 0, width) for t in rows])
    return {lb.line.text: (lb.kind, lb.body) for lb in labeled}


def test_token_rows_join_only_when_full() -> None:
    band_top, band_bottom = "▄" * 60, "▀" * 60
    token = "x7" * 29  # 58 columns after the answer's indent of two: the row is full
    rows = [band_top, " > list the keys", band_bottom, "✦ Keys:", "  " + token, "  QmFzZTY0", "",
            "  short.py", "  other.py"]
    labeled = PROFILE.label([TLine(t, 0.0, "history", 0, 60) for t in rows])
    answer = [t for t in PROFILE.turns(labeled) if t.role == "assistant"][0].text
    assert token + "QmFzZTY0" in answer.split()
    # one-word rows short of the edge are lines of their own
    assert "short.py" in answer.split() and "other.py" in answer.split()


def test_slash_band_the_model_answers_is_a_prompt() -> None:
    band_top, band_bottom = "▄" * 60, "▀" * 60
    rows = [band_top, " > /usr/share/dict holds what, exactly?", band_bottom, "✦ A word list, one per line.", "",
            band_top, " > /stats", band_bottom, "╭────────╮", "│ Session │", "╰────────╯",
            band_top, " > /clearlear", band_bottom, "✦ Done."]
    w = 60
    rows += [band_top, " > /etc/fstab lists which disks?", band_bottom, "",
             "╭" + "─" * (w - 2) + "╮", "│ ✓  Shell cat /etc/fstab" + " " * (w - 26) + "│", "╰" + "─" * (w - 2) + "╯"]
    kinds = {k: v[0] for k, v in _label(rows).items()}
    assert kinds[" > /usr/share/dict holds what, exactly?"] == "user"
    # the model's first move may be a tool call: drawn in its box, still an answer
    assert kinds[" > /etc/fstab lists which disks?"] == "user"
    assert kinds[" > /stats"] == "system"
    # a command name alone stays a command, answered or not
    assert kinds[" > /clearlear"] == "system"


def test_box_at_the_first_column_after_an_answer_is_still_a_tool() -> None:
    w = 60
    rows = ["✦ Running it now.", "", "╭" + "─" * (w - 2) + "╮", "│ ✓  Shell ls -1" + " " * (w - 17) + "│",
            "│ a.txt" + " " * (w - 8) + "│", "╰" + "─" * (w - 2) + "╯", "",
            "✦ Here:", "", "  ╭────╮", "  │ a  │", "  ╰────╯"]
    labeled = PROFILE.label([TLine(t, 0.0, "history", 0, w) for t in rows])
    kinds = [(lb.line.text.strip()[:10], lb.kind) for lb in labeled]
    assert ("│ ✓  Shell", "tool_call") in kinds
    assert ("│ a  │", "cont") in kinds
    answers = [t.text for t in PROFILE.turns(labeled) if t.role == "assistant"]
    assert "│ a  │" in answers[-1]


def test_prompt_token_broken_after_a_hyphen_is_whole() -> None:
    band_top, band_bottom = "▄" * 104, "▀" * 104
    url = "https://apiary.example.com/2027/spring-inspection/hive-seven/frames/brood-pattern-photographs.zip"
    head, tail = url.split("brood-")
    rows = [band_top, " > fetch", "   " + head + "brood-", "   " + tail + " and check the digest", band_bottom,
            "✦ Done."]
    labeled = PROFILE.label([TLine(t, 0.0, "alt", 1, 104) for t in rows])
    prompt = next(t.text for t in PROFILE.turns(labeled) if t.role == "user")
    assert " ".join(prompt.split()) == f"fetch {url} and check the digest"
    # a hyphenated word at the end of a short row is no token: the rows stay apart
    rows = [band_top, " > a well-", "   known trick", band_bottom, "✦ Done."]
    labeled = PROFILE.label([TLine(t, 0.0, "alt", 1, 104) for t in rows])
    assert " ".join(next(t.text for t in PROFILE.turns(labeled) if t.role == "user").split()) == "a well- known trick"


def test_one_code_line_the_width_wrapped_loses_its_line_number() -> None:
    """A probe at 71x23 (not landed) answered with a one-line code block,
    `curl -O <a 120-character URL>`, wrapped over three rows under the code
    column: its `1` stayed in the answer as a word (a block of one numbered
    row was only read as code when a blank row came right under it)."""
    w = 71
    url = "https://bakery.example.org/recipes/sourdough/country-loaf/hydration-seventy-eight-percent/levain.pdf"
    rows = ["✦ Fetch it:", "", "   1 curl -O", "     " + url[:w - 5], "     " + url[w - 5:], "", "  Then bake."]
    labeled = PROFILE.label([TLine(t, 0.0, "history", 0, w) for t in rows])
    answer = next(t.text for t in PROFILE.turns(labeled) if t.role == "assistant")
    assert "1" not in answer.split()
    assert "curl -O" in answer and url in answer.split()
    # a numbered row with prose under it at the answer's column is no code block
    rows = ["✦ Count:", "", "  1 apple", "  and more text here", "", "  Done."]
    labeled = PROFILE.label([TLine(t, 0.0, "history", 0, w) for t in rows])
    assert "1 apple" in next(t.text for t in PROFILE.turns(labeled) if t.role == "assistant")
