"""One Markdown or JSON file per conversation."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence


def export(store, ids: Sequence[str], out: Path, fmt: str) -> int:  # type: ignore[no-untyped-def]
    from archive.record import to_json
    from capsule_capture.render import conversation_markdown
    from capsule_capture.exporters import conversations, write_private
    n = 0
    for conv in conversations(store, ids):
        data = to_json(conv)
        if fmt == "json":
            write_private(out / f"{conv.id}.json", json.dumps(data, ensure_ascii=False, indent=1))
        else:
            write_private(out / f"{conv.id}.md", conversation_markdown(data))
        n += 1
    return n
