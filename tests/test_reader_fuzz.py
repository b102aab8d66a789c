"""Every recording reader against wrong shapes: a JSON header of the wrong
shape, event lines that are not events, timing files with bad numbers,
binary garbage, truncated UTF-8. The only exception allowed out is
`CastError` (the CLI turns it into one line); whatever opens must stream."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents_chrome.replay import replay
from screen.cast import CastError
from screen.rawlog import open_recording

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalar = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**12, max_value=10**12),
                        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
json_value = st.recursive(json_scalar, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                               st.dictionaries(st.text(max_size=6), kids, max_size=4)),
                          max_leaves=12)

header_shape = st.one_of(
    json_value,
    st.fixed_dictionaries({"version": st.sampled_from([2, 3, "2", 2.0, True, None, 1])},
                          optional={"width": json_value, "height": json_value, "term": json_value,
                                    "env": json_value, "timestamp": json_value, "command": json_value,
                                    "title": json_value}),
    st.fixed_dictionaries({"version": st.just(2), "width": st.integers(-5, 10**7), "height": st.integers(-5, 10**7)},
                          optional={"env": json_value, "timestamp": json_value}),
)
event_shape = st.one_of(
    json_value,
    st.tuples(json_value, st.sampled_from(["o", "i", "r", "m", "x", 5]), json_value).map(list),
    st.tuples(st.floats(allow_nan=True, allow_infinity=True), st.just("r"),
              st.text(alphabet="0123456789x-", max_size=12)).map(list),
)


def _write(data: bytes) -> Path:
    fd = tempfile.NamedTemporaryFile(delete=False, suffix=".rec")
    fd.write(data)
    fd.close()
    return Path(fd.name)


def _drain(path: Path, **kw) -> None:
    try:
        with open_recording(path, **kw) as r:
            for ev in r.events(warn=False):
                assert isinstance(ev.data, str) and isinstance(ev.time, float)
    except CastError as e:
        assert "\n" not in str(e)


@FUZZ
@given(header=header_shape, events=st.lists(event_shape, max_size=6), cut=st.integers(0, 40))
def test_cast_reader_wrong_shapes(header, events, cut):
    text = json.dumps(header) + "\n" + "".join(json.dumps(e) + "\n" for e in events)
    data = text.encode()
    p = _write(data[:len(data) - cut] if cut < len(data) else data)
    try:
        _drain(p)
    finally:
        p.unlink()


@FUZZ
@given(data=st.binary(max_size=3000))
def test_any_bytes(data):
    p = _write(data)
    try:
        _drain(p)
        _drain(p, size=(20, 5))
    finally:
        p.unlink()


timing_line = st.one_of(
    st.tuples(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 10**9)).map(lambda t: f"{t[0]} {t[1]}"),
    st.tuples(st.sampled_from("OISHX"), st.text(max_size=10), st.text(max_size=10)).map(" ".join),
    st.sampled_from(["S 0.1 SIGWINCH ROWS=99999999 COLS=0", "S 0.1 SIGWINCH ROWS=5 COLS=20",
                     "H 0 COLUMNS 99999999", "H 0 LINES -3", "H 0 COLUMNS 30", "H 0 LINES 7",
                     "O 0.5 3", "I 0.1 2", "0.1 7", "1e999 1", "-0.1 2", "0.1 -2"]),
    st.text(max_size=20),
)


@FUZZ
@given(body=st.binary(max_size=400), lines=st.lists(timing_line, max_size=8),
       header=st.sampled_from([b"", b"Script started on 2026-01-01 00:00:00+00:00 [COLUMNS=\"30\" LINES=\"7\"]\n",
                               b"Script started on yesterday [COLUMNS=\"0\" LINES=\"x\"]\n",
                               b"Script started on \xff\xfe garbage\n"]),
       truncate=st.booleans())
def test_typescript_with_timing_wrong_shapes(body, lines, header, truncate):
    text = "\n".join(lines) + "\n"
    ts = _write(header + body + (b"" if truncate else b"\nScript done on 2026-01-01\n"))
    tm = _write(text.encode("utf-8", "surrogatepass") if truncate else text.encode("utf-8", "replace"))
    try:
        _drain(ts, timing=tm)
    finally:
        ts.unlink()
        tm.unlink()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=1500), prefix=st.sampled_from([b"", b"Script started on 2026-01-01\n",
                                                             b'{"version": 2, "width": 30, "height": 6}\n']))
def test_whole_replay_of_garbage_fails_only_with_cast_error(data, prefix):
    """From bytes to turns: profiles and the shell splitter see garbage frames too."""
    p = _write(prefix + data)
    try:
        try:
            replay(p, size=(30, 6))
        except CastError:
            pass
    finally:
        p.unlink()


shell_piece = st.sampled_from(["u@h:~/p$ ", "root@box:/# ", "codex", "claude", "gemini --yolo", "opencode", "ls",
                               "\r\n", "\n", "\x1b[?1049h", "\x1b[?1049l", "\x1b[2J", "\x1b[H", "\x1b[3J",
                               ">_ OpenAI Codex", "Claude Code v2", "Gemini CLI v1", "OpenCode 1.2",
                               "› ", "❯ ", "\x1b[?2004h", "\x1b[?2004l", "\x1b[?2026h", "\x1b[?2026l",
                               "\x1b[5A", "\x1b[K", "\x1b[31m", "\x1b[0m", "hello world", "é日", "\x1b[?25l"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=st.lists(st.tuples(shell_piece, st.booleans()), max_size=60),
       size=st.tuples(st.integers(10, 60), st.integers(3, 12)))
def test_shell_splitter_on_any_shell_like_stream(pieces, size):
    """Prompts, agent banners, screen switches and clears in any order: the
    shell cut and every profile it hands frames to produce turns, never raise."""
    lines = ['{"version": 2, "width": %d, "height": %d, "command": "bash"}' % size]
    t = 0.0
    for text, pause in pieces:
        t += 0.5 if pause else 0.001
        lines.append(json.dumps([t, "o", text]))
    p = _write(("\n".join(lines) + "\n").encode())
    try:
        meta, turns, labeled = replay(p)
        assert all(isinstance(x.text, str) for x in turns)
    finally:
        p.unlink()
