"""Every record a claimed fact rests on, as a connection: a fact lists at most its provider's
limit of record keys, and this reads all of them back with the fact's own selection rule
(engine/domain/evidence.py), so `totalCount` equals the fact's `evidenceTotal`. The store chooses
and cuts each page (OrgGraph.evidence_pages): the field reads its page and one more row, as the
cost limiter charges a connection."""

from __future__ import annotations

import strawberry

from engine.domain.evidence import EvidenceSelector
from engine.domain.models import to_ns
from engine.ports import EvidenceRequest, TimeSpan
from resolvers.args import page_size
from resolvers.records import SourceRecord
from resolvers.relay import decode_cursor, encode_cursor
from resolvers.types import Ctx, PageInfo


@strawberry.type
class EvidenceEdge:
    cursor: str
    node: SourceRecord


@strawberry.type(description="A page of the source records a fact rests on, by key.")
class EvidenceConnection:
    edges: list[EvidenceEdge]
    page_info: PageInfo
    count_request: strawberry.Private[EvidenceRequest | None]

    @strawberry.field(description="How many records back the fact (all).")
    async def total_count(self, info: Ctx) -> int:
        if self.count_request is None:
            return 0
        count: int = await info.context.loaders.evidence_counts.load(self.count_request)
        return count


async def evidence_page(
    info: Ctx, selector: EvidenceSelector | None, first: int | None, after: str | None
) -> EvidenceConnection:
    size = page_size(first, info.context.limits.max_page_size, default=50)
    if selector is None:
        nothing = PageInfo.of([], False, False)
        return EvidenceConnection(edges=[], page_info=nothing, count_request=None)
    start = decode_cursor(after, 1)[0] if after is not None else None
    found = await info.context.loaders.evidence.load(selector.request(size + 1, start))
    end = to_ns(selector.end)
    assert end is not None
    at = TimeSpan.point(end)
    edges = [
        EvidenceEdge(cursor=encode_cursor(r.key), node=SourceRecord.from_model(r, at))
        for r in found[:size]
    ]
    page = PageInfo.of([e.cursor for e in edges], len(found) > size, after is not None)
    return EvidenceConnection(edges=edges, page_info=page, count_request=selector.request())
