"""Markdown links whose targets only the terminal was told (OSC 8).

Rich (Kimi) and Amp draw a link's text, underlined, and hand its target to
the terminal in an OSC 8 sequence: no row shows the target, the Markdown
the model wrote has it. The screen keeps each link closed in a frame as
(target, the text drawn under it on one row) (`Frame.links`).
"""
from __future__ import annotations

import regex


def merged_links(links: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A frame's OSC 8 links with the pieces of one link joined: a renderer
    closes and opens a link again at each row it wraps onto, with the same
    target."""
    out: list[tuple[str, str]] = []
    for url, label in links:
        if out and out[-1][0] == url and label != out[-1][1]:
            out[-1] = (url, out[-1][1] + " " + label)
        else:
            out.append((url, label))
    return out


def _flat(text: str) -> str:
    return regex.sub(r"[\W_]+", "", text.lower())


def with_link_targets(text: str, links: list[tuple[float, str, str]], used: set[int],
                      lo: float, hi: float) -> str:
    """`text` (an answer) with each link's target after its text, as
    Markdown has it: `label (target)`. `links` are (when first drawn,
    target, text) in drawing order; a link belongs to the answer whose rows
    were first drawn between `lo` and `hi` (the same clock), and is placed
    once (`used` holds the indices placed). A target drawn already (an
    autolink, a bare URL) is left as it is."""
    pos = 0
    for k, (when, url, label) in enumerate(links):
        if k in used or not lo <= when <= hi or not label.strip():
            continue
        if url in text or _flat(url) == _flat(label):
            used.add(k)
            continue
        m = _whole_label(label).search(text, pos)
        if m is None:
            continue
        used.add(k)
        text = text[:m.end()] + " (" + url + ")" + text[m.end():]
        pos = m.end() + len(url) + 3
    return text


def _whole_label(label: str) -> regex.Pattern:
    """A link's text as whole words, any run of spaces between them: a
    short label (`mo`, `bru`) also opens a longer word (`mosenpek`,
    `bruorstin`), which is no link."""
    return regex.compile(r"(?<!\w)" + r"\s+".join(regex.escape(w) for w in label.split()) + r"(?!\w)")


def _label_at(text: str, label: str, url: str):
    """Where a link's label ends in `text` as whole words (None: not there,
    or the target is there already)."""
    if url in text:
        return None
    return _whole_label(label).search(text)


def with_stray_link_targets(answers: list[tuple[str, float, float]], links: list[tuple[float, str, str]],
                            used: set[int]) -> list[str]:
    """The answers' texts with the links `with_link_targets` could not place
    put back: a resize redraws the whole history, so an answer's first-drawn
    time can be the redraw's, later than a link it holds. Each such link goes
    to the answer holding its label (whole words) whose window (`answers`:
    text, lo, hi) is nearest to when the link was drawn, if only one is."""
    texts = [a[0] for a in answers]
    for k, (when, url, label) in enumerate(links):
        # a web target only: a `file://` link is Amp's own mark on a path it drew, no Markdown's
        if k in used or not label.strip() or _flat(url) == _flat(label) or not url.startswith(("http://", "https://")):
            continue
        near = []
        for i, (_text, lo, hi) in enumerate(answers):
            m = _label_at(texts[i], label, url)
            if m is not None:
                gap = 0.0 if min(lo, hi) <= when <= max(lo, hi) else min(abs(when - lo), abs(when - hi))
                near.append((gap, i, m))
        near.sort(key=lambda c: c[0])
        # two answers as near (redrawn together) leave the link out: which one holds it is unknown
        if near and (len(near) == 1 or near[1][0] > near[0][0]):
            _gap, i, m = near[0]
            used.add(k)
            texts[i] = texts[i][:m.end()] + " (" + url + ")" + texts[i][m.end():]
    return texts
