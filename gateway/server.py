"""uvicorn's settings that follow the gateway's own: what `fabric serve` (and the tests'
server) passes to `uvicorn.Config` beside the app.

* WebSocket messages are bounded by `FABRIC_MAX_BODY_BYTES`, as request bodies are
  (uvicorn's default is 16 MiB), and a connection queues at most `WS_MAX_QUEUE` of them
  unread (uvicorn's default 32): one connection holds at most (queue + 1) messages.
* A graceful stop (Ctrl-C, SIGTERM, a worker replaced: gateway/workers.py) leaves an idle
  kept-alive connection open for up to `LINGER_S` rather than closing it at once: a client
  may be sending its next request on it at that moment, and closed under it that request is
  reset (tests/test_workers.py saw 3 of a few hundred reset while workers were replaced).
  A request arriving meanwhile is answered with `connection: close`, so the client's next
  one opens a new connection, which a running worker accepts.
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

LINGER_S = 1.0  # an idle connection's wait for a last request once the server stops
WS_MAX_QUEUE = 4  # graphql-transport-ws clients send few messages; more wait in the socket
UNREADABLE = (
    "The request line or headers could not be read: malformed, or a URL of 64 KiB or more "
    "(send a long query with POST)."
)


class JsonErrorsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with its parse-error answer as a JSON error body, and a
    stop that answers a kept-alive connection's last request rather than resetting it."""

    _draining = False

    def shutdown(self) -> None:
        self._draining = True
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.keep_alive = False  # closed once this response is sent
            return
        if self.timeout_keep_alive_task is not None:
            self.timeout_keep_alive_task.cancel()
        self.timeout_keep_alive_task = self.loop.call_later(
            LINGER_S, self.timeout_keep_alive_handler
        )

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        if self._draining and self.cycle is not None:
            self.cycle.keep_alive = False  # answered with `connection: close`

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
