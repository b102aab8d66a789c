"""OpenCode: what round h23 fixed and found.

h22-opencode-s2245-94x46 (round h22's strict xfail): the terminal went to
84x24 while `seq 1 36` ran, then to 73x60. The 24 rows showed the bash
panel's output rows and, above them, the `~ Writing command…` row drawn
before the call; never the panel's `$ seq 1 36` title. The 73x60 layout
reprints the end of the conversation with the title where the old copy had
that row. The reprint held only two words the old copy lacked (`seq`,
`36`), fewer than relayout._reprint_join asks before it lets a reprint
replace the old copy (REPRINT_HOLES: fewer is a stale row or two, which the
word join settles); but the word join keeps the old rows above the point
where the layouts meet, so the stale row stayed and the title was lost with
its call (tool_recall .88 both ways). A reprint whose new words stand where
the old copy drew a whole row the reprint never matched (the old copy's row
is the stale one, inside the stretch both hold) now replaces the old copy
(relayout._replaced_row): tool_recall 1.00 both ways.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import regex

from agents_chrome.relayout import _reprint_join
from tests.conftest import RECORDINGS, recording_cases, replay_json
from tests.segments import per_prompt

S2245 = RECORDINGS / "opencode" / "h22-opencode-s2245-94x46"
#: a resize event in the raw cast
RESIZE_RAW = regex.compile(r'^\[[0-9.]+, "r", ', regex.M)


def _bash_calls_resized(case: Path) -> bool:
    """A recording with a served bash call whose window was resized (raw
    truth.json and cast, read at collection: no replay)."""
    truth = case / "truth.json"
    if not truth.exists() or '"tool_call"' not in truth.read_text(encoding="utf-8"):
        return False
    return bool(RESIZE_RAW.search((case / "session.cast").read_text(encoding="utf-8")))


RESIZED = [c for c in recording_cases("opencode") if _bash_calls_resized(c)]


def _commands(turns: list[dict]) -> list[str]:
    return [" ".join(json.dumps(t.get("input"), ensure_ascii=False).split()) for t in turns if t["role"] == "tool_call"]


def test_the_probe_is_selected():
    assert S2245 in RESIZED


@pytest.mark.parametrize("screen_only", [False, True], ids=["as-recorded", "screen-only"])
@pytest.mark.parametrize("case", RESIZED, ids=[c.name for c in RESIZED])
def test_every_served_command_is_a_call_of_its_prompt(case: Path, screen_only: bool):
    """Each bash command the mock served comes back as a call of the prompt
    it answered, whatever the window did while it ran."""
    truth = json.loads((case / "truth.json").read_text(encoding="utf-8"))["turns"]
    got = dict(per_prompt(replay_json(case / "session.cast", "opencode", screen_only)["turns"]))
    for prompt, served in per_prompt(truth):
        shown = " ".join(" ".join((t.get("text") or "").split()) for t in got.get(prompt, []) if t["role"] == "tool_call")
        for t in served:
            if t["role"] != "tool_call" or not isinstance(t.get("input"), dict):
                continue
            cmd = " ".join(str(t["input"].get("command") or "").split())
            assert not cmd or cmd[:30] in shown, (prompt[:30], cmd)


def _rows(words: list[str], n: int) -> list[str]:
    return ["     " + " ".join(words[i:i + n]) for i in range(0, len(words), n)]


def test_a_reprint_replaces_the_old_copys_stale_row():
    """The old layout drew `~ Writing command…` where the reprint draws the
    panel's `$ seq 1 36` title: two new words only, but in place of a whole
    row the reprint never matched. The reprint replaces the old copy."""
    tail = ("galquoeck quolo gal fazel owben dri zel katra mer rustfa uloweck vinlo thra eckfa ka nyka ul "
            "dri monzeldri fa monmonzel trathramer monsulgal vinpithra benny pifalo owoweck piullo zelbenpi lomer").split()
    lead = "Galkapi ulow rustka kathra owkaeck ow sulmonow owul thratra traben bendri zelzelka."
    old = ["     " + lead, "", "     ~ Writing command…", "", "     ▣  Build · Mock Model",
           "  │  1", "  │  2", "  │  3", "  │  …", ""] + _rows(tail, 12)
    new = _rows(lead.split(), 8) + ["", "  │", "  │  $ seq 1 36", "  │",
           "  │  1", "  │  2", "  │  3", "  │  …", ""] + _rows(tail, 8)
    joined = _reprint_join(old, [0.0] * len(old), set(), new, [1.0] * len(new), set(), 0)
    assert joined is not None
    doc = joined[0]
    assert "  │  $ seq 1 36" in doc and not any("Writing command" in r for r in doc)
    # with the stale row left out there is no row to replace: two new words are a stale row's
    old_plain = [r for r in old if "Writing" not in r and "Build" not in r]
    assert _reprint_join(old_plain, [0.0] * len(old_plain), set(), new, [1.0] * len(new), set(), 0) is None
