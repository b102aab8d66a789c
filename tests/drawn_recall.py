"""Assistant recall of what was drawn: a test and measuring helper.

Amp (and any TUI that anchors a finished answer to the bottom of its
viewport) never draws the top of an answer taller than the screen, so
recall against the served text cannot reach 1 however good the replay.
Here a truth word counts as drawn when it is on a frame of the recording
(an in-order word alignment of the served text with the rows ever on
screen, so a word a long answer repeats counts only as often as it was
shown); recall is, per conversation turn (the assistant text between two
typed prompts), the share of drawn truth words the replay put, in order,
in that same turn.

    python -m tests.drawn_recall [-v] CASE_DIR...    (per case and overall; -v: the missing words)
"""
from __future__ import annotations

import json
import subprocess
import sys
from difflib import SequenceMatcher
from pathlib import Path

import regex

from screen.cast import CastReader
from screen.frames import iter_frames

#: words of three or more characters starting with a letter: digits and
#: short tokens match anywhere on a screen and would count as drawn by chance
WORD = regex.compile(r"[^\W\d_]\w{2,}")


def drawn_sequence(cast: Path) -> list[str]:
    """The words of every distinct row ever on screen, rows in the order first seen."""
    rows: dict[str, None] = {}
    with CastReader(cast) as reader:
        for frame in iter_frames(reader):
            for ln in frame.lines:
                rows.setdefault(ln.strip())
    return WORD.findall("\n".join(rows))


def segments(turns: list[dict]) -> list[str]:
    """Assistant text per typed prompt (slash commands and exit keys open none)."""
    out: list[str] = []
    for t in turns:
        if t.get("role") == "user" and not t.get("kind"):
            out.append("")
        elif out and t.get("role") == "assistant":
            out[-1] += "\n" + (t.get("text") or "")
    return out


def recall(truth_turns: list[dict], pred_turns: list[dict], drawn: list[str]) -> tuple[int, int]:
    """(drawn truth words, of those recovered in the right turn).

    An occurrence of a truth word is drawn when a word alignment of all the
    truth words with the drawn words (in order) matches it: a word repeated
    in a long answer counts once per time it was on screen, not every time
    it was served."""
    per_turn = [WORD.findall(t) for t in segments(truth_turns)]
    flat = [(i, k) for i, words in enumerate(per_turn) for k in range(len(words))]
    sm = SequenceMatcher(None, [per_turn[i][k] for i, k in flat], drawn, autojunk=False)
    seen = {flat[b.a + x] for b in sm.get_matching_blocks() for x in range(b.size)}
    pred = segments(pred_turns)
    total = got = 0
    for i, words in enumerate(per_turn):
        have = WORD.findall(pred[i]) if i < len(pred) else []
        match = SequenceMatcher(None, have, words, autojunk=False)
        found = {b.b + x for b in match.get_matching_blocks() for x in range(b.size)}
        drawn_k = [k for k in range(len(words)) if (i, k) in seen]
        total += len(drawn_k)
        got += sum(1 for k in drawn_k if k in found)
        if VERBOSE and any(k not in found for k in drawn_k):
            print(f"  turn {i} missing:", " ".join(words[k] for k in drawn_k if k not in found)[:400])
    return total, got


def replay_turns(cast: Path, agent: str) -> list[dict]:
    """The turns the real CLI replays from a recording."""
    out = subprocess.run([sys.executable, "-m", "capsule_capture.cli", "replay", str(cast), "--agent", agent,
                          "--format", "json"], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parent.parent)
    return json.loads(out.stdout)["turns"]


VERBOSE = False


def main(argv: list[str]) -> int:
    global VERBOSE
    if argv[:1] == ["-v"]:
        VERBOSE, argv = True, argv[1:]
    all_total = all_got = 0
    for case in map(Path, argv):
        truth = json.loads((case / "truth.json").read_text())["turns"]
        pred = replay_turns(case / "session.cast", "amp")
        total, got = recall(truth, pred, drawn_sequence(case / "session.cast"))
        all_total += total
        all_got += got
        print(f"{case.name}: drawn {total} words, recovered {got} = {got / max(1, total):.3f}")
    print(f"ALL drawn-recall {all_got / max(1, all_total):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
