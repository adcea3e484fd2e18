"""Answer reuse: the key a saved answer is found again by, and the recheck that it may still
be shown. An answer is reused only when every dimension it depended on matches and every
reference it cites can still be read; anything that cannot be rechecked is recomputed."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from datetime import datetime

from engine.domain.contract import InvestigationResult, Versions
from engine.domain.text import normalise
from engine.ports import OrgGraph

# Relationships read around a subject to recheck an explicit-id one on reuse (past this it is
# not found, and the answer is recomputed rather than reused).
RECHECK_EDGES = 1_000


# The dimensions of the key, in the order the one digest is taken over.
DIMENSIONS = (
    "question", "organisation", "contract", "projection", "embedder", "model", "epoch",
    "retrieval_policy", "time_axis",
)  # fmt: skip


@dataclass(frozen=True)
class ReuseKey:
    """The key a saved answer is found again by: one SHA-256 over every dimension (what the
    store matches on), and a digest per dimension, so a miss can be attributed to the
    dimension that missed (`differs`)."""

    digest: str
    dimensions: dict[str, str]

    def differs(self, other: ReuseKey) -> tuple[str, ...]:
        """The dimensions whose values differ between two keys, in key order."""
        return tuple(d for d in DIMENSIONS if self.dimensions[d] != other.dimensions[d])


def reuse_key(question: str, org_id: str, versions: Versions, axis_key: str) -> ReuseKey:
    """Every dimension a reused answer must match: the question as normalised, the
    organisation, contract/projection/embedder/model identities, the projection epoch, the
    retrieval policy (gates, tau, search depth), and the time axis."""
    parts = (
        normalise(question),
        org_id,
        versions.contract,
        versions.projection,
        versions.embedder,
        versions.model or "deterministic",
        str(versions.epoch),
        versions.retrieval_policy,
        axis_key,
    )
    digest = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()
    each = {
        d: hashlib.sha256(p.encode()).hexdigest()[:16]
        for d, p in zip(DIMENSIONS, parts, strict=True)
    }
    return ReuseKey(digest, each)


async def reusable(graph: OrgGraph, key: str, since: datetime) -> InvestigationResult | None:
    """The newest answer saved under `key` after `since`, if it is still visible."""
    since_ns = int(since.timestamp() * 1_000_000) * 1_000
    stored = await graph.results.reusable(key, since_ns)
    if stored is None:
        return None
    result = InvestigationResult.model_validate_json(stored.payload)
    return result if await still_visible(graph, result) else None


async def still_visible(graph: OrgGraph, result: InvestigationResult) -> bool:
    """Reuse rechecks that every subject and every evidence reference (source records,
    episodes, subjects, relationships by derived or explicit id) can still be read here;
    a reference that cannot be rechecked is not reused (fail closed)."""
    subjects = set(result.subject_keys)
    records: set[str] = set()
    episodes: set[str] = set()
    derived: set[tuple[str, str]] = set()  # (start key, "TYPE|from|to|valid_from")
    explicit: set[tuple[str, str]] = set()  # (a subject at one end, the explicit id)
    for ref in (r for driver in result.drivers for r in driver.evidence):
        kind = ref.kind.value
        if kind == "source_record":
            records.add(ref.ref)
        elif kind == "episode":
            episodes.add(ref.ref)
        elif kind == "subject":
            subjects.add(ref.ref)
        elif ref.ref.count("|") == 3:
            derived.add((ref.ref.split("|")[1], ref.ref))
        elif ref.subject_key is not None:
            explicit.add((ref.subject_key, ref.ref))
        else:
            return False
    ends = sorted({key for key, _ in explicit})
    found_subjects, found_records, found_episodes, found_edges, around = await asyncio.gather(
        graph.subjects_by_keys(sorted(subjects)),
        graph.source_records_by_keys(sorted(records)),
        graph.episodes_by_keys(sorted(episodes)),
        graph.edges_by_id(sorted(derived)),
        graph.relationships_of(ends, limit_per_subject=RECHECK_EDGES),
    )
    seen = {(key, e.relationship.rel_id) for key, edges in around.items() for e in edges}
    return (
        len(found_subjects) == len(subjects)
        and len(found_records) == len(records)
        and len(found_episodes) == len(episodes)
        and len(found_edges) == len(derived)
        and explicit <= seen
    )
