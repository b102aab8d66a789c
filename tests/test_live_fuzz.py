"""Wrong shapes fed to the live follower and the cast exporter (outside data: any recording on disk).

A recording read piece by piece must either give a conversation or fail with
CastError (one line for the user), never another exception; the exporter
either writes a file that asciinema's parser reads or refuses with ValueError.
"""
from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from archive.record import Turn
from capsule_capture.exporters.cast import write_with_markers
from capsule_capture.pipeline import Follower
from screen.cast import CastError

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                    st.text(max_size=20))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)
good_header = st.fixed_dictionaries({"version": st.sampled_from([2, 3]), "width": st.integers(1, 200),
                                     "height": st.integers(1, 60)},
                                    optional={"timestamp": st.one_of(st.integers(0, 2**31), scalars),
                                              "agent": st.one_of(st.sampled_from(["codex", "claude-code", "zz"]),
                                                                 scalars),
                                              "cwd": scalars, "title": scalars, "term": values, "env": values,
                                              "capsule_capture_id": st.one_of(st.text(max_size=70), scalars)})
good_event = st.tuples(st.floats(0, 100), st.sampled_from(["o", "i", "r", "m", "x"]),
                       st.one_of(st.text(max_size=40), st.sampled_from(["80x24", "\x1b[2J", "\x1b[1;1H> hi\r\n"])))
line = st.one_of(good_event.map(lambda e: json.dumps(list(e))), values.map(json.dumps), st.text(max_size=30),
                 st.just("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["))
header = st.one_of(good_header.map(json.dumps), values.map(json.dumps), st.text(max_size=30),
                   st.just("[" * 5000 + "]" * 5000))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(head=header, body=st.lists(line, max_size=25), cuts=st.lists(st.integers(1, 64), max_size=12),
       probe=st.booleans())
def test_follower_takes_any_shape(tmp_path, head, body, cuts, probe):
    data = (head + "\n" + "\n".join(body)).encode("utf-8", "replace")
    path = tmp_path / "f.cast"
    path.write_bytes(b"")
    f = Follower(str(path))
    try:
        with path.open("ab") as fh:
            pos = 0
            for c in cuts + [len(data)]:
                fh.write(data[pos:pos + c])
                fh.flush()
                pos += c
                f.poll()
                if probe:
                    f.probe_quiet(quiet=0)
        f.finish()
        conv = f.conversation()
    except CastError:
        return
    assert conv.id and conv.agent
    assert all(t.vector == "screen" for t in conv.turns)


turn = st.builds(Turn, role=st.sampled_from(["user", "assistant", "tool_call"]), text=st.text(max_size=40),
                 ts=st.one_of(st.none(), st.text(max_size=30),
                              st.datetimes().map(lambda d: d.isoformat() + "+00:00")))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(head=header, body=st.lists(line, max_size=25), turns=st.lists(turn, max_size=6))
def test_exporter_takes_any_shape(tmp_path, head, body, turns):
    src = tmp_path / "s.cast"
    src.write_text(head + "\n" + "\n".join(body), encoding="utf-8")
    dst = tmp_path / "d.cast"
    try:
        write_with_markers(src, dst, turns)
    except ValueError:
        return
    # only "\n" ends an event line: JSON leaves U+0085/U+2028 unescaped inside strings
    lines = [x for x in dst.read_text(encoding="utf-8").split("\n") if x]
    assert isinstance(json.loads(lines[0]), dict)
    for x in lines[1:]:
        ev = json.loads(x)
        assert isinstance(ev, list) and len(ev) == 3 and isinstance(ev[1], str)
        assert isinstance(ev[0], float | int) and math.isfinite(ev[0]) and ev[0] >= 0


def test_unicode_line_separators_inside_events_are_not_line_breaks(tmp_path):
    """JSON leaves U+2028, U+2029 and U+0085 unescaped: only "\\n" ends an event line."""
    path = tmp_path / "u.cast"
    with path.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps({"version": 2, "width": 40, "height": 5}) + "\n")
        fh.write(json.dumps([0.1, "o", "a\u2028b\u2029c\x85d\r\n"], ensure_ascii=False) + "\n")
    f = Follower(str(path))
    f.poll()
    f.finish()
    assert f.skipped == 0
    assert f.frames[-1].lines[0].startswith("a\u2028b")
