"""Structured logs: one JSON object a line, a request id on every line, no secrets.

`RequestId` (ASGI middleware) accepts a sane `X-Request-ID` from the client or a load
balancer, otherwise generates one; it echoes it in the response header, makes it current for
every log line of the request, and writes one access line when the request ends.

Redaction is a filter on the handler, so it holds for every logger (ours, uvicorn's, the
drivers'): bearer tokens, API keys, JWTs, passwords in URLs and the values of secret settings
are replaced before a line is formatted. Access lines never carry headers, query strings or
bodies in the first place.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.settings import Settings

HEADER = "x-request-id"
REDACTED = "[REDACTED]"
_SANE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")  # whole value: fullmatch
# Each pattern's first group (when it has one) is kept; the rest of the match is replaced.
_PATTERNS = (
    re.compile(r"(?i)\b((?:bearer|basic)\s+)[^\s,;\"']+"),
    re.compile(r"\bcfk_[A-Za-z0-9_-]+"),  # the gateway's API keys (gateway.auth.TOKEN_PREFIX)
    re.compile(r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"),  # JWTs
    re.compile(r"(://[^/\s:@]+:)[^/\s@]+(?=@)"),  # user:password@ in URLs
    re.compile(r"(?i)((?:password|secret|token|api_key)[\"']?\s*[:=]\s*[\"']?)[^\s,\"'}]+"),
)
# color_message: uvicorn's ANSI-coloured copy of the message, noise in JSON.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",
}

request_id: ContextVar[str | None] = ContextVar("fabric_request_id", default=None)
_fields: ContextVar[dict[str, Any] | None] = ContextVar("fabric_log_fields", default=None)
access = logging.getLogger("fabric.access")


def sane_request_id(given: str | None) -> str:
    """The client's id when it is a short token of safe characters, else a fresh one: an id
    is echoed into headers and logs, so it must not carry line breaks, markup or bulk."""
    if given and _SANE_ID.fullmatch(given):
        return given
    return uuid.uuid4().hex


class Redact(logging.Filter):
    """Replaces credentials in a record's message, arguments and exception text."""

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        super().__init__()
        # A value shorter than 4 would blank out ordinary words; no real secret is that short.
        self.secrets = tuple(s for s in secrets if len(s) >= 4)

    def scrub(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        for pattern in _PATTERNS:
            text = pattern.sub(
                lambda m: (m.group(1) or "") + REDACTED if m.re.groups else REDACTED, text
            )
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.scrub(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.scrub(record.exc_text)
        record.exc_info = None  # the scrubbed text replaces the live traceback
        for key, value in list(vars(record).items()):
            if key not in _STANDARD and isinstance(value, str):
                setattr(record, key, self.scrub(value))
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request id, extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        current = request_id.get()
        if current is not None:
            line["request_id"] = current
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value if isinstance(value, int | float | bool | None) else str(value)
        if record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        current = request_id.get()
        return f"{text} [request_id={current}]" if current else text


def secret_values(settings: Settings) -> tuple[str, ...]:
    values = []
    for name in Settings.model_fields:
        value = getattr(settings, name)
        if hasattr(value, "get_secret_value") and value.get_secret_value():
            values.append(str(value.get_secret_value()))
    return tuple(values)


def handler(settings: Settings, stream: Any = None) -> logging.Handler:
    """A stream handler with the configured format and the redaction filter."""
    out = logging.StreamHandler(stream or sys.stderr)
    out.setFormatter(JsonFormatter() if settings.log_format == "json" else TextFormatter())
    out.addFilter(Redact(secret_values(settings)))
    return out


def configure(settings: Settings) -> None:
    """Route every logger (uvicorn's included) through one redacting handler (`fabric serve`)."""
    root = logging.getLogger()
    for existing in list(root.handlers):
        root.removeHandler(existing)
    root.addHandler(handler(settings))
    root.setLevel(settings.log_level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True


class RequestId:
    """ASGI middleware: request id in, request id out, one access line per request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(HEADER.encode())
        current = sane_request_id(given.decode("latin-1") if given else None)
        token = request_id.set(current)
        fields: dict[str, Any] = {"status": 500}
        fields_token = _fields.set(fields)
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                fields["status"] = message["status"]
                MutableHeaders(scope=message).append("X-Request-ID", current)
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            fields["duration_ms"] = round((time.perf_counter() - started) * 1000, 3)
            access.info(
                "%s %s %s",
                scope.get("method", "-"),
                scope.get("path", "-"),
                fields["status"],
                extra={"method": scope.get("method"), "path": scope.get("path"), **fields},
            )
            _fields.reset(fields_token)
            request_id.reset(token)


def annotate(**values: Any) -> None:
    """Adds fields (operation, outcome, round trips) to the current request's access line."""
    fields = _fields.get()
    if fields is not None:
        fields.update(values)
