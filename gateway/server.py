"""uvicorn's settings that follow the gateway's own: what `fabric serve` (and the tests'
server) passes to `uvicorn.Config` beside the app.

* WebSocket messages are bounded by `FABRIC_MAX_BODY_BYTES`, as request bodies are
  (uvicorn's default is 16 MiB), and a connection queues at most `WS_MAX_QUEUE` of them
  unread (uvicorn's default 32): one connection holds at most (queue + 1) messages.
* A request whose request line or headers uvicorn's parser refuses (a GET URL of 64 KiB or
  more: httptools' URL parser counts in 16 bits; a malformed line) is answered before the
  application sees it. uvicorn's answer is a plain-text 400; ours says the same as JSON with
  `extensions.code` BAD_REQUEST, as every other error body of /graphql does.
"""

from __future__ import annotations

import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from gateway.http import error_body
from gateway.settings import Settings

WS_MAX_QUEUE = 4  # graphql-transport-ws clients send few messages; more wait in the socket
UNREADABLE = (
    "The request line or headers could not be read: malformed, or a URL of 64 KiB or more "
    "(send a long query with POST)."
)


class JsonErrorsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with its parse-error answer as a JSON error body."""

    def send_400_response(self, msg: str) -> None:
        body = json.dumps(error_body("BAD_REQUEST", UNREADABLE), separators=(",", ":")).encode()
        head = [b"HTTP/1.1 400 Bad Request\r\n"]
        for name, value in self.server_state.default_headers:
            head += [name, b": ", value, b"\r\n"]
        head += [
            b"content-type: application/json; charset=utf-8\r\n",
            b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
            b"connection: close\r\n\r\n",
        ]
        self.transport.write(b"".join(head) + body)
        self.transport.close()


def server_options(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for `uvicorn.Config` that bound what the server reads."""
    return {
        "http": JsonErrorsProtocol,
        "ws_max_size": settings.max_body_bytes,
        "ws_max_queue": WS_MAX_QUEUE,
    }
