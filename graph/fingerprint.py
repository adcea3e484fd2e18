"""A deterministic fingerprint of what an organisation's graph holds, to compare two graphs.

Two loads of the same input must give equal fingerprints whatever organisation they went to
and however often they were interrupted and resumed: the fingerprint counts the projected
nodes (subjects, episodes, source records) by label and their relationships by type, and
hashes every property except the ones that name the organisation or the load run. A subject's
id is derived from its organisation and key; it is checked against that derivation and hashed
as `derived`, so a wrong id still changes the fingerprint. Bookkeeping (checkpoints, epochs,
investigation results, keys) is not content and is left out.

It reads the whole organisation: meant for verification (tests, `bench/`, operators
comparing a restore), not for request paths.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.domain.models import subject_id
from engine.ports import Fingerprint
from graph.executor import Run

CONTENT_LABELS = ("Subject", "Episode", "SourceRecord")
# Which organisation and which load run wrote an element: not what the element says.
_VOLATILE = frozenset({"org_id", "run_id"})


def _nodes(label: str) -> str:
    return f"MATCH (n:{label} {{org_id: $org}}) RETURN n.key, properties(n)"


def _relationships(label: str) -> str:
    # Every relationship starts at a content node (Subject or Episode): matching outgoing
    # edges of each content label sees each relationship exactly once.
    return (
        f"MATCH (a:{label} {{org_id: $org}})-[r]->(b) WHERE r.org_id = $org "
        "RETURN type(r), a.key, labels(b)[0], b.key, properties(r)"
    )


def _clean(org_id: str, key: str, props: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in props.items() if k not in _VOLATILE}
    if "id" in out and out["id"] == subject_id(org_id, key):
        out["id"] = "derived"
    return out


async def fingerprint(read: Run, org_id: str) -> Fingerprint:
    """read: runs one read statement with `$org` bound to `org_id` (ScopedGraph._read)."""
    entries: list[str] = []
    nodes: Counter[str] = Counter()
    rels: Counter[str] = Counter()
    identities: Counter[tuple[Any, ...]] = Counter()
    for label in CONTENT_LABELS:
        for key, props in await read(_nodes(label)):
            nodes[label] += 1
            identities[(label, key)] += 1
            entries.append(
                json.dumps(["n", label, key, _clean(org_id, key, props)], sort_keys=True)
            )
    for label in CONTENT_LABELS:
        for rel_type, start, end_label, end, props in await read(_relationships(label)):
            rels[rel_type] += 1
            identities[(rel_type, label, start, end_label, end, props.get("id"))] += 1
            clean = {k: v for k, v in props.items() if k not in _VOLATILE}
            entries.append(
                json.dumps(["r", rel_type, label, start, end_label, end, clean], sort_keys=True)
            )
    entries.sort()
    digest = hashlib.sha256("\n".join(entries).encode()).hexdigest()
    return Fingerprint(
        nodes=dict(sorted(nodes.items())),
        relationships=dict(sorted(rels.items())),
        duplicates=sum(n - 1 for n in identities.values()),
        digest=digest,
    )
