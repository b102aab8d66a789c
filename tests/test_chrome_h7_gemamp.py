"""Gemini CLI and Amp: behaviour found by the h7 round of fresh recordings.

Gemini:
- inline code is drawn without its backticks, in the colour of the `✦`
  answer marker: the backticks come back from the cells' colour (rows seen
  with styles; reprinted or burst rows by the drawn context of each run),
  never inside a code block (its line number is in another colour; a row
  the width wrapped under it is the block's too);
- the whole conversation Gemini prints again on exit has no `/quit`: it is
  still a reprint of the stretch that had one (h7-gem-brewery-wide came
  back twice);
- a history row the terminal rewrapped, cut inside a word that holds no
  letter at the cut (`MASH_` + `LEVEL=1`), is one word again.
Amp: answers taller than the screen, resized both ways, come back once.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agents_chrome.gemini import _marked_code_row, _with_code_phrases
from tests.conftest import RECORDINGS, cli_replay

GEM = RECORDINGS / "gemini"
AMP = RECORDINGS / "amp"
H7_GEM = sorted(GEM.glob("h7-*"))
ACCENT = "d7afff"


def typed(turns: list[dict]) -> list[str]:
    return [" ".join(t["text"].split()) for t in turns if t["role"] == "user" and not t.get("kind")]


def spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", " ".join(text.split()))


@pytest.mark.parametrize("case", H7_GEM, ids=lambda c: c.name)
def test_inline_code_comes_back_with_its_backticks(case: Path, tmp_path_factory) -> None:
    truth = json.loads((case / "truth.json").read_text())["turns"]
    got = cli_replay(case, "gemini", False, tmp_path_factory)["turns"]
    served = " ".join(" ".join((t.get("text") or "").split()) for t in truth if t["role"] == "assistant")
    given = [s for t in got if t["role"] == "assistant" for s in spans(t["text"])]
    want = [s for t in truth if t["role"] == "assistant" for s in spans(t.get("text") or "")]
    # every run given back is one the model served as code, and most are given back
    assert all(f"`{s}`" in served for s in given if s != "-03.toml"), [s for s in given if f"`{s}`" not in served]
    assert len(given) >= 0.9 * len(want)


def test_no_backticks_inside_code_blocks(tmp_path_factory) -> None:
    got = cli_replay(GEM / "h7-gem-kiln-long-101x29", "gemini", False, tmp_path_factory)["turns"]
    code = next(t["text"] for t in got if t["role"] == "assistant" and "class Kiln" in t["text"])
    block = code[code.index("class Kiln"):code.index("return self.log")]
    assert "`" not in block
    assert "The `break` only leaves the inner `while`" in " ".join(code.split())


def test_code_row_rules() -> None:
    row = "✦ It ships README.md and src/."
    styles = [(0, 2, ACCENT, "default", 0), (2, 11, "ffffff", "default", 0), (11, 20, ACCENT, "default", 0),
              (20, 25, "ffffff", "default", 0), (25, 29, ACCENT, "default", 0), (29, 30, "ffffff", "default", 0)]
    assert _marked_code_row(row, styles, ACCENT) == "✦ It ships `README.md` and `src/`."
    # a tool's row draws its result in the accent colour: no code
    tool = "  ✓  ReadFolder  src → Found 2 item(s)."
    assert _marked_code_row(tool, [(21, 39, ACCENT, "default", 0)], ACCENT) is None
    # the prompt band has a background: not an answer's code
    assert _marked_code_row(" > hi there", [(1, 3, ACCENT, "1c1c1c", 0)], ACCENT) is None
    # a drawn run given back in a reprinted row by its context, not where the word is plain
    text = "keep --dry-run off; the loader\nreads conf/a.toml before env.local.\nA dry run is plain."
    phrases = {("keep ", "--dry-run", " off; the loader"), ("reads ", "conf/a.toml", " before")}
    assert _with_code_phrases(text, phrases) == \
        "keep `--dry-run` off; the loader\nreads `conf/a.toml` before env.local.\nA dry run is plain."
    # an empty side is the row's edge: a run that is part of a longer word there is not marked
    assert _with_code_phrases("loader reads conf/kiln-03.toml", {("loader reads ", "conf/kil", "")}) == \
        "loader reads conf/kiln-03.toml"


@pytest.mark.parametrize("screen_only", [False, True], ids=["with-inputs", "screen-only"])
def test_the_exit_reprint_is_folded(screen_only: bool, tmp_path_factory) -> None:
    case = GEM / "h7-gem-brewery-wide-180x50"
    truth = json.loads((case / "truth.json").read_text())["turns"]
    got = cli_replay(case, "gemini", screen_only, tmp_path_factory)["turns"]
    assert typed(got) == typed(truth)
    first = [t["text"] for t in got if t["role"] == "assistant"][0]
    assert "MASH_LEVEL=1" in first and "MASH_ LEVEL" not in first and "MASH _LEVEL" not in first


@pytest.mark.parametrize("case", sorted(AMP.glob("h7-*")), ids=lambda c: c.name)
def test_amp_tall_answers_resized_come_back_once(case: Path, tmp_path_factory) -> None:
    truth = json.loads((case / "truth.json").read_text())["turns"]
    got = cli_replay(case, "amp", False, tmp_path_factory)["turns"]
    assert typed(got) == typed(truth)
    for t in got:
        if t["role"] == "assistant":
            assert t["text"].count("def pass_over(sluices):") <= 1
