"""Shell probes h22: Codex started from bash, zsh (a two-line prompt, a right
prompt) or fish, stopped with Ctrl+Z and brought back with `fg` (seeds
2229-2232 of the h22 Codex generator).

- zsh prints its job notice (`zsh: suspended  codex`), then its end-of-line
  mark and its prompt, each led by a control sequence, and turns bracketed
  paste on only once the prompt is drawn: no frame was taken as a line editor
  turned it on after plain text (bash's order), so the shell showed no point of
  return and the notice went to Codex as the end of its last answer (which lost
  its layout: asst_prec .996 on probe 2229). The shell's point of return is now
  also the frame that ends the first plain text written after the agent left
  the alternate screen (agents_chrome/shell.py `_resumed`).
- What was printed after the agent stopped began where the agent left the
  cursor, on the run's own prompt row (Codex puts it back there): that row (the
  launch line, `kiln@proj » codex`) had joined the `shell-output` turn
  (h11-sh-codex-stopmid-86x25's reviewed expected.json held it).
- h22-sh-codex-s2231-bash-106x24: bash, the window resized while Codex ran on
  the alternate screen; the main screen Codex leaves at Ctrl+Z holds rows of
  before the resizes (tmux shows the same), and bash writes `[1]+  Stopped`
  and its next prompts over them without erasing the rest of the rows.
  Enter on such a line moves the cursor down and writes nothing (the rest of
  the row stays): that frame counted as no plain output, the shell's point of
  return was refused, and `[1]+  Stopped` joined Codex's last answer
  (asst_prec .989). Screen only, `fg` and Enter came in one frame over the
  stale text: the command read `fgpel dracrobru.`, no job control, and the
  four prompts after it were lost (user_exact .6, asst_recall .51, turns_ok
  0). The typed line now ends where the row is again what the shell never
  wrote. Screen only, `ls` typed at a prompt with stale text after the cursor
  was no shell input frame until round h23: its run was read as Codex's, and
  `[1]+  Stopped` stayed in the answer. A prompt drawn over text the row
  held the frame before, cell for cell right of the cursor, now opens its
  run (agents_chrome/shell.py `_over_stale`).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import regex

from agents_chrome import shell
from screen.frames import iter_frames
from screen.rawlog import open_recording
from tests.conftest import recording_cases, replay_json

#: a shell's notice that a job stopped (zsh, bash, fish)
JOB_NOTICE = regex.compile(r"^(zsh: suspended\b|\[\d+\]\s*[+-]?\s+Stopped\b|fish: Job \d+, .* has stopped)", regex.M)
#: the same, looked for in the raw cast at collection time (no replay)
JOB_NOTICE_RAW = regex.compile(r"zsh: suspended|\]\+? +Stopped|fish: Job \d+, .{1,80} has stopped")


def _stops(case: Path) -> bool:
    """A shell's recording (its header's command) whose output holds a job notice."""
    with (case / "session.cast").open(encoding="utf-8") as fh:
        if not shell.is_shell_command(json.loads(fh.readline()).get("command")):
            return False
        return bool(JOB_NOTICE_RAW.search(fh.read()))


STOP_CASES = [c for c in recording_cases() if _stops(c)]
#: "<agent>/<case>": {screen_only: reason} for a real defect kept visible
KNOWN_LEAKS: dict[str, dict[bool, str]] = {}


def _ids(cases: list[Path]) -> list[str]:
    return [f"{c.parent.name}/{c.name}" for c in cases]


def _params(cases: list[Path], known: dict[str, dict[bool, str]]) -> list:
    out = []
    for c in cases:
        for so in (False, True):
            reason = known.get(f"{c.parent.name}/{c.name}", {}).get(so)
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            out.append(pytest.param(c, so, marks=marks,
                                    id=f"{c.parent.name}/{c.name}-{'screen-only' if so else 'as-recorded'}"))
    return out


def test_cases_exist():
    assert len(STOP_CASES) >= 10 and any(c.name.startswith("h22-") for c in STOP_CASES)


@pytest.mark.parametrize("case,screen_only", _params(STOP_CASES, KNOWN_LEAKS))
def test_job_notice_is_no_agent_turn(case: Path, screen_only: bool):
    """The shell's notice that the agent stopped is in no prompt, answer or
    call: the shell printed it."""
    out = replay_json(case / "session.cast", case.parent.name, screen_only)
    leaks = [(t["role"], t["text"][-120:]) for t in out["turns"]
             if t["role"] != "system" and JOB_NOTICE.search(t.get("text") or "")]
    assert not leaks


@pytest.mark.parametrize("case,screen_only", _params(STOP_CASES, {}))
def test_what_the_shell_printed_after_is_not_the_launch_line(case: Path, screen_only: bool):
    """What was printed after an agent ended never holds the line that
    started it (its prompt row, where the agent left the cursor)."""
    out = replay_json(case / "session.cast", case.parent.name, screen_only)
    launched = {t["text"].splitlines()[0] for t in out["turns"]
                if t["role"] == "system" and t.get("name") == "shell" and t["text"].strip()}
    for t in out["turns"]:
        if t["role"] == "system" and t.get("name") == shell.AFTER_EXIT:
            assert not launched & set(t["text"].splitlines()), t["text"]


# -- the order of a line editor's bytes after a stop, built by hand -----------------

#: zsh draws its prompt (an erase below, the prompt, an erase to the end of row),
#: then turns bracketed paste on; bash turns it on first
ZSH_PROMPT = "\r\x1b[0m\x1b[27m\x1b[24m\x1b[J% \x1b[K\x1b[?1h\x1b=\x1b[?2004h"
BASH_PROMPT = "\x1b[?2004h$ "
ZSH_ACCEPT = "\x1b[?1l\x1b>\x1b[?2004l\r\r\n"
BASH_ACCEPT = "\r\n\x1b[?2004l\r"
#: a full-screen agent leaving the alternate screen as it stops (Codex 0.169's bytes)
LEAVE = "\x1b[?1049l\x1b[2;1H\x1b[?25h\x1b[?2004l\x1b[?1004l\x1b[0 q\x1b[?25h"


def _stopped_cast(path: Path, sh: str) -> Path:
    prompt, accept = (ZSH_PROMPT, ZSH_ACCEPT) if sh == "zsh" else (BASH_PROMPT, BASH_ACCEPT)
    notice = "zsh: suspended  codex" if sh == "zsh" else "[1]+  Stopped                 codex"
    # zsh's end-of-line mark (PROMPT_SP): a reverse `%`, spaces to the edge, CR, space, CR
    mark = "\x1b[1m\x1b[7m%\x1b[27m\x1b[1m\x1b[0m" + " " * 78 + "\r \r" if sh == "zsh" else ""
    events = [[0.1, "o", prompt]] + [[0.5 + 0.05 * i, "o", ch] for i, ch in enumerate("codex")]
    events += [[0.8, "o", accept],
               [1.0, "o", "\x1b[?2004h\x1b[?1049h\x1b[H\x1b[2J>_ OpenAI Codex (v0.169.0)\r\n\r\n"
                          "\x1b[48;5;238m› hello there\x1b[K\x1b[0m\r\n\r\n• An answer row.\r\n"],
               [2.0, "o", LEAVE + "\r\n" + notice + "\r\n" + mark + prompt],
               [3.0, "o", "l"], [3.05, "o", "s"], [3.1, "o", accept + "README.md\r\n"], [3.2, "o", prompt]]
    with path.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps({"version": 2, "width": 80, "height": 24, "command": sh}) + "\n")
        for e in events:
            fh.write(json.dumps(e) + "\n")
    return path


@pytest.mark.parametrize("sh", ["zsh", "bash"])
def test_job_notice_after_the_alternate_screen_is_the_shells(tmp_path: Path, sh: str):
    """Whichever order the line editor writes its prompt and bracketed paste
    in, the notice printed after the agent left the alternate screen is the
    shell's own output after the run, and no frame the agent's profile reads
    shows it."""
    with open_recording(_stopped_cast(tmp_path / "session.cast", sh)) as reader:
        frames = list(iter_frames(reader))
    hist = shell._absolute(frames)
    runs = shell.find_runs(frames, hist, shell.learn_prompt(frames))
    shell.classify(frames, runs, hist)
    i = next(k for k, r in enumerate(runs) if r.agent == "codex")
    text = shell.after_exit_text(frames, runs, i, hist)
    assert JOB_NOTICE.match(text) and "\n" not in text, text
    assert not [ln for f in shell.agent_frames(frames, runs, i, hist) for ln in f.lines if JOB_NOTICE.match(ln)]
