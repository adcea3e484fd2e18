"""Errors whose message is safe to show a client, each with a stable code."""

from __future__ import annotations


class PublicError(Exception):
    """An error a client caused or may act on. The message must carry no internal detail."""

    code = "BAD_USER_INPUT"

    def __init__(
        self, message: str, *, code: str | None = None, extensions: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        # Closed, machine-readable details for the client (never exception text).
        self.extensions = dict(extensions or {})


class BadUserInput(PublicError):
    code = "BAD_USER_INPUT"


class Forbidden(PublicError):
    code = "FORBIDDEN"
