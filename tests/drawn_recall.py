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

    python -m tests.drawn_recall [-v] [CASE_DIR...]  (per case and overall; -v: the missing words;
                                                     default: every Amp recording and corpus case)
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


def drawn_sequence(cast: Path, prompts: list[str] | None = None) -> list[str] | list[list[str]]:
    """The words of every distinct row ever on screen, rows in the order first seen.

    Given the typed prompts, one such sequence per prompt instead: the rows
    on screen from the first frame showing that prompt sent (a row with the
    prompt bar and the prompt's opening words) to the first frame showing
    the next one, below the prompt's own rows. An answer is drawn only after its prompt was sent, and
    templated answers repeat phrases, so without the window a phrase of an
    earlier answer would count a never-drawn part of a later one as drawn."""
    frames: list[tuple[float, list[str]]] = []
    with CastReader(cast) as reader:
        for frame in iter_frames(reader):
            frames.append((frame.time, [ln.strip() for ln in frame.lines]))
    if prompts is None:
        rows: dict[str, None] = {}
        for _, lines in frames:
            for ln in lines:
                rows.setdefault(ln)
        return WORD.findall("\n".join(rows))
    heads = ["".join(p.split())[:12] for p in prompts]

    def sent_at(lines: list[str], head: str) -> int | None:
        return next((y for y in range(len(lines) - 1, -1, -1) if lines[y].startswith("┃")
                     and "".join(lines[y][1:].split()).startswith(head)), None)

    starts: list[float] = []
    for head in heads:
        after = starts[-1] if starts else float("-inf")
        t = next((tm for tm, lines in frames if tm >= after and sent_at(lines, head) is not None), None)
        starts.append(t if t is not None else after)
    out: list[list[str]] = []
    for i, t0 in enumerate(starts):
        t1 = starts[i + 1] if i + 1 < len(starts) else float("inf")
        rows: dict[str, None] = {}
        for tm, lines in frames:
            if t0 <= tm < t1 or (t1 == t0 and tm >= t0):
                # rows above the prompt are earlier turns still on screen
                y = sent_at(lines, heads[i])
                start = y or 0
                # the prompt's own rows (its bar) are the user's words: an
                # answer repeating them was not drawn for that
                while y is not None and start < len(lines) and lines[start].startswith("┃"):
                    start += 1
                for ln in lines[start:]:
                    rows.setdefault(ln)
        out.append(WORD.findall("\n".join(rows)))
    return out


def typed_prompts(turns: list[dict]) -> list[str]:
    """The prompts that open a conversation turn, in order."""
    return [t.get("text") or "" for t in turns if t.get("role") == "user" and not t.get("kind")]


def segments(turns: list[dict]) -> list[str]:
    """Assistant text per typed prompt (slash commands and exit keys open none)."""
    out: list[str] = []
    for t in turns:
        if t.get("role") == "user" and not t.get("kind"):
            out.append("")
        elif out and t.get("role") == "assistant":
            out[-1] += "\n" + (t.get("text") or "")
    return out


def lcs_length(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence of two word lists (exact).

    SequenceMatcher is greedy: it fixes the longest matching block first, and
    in an answer whose paragraphs differ only in their digits (which WORD
    drops) that block can pair the drawn words of one paragraph with another
    paragraph of the replay and strand a whole paragraph as unmatched though
    the replay holds every word in order. Bit-parallel LCS (Allison-Dix): one
    big-int step per word of b."""
    masks: dict[str, int] = {}
    for i, w in enumerate(a):
        masks[w] = masks.get(w, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for w in b:
        u = v & masks.get(w, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - bin(v).count("1")


def recall(truth_turns: list[dict], pred_turns: list[dict], drawn: list[str] | list[list[str]]) -> tuple[int, int]:
    """(drawn truth words, of those recovered in the right turn).

    `drawn` is one word sequence for the whole recording or one per turn
    (drawn_sequence with the prompts). An occurrence of a truth word is
    drawn when a word alignment of the truth words with the drawn words (in
    order) matches it inside a run of three: a word repeated in a long
    answer counts once per time it was on screen, not every time it was
    served."""
    per_turn = [WORD.findall(t) for t in segments(truth_turns)]
    seen: set[tuple[int, int]] = set()
    if drawn and isinstance(drawn[0], list):
        for i, words in enumerate(per_turn):
            sm = SequenceMatcher(None, words, drawn[i] if i < len(drawn) else [], autojunk=False)
            seen |= {(i, b.a + x) for b in sm.get_matching_blocks() if b.size >= 3 for x in range(b.size)}
    else:
        flat = [(i, k) for i, words in enumerate(per_turn) for k in range(len(words))]
        sm = SequenceMatcher(None, [per_turn[i][k] for i, k in flat], drawn, autojunk=False)
        # a lone matched word ("the" drawn in some other row) is chance: a
        # word counts as drawn only inside a run of three or more
        seen = {flat[b.a + x] for b in sm.get_matching_blocks() if b.size >= 3 for x in range(b.size)}
    pred = segments(pred_turns)
    total = got = 0
    for i, words in enumerate(per_turn):
        have = WORD.findall(pred[i]) if i < len(pred) else []
        drawn_k = [k for k in range(len(words)) if (i, k) in seen]
        # recovered: the longest in-order match of the drawn truth words with
        # the turn's words (aligning the replay with all truth words first
        # and intersecting would depend on which copy of a repeated word
        # each alignment picks, and count a repeat as lost when it is not)
        want = [words[k] for k in drawn_k]
        kept = lcs_length(have, want)
        total += len(drawn_k)
        got += kept
        if VERBOSE and kept < len(drawn_k):
            match = SequenceMatcher(None, have, want, autojunk=False)
            found = {b.b + x for b in match.get_matching_blocks() for x in range(b.size)}
            print(f"  turn {i} missing:", " ".join(words[k] for j, k in enumerate(drawn_k) if j not in found)[:400])
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
    if not argv:
        from tests.conftest import CORPUS, ROOT
        argv = [str(c.parent) for base in (ROOT / "recordings" / "amp", CORPUS / "amp")
                for c in sorted(base.glob("*/session.cast"))]
    all_total = all_got = 0
    for case in map(Path, argv):
        truth = json.loads((case / "truth.json").read_text())["turns"]
        agent = json.loads((case / "truth.json").read_text()).get("agent") or case.parent.name
        pred = replay_turns(case / "session.cast", agent)
        total, got = recall(truth, pred, drawn_sequence(case / "session.cast", typed_prompts(truth)))
        all_total += total
        all_got += got
        print(f"{case.name}: drawn {total} words, recovered {got} = {got / max(1, total):.3f}")
    print(f"ALL drawn-recall {all_got / max(1, all_total):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
