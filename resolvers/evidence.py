"""Every record a claimed fact rests on, as a connection: a fact lists at most its provider's
limit of record keys, and this reads all of them back with the fact's own selection rule
(engine/evidence.py), so `totalCount` equals the fact's `evidenceTotal`."""

from __future__ import annotations

import strawberry

from engine.evidence import EvidenceSelector, select
from engine.ports import TimeSpan
from resolvers.args import page_size
from resolvers.relay import decode_cursor, encode_cursor
from resolvers.types import Ctx, PageInfo, SourceRecord


@strawberry.type
class EvidenceEdge:
    cursor: str
    node: SourceRecord


@strawberry.type(description="A page of the source records a fact rests on, by key.")
class EvidenceConnection:
    edges: list[EvidenceEdge]
    page_info: PageInfo
    total_count: int = strawberry.field(description="How many records back the fact (all).")


async def evidence_page(
    info: Ctx, selector: EvidenceSelector | None, first: int | None, after: str | None
) -> EvidenceConnection:
    size = page_size(first, info.context.limits.max_page_size, default=50)
    if selector is None:
        return EvidenceConnection(edges=[], page_info=PageInfo.of([], False, False), total_count=0)
    start = decode_cursor(after, 1)[0] if after is not None else None
    span = selector.span()
    found = await info.context.graph.source_records_of(
        [selector.subject_key], kinds=list(selector.record_kinds), span=span
    )
    chosen = select(selector, found.get(selector.subject_key, []))
    rest = [r for r in chosen if start is None or r.key > start]
    at = TimeSpan.point(span.end_ns)
    edges = [
        EvidenceEdge(cursor=encode_cursor(r.key), node=SourceRecord.from_model(r, at))
        for r in rest[:size]
    ]
    page = PageInfo.of([e.cursor for e in edges], len(rest) > size, after is not None)
    return EvidenceConnection(edges=edges, page_info=page, total_count=len(chosen))
