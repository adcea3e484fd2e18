"""Receipts: what a clarification hands out so the caller can bind a candidate back.

A receipt names one subject and is valid only for the organisation, actor and question it was
issued for (an HMAC over all four), so it cannot be replayed by someone else or elsewhere.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac

from engine.domain.text import normalise

_SIGNATURE_CHARS = 22


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class ReceiptSigner:
    """secret: at least 32 bytes, shared by every gateway instance (kept in the graph store)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 32:
            raise ValueError("receipt secrets are at least 32 bytes")
        self._secret = secret

    def _signature(self, org_id: str, actor: str, question: str, subject_key: str) -> str:
        message = "\x1f".join((org_id, actor, normalise(question), subject_key)).encode()
        return _b64(hmac.new(self._secret, message, hashlib.sha256).digest())[:_SIGNATURE_CHARS]

    def issue(self, org_id: str, actor: str, question: str, subject_key: str) -> str:
        signature = self._signature(org_id, actor, question, subject_key)
        return f"{signature}.{_b64(subject_key.encode())}"

    def verify(self, receipt: str, org_id: str, actor: str, question: str) -> str | None:
        """The subject key a receipt binds, or None if it was not issued for this context."""
        # compare_digest refuses non-ASCII strings (a TypeError): such a receipt is forged.
        if len(receipt) > 1_200 or receipt.count(".") != 1 or not receipt.isascii():
            return None
        signature, encoded = receipt.split(".")
        try:
            key = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return None
        expected = self._signature(org_id, actor, question, key)
        return key if hmac.compare_digest(signature, expected) else None
