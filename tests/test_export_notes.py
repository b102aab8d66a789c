"""`export --format notes` (one Markdown note per day and workspace, YAML front matter,
wiki-links) and `export --format jsonl` (one event per line), through the real CLI."""
from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import pytest

from archive.record import Conversation, Source, Turn, conversation_id
from archive.store import Store
from tests.conftest import RECORDINGS, cli

LINK = re.compile(r"\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]")


def _conv(native: str, agent: str, ws: str | None, started: str | None, prompts: list[str],
          title: str | None = None) -> Conversation:
    turns = []
    for i, p in enumerate(prompts):
        turns += [Turn("user", p, ts=started and f"{started[:17]}{10 + i:02d}Z", key=f"u{i}"),
                  Turn("tool_call", "ls", name="Bash", input={"command": "ls"}, key=f"c{i}"),
                  Turn("tool_result", "a.txt", name="Bash", is_error=False, key=f"r{i}"),
                  Turn("assistant", f"answer {i}", key=f"a{i}")]
    return Conversation(id=conversation_id(agent, native), agent=agent, native_id=native, title=title,
                        workspace=ws, started_at=started, ended_at=started, turns=turns,
                        sources=[Source("native", f"/nowhere/{native}.jsonl")])


CONVS = [
    _conv("n1", "claude-code", "/home/u/proj", "2026-03-01T09:15:00Z", ["fix the parser", "and add a test"], "Parser"),
    _conv("n2", "codex", "/home/u/proj", "2026-03-01T14:40:00Z", ["why is CI red"]),
    _conv("n3", "claude-code", "/home/u/proj", "2026-03-03T08:00:00Z", ["ship it"], "Release"),
    _conv("n4", "gemini", "/home/v/proj", "2026-03-01T10:00:00Z", ["other proj, same folder name"]),
    _conv("n5", "codex", "/srv/api", "2026-03-03T11:30:00Z", ["api [[weird]] title"], "Api | odd # name"),
    _conv("n6", "amp", None, None, ["a prompt history entry"]),
]


@pytest.fixture
def archive(tmp_path):
    home = tmp_path / "capcap"
    with Store(home / "archive") as store:
        store.write(lambda txn: [store.put(txn, c) for c in CONVS])
    return {"CAPSULE_CAPTURE_HOME": str(home), "TZ": "UTC"}


def _front(text: str) -> dict:
    assert text.startswith("---\n")
    head = text.split("---\n")[1]
    return {k: json.loads(v) for k, v in (line.split(": ", 1) for line in head.strip().splitlines())}


def _private(out: Path) -> None:
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    for p in out.iterdir():
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, p


def test_notes_one_per_day_and_workspace_with_front_matter_and_links(archive, tmp_path):
    out = tmp_path / "vault"
    r = cli("export", "--all", "--format", "notes", "-o", str(out), env=archive)
    assert r.returncode == 0, r.stderr
    names = sorted(p.stem for p in out.glob("*.md"))
    assert len(names) == 5  # (03-01, u/proj) (03-01, v/proj) (03-03, u/proj) (03-03, api) (undated)
    assert "2026-03-03 proj" in names and "2026-03-03 api" in names and "undated no workspace" in names
    twins = [n for n in names if n.startswith("2026-03-01 proj ")]
    assert len(twins) == 2  # same day, same folder name, different workspaces: told apart
    _private(out)
    notes = {n: (out / f"{n}.md").read_text(encoding="utf-8") for n in names}
    for n, text in notes.items():
        for target in LINK.findall(text):
            assert target in notes, f"{n} links to a missing note {target!r}"
    u1 = next(n for n in twins if "/home/u/proj" in notes[n])
    fm = _front(notes[u1])
    assert fm["date"] == "2026-03-01" and fm["time"] == "09:15" and fm["workspace"] == "/home/u/proj"
    assert fm["agent"] == ["claude-code", "codex"] and fm["conversations"] == 2
    assert {"capsule-capture", "agent/claude-code", "agent/codex", "workspace/proj"} <= set(fm["tags"])
    lines = [x for x in notes[u1].splitlines() if x.startswith("- ")]
    assert len(lines) == 2 and lines[0].startswith("- 09:15 · claude-code · **Parser** · 2 prompts")
    assert lines[0].endswith(f"^{CONVS[0].id}") and lines[1].startswith("- 14:40 · codex")
    assert "> fix the parser" in notes[u1]
    assert "next: [[2026-03-03 proj]]" in notes[u1]
    assert "previous: [[" + u1 + "]]" in notes["2026-03-03 proj"]
    v1 = next(n for n in twins if n != u1)
    assert f"[[{v1}]]" in notes[u1] and "same day:" in notes[u1]  # other workspaces of the day
    api = notes["2026-03-03 api"]
    assert "[[weird]]" not in api and "[ [weird]]" in api  # prompt text cannot make a dangling link
    assert _front(notes["undated no workspace"])["workspace"] is None


def test_jsonl_one_event_per_line(archive, tmp_path):
    out = tmp_path / "events"
    r = cli("export", "--all", "--format", "jsonl", "-o", str(out), env=archive)
    assert r.returncode == 0, r.stderr
    assert sorted(p.stem for p in out.glob("*.jsonl")) == sorted(c.id for c in CONVS)
    _private(out)
    conv = CONVS[0]
    events = [json.loads(x) for x in (out / f"{conv.id}.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(events) == len(conv.turns)
    assert all(set(e) == {"ts", "type", "source", "body", "meta"} and e["source"] == "claude-code" for e in events)
    assert [e["type"] for e in events[:4]] == ["user_intent", "tool_call", "tool_result", "agent_stream"]
    assert [e["body"] for e in events] == [t.text for t in conv.turns]
    assert events[1]["meta"]["name"] == "Bash" and events[1]["meta"]["input"] == {"command": "ls"}
    assert events[2]["meta"]["is_error"] is False
    assert [e["meta"]["turn"] for e in events] == [1, 1, 1, 1, 2, 2, 2, 2]
    assert events[0]["ts"] == "2026-03-01T09:15:10Z" and events[0]["meta"]["conversation"] == conv.id


def test_jsonl_of_a_real_session_keeps_every_turn(tmp_path):
    env = {"CAPSULE_CAPTURE_HOME": str(tmp_path / "capcap")}
    case = RECORDINGS / "claude-code" / "cc-x1-read-grep-thinking-90x26"
    assert cli("sync", "--home", str(case / "native"), env=env).returncode == 0
    show = json.loads(cli("show", "--latest", "--format", "json", env=env).stdout)
    r = cli("export", show["id"], "--format", "jsonl", "-o", str(tmp_path / "o"), env=env)
    assert r.returncode == 0, r.stderr
    events = [json.loads(x) for x in (tmp_path / "o" / f"{show['id']}.jsonl").read_text().splitlines()]
    assert [e["body"] for e in events] == [t["text"] for t in show["turns"]]
    kinds = {e["type"] for e in events}
    assert {"user_intent", "agent_stream", "tool_call", "tool_result"} <= kinds
    thinking = [e for e in events if e["meta"]["role"] == "thinking"]
    assert thinking and all(e["type"] == "agent_stream" and e["meta"]["kind"] == "thinking" for e in thinking)
    truth = json.loads((case / "truth.json").read_text())
    prompts = [t["text"] for t in truth["turns"] if t["role"] == "user" and not t.get("kind")]
    assert [e["body"] for e in events if e["type"] == "user_intent"] == prompts


# -- wrong shapes of archived text: notes stay well-formed ---------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from capsule_capture.exporters import notes  # noqa: E402

_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(_text, st.one_of(st.none(), _text), st.one_of(st.none(), _text,
                                st.sampled_from(["2026-03-01T09:15:00Z", "2026-03-02T23:59:59+05:00", "not a date"])),
                               _text), min_size=1, max_size=6))
def test_notes_survive_any_titles_workspaces_and_times(tmp_path, rows):
    convs = [Conversation(id=f"c{i}", agent="codex", title=title, workspace=ws, started_at=started,
                          turns=[Turn("user", prompt, key="u")]) for i, (title, ws, started, prompt) in enumerate(rows)]
    groups = notes.plan(convs)
    names = notes.note_names(list(groups))
    assert len(set(names.values())) == len(names)  # one file per (day, workspace)
    for key, cs in groups.items():
        name = names[key]
        assert "/" not in name and "\n" not in name and name.strip()
        text = notes.render(key, cs, names)
        fm = _front(text)  # every front-matter value parses
        assert fm["workspace"] == (key[1] or None) and fm["conversations"] == len(cs)
        for target in LINK.findall(text.split("---\n", 2)[2]):
            assert target in names.values()
        body = text.split("## Conversations\n", 1)[1]
        assert sum(1 for line in body.splitlines() if line.startswith("- ")) == len(cs)
