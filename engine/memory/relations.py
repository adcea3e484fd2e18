"""Relationship, episode and source-record reads of the in-memory graph."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.domain.evidence import EvidenceSelector, select
from engine.domain.models import (
    Direction,
    Episode,
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    SubjectKind,
    key_kind,
    to_ns,
)
from engine.memory.data import OrgData, admitted, brief
from engine.ports import (
    Edge,
    EdgeRequest,
    EpisodeRequest,
    EvidenceRequest,
    NeighborLevel,
    RecordPageRequest,
    SeriesBucket,
    SeriesRequest,
    SubjectIdentity,
    TimeSpan,
)
from engine.ports.shapes import preorder


def _ns(value: object) -> int:
    ns = to_ns(value)  # type: ignore[arg-type]
    assert ns is not None
    return ns


def edges(data: OrgData, request: EdgeRequest, paged: bool = True) -> list[Edge]:
    """One subject's relationships (types, direction, time), in (type, other key, id) order;
    at a time, both the relationship and the subject at its other end must be valid then."""
    if request.key not in data.subjects:
        return []
    found: list[Edge] = []
    for edge_id in data.touching.get(request.key, ()):
        rel = data.edges[edge_id].relationship
        if request.types and rel.type not in request.types:
            continue
        # A relationship to itself is both outgoing and incoming: found once either way.
        outgoing, incoming = rel.from_key == request.key, rel.to_key == request.key
        if (request.direction is Direction.INCOMING and not incoming) or (
            request.direction is Direction.OUTGOING and not outgoing
        ):
            continue
        other = data.subjects[rel.to_key if outgoing else rel.from_key].subject
        if request.at is not None and not (
            admitted(rel.valid_from, rel.valid_to, request.at)
            and admitted(other.valid_from, other.valid_to, request.at)
        ):
            continue
        found.append(Edge(rel, brief(other) if request.brief else other, outgoing))
    found.sort(key=lambda e: e.position)
    if not paged:
        return found
    if request.after is not None:
        found = [e for e in found if e.position > request.after]
    return found[: request.limit]


def neighbor_levels(
    data: OrgData, keys: Sequence[str], levels: Sequence[NeighborLevel]
) -> list[dict[str, list[StoredSubject | SubjectIdentity]]]:
    """Each level of the tree read with `edges`, a level at a time, each anchored on `keys`
    or on the distinct other ends of its parent's pages."""
    flat = preorder(levels)
    out: list[dict[str, list[StoredSubject | SubjectIdentity]]] = []
    anchors: list[list[str]] = []
    for level, parent in flat:
        pages: dict[str, list[StoredSubject | SubjectIdentity]] = {}
        for key in keys if parent < 0 else anchors[parent]:
            request = EdgeRequest(key, level.types, level.direction, level.at, level.limit,
                                  None, level.brief)  # fmt: skip
            others = [e.other for e in edges(data, request)]
            if others:
                pages[key] = [SubjectIdentity(o.key, o.kind, o.name) for o in others] \
                    if level.brief else list(others)  # fmt: skip
        out.append(pages)
        anchors.append(list(dict.fromkeys(o.key for page in pages.values() for o in page)))
    return out


def edges_by_id(data: OrgData, ids: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Edge]:
    out: dict[tuple[str, str], Edge] = {}
    for start, rel_id in dict.fromkeys(ids):
        for edge_id in sorted(data.touching.get(start, ())):
            if edge_id[1] == start and edge_id[3] == rel_id:
                rel = data.edges[edge_id].relationship
                out[(start, rel_id)] = Edge(rel, data.subjects[rel.to_key].subject, True)
                break
    return out


def episodes(data: OrgData, request: EpisodeRequest, paged: bool = True) -> list[Episode]:
    """Episodes that mention the subject, newest first (then by key), in a closed span."""
    if request.key not in data.subjects:
        return []
    span = request.span
    found = []
    for key, linked in data.mentions.items():
        if request.key not in linked:
            continue
        episode = data.episodes[key][0]
        at = _ns(episode.occurred_at)
        if span is None or span.start_ns <= at <= span.end_ns:
            found.append((-at, key, episode))
    found.sort(key=lambda row: (row[0], row[1]))
    if paged and request.after is not None:
        after_ns, after_key = request.after
        found = [r for r in found if -r[0] < after_ns or (-r[0] == after_ns and r[1] > after_key)]
    rows = found[: request.limit] if paged else found
    return [episode for _, _, episode in rows]


def source_records_of(
    data: OrgData,
    keys: Sequence[str],
    kinds: Sequence[SourceRecordKind],
    span: TimeSpan | None,
) -> dict[str, list[SourceRecord]]:
    """Records of the subjects, oldest first; in a span, those whose closed interval
    [start, end] meets it (an open record lasts)."""
    out: dict[str, list[SourceRecord]] = {k: [] for k in dict.fromkeys(keys)}
    rows = []
    for record, _ in data.records.values():
        if record.subject not in out or (kinds and record.record_kind not in kinds):
            continue
        start = _ns(record.start)
        if span is not None and (
            start > span.end_ns or (record.end is not None and _ns(record.end) < span.start_ns)
        ):
            continue
        rows.append((start, record.key, record))
    for _, _, record in sorted(rows, key=lambda row: (row[0], row[1])):
        out[record.subject].append(record)
    return out


def source_record_page(data: OrgData, request: RecordPageRequest) -> list[SourceRecord]:
    """One page of `source_records_of`'s order, after the request's (start, key) position."""
    found = source_records_of(data, [request.key], request.kinds, request.span)[request.key]
    if request.after is not None:
        after = request.after
        found = [r for r in found if (_ns(r.start), r.key) > after]
    return found[: request.limit]


def evidence(data: OrgData, request: EvidenceRequest) -> list[SourceRecord]:
    """Every record the request's rule chooses, by key: the rule itself (engine/domain/evidence.py)
    over the window's records, which the Cypher stores' statements must agree with."""
    selector = EvidenceSelector.of(request)
    found = source_records_of(data, [request.subject_key], request.kinds, selector.span())
    return select(selector, found[request.subject_key])


def evidence_page(data: OrgData, request: EvidenceRequest) -> list[SourceRecord]:
    chosen = evidence(data, request)
    if request.after is not None:
        chosen = [r for r in chosen if r.key > request.after]
    return chosen[: request.limit]


def series(data: OrgData, request: SeriesRequest) -> list[SeriesBucket]:
    """A request's buckets, as the Cypher stores add them up (graph/series.py)."""
    span, width, offset = request.span, request.width_ns, request.offset_ns
    found = source_records_of(data, [request.key], [request.kind], span)[request.key]
    values: dict[int, float] = {}
    counts: Counter[int] = Counter()
    for r in found:
        if request.statuses and r.status not in request.statuses:
            continue
        if request.metric is not None and r.metric != request.metric:
            continue
        moment = r.end if request.at_end else r.start
        if moment is None or not span.start_ns <= _ns(moment) <= span.end_ns:
            continue
        slot = (_ns(moment) - offset) // width * width + offset
        amount = 1.0 if request.metric is None else float(r.value or 0.0)
        values[slot] = values.get(slot, 0.0) + amount
        counts[slot] += 1
    return [(slot, values[slot], counts[slot]) for slot in sorted(values)]


def active_subjects(
    data: OrgData,
    kinds: Sequence[SourceRecordKind],
    span: TimeSpan,
    limit: int,
    subject_kinds: Sequence[SubjectKind] = (),
) -> list[tuple[str, int]]:
    """As the Cypher statement: a subject's kind is its key's prefix (the subject need not
    exist), filtered before the limit."""
    wanted = {SubjectKind(k).value for k in subject_kinds}
    counted: Counter[str] = Counter(
        record.subject
        for record, _ in data.records.values()
        if record.record_kind in kinds
        and span.start_ns <= _ns(record.start) <= span.end_ns
        and (not wanted or key_kind(record.subject) in wanted)
    )
    return sorted(counted.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
