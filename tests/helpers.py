from __future__ import annotations

import hashlib
import json
import signal
import subprocess
from collections.abc import Sequence
from typing import Any

from engine.ports import OrgGraph, SubjectQuery
from graph.projection import IngestReport, Projector


def lines(records: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(r) for r in records]


async def load(graph: OrgGraph, records: list[dict[str, Any]], **options: Any) -> IngestReport:
    return await Projector(graph, **options).run(lines(records))


def refuses_naming(limitations: Sequence[str], phrase: str, why: str = "") -> bool:
    """A time phrase said not understood (engine.resolving.questiontime.unread): a
    limitation starting with the phrase quoted, then `why`, and saying no other window is
    answered in its place."""
    start = f'"{phrase}"{why}'
    return any(n.startswith(start) and "no other window is answered" in n for n in limitations)


def subject(key: str, name: str | None = None, **extra: Any) -> dict[str, Any]:
    kind = key.split(":", 1)[0]
    return {"type": "subject", "key": key, "kind": kind, "name": name or key.split(":")[1], **extra}


def rel(relation: str, src: str, dst: str, **extra: Any) -> dict[str, Any]:
    return {"type": "relationship", "relation": relation, "from": src, "to": dst, **extra}


async def content_hash(graph: OrgGraph) -> str:
    """A digest of everything readable about an organisation's subjects and their edges."""
    page = await graph.find_subjects(SubjectQuery(include_stubs=True), first=100_000)
    keys = [s.key for s in page.items]
    rels = await graph.relationships_of(keys, limit_per_subject=10_000)
    episodes = await graph.episodes_of(keys, limit_per_subject=10_000)
    records = await graph.source_records_of(keys)
    blob = json.dumps(
        [
            [s.model_dump(mode="json") for s in page.items],
            {k: sorted(e.relationship.rel_id for e in v) for k, v in rels.items()},
            {k: [e.key for e in v] for k, v in episodes.items()},
            {k: [r.model_dump(mode="json") for r in v] for k, v in records.items()},
        ],
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()


def interrupt(proc: subprocess.Popen[str]) -> None:
    """Stop a server as Ctrl-C does, killing it if it has not ended within a minute."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
