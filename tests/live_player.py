"""A program that plays a recording's output at its own pace (a stand-in agent for the live tests).

Usage: python live_player.py CAST SIDE [SPEED]

Writes each "o" event of CAST to stdout with the recording's delays
(divided by SPEED), records wall times in SIDE.start / SIDE.played, then
waits for a line on stdin, writes SIDE.exit with the time it exits, and exits.
"""
import json
import os
import sys
import time


def main() -> None:
    cast, side = sys.argv[1], sys.argv[2]
    speed = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    events = []
    with open(cast, encoding="utf-8") as fh:
        fh.readline()
        for line in fh:
            try:
                t, code, data = json.loads(line)
            except ValueError:
                continue
            if code == "o":
                events.append((float(t) / speed, data))
    out = sys.stdout.buffer
    t0 = time.time()
    with open(side + ".start", "w") as f:
        f.write(repr(t0))
    for t, data in events:
        delay = t0 + t - time.time()
        if delay > 0:
            time.sleep(delay)
        out.write(data.encode("utf-8"))
        out.flush()
    with open(side + ".played", "w") as f:
        f.write(repr(time.time()))
    sys.stdin.readline()
    out.flush()
    with open(side + ".exit", "w") as f:
        f.write(repr(time.time()))
    os._exit(0)


if __name__ == "__main__":
    main()
