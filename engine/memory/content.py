"""What the in-memory graph holds, counted as the Cypher adapters count it (graph/fingerprint.py
and the adapters' `counts`), and a digest of its content: two loads of the same input compare
equal whatever organisation or run loaded them."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from engine.domain.models import subject_id
from engine.memory.data import OrgData
from engine.ports import Fingerprint


def counts(data: OrgData) -> dict[str, int]:
    """Nodes per label and subject relationships per type, as the Cypher adapters count."""
    out = {
        "Subject": len(data.subjects),
        "Episode": len(data.episodes),
        "SourceRecord": len(data.records),
        "Checkpoint": len(data.checkpoints),
        "Investigation": len(data.results.saved),
        "EmbeddingMeta": int(data.vector_stamp is not None),
        "ProjectionEpoch": int(data.results.epoch is not None),
    }
    counted = {label: n for label, n in out.items() if n}
    for edge_id in data.edges:
        counted[f"rel:{edge_id[0]}"] = counted.get(f"rel:{edge_id[0]}", 0) + 1
    return counted


def _dump(org_id: str, key: str, model: Any) -> Any:
    values = model.model_dump(mode="json", by_alias=False)
    if values.get("id") == subject_id(org_id, key):
        values["id"] = "derived"
    return values


def fingerprint(data: OrgData, org_id: str) -> Fingerprint:
    """Counts and a digest of the content (not of who loaded it, or in which run)."""
    entries: list[str] = []
    nodes: Counter[str] = Counter()
    rels: Counter[str] = Counter()
    for label, elements in (
        ("Subject", {k: n.subject for k, n in data.subjects.items()}),
        ("Episode", {k: e for k, (e, _) in data.episodes.items()}),
        ("SourceRecord", {k: r for k, (r, _) in data.records.items()}),
    ):
        for key, model in elements.items():
            nodes[label] += 1
            entries.append(json.dumps(["n", label, key, _dump(org_id, key, model)], sort_keys=True))
    for (rel_type, start, end, _), edge in data.edges.items():
        rels[rel_type] += 1
        values = edge.relationship.model_dump(mode="json")
        entries.append(json.dumps(["r", rel_type, start, end, values], sort_keys=True))
    for episode, linked in data.mentions.items():
        for key in linked:
            rels["MENTIONS"] += 1
            entries.append(json.dumps(["r", "MENTIONS", episode, key], sort_keys=True))
    entries.sort()
    return Fingerprint(
        nodes=dict(sorted(nodes.items())),
        relationships=dict(sorted(rels.items())),
        duplicates=0,  # every element is stored under its identity: there can be none
        digest=hashlib.sha256("\n".join(entries).encode()).hexdigest(),
    )
