"""How much of what agent TUIs draw is a redraw of the same text, with the
same attributes, at the same column: the case the screen's run cache serves.

Per corpus recording, the fraction of drawn characters whose (attributes,
column, text) was drawn before in the same recording. Not a timing; it
shows whether the cache pays on real recordings and not only on the
benchmark's repeated stream.

Usage: python bench/redraw_repeats.py [CORPUS_DIR]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from screen.cast import CastReader, parse_size  # noqa: E402
from screen.vscreen import VirtualScreen  # noqa: E402


class CountingScreen(VirtualScreen):
    def __init__(self, columns: int, lines: int) -> None:
        self.seen: set[tuple[object, int, str]] = set()
        self.drawn = self.repeated = 0
        super().__init__(columns, lines)

    def draw(self, data: str) -> None:
        key = (self.cursor.attrs, self.cursor.x, data)
        self.drawn += len(data)
        if key in self.seen:
            self.repeated += len(data)
        else:
            self.seen.add(key)
        super().draw(data)


def main() -> int:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "corpus"
    for path in sorted(corpus.glob("*/*/session.cast")):
        with CastReader(path) as r:
            s = CountingScreen(r.header.width, r.header.height)
            for ev in r.events(warn=False):
                if ev.code == "o":
                    s.feed(ev.data)
                elif ev.code == "r" and (size := parse_size(ev.data)):
                    s.resize(lines=size[1], columns=size[0])
        print(f"{path.parent.parent.name:12s} {path.parent.name:45s} {s.repeated / max(s.drawn, 1):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
