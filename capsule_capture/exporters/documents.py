"""One Markdown or JSON file per conversation."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence


def export(store, ids: Sequence[str], out: Path, fmt: str) -> int:  # type: ignore[no-untyped-def]
    from archive.record import to_json
    from capsule_capture.render import conversation_markdown
    n = 0
    for cid in ids:
        conv = store.get(cid, raw=False)
        if conv is None:
            continue
        data = to_json(conv)
        if fmt == "json":
            (out / f"{cid}.json").write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        else:
            (out / f"{cid}.md").write_text(conversation_markdown(data), encoding="utf-8")
        n += 1
    return n
