"""HTTP revalidation of GET queries: an ETag over what decides the answer, so a dashboard's poll
costs one counter read while nothing changed.

The tag covers the document (the query text, or the persisted query's hash when the request
names one: the request that registers a document and later ones by hash alone get the same
tag, though the gateway keeps the text minified), operation name, variables, the principal
(organisation, actor, scopes) and the organisation's revision, which every write bumps
(engine/ports/changes.py).
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


def _document(data: GraphQLRequestData) -> str | None:
    # The hash was checked against the text it came with, or found in the store
    # (gateway.documents), before this runs.
    persisted = (data.extensions or {}).get("persistedQuery")
    digest = persisted.get("sha256Hash") if isinstance(persisted, dict) else None
    return f"sha256:{digest}" if isinstance(digest, str) else data.query


def etag(data: GraphQLRequestData, principal: Principal, revision: int) -> str:
    material = json.dumps(
        [
            _document(data),
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
