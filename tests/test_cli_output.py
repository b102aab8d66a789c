"""The archive commands as a person reads them: `list`, `show`, `search` through the real CLI.

One line per conversation at 80 columns, local times with the zone named,
a hint on an empty archive, CJK words found inside sentences, and bad
arguments refused in one line (issue 12 and 15).
"""
from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone

import pytest

from tests.conftest import RECORDINGS, cli

CASES = ("codex/s3-tool-chain-120x40", "gemini/gem-x1-tools-table-90x28", "vibe/vibe-04-unicode-cjk-emoji")


@pytest.fixture(scope="module")
def archive_home(tmp_path_factory):
    """An archive synced from three real recordings' native files (the CLI's own sync)."""
    home = tmp_path_factory.mktemp("capcap")
    env = {"CAPSULE_CAPTURE_HOME": str(home)}
    for case in CASES:
        r = cli("sync", "--home", str(RECORDINGS / case / "native"), env=env)
        assert r.returncode == 0, r.stderr
    return env


def _rows(env):
    r = cli("list", "--format", "json", env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("width", [80, 50, 200])
def test_list_one_line_per_row_at_any_width(archive_home, width):
    rows = _rows(archive_home)
    assert len(rows) == 3
    r = cli("list", env={**archive_home, "COLUMNS": str(width), "TZ": "UTC"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.rstrip("\n").split("\n")
    assert len(lines) == 1 + len(rows), r.stdout  # the header, then one line per conversation
    assert all(len(line) <= width for line in lines), r.stdout
    assert all("11-22 " in line and "UTC" in line for line in lines[1:])  # the start time never broken
    for line, row in zip(lines[1:], rows):
        assert line.startswith(row["id"][:8]), line
        assert row["agent"] in line
    if width < 200:
        assert any("…" in line for line in lines[1:])  # a long title or path was cut, not wrapped


def test_list_newest_first_with_local_zone(archive_home):
    rows = _rows(archive_home)
    starts = [datetime.fromisoformat(r["started_at"].replace("Z", "+00:00")) for r in rows]
    assert starts == sorted(starts, reverse=True)
    r = cli("list", env={**archive_home, "COLUMNS": "120", "TZ": "Asia/Tokyo"})
    assert r.returncode == 0, r.stderr
    first = r.stdout.split("\n")[1]
    want = starts[0].astimezone(timezone(timedelta(hours=9))).strftime("%Y-%m-%d %H:%M")
    assert f"{want} JST" in first, first
    r = cli("list", env={**archive_home, "COLUMNS": "120", "TZ": "America/New_York"})
    assert "EST" in r.stdout.split("\n")[1]


def test_empty_archive_hint(tmp_path):
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "empty")}
    r = cli("list", env=env)
    assert r.returncode == 0
    assert "capsule-capture sync" in r.stdout and "record" in r.stdout
    assert "┏" not in r.stdout and "id" not in r.stdout.split()  # no empty table
    r = cli("list", "--format", "json", env=env)
    assert json.loads(r.stdout) == [] and "sync" in r.stderr
    r = cli("search", "anything", env=env)
    assert r.returncode == 0 and "sync" in r.stdout


def test_no_match_for_filters_is_not_the_empty_hint(archive_home):
    r = cli("list", "--agent", "amp", env=archive_home)
    assert r.returncode == 0
    assert "no conversation matches" in r.stdout and "3 archived" in r.stdout


def test_show_opens_with_a_header(archive_home):
    rows = _rows(archive_home)
    gem = next(r for r in rows if r["agent"] == "gemini")
    r = cli("show", gem["id"][:6], env={**archive_home, "COLUMNS": "120", "TZ": "Europe/Paris"})
    assert r.returncode == 0, r.stderr
    head = r.stdout.split("╭", 1)[0]  # everything before the first turn
    assert "agent" in head and "gemini" in head
    assert "workspace" in head and "demo-app" in head
    start = datetime.fromisoformat(gem["started_at"].replace("Z", "+00:00")).astimezone(
        timezone(timedelta(hours=1)))
    assert start.strftime("%Y-%m-%d %H:%M:%S CET") in head
    assert "sources" in head and "native 10 turns" in head


def test_search_shows_date_and_turn(archive_home):
    r = cli("search", "python", "version", env={**archive_home, "COLUMNS": "120", "TZ": "UTC"})
    assert r.returncode == 0, r.stderr
    first = r.stdout.split("\n")[0]
    assert "codex" in first and "2026-11-22 07:24 UTC" in first and "turn 1 user" in first
    data = json.loads(cli("search", "python", "version", "--format", "json", env=archive_home).stdout)
    assert data[0]["turn"] == 1 and data[0]["role"] == "user"


@pytest.mark.parametrize("word", ["终端", "テキスト", "세요"])
def test_cjk_word_inside_a_sentence_is_found(archive_home, word):
    """`终端` sits inside `终端需要正确处理`, `テキスト` inside `日本語のテキストも正しく…`:
    a whitespace tokenizer indexes each whole run and finds neither."""
    r = cli("search", word, "--format", "json", env=archive_home)
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)
    assert hits and hits[0]["agent"] == "vibe", r.stdout
    assert word in hits[0]["snippet"]


def test_cjk_search_on_a_written_conversation(tmp_path):
    """A conversation put through the store (as sync does) is found by a CJK word it holds
    mid-sentence, and not by one it does not hold."""
    from archive.record import Conversation, Turn
    from archive.store import Store
    home = tmp_path / "h"
    with Store(home / "archive") as store:
        conv = Conversation(id="cjk0000000000001", agent="codex", native_id="n1", title="缓存",
                            started_at="2026-11-20T10:00:00Z",
                            turns=[Turn(role="user", text="我们今天修复了发布流水线的缓存问题，然后部署"),
                                   Turn(role="assistant", text="好的")])
        store.write(lambda txn: store.put(txn, conv))
    env = {"CAPSULE_CAPTURE_HOME": str(home)}
    hits = json.loads(cli("search", "流水线", "--format", "json", env=env).stdout)
    assert [h["id"] for h in hits] == ["cjk0000000000001"]
    assert hits[0]["turn"] == 1
    assert json.loads(cli("search", "数据库", "--format", "json", env=env).stdout) == []


# -- argument errors (issue 12) ----------------------------------------------

def _one_line_error(r, code=2):
    """Exit `code`, no traceback; the reason on one line (after argparse's usage, if any)."""
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert lines and lines[-1].startswith("capsule-capture"), r.stderr
    assert all(ln.startswith(("usage:", " ")) for ln in lines[:-1]), r.stderr


@pytest.mark.parametrize("argv", [("list", "--limit", "0"), ("list", "--limit", "-3"), ("search", "x", "--limit", "0"),
                                  ("list", "--agent", "nosuchagent"), ("list", "--since", "last tuesday"),
                                  ("search", ""), ("search",), ("search", "  ")])
def test_bad_arguments_refused(archive_home, argv):
    r = cli(*argv, env=archive_home)
    _one_line_error(r)


def test_unknown_agent_names_the_known_ones(archive_home):
    r = cli("list", "--agent", "nosuchagent", env=archive_home)
    assert "claude-code" in r.stderr and "codex" in r.stderr


def test_agent_alias_accepted(archive_home):
    r = cli("list", "--agent", "gemini-cli", "--format", "json", env=archive_home)
    assert r.returncode == 0 and [x["agent"] for x in json.loads(r.stdout)] == ["gemini"]


def test_unquoted_multi_word_search(archive_home):
    r = cli("search", "python", "version", "--format", "json", env=archive_home)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)[0]["agent"] == "codex"


def test_since_yesterday_and_relative(tmp_path):
    from archive.record import Conversation, Turn
    from archive.store import Store
    home = tmp_path / "h"
    now = datetime.now(timezone.utc)
    # half an hour ago, but never before local midnight: "today" must hold it
    # also when the test runs just after midnight
    midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
    recent_at = max(now - timedelta(minutes=30), midnight + (now - midnight) / 2)
    recent = recent_at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    old = (now - timedelta(days=40)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    with Store(home / "archive") as store:
        for cid, ts in (("recent0000000001", recent), ("old0000000000001", old)):
            c = Conversation(id=cid, agent="codex", native_id=cid, started_at=ts, turns=[Turn(role="user", text="hi")])
            store.write(lambda txn, c=c: store.put(txn, c))
    env = {"CAPSULE_CAPTURE_HOME": str(home)}
    for since in ("yesterday", "today", "7d", "2h"):
        r = cli("list", "--since", since, "--format", "json", env=env)
        assert r.returncode == 0, r.stderr
        assert [x["id"] for x in json.loads(r.stdout)] == ["recent0000000001"], since
    r = cli("list", "--until", "7d", "--format", "json", env=env)
    assert [x["id"] for x in json.loads(r.stdout)] == ["old0000000000001"]
    r = cli("list", "--since", "60d", "--limit", "1", "--format", "json", env=env)
    assert [x["id"] for x in json.loads(r.stdout)] == ["recent0000000001"]


def test_since_with_offset_compared_as_an_instant(archive_home):
    """The codex session started 07:24:51Z. `08:00+02:00` is 06:00Z, before it: included,
    though the text `…T07:24…Z` sorts before `…T08:00…`; `09:30+02:00` (07:30Z) excludes it."""
    codex = next(r for r in _rows(archive_home) if r["agent"] == "codex")
    assert codex["started_at"].startswith("2026-11-22T07:24:51")
    ids = lambda *a: [x["id"] for x in json.loads(cli("list", *a, "--format", "json", env=archive_home).stdout)]
    assert codex["id"] in ids("--since", "2026-11-22T08:00:00+02:00")
    assert codex["id"] not in ids("--since", "2026-11-22T09:30:00+02:00")
    assert codex["id"] in ids("--until", "2026-11-22T09:30:00+02:00")
    assert codex["id"] not in ids("--until", "2026-11-22T08:00:00+02:00")


def test_since_after_until_refused(archive_home):
    r = cli("list", "--since", "2026-11-23", "--until", "2026-11-22", env=archive_home)
    _one_line_error(r)


def _in_pty(argv, env, rows=12, cols=100, timeout=60):
    """Run the CLI in a real PTY of `rows` x `cols`; its output."""
    import sys
    import time
    import ptyprocess
    full = {**os.environ, **env, "TERM": "xterm-256color"}
    full.pop("COLUMNS", None)
    full.pop("LINES", None)
    p = ptyprocess.PtyProcess.spawn([sys.executable, "-m", "capsule_capture.cli", *argv], env=full,
                                    dimensions=(rows, cols))
    out = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            out += p.read(65536)
        except EOFError:
            break
    p.wait()
    return p.exitstatus, out.decode("utf-8", "replace")


def _many(home, n):
    from archive.record import Conversation, Turn
    from archive.store import Store
    with Store(home / "archive") as store:
        convs = [Conversation(id=f"page{i:012d}", agent="codex", native_id=f"p{i}", title=f"paged conversation {i}",
                              started_at=f"2026-11-{1 + i % 20:02d}T10:00:00Z", turns=[Turn(role="user", text="hi")])
                 for i in range(n)]
        store.write(lambda txn: [store.put(txn, c) for c in convs])


def test_list_pages_when_taller_than_the_terminal(tmp_path):
    """In a 12-row terminal, 30 rows go through $PAGER; 5 rows are printed straight."""
    home = tmp_path / "h"
    _many(home, 30)
    paged = tmp_path / "paged.txt"
    env = {"CAPSULE_CAPTURE_HOME": str(home), "PAGER": f"cat > {paged}", "MANPAGER": ""}
    code, out = _in_pty(["list"], env)
    assert code == 0, out
    text = paged.read_text()
    assert text.count("paged conversation") == 30
    assert "paged conversation" not in out  # it went to the pager, not straight to the terminal
    paged.unlink()
    code, out = _in_pty(["list", "--limit", "5"], env)
    assert code == 0 and not paged.exists()
    assert out.count("paged conversation") == 5


def test_browse_needs_a_terminal(archive_home):
    r = cli("browse", env=archive_home)
    _one_line_error(r)
    assert "terminal" in r.stderr and "list" in r.stderr
    _one_line_error(cli("browse", "--agent", "nosuchagent", env=archive_home))
