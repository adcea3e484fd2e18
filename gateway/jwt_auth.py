"""JWT bearer tokens: verified locally (no store round trip) against the configured key.

Each configured key is bound to exactly one algorithm: the HS256 secret (`FABRIC_JWT_SECRET`)
only ever verifies HS256 and the RSA public key (`FABRIC_JWT_PUBLIC_KEY`) only ever verifies
RS256, so `alg: none` and HS/RS confusion (an HS256 token whose HMAC secret is the public key)
cannot pass. A token must carry `exp`, and `iss`/`aud` when those are configured; `nbf` and
`iat` are checked when present, with 30 s leeway for clock skew.

Claims map to a Principal: the organisation (`jwt_org_claim`, a valid organisation id), the
actor (`jwt_actor_claim`) and the scopes (`jwt_scope_claim`: a space-separated string or a
list; unknown scopes are dropped, and an absent claim means `read`). Anything wrong yields
None; `verify` never raises, and nothing of the token is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

import jwt
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from engine.domain.principal import Principal
from engine.ports import ORG_PATTERN, InvalidOrganisation, check_org
from gateway.auth import SCOPES

if TYPE_CHECKING:
    from gateway.settings import Settings

log = logging.getLogger(__name__)

DEFAULT_SCOPES = frozenset({"read"})
LEEWAY_S = 30
MAX_ACTOR = 200
MIN_SECRET_BYTES = 32  # RFC 7518 §3.2: an HS256 key is at least as long as the hash output
MIN_RSA_BITS = 2048


@dataclass(frozen=True, slots=True)
class _Key:
    algorithm: str
    key: bytes | RSAPublicKey


class JwtVerifier:
    """Verifies JWT bearer tokens and maps their claims to a Principal."""

    def __init__(
        self,
        *,
        secret: str | bytes | None = None,
        public_key: str | bytes | None = None,
        issuer: str | None = None,
        audience: str | None = None,
        org_claim: str = "org",
        actor_claim: str = "sub",
        scope_claim: str = "scope",
    ) -> None:
        """Raises ValueError on a key that is unusable or too weak (a configuration error)."""
        keys: list[_Key] = []
        if secret is not None:
            raw = secret.encode("utf-8") if isinstance(secret, str) else secret
            if len(raw) < MIN_SECRET_BYTES:
                raise ValueError(f"the JWT secret must be at least {MIN_SECRET_BYTES} bytes")
            keys.append(_Key("HS256", raw))
        if public_key is not None:
            keys.append(_Key("RS256", _rsa_public_key(public_key)))
        if not keys:
            raise ValueError("a JWT verifier needs a secret or a public key")
        for name, claim in (("org", org_claim), ("actor", actor_claim), ("scope", scope_claim)):
            if not claim:
                raise ValueError(f"the JWT {name} claim name is empty")
        self._keys = tuple(keys)
        self.issuer = issuer or None
        self.audience = audience or None
        self.org_claim = org_claim
        self.actor_claim = actor_claim
        self.scope_claim = scope_claim
        required = ["exp"]
        if self.issuer is not None:
            required.append("iss")
        if self.audience is not None:
            required.append("aud")
        self._required = required

    @classmethod
    def from_settings(cls, settings: Settings) -> JwtVerifier | None:
        """The verifier the settings describe, or None when no JWT key is configured.

        Raises ValueError when a configured key is unusable (fail at startup, not per request).
        """
        secret = settings.jwt_secret.get_secret_value() if settings.jwt_secret else None
        public_key = settings.jwt_public_key or None
        if not secret and not public_key:
            return None
        return cls(
            secret=secret or None,
            public_key=public_key,
            issuer=settings.jwt_issuer,
            audience=settings.jwt_audience,
            org_claim=settings.jwt_org_claim,
            actor_claim=settings.jwt_actor_claim,
            scope_claim=settings.jwt_scope_claim,
        )

    @property
    def algorithms(self) -> tuple[str, ...]:
        return tuple(k.algorithm for k in self._keys)

    def verify(self, token: str) -> Principal | None:
        """The principal a valid token names, or None. Never raises."""
        try:
            return self._principal(self._decode(token))
        except Exception as exc:  # a malformed token must never become a 500
            log.debug("JWT refused: %s", type(exc).__name__)
            return None

    def _decode(self, token: str) -> dict[str, Any]:
        # Each key is tried only with its own algorithm; the token's header never picks one.
        for key in self._keys:
            try:
                claims: dict[str, Any] = jwt.decode(
                    token,
                    key.key,
                    algorithms=[key.algorithm],
                    options={"require": self._required},
                    issuer=self.issuer,
                    audience=self.audience,
                    leeway=LEEWAY_S,
                )
            except jwt.InvalidAlgorithmError:
                continue
            if self.issuer is not None and claims.get("iss") != self.issuer:
                raise jwt.InvalidIssuerError("issuer mismatch")
            return claims
        raise jwt.InvalidAlgorithmError("no configured key for this algorithm")

    def _principal(self, claims: Mapping[str, Any]) -> Principal | None:
        org = claims.get(self.org_claim)
        if not _valid_org(org):
            log.debug("JWT refused: bad organisation claim")
            return None
        actor = claims.get(self.actor_claim)
        if not _valid_actor(actor):
            log.debug("JWT refused: bad actor claim")
            return None
        scopes = _scopes(claims.get(self.scope_claim))
        if scopes is None:
            log.debug("JWT refused: bad scope claim")
            return None
        return Principal(org_id=org, actor=actor, scopes=scopes)


def _valid_org(value: object) -> TypeGuard[str]:
    if not isinstance(value, str):
        return False
    try:
        check_org(value)
    except InvalidOrganisation:
        return False
    # `check_org` anchors with `$`, which also matches before a trailing newline.
    return ORG_PATTERN.fullmatch(value) is not None


def _valid_actor(value: object) -> TypeGuard[str]:
    return (
        isinstance(value, str)
        and bool(value.strip())
        and len(value) <= MAX_ACTOR
        and "\x00" not in value
    )


def _scopes(value: object) -> frozenset[str] | None:
    """Known scopes named by the claim; `read` when it is absent; None when it is malformed."""
    if value is None:
        return DEFAULT_SCOPES
    if isinstance(value, str):
        names = value.split()
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        names = value
    else:
        return None
    return frozenset(names) & SCOPES


def _rsa_public_key(pem: str | bytes) -> RSAPublicKey:
    try:
        text = pem.decode("ascii") if isinstance(pem, bytes) else pem
        # An environment variable often carries the PEM's newlines as literal `\n`.
        text = text.replace("\\n", "\n").strip()
        key = load_pem_public_key(text.encode("ascii"))
    except (ValueError, TypeError, UnicodeError) as exc:
        raise ValueError("the JWT public key is not a PEM public key") from exc
    if not isinstance(key, RSAPublicKey):
        raise ValueError("the JWT public key must be an RSA key (RS256)")
    if key.key_size < MIN_RSA_BITS:
        raise ValueError(f"the JWT RSA key must be at least {MIN_RSA_BITS} bits")
    return key


__all__ = ["JwtVerifier"]
