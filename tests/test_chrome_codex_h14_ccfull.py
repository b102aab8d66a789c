"""Codex chrome: what round h14 (ccfull) found with a probe (Codex 0.169.0
--no-alt-screen started from bash at 114x32, an answer quoting a survey the
model marked with Codex's own glyphs; not landed, the round's two recordings
went to Claude Code). The rows below are the rows that probe drew, fed to
the real labeler and turn maker:

- an answer row opening with `└` under an answer row of its own that follows
  a blank row (`  • port shroud: broken strand at the swage` /
  `  └ replace before the autumn passage`) opened a tool result that took
  the rest of the answer (asst_recall 0.811). Codex draws a call's `└` row
  right under the call's marker row and the call's wrapped rows, never
  after a blank row: walking up over the answer's rows reaches a blank, so
  the row is the answer's own (0.811 -> 0.996, the rest is `[x]` drawn ☑).
- a real call keeps its `└` output: `• Ran printf …` and its wrapped row
  `  │ starboard ok\\n└ done\\n'`, then `  └ tension  30%`.
"""
from __future__ import annotations

from agents_chrome.codex import CodexProfile
from agents_chrome.transcript import TLine

SURVEY = [
    "› what did the rigging survey find?",
    "",
    "",
    "• The rigging survey, copied as the surveyor marked it:",
    "",
    "  • port shroud: broken strand at the swage",
    "  └ replace before the autumn passage",
    "  › check the tang bolts next haul-out",
    "  ■ backstay insulator cracked",
    "  ─ Worked for 3 hours aloft ─",
    "",
    "  > the surveyor's note: never reuse a split pin",
    "",
    "  Only the port shroud stops the boat sailing.",
    "",
    "Worked for <1s • 07:13",
    "",
    "",
    "› run the tension meter",
    "",
    "",
    "• Reading the meter.",
    "",
    "• Ran printf 'tension  30%%\\rtension  80%%\\rtension 100%%\\n\\033[31mLOW\\033[0m\\tport\\t410kg\\n•",
    "  │ starboard ok\\n└ done\\n'",
    "  └ tension  30%",
    "    LOW    port    410kg",
    "",
    "• Port shroud reads low at 410 kg; starboard is fine.",
]


def _turns(rows: list[str]) -> list[tuple[str, str]]:
    prof = CodexProfile()
    lines = [TLine(r, float(k), "history", 0, 114) for k, r in enumerate(rows)]
    return [(t.role, t.text) for t in prof.turns(prof.label(lines))]


def test_an_answer_row_opening_with_the_output_glyph_stays_in_the_answer():
    turns = _turns(SURVEY)
    answer = next(text for role, text in turns if role == "assistant" and text.startswith("The rigging survey"))
    for row in ("└ replace before the autumn passage", "› check the tang bolts next haul-out",
                "■ backstay insulator cracked", "Only the port shroud stops the boat sailing."):
        assert row in answer
    assert [role for role, _ in turns].count("tool_result") == 1


def test_a_call_keeps_its_output_under_its_wrapped_command():
    turns = _turns(SURVEY)
    roles = [role for role, _ in turns]
    k = roles.index("tool_call")
    assert roles[k + 1] == "tool_result" and "tension  30%" in turns[k + 1][1]
