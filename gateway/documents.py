"""Persisted GraphQL documents: Apollo's automatic persisted queries and trusted documents.

A client sends `extensions.persistedQuery = {version: 1, sha256Hash}`, without the query text
once the gateway knows it; an unknown hash answers `PERSISTED_QUERY_NOT_FOUND` (HTTP 200, as
Apollo's clients expect), and the client sends text and hash together, which stores the text
for every replica (the store is on the graph server, bounded per organisation).

With `FABRIC_TRUSTED_DOCUMENTS` on, only documents an operator registered
(`fabric documents register FILE...`) run, by hash or by their exact text: arbitrary queries
are refused with `DOCUMENT_NOT_TRUSTED`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from graphql import GraphQLError, OperationDefinitionNode, parse, print_ast
from strawberry.http import GraphQLRequestData

from engine.ports.changes import DocumentStore

NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND"
NOT_SUPPORTED = "PERSISTED_QUERY_NOT_SUPPORTED"
NOT_TRUSTED = "DOCUMENT_NOT_TRUSTED"
_HEX = frozenset("0123456789abcdef")


class DocumentRefused(Exception):
    """status: HTTP status; code: the error's `extensions.code`; message: Apollo's text for
    its own codes (its clients match on the message as well as the code)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _requested_hash(extensions: dict[str, Any] | None) -> str | None:
    persisted = (extensions or {}).get("persistedQuery")
    if persisted is None:
        return None
    if not isinstance(persisted, dict) or persisted.get("version") != 1:
        raise DocumentRefused(400, "BAD_REQUEST", "Unsupported persisted query version.")
    digest = persisted.get("sha256Hash")
    if not isinstance(digest, str) or len(digest) != 64 or not set(digest) <= _HEX:
        raise DocumentRefused(400, "BAD_REQUEST", "`sha256Hash` must be 64 lowercase hex digits.")
    return digest


@dataclass
class PersistedDocuments:
    """store: where documents live; enabled: automatic persisted queries accepted; trusted:
    only registered documents run."""

    store: DocumentStore
    enabled: bool = True
    trusted: bool = False

    async def resolve(self, org_id: str, data: GraphQLRequestData) -> GraphQLRequestData:
        """The request with its query text, or DocumentRefused."""
        digest = _requested_hash(data.extensions)
        if self.trusted:
            return await self._trusted(data, digest)
        if digest is None:
            return data
        if not self.enabled:
            raise DocumentRefused(200, NOT_SUPPORTED, "PersistedQueryNotSupported")
        if data.query is None:
            text = await self.store.get(org_id, digest)
            if text is None:
                raise DocumentRefused(200, NOT_FOUND, "PersistedQueryNotFound")
            return replace(data, query=text)
        if sha256_hex(data.query) != digest:
            raise DocumentRefused(400, "BAD_REQUEST", "provided sha does not match query")
        await self.store.put(org_id, digest, data.query)
        return data

    async def _trusted(self, data: GraphQLRequestData, digest: str | None) -> GraphQLRequestData:
        if data.query is not None:
            own = sha256_hex(data.query)
            if digest is not None and own != digest:
                raise DocumentRefused(400, "BAD_REQUEST", "provided sha does not match query")
            digest = own
        if digest is None:
            raise DocumentRefused(400, NOT_TRUSTED, "Only registered documents run here.")
        text = await self.store.trusted(digest)
        if text is None and data.query is not None:  # the same document, differently spaced
            printed = normalised(data.query)
            text = await self.store.trusted(sha256_hex(printed)) if printed else None
        if text is None:
            if data.query is None:  # an APQ client then sends the text, refused below
                raise DocumentRefused(200, NOT_FOUND, "PersistedQueryNotFound")
            raise DocumentRefused(400, NOT_TRUSTED, "Only registered documents run here.")
        return replace(data, query=text)


MANIFEST = "apollo-persisted-query-manifest"


def documents_in(text: str) -> list[tuple[str, str]]:
    """(sha256, text) pairs to register from one file: an Apollo persisted query manifest
    (its ids are the hashes its clients send), or a GraphQL document, as written and as the
    gateway normalises it (text requests are matched in both forms). ValueError or
    GraphQLError when it is neither."""
    if text.lstrip().startswith("{"):
        return _manifest(json.loads(text))
    document = parse(text)
    if not any(isinstance(d, OperationDefinitionNode) for d in document.definitions):
        raise GraphQLError("the file holds no operation")
    return [(sha256_hex(t), t) for t in dict.fromkeys([text, print_ast(document)])]


def _manifest(data: Any) -> list[tuple[str, str]]:
    if not isinstance(data, dict) or data.get("format") != MANIFEST or data.get("version") != 1:
        raise ValueError(f"a JSON file must be an {MANIFEST} (version 1)")
    pairs = []
    for operation in data.get("operations") or []:
        body = operation.get("body") if isinstance(operation, dict) else None
        if not isinstance(body, str) or operation.get("id") != sha256_hex(body):
            raise ValueError("every manifest operation needs a body and id = sha256(body)")
        parse(body)
        pairs.append((sha256_hex(body), body))
    return pairs


def normalised(text: str) -> str | None:
    try:
        return print_ast(parse(text))
    except GraphQLError:
        return None
