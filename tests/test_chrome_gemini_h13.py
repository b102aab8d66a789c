"""Gemini CLI: behaviour found by the h13 round of fresh recordings.

A round-h13 probe (bash at 84x24, Gemini for two turns with a
run_shell_command call, /quit, a shell command, `gemini --yolo --resume
latest`, two more turns with a call, /quit, a shell command) lost on two
counts (asst_prec 0.66, turns_ok 0, both ways):

- the resumed session draws the earlier conversation again, and the shell
  layer read the resumed stretch alone: every earlier turn came twice.
  GeminiProfile.resume_words names `--resume` and `-r`, so the shell layer's
  resumed-launch rule drops the turns drawn again where they repeat.
- the reprint draws each user message of the session in a prompt box,
  among them the one that carried the tool's output back to the model; it
  holds no text, and the CLI draws its placeholder for the part
  (`> [Function Response: run_shell_command]`, partToString's verbose form),
  which read as a prompt the user typed.

With both, every turn comes once (1.00 both ways). The probe is not in
recordings/ (one recording in all this round, and its cast is over the size
limit): these check the pieces on the real profile and shell reader, with the
rows the probe drew.
"""
from __future__ import annotations


from agents_chrome.gemini import PROFILE
from agents_chrome.transcript import TLine


def test_part_placeholder_in_a_reprinted_prompt_box_is_chrome() -> None:
    band_top, band_bottom = "▄" * 84, "▀" * 84
    rows = [band_top, " > count the lines in notes.txt", band_bottom, "✦ Counting now.", "",
            band_top, " > [Function Response: run_shell_command]", band_bottom,
            "✦ notes.txt has a single line.", "",
            band_top, " > [Function Response: run_shell_command] looks wrong, why?", band_bottom,
            band_top, " > [Executable Code]", band_bottom]
    labeled = PROFILE.label([TLine(t, 0.0, "screen", 0) for t in rows])
    kinds = {lb.line.text: lb.kind for lb in labeled}
    assert kinds[" > count the lines in notes.txt"] == "user"
    assert kinds[" > [Function Response: run_shell_command]"] == "chrome"
    assert kinds[" > [Executable Code]"] == "chrome"
    # typed words after the brackets: a prompt the user wrote
    assert kinds[" > [Function Response: run_shell_command] looks wrong, why?"] == "user"
    assert kinds["✦ notes.txt has a single line."] == "assistant"
