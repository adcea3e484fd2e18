"""Persisted GraphQL documents: Apollo's automatic persisted queries and trusted documents.

A client sends `extensions.persistedQuery = {version: 1, sha256Hash}`, without the query text
once the gateway knows it; an unknown hash answers `PERSISTED_QUERY_NOT_FOUND` (HTTP 200, as
Apollo's clients expect), and the client sends text and hash together. That text is stored
(for every replica: the store is on the graph server, bounded per organisation in count and
bytes) only once it has parsed, validated and passed every limit (it started executing:
`PersistValidated`), after the request has run, in its printed form minified
(gateway.tokens): the padding of the text as sent is neither kept nor read again.

With `FABRIC_TRUSTED_DOCUMENTS` on, only documents an operator registered
(`fabric documents register FILE...`) run, by hash or by their text: arbitrary queries are
refused with `DOCUMENT_NOT_TRUSTED`, before any parse. A text is looked up by the hash of
its raw form, then, only when it is within 100,000 characters and the token limit, by the
hash of its minified form (the lexer alone computes it, reading at most the token limit's
tokens; a long text in the lexer thread).
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import logging
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from graphql import GraphQLError, OperationDefinitionNode, parse, print_ast
from strawberry.extensions import SchemaExtension
from strawberry.http import GraphQLRequestData

from engine.ports import GraphError
from engine.ports.changes import DocumentStore
from gateway.tokens import minified, off_loop

log = logging.getLogger("fabric.documents")

NOT_FOUND = "PERSISTED_QUERY_NOT_FOUND"
NOT_SUPPORTED = "PERSISTED_QUERY_NOT_SUPPORTED"
NOT_TRUSTED = "DOCUMENT_NOT_TRUSTED"
_HEX = frozenset("0123456789abcdef")
SHORT_CHARS = 2_500  # minified on the event loop (a millisecond or so); longer in a thread


@dataclass
class _Registration:
    org_id: str
    digest: str
    printed: str | None = None  # once it started executing (so within every limit)


# Texts this request asked to persist, by text: marked as each starts executing, stored once
# the request has run (one dict per request, shared by its operations' contexts).
_pending: contextvars.ContextVar[dict[str, _Registration] | None] = contextvars.ContextVar(
    "fabric_pending_documents", default=None
)


def registering(text: str) -> bool:
    """Whether this request registers `text` (stored once it starts executing)."""
    return text in (_pending.get() or {})


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
    only registered documents run; max_chars, max_tokens: the limits within which a text is
    minified to be matched (longer texts run only as registered, byte for byte)."""

    store: DocumentStore
    enabled: bool = True
    trusted: bool = False
    max_chars: int = 100_000
    max_tokens: int = 5_000

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
        pending = _pending.get()
        if pending is None:
            pending = {}
            _pending.set(pending)
        pending[data.query] = _Registration(org_id, digest)  # stored if it executes
        return data

    async def persist_executed(self) -> None:
        """Store the texts this request registered that started executing (so parsed,
        validated and within every limit: PersistValidated marked them)."""
        pending = _pending.get() or {}
        for query, registration in list(pending.items()):
            del pending[query]
            if registration.printed is None:
                continue
            # The printed document, minified: no padding left to read, however it came (a
            # long one, with a long string, in the lexer thread).
            printed = registration.printed
            text = (
                minified(printed, sys.maxsize)
                if len(printed) <= SHORT_CHARS
                else await off_loop(minified, printed, sys.maxsize)
            ) or printed
            try:
                await self.store.put(registration.org_id, registration.digest, text)
            except GraphError as exc:  # the answer stands; the client sends the text again
                log.warning("a persisted query was not stored: %s", exc)

    async def _minified(self, text: str) -> str | None:
        """`text` minified within the limits, else None; a long text in the lexer thread
        (the lexer reads about 5 MB a second)."""
        if len(text) > self.max_chars:
            return None
        if len(text) <= SHORT_CHARS:
            return minified(text, self.max_tokens)
        return await off_loop(minified, text, self.max_tokens)

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
            form = await self._minified(data.query)  # None over the limits: refused unparsed
            text = await self.store.trusted(sha256_hex(form)) if form else None
        if text is None:
            if data.query is None:  # an APQ client then sends the text, refused below
                raise DocumentRefused(200, NOT_FOUND, "PersistedQueryNotFound")
            raise DocumentRefused(400, NOT_TRUSTED, "Only registered documents run here.")
        return replace(data, query=text)


class PersistValidated(SchemaExtension):
    """Marks a persisted query its request registered as the operation starts executing:
    strawberry runs `on_execute` only after parsing, validation and every limit passed.
    The view stores it once the request has run (PersistedDocuments.persist_executed): an
    asynchronous on_execute changed how strawberry runs every operation."""

    def on_execute(self) -> Iterator[None]:
        context = self.execution_context
        registration = (_pending.get() or {}).get(context.query or "")
        if registration is not None and context.graphql_document is not None:
            # Printing takes time in the document's tokens (within the limit), not its text's
            # length: a string is copied whole.
            registration.printed = print_ast(context.graphql_document)
        yield


MANIFEST = "apollo-persisted-query-manifest"


def documents_in(text: str) -> list[tuple[str, str]]:
    """(sha256, text) pairs to register from one file: an Apollo persisted query manifest
    (its ids are the hashes its clients send), or a GraphQL document, as written and
    minified (text requests are matched in both forms). ValueError or GraphQLError when it
    is neither."""
    if text.lstrip().startswith("{"):
        return _manifest(json.loads(text))
    document = parse(text)
    if not any(isinstance(d, OperationDefinitionNode) for d in document.definitions):
        raise GraphQLError("the file holds no operation")
    # A registered document may exceed the request's token limit: it is trusted.
    forms = [text, minified(text, sys.maxsize) or text]
    return [(sha256_hex(t), t) for t in dict.fromkeys(forms)]


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
