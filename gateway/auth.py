"""Bearer authentication: API keys stored only as hashes in the graph store, or JWTs.

A key's id is a prefix of its token's SHA-256, so lookup needs no secret and any token string
(including `FABRIC_DEMO_TOKEN`) can be registered. Tokens carry 256 bits of randomness, which
is why a fast hash is enough here; a password hash would only slow every request.

When a JWT verifier is configured (`gateway.jwt_auth`), a bearer token shaped like a JWT
(three base64url segments joined by dots) is verified as one, locally and without a key-store
round trip; it is never also tried as an API key. Minted API keys contain no dots, so they
always take the key-store path.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import TYPE_CHECKING

from engine.domain.principal import Principal
from engine.ports import ApiKeyRecord, GraphError, KeyStore, check_org

if TYPE_CHECKING:  # gateway.jwt_auth imports this module (for SCOPES)
    from gateway.jwt_auth import JwtVerifier

TOKEN_PREFIX = "cfk_"  # noqa: S105 - a prefix, not a secret
KEY_ID_CHARS = 24
SCOPES = frozenset({"read", "write", "admin"})
MAX_TOKEN = 4_096
# The compact JWS form: header.payload.signature (the signature is empty only for `alg: none`,
# which is routed to the verifier so that it is refused there).
JWT_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def key_id_of(token: str) -> str:
    return digest(token)[:KEY_ID_CHARS]


def mint_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


async def create_key(
    keys: KeyStore,
    org_id: str,
    actor: str,
    scopes: frozenset[str] = frozenset({"read"}),
    token: str | None = None,
) -> tuple[str, str]:
    """Register a key; returns (token, key id). The token is shown once and never stored."""
    check_org(org_id)
    unknown = scopes - SCOPES
    if unknown:
        raise ValueError(f"unknown scopes: {', '.join(sorted(unknown))}")
    token = token or mint_token()
    record = ApiKeyRecord(
        key_id=key_id_of(token),
        secret_hash=digest(token),
        org_id=org_id,
        actor=actor,
        scopes=tuple(sorted(scopes)),
        revoked=False,
    )
    await keys.put_key(record)
    return token, record.key_id


def bearer_token(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN:
        return None
    return token


def looks_like_jwt(token: str) -> bool:
    return JWT_SHAPE.fullmatch(token) is not None


async def authenticate(
    keys: KeyStore, header: str | None, jwt: JwtVerifier | None = None
) -> Principal | None:
    """The principal behind an `Authorization: Bearer` header, or None.

    With a `jwt` verifier, a JWT-shaped token is verified as a JWT only. Raises GraphError
    when the key store cannot be read (the caller answers 503, not 401).
    """
    token = bearer_token(header)
    if token is None or "\x00" in token:
        return None
    if jwt is not None and looks_like_jwt(token):
        return jwt.verify(token)
    record = await keys.get_key(key_id_of(token))
    if record is None or record.revoked:
        return None
    if not hmac.compare_digest(record.secret_hash, digest(token)):
        return None
    return Principal(org_id=record.org_id, actor=record.actor, scopes=frozenset(record.scopes))


__all__ = [
    "GraphError",
    "Principal",
    "authenticate",
    "bearer_token",
    "create_key",
    "digest",
    "key_id_of",
    "looks_like_jwt",
    "mint_token",
]
