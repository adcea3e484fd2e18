"""HTTP revalidation of GET queries: an ETag over what decides the answer, so a dashboard's poll
costs one counter read while nothing changed.

The tag covers the query text, operation name, variables, the principal (organisation, actor,
scopes) and the organisation's revision, which every write bumps (engine/ports/changes.py).
The revision is read before the query runs: a write landing meanwhile bumps it, so the tag
of an answer is never newer than the data in it. Without a shared revision (Neo4j with no
`FABRIC_REDIS_URL`) there is no tag: a write by another process could not invalidate it.
"""

from __future__ import annotations

import hashlib
import json

from strawberry.http import GraphQLRequestData

from engine.domain.principal import Principal

CACHE_CONTROL = "private, max-age=0, must-revalidate"


def etag(data: GraphQLRequestData, principal: Principal, revision: int) -> str:
    material = json.dumps(
        [
            data.query,
            data.operation_name,
            data.variables,
            principal.org_id,
            principal.actor,
            sorted(principal.scopes),
            revision,
        ],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    return '"' + hashlib.sha256(material.encode()).hexdigest()[:40] + '"'


def matches(if_none_match: str | None, tag: str) -> bool:
    """RFC 9110's weak comparison against an If-None-Match list (`*` matches any)."""
    if not if_none_match:
        return False
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == tag:
            return True
    return False


def headers(tag: str) -> dict[str, str]:
    return {"ETag": tag, "Cache-Control": CACHE_CONTROL, "Vary": "Authorization"}
