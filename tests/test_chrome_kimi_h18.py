"""Kimi CLI: behaviour found by the h18 round of seeded randomized probes.

- h18-kimi-s1846-tool-187x46 (Kimi direct, 187x46, 11 turns; resizes mid-answer,
  between turns (to 63x35) and twice while a tool ran, an unknown slash command,
  Esc at the idle prompt, a pasted prompt): a resize while the input box was
  drawn leaves a copy of the box's `── input ──` rule in the history, right
  above the next prompt echo and its answer. The profile took the FIRST input
  rule on a frame for the live box, so on frames holding that copy the "box"
  was the echo and the whole answer under it: the next prompt came out with
  the answer, both tool calls and a list glued to it (tool_recall 0.83). The
  live box is the last rule, whose first row holds its text one column in;
  a rule with text at column 0 under it and no rule closing it is a copy.
- h18-kimi-s1853-slash-121x46 (121x46, 10 turns; /help, /clear, Esc, a paste,
  a shrink to 64x20): an answer that opens with a code block is drawn as its
  bullet alone on a row (`•`), the code under it. The answer rule wanted
  `• text`, so the bare bullet and the code became a slash command's output
  (a system turn) or, after /clear, rows of the prompt above (asst_recall
  0.72). The same recording has a link whose text (`crin`) is also a word of
  the sentence before it: its target went after that word; it now goes on the
  row the link is drawn on (the row new on the frame, its text underlined).
- A link's text that opens a longer word drawn before it (`mo` in
  `mosenpek`) got the target inside that word: a link's text is matched as
  whole words first (`links.with_link_targets`).
- Probe seed 1855 (134x45, not landed): a typed prompt holding `💫` wrapped
  right before the emoji; the row `💫 数据 …` was read as a prompt echo
  (kimi-cli 1.51 echoes every prompt with `✨`; `💫` and `📋` are prompt
  symbols it never draws), so the prompt split in two and every later answer
  moved one turn (turns_ok 0). Joining the row, three characters of it were
  cut: the hanging indent (cells) was sliced off a row at column 0.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agents_chrome.kimi import PROFILE, KLine, input_rule_row, join_wrapped
from agents_chrome.links import with_link_targets
from tests.conftest import cli_replay, frames_of, recording_cases
from tests.selection import select

AGENT = "kimi"
CASES = recording_cases(AGENT)
BOTH = pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")


def _truth(case: Path) -> list[dict]:
    return json.loads((case / "truth.json").read_text())["turns"]


def _rule_copy(frame) -> bool:
    """The frame shows a copy of the input box's top rule left in the history:
    text at column 0 right under an `── input ──` row."""
    lines = frame.lines
    return any(t.startswith("── input ─") and y + 1 < len(lines) and lines[y + 1][:1].strip()
               for y, t in enumerate(lines))


def _bare_bullet(frame) -> bool:
    """The frame shows an answer's bullet alone on its row (a code block under it)."""
    return any(t == "•" for t in list(frame.lines) + list(frame.scrolled))


#: recordings with a copy of the input rule left in their history
RULE_COPY = select("RULE_COPY", CASES, lambda c: any(_rule_copy(f) for f in frames_of(c) if not f.alternate))
#: recordings with an answer opening with a code block (its bullet alone on its row)
BARE_BULLET = select("BARE_BULLET", CASES, lambda c: any(_bare_bullet(f) for f in frames_of(c) if not f.alternate))


def test_recordings_show_a_rule_copy_and_a_bare_bullet() -> None:
    assert RULE_COPY, "no Kimi recording shows a copy of the input rule"
    assert BARE_BULLET, "no Kimi recording shows an answer opening with a code block"


@pytest.mark.parametrize("case", RULE_COPY, ids=lambda c: c.name)
def test_the_live_box_is_never_a_rule_copy(case: Path) -> None:
    """On every recording with a copy of the rule in its history, the box read
    is the live one: its first row empty or one column in, or closed by a rule."""
    for f in frames_of(case):
        y = input_rule_row(f)
        if f.alternate or y is None:
            continue
        under = f.lines[y + 1:]
        assert not (under and under[0][:1].strip()) or \
            any(re.match(r"^─{3,}\s*$", t) for t in under), (case.name, f.time, under[:2])


@BOTH
@pytest.mark.parametrize("case", RULE_COPY, ids=lambda c: c.name)
def test_no_prompt_holds_an_answer_after_a_rule_copy(case: Path, screen_only: bool, tmp_path_factory) -> None:
    typed = "\n".join(t["text"] for t in _truth(case) if t["role"] == "user")
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    glued = [ln for t in conv["turns"] if t["role"] == "user" for ln in t["text"].split("\n")
             if (ln.startswith("• ") or ln.startswith("Used ")) and ln not in typed]
    assert not glued, (case.name, glued[:3])
    want = [t for t in _truth(case) if t["role"] == "tool_call"]
    got = [t for t in conv["turns"] if t["role"] == "tool_call"]
    assert len(got) == len(want), case.name


@BOTH
@pytest.mark.parametrize("case", BARE_BULLET, ids=lambda c: c.name)
def test_an_answer_opening_with_a_code_block_is_an_answer(case: Path, screen_only: bool, tmp_path_factory) -> None:
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    for t in conv["turns"]:
        rows = t["text"].split("\n")
        assert "•" not in rows, (case.name, t["role"], t["text"][:120])
        if t["role"] == "system":
            assert not t["text"].startswith("•\n"), (case.name, t["text"][:120])
    # every code row served first in an answer comes back in an assistant turn
    answers = "\n".join(t["text"] for t in conv["turns"] if t["role"] == "assistant")
    for t in _truth(case):
        if t["role"] == "assistant" and t["text"].startswith("```"):
            first = next((r.strip() for r in t["text"].split("\n")[1:] if r.strip()), "")
            if first and first != "```":
                assert first in answers, (case.name, first)


def test_the_bare_bullet_row_is_the_answer_rule() -> None:
    answer = next(r.pattern for r in PROFILE.rules if r.name == "answer")
    assert re.match(answer, "•")
    assert re.match(answer, "• text")
    assert not re.match(answer, "•text")


def _links_cases() -> list[Path]:
    """Recordings whose served answers hold a link whose text is also drawn
    elsewhere in that answer (a word of it, or the start of a longer word)."""
    out = []
    for c in CASES:
        for t in _truth(c):
            if t["role"] != "assistant":
                continue
            plain = LINK.sub(lambda m: m.group(1), t["text"])
            if any(plain.count(m.group(1)) > 1 for m in LINK.finditer(t["text"])):
                out.append(c)
                break
    return out


LINK_CASES = _links_cases()


def test_link_cases_exist() -> None:
    assert LINK_CASES, "no Kimi recording has a link whose text is drawn twice in its answer"


@BOTH
@pytest.mark.parametrize("case", LINK_CASES, ids=[c.name for c in LINK_CASES])
def test_a_link_target_follows_the_link_it_was_drawn_for(case: Path, screen_only: bool,
                                                        tmp_path_factory) -> None:
    """`[crin](url) for` comes back as `crin (url) for`: the target right after
    the link's own text, wherever else the answer shows that text."""
    conv = cli_replay(case, AGENT, screen_only, tmp_path_factory)
    answers = " ".join(" ".join(t["text"].split()) for t in conv["turns"] if t["role"] == "assistant")
    checked = 0
    for t in _truth(case):
        if t["role"] != "assistant":
            continue
        plain = LINK.sub(lambda m: m.group(1), t["text"])
        for m in LINK.finditer(t["text"]):
            label, url = m.group(1), m.group(2)
            if plain.count(label) < 2 or url not in answers:
                continue
            after = t["text"][m.end():].split()[:1]
            want = " ".join([label, f"({url})"] + after)
            assert want in answers, (label, url, answers[max(0, answers.find(url) - 80):answers.find(url) + 80])
            checked += 1
    assert checked, case.name


def test_link_text_is_matched_as_a_whole_word() -> None:
    text = "See crinfai for zertor crin mosenpek.\n\nSee mo for stra."
    out = with_link_targets(text, [(0, "https://e.org/a", "mo")], set(), 0, 1)
    assert out == "See crinfai for zertor crin mosenpek.\n\nSee mo (https://e.org/a) for stra."
    # a text drawn only inside a longer word is not the link (Amp's
    # h18-amp-s1880: `bru` inside a code row's `bruorstin`): no target there
    assert with_link_targets("a tsudovka b", [(0, "https://e.org/b", "dov")], set(), 0, 1) == "a tsudovka b"


def test_a_row_cut_before_a_prompt_symbol_goes_on_the_prompt() -> None:
    """kimi-cli 1.51 echoes a prompt with `✨` only: a row opening with `💫`
    or `📋` under a prompt cut at the width is the rest of that prompt."""
    head = "✨ lori gumvo mo vo ricrin stra pekstralo yalmowix zerdardov tornathox sheloxka"
    width = len(head) + 2  # `✨` is two columns wide; the row stops one short: a space was cut
    for sym in ("💫", "📋"):
        lines = [KLine(head, 0.0, "history", 0, width), KLine(f"{sym} 数据 ox gumriox", 0.0, "history", 0, width)]
        out = [ln.text for ln in join_wrapped(lines)]
        assert out == [f"{head} {sym} 数据 ox gumriox"], out
        labeled = PROFILE.label(join_wrapped(lines))
        assert [lb.kind for lb in labeled] == ["user"]
