"""GraphQL over HTTP: media types, content negotiation, status codes, error bodies, and the
limit on request bodies.

Follows the GraphQL-over-HTTP specification: `application/graphql-response+json` answers a
request error (unparsable body, invalid document, bad variables) with a 4xx and no `data`;
`application/json` keeps the legacy 200. Every error body is JSON with an `extensions.code`.
A request to /graphql goes through gateway.endpoint (authentication, time limit, timing) to
gateway.view (strawberry's view: context, persisted documents, revalidation, the response).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.http import GraphQLHTTPResponse

GRAPHQL_RESPONSE = "application/graphql-response+json"
JSON = "application/json"
STATUS_BY_CODE = {"GRAPH_UNAVAILABLE": 503, "TIMEOUT": 504}
# With a 503 from the graph store (unreachable, busy, a cluster electing a leader): when to
# try again, in seconds (RFC 9110, 10.2.3), as the admission gate says it.
RETRY_AFTER_S = "1"


def negotiate(accept: str | None) -> str | None:
    """The media type to answer with, or None when the client accepts neither of ours."""
    if not accept or not accept.strip():
        return JSON  # the specification's legacy default
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept.split(",")):
        media, *params = (p.strip() for p in part.split(";"))
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        media = media.lower()
        if media in (GRAPHQL_RESPONSE, JSON):
            ranked.append((quality, -position, media))
        elif media in ("*/*", "application/*"):
            ranked.append((quality, -position, JSON))
    ranked = [r for r in ranked if r[0] > 0]
    return max(ranked)[2] if ranked else None


def error_body(code: str, message: str, **extensions: str) -> dict[str, Any]:
    return {"errors": [{"message": message, "extensions": {"code": code, **extensions}}]}


def error_response(
    status: int, code: str, message: str, media: str | None = JSON, **headers: str
) -> Response:
    # ASCII JSON: a message may echo client text, and an unpaired surrogate in it (JSON's
    # `\ud800`) has no UTF-8 form; starlette's JSONResponse would fail to encode it (a 500).
    return Response(
        json.dumps(error_body(code, message), separators=(",", ":")),
        status_code=status,
        media_type=media or JSON,
        headers=headers or None,
    )


def errors_of(data: GraphQLHTTPResponse) -> list[dict[str, Any]]:
    errors: list[dict[str, Any]] = list(data.get("errors") or [])  # type: ignore[arg-type]
    return errors


def is_request_error(data: GraphQLHTTPResponse) -> bool:
    errors = errors_of(data)
    return bool(errors) and data.get("data") is None and not any("path" in e for e in errors)


def status_of(data: GraphQLHTTPResponse, media: str) -> int:
    codes = {str((e.get("extensions") or {}).get("code")) for e in errors_of(data)}
    if data.get("data") is None:
        for code, status in STATUS_BY_CODE.items():
            if code in codes:
                return status
    if media == GRAPHQL_RESPONSE and is_request_error(data):
        return 400
    return 200


class BodyLimit:
    """Refuses request bodies over `max_bytes` with 413, before anything parses them."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            more = message.get("more_body", False)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"The request body exceeds {self.max_bytes} bytes."
        await error_response(413, "PAYLOAD_TOO_LARGE", message)(scope, receive, send)
