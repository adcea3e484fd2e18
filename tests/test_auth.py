"""Bearer authentication: API keys against the real key store, and JWTs (HS256 and RS256)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from engine.domain.principal import Principal
from engine.ports import ApiKeyRecord, GraphUnavailable, InvalidOrganisation, KeyStore
from gateway.auth import (
    MAX_TOKEN,
    authenticate,
    create_key,
    digest,
    key_id_of,
    looks_like_jwt,
    mint_token,
)
from gateway.jwt_auth import JwtVerifier
from gateway.settings import Settings
from graph.falkor import FalkorStore
from tests.conftest import new_org

SECRET = "s" * 32 + "-hs256-test-secret"
ISSUER = "https://idp.example.test"
AUDIENCE = "context-fabric"


class CountingKeys:
    """The real key store, counting lookups (to prove which paths make no round trip)."""

    def __init__(self, inner: KeyStore) -> None:
        self.inner = inner
        self.lookups = 0

    async def put_key(self, record: ApiKeyRecord) -> None:
        await self.inner.put_key(record)

    async def get_key(self, key_id: str) -> ApiKeyRecord | None:
        self.lookups += 1
        return await self.inner.get_key(key_id)

    async def revoke_key(self, key_id: str) -> bool:
        return await self.inner.revoke_key(key_id)

    async def list_keys(self, org_id: str | None = None) -> list[ApiKeyRecord]:
        return await self.inner.list_keys(org_id)


class DownKeys(CountingKeys):
    """A key store that cannot be reached."""

    def __init__(self) -> None:
        self.lookups = 0

    async def get_key(self, key_id: str) -> ApiKeyRecord | None:
        self.lookups += 1
        raise GraphUnavailable("connection refused")


def bearer(token: str) -> str:
    return f"Bearer {token}"


# --- API keys -------------------------------------------------------------------------------


async def test_created_key_authenticates_as_its_principal(falkor: FalkorStore) -> None:
    org = new_org()
    token, key_id = await create_key(falkor.keys, org, "alice", frozenset({"read", "write"}))
    assert token.startswith("cfk_") and key_id == key_id_of(token)
    principal = await authenticate(falkor.keys, bearer(token))
    assert principal == Principal(org_id=org, actor="alice", scopes=frozenset({"read", "write"}))
    # The scheme is case-insensitive and surrounding blanks are ignored.
    assert await authenticate(falkor.keys, f"bearer   {token}  ") == principal
    stored = await falkor.keys.get_key(key_id)
    assert stored is not None and stored.secret_hash == digest(token)
    assert token not in repr(stored)


async def test_any_token_string_can_be_registered(falkor: FalkorStore) -> None:
    org = new_org()
    token = "demo.token.with-dots"  # JWT-shaped, but no verifier is configured
    await create_key(falkor.keys, org, "demo", token=token)
    principal = await authenticate(falkor.keys, bearer(token))
    assert principal is not None and principal.org_id == org
    assert principal.scopes == frozenset({"read"})


async def test_a_wrong_secret_is_refused(falkor: FalkorStore) -> None:
    token, _ = await create_key(falkor.keys, new_org(), "alice")
    assert (
        await authenticate(falkor.keys, bearer(token[:-1] + ("A" if token[-1] != "A" else "B")))
        is None
    )
    assert await authenticate(falkor.keys, bearer(mint_token())) is None


async def test_a_key_id_collision_does_not_forge_a_key(falkor: FalkorStore) -> None:
    # Simulate an attacker whose token shares the key id of a real key: the lookup finds the
    # record, but the full hash still has to match.
    real = mint_token()
    forged = mint_token()
    await falkor.keys.put_key(
        ApiKeyRecord(
            key_id=key_id_of(forged),
            secret_hash=digest(real),
            org_id=new_org(),
            actor="victim",
            scopes=("admin",),
            revoked=False,
        )
    )
    assert await authenticate(falkor.keys, bearer(forged)) is None


async def test_a_revoked_key_is_refused_at_once(falkor: FalkorStore) -> None:
    token, key_id = await create_key(falkor.keys, new_org(), "alice")
    assert await authenticate(falkor.keys, bearer(token)) is not None
    assert await falkor.keys.revoke_key(key_id) is True
    assert await authenticate(falkor.keys, bearer(token)) is None


async def test_unknown_scopes_are_rejected_at_creation(falkor: FalkorStore) -> None:
    org = new_org()
    with pytest.raises(ValueError, match="unknown scopes: root"):
        await create_key(falkor.keys, org, "alice", frozenset({"read", "root"}))
    assert await falkor.keys.list_keys(org) == []


async def test_a_bad_organisation_is_rejected_at_creation(falkor: FalkorStore) -> None:
    with pytest.raises(InvalidOrganisation):
        await create_key(falkor.keys, "../x", "alice")


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "Basic x",
        "Basic " + base64.b64encode(b"user:pass").decode(),
        "Bearer",
        "Bearer ",
        "Bearer    ",
        "Token cfk_abc",
        "Bearer " + "a" * (MAX_TOKEN + 1),
        "Bearer cfk_abc\x00def",
    ],
    ids=[
        "missing",
        "empty",
        "basic",
        "basic-real",
        "bare",
        "bare-space",
        "blank",
        "other",
        "long",
        "nul",
    ],
)
async def test_malformed_headers_are_refused_without_a_lookup(
    falkor: FalkorStore, header: str | None
) -> None:
    keys = CountingKeys(falkor.keys)
    assert await authenticate(keys, header) is None
    assert keys.lookups == 0


async def test_a_registered_token_followed_by_a_nul_is_refused(falkor: FalkorStore) -> None:
    token, _ = await create_key(falkor.keys, new_org(), "alice")
    assert await authenticate(falkor.keys, bearer(token + "\x00")) is None


async def test_key_store_errors_propagate() -> None:
    with pytest.raises(GraphUnavailable):
        await authenticate(DownKeys(), bearer(mint_token()))


async def test_api_keys_still_work_when_jwt_is_configured(falkor: FalkorStore) -> None:
    token, _ = await create_key(falkor.keys, new_org(), "alice")
    assert not looks_like_jwt(token)
    assert await authenticate(falkor.keys, bearer(token), JwtVerifier(secret=SECRET)) is not None


# --- JWT ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="module")
def public_pem(rsa_key: rsa.RSAPrivateKey) -> str:
    return (
        rsa_key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


def claims(**overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    base: dict[str, Any] = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "alice@example.test",
        "org": "acme",
        "scope": "read write",
        "iat": now,
        "exp": now + 300,
    }
    base.update(overrides)
    return {k: v for k, v in base.items() if v is not None}


def hs256(payload: dict[str, Any], secret: str = SECRET) -> str:
    return jwt.encode(payload, secret, algorithm="HS256")


def rs256(payload: dict[str, Any], key: rsa.RSAPrivateKey) -> str:
    return jwt.encode(payload, key, algorithm="RS256")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def handmade(header: dict[str, Any], payload: dict[str, Any], secret: bytes | None) -> str:
    """A compact JWS built by hand (PyJWT refuses to produce the malicious ones)."""
    signing_input = f"{b64url(json.dumps(header).encode())}.{b64url(json.dumps(payload).encode())}"
    signature = b""
    if secret is not None:
        signature = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{b64url(signature)}"


def hs_verifier(**options: Any) -> JwtVerifier:
    return JwtVerifier(secret=SECRET, issuer=ISSUER, audience=AUDIENCE, **options)


def rs_verifier(public_pem: str, **options: Any) -> JwtVerifier:
    return JwtVerifier(public_key=public_pem, issuer=ISSUER, audience=AUDIENCE, **options)


async def test_hs256_token_maps_to_its_principal(falkor: FalkorStore) -> None:
    keys = CountingKeys(falkor.keys)
    principal = await authenticate(keys, bearer(hs256(claims())), hs_verifier())
    assert principal == Principal(
        org_id="acme", actor="alice@example.test", scopes=frozenset({"read", "write"})
    )
    assert keys.lookups == 0


async def test_rs256_token_maps_to_its_principal(
    falkor: FalkorStore, rsa_key: rsa.RSAPrivateKey, public_pem: str
) -> None:
    keys = CountingKeys(falkor.keys)
    token = rs256(claims(org="globex", sub="bob", scope="admin"), rsa_key)
    principal = await authenticate(keys, bearer(token), rs_verifier(public_pem))
    assert principal == Principal(org_id="globex", actor="bob", scopes=frozenset({"admin"}))
    assert keys.lookups == 0


async def test_jwt_path_never_touches_the_key_store() -> None:
    keys = DownKeys()
    assert await authenticate(keys, bearer(hs256(claims())), hs_verifier()) is not None
    assert await authenticate(keys, bearer(hs256(claims(), "x" * 40)), hs_verifier()) is None
    assert keys.lookups == 0


def test_both_keys_configured_accept_both_algorithms(
    rsa_key: rsa.RSAPrivateKey, public_pem: str
) -> None:
    verifier = JwtVerifier(secret=SECRET, public_key=public_pem, issuer=ISSUER, audience=AUDIENCE)
    assert verifier.algorithms == ("HS256", "RS256")
    assert verifier.verify(hs256(claims())) is not None
    assert verifier.verify(rs256(claims(), rsa_key)) is not None


@pytest.mark.parametrize(
    ("scope", "expected"),
    [
        (["read", "write", "bogus"], {"read", "write"}),
        ("read admin openid profile", {"read", "admin"}),
        (None, {"read"}),
        ("openid profile", set()),
        ([], set()),
    ],
    ids=["list", "string", "absent", "none-known", "empty-list"],
)
def test_scope_claims(scope: Any, expected: set[str]) -> None:
    principal = hs_verifier().verify(hs256(claims(scope=scope)))
    assert principal is not None and principal.scopes == frozenset(expected)


def test_custom_claim_names() -> None:
    verifier = hs_verifier(org_claim="tenant", actor_claim="email", scope_claim="scp")
    token = hs256(claims(tenant="initech", email="peter@initech.test", scp=["write"]))
    assert verifier.verify(token) == Principal(
        "initech", "peter@initech.test", frozenset({"write"})
    )


def test_leeway_accepts_a_token_that_just_expired() -> None:
    now = int(time.time())
    assert hs_verifier().verify(hs256(claims(iat=now - 400, exp=now - 10))) is not None


@pytest.mark.parametrize(
    "payload",
    [
        claims(iss="https://evil.example.test"),
        claims(iss=ISSUER + ".evil"),
        claims(iss=None),
        claims(aud="someone-else"),
        claims(aud=["someone-else", "another"]),
        claims(aud=None),
        claims(exp=None),
        claims(exp=int(time.time()) - 120),
        claims(exp="tomorrow"),
        claims(nbf=int(time.time()) + 3600),
        claims(iat=int(time.time()) + 3600),
        claims(org="../x"),
        claims(org=None),
        claims(org=""),
        claims(org="acme\n"),
        claims(org=["acme"]),
        claims(org="_system"),
        claims(sub=None),
        claims(sub=""),
        claims(sub="   "),
        claims(sub="a" * 201),
        claims(sub="alice\x00admin"),
        claims(scope=7),
        claims(scope=["read", 1]),
    ],
    ids=[
        "wrong-issuer",
        "issuer-suffix",
        "missing-issuer",
        "wrong-audience",
        "audience-list",
        "missing-audience",
        "missing-exp",
        "expired",
        "exp-not-a-number",
        "not-yet-valid",
        "issued-in-future",
        "org-traversal",
        "missing-org",
        "empty-org",
        "org-newline",
        "org-list",
        "org-system",
        "missing-actor",
        "empty-actor",
        "blank-actor",
        "long-actor",
        "nul-actor",
        "scope-number",
        "scope-mixed-list",
    ],
)
def test_refused_claims(payload: dict[str, Any]) -> None:
    assert hs_verifier().verify(hs256(payload)) is None


def test_audience_list_containing_ours_is_accepted() -> None:
    assert hs_verifier().verify(hs256(claims(aud=["other", AUDIENCE]))) is not None


def test_unconfigured_issuer_and_audience_are_not_required() -> None:
    verifier = JwtVerifier(secret=SECRET)
    assert verifier.verify(hs256(claims(iss=None, aud=None))) is not None
    assert verifier.verify(hs256(claims(aud=None))) is not None  # any issuer
    # A token meant for a named audience is not accepted by a verifier that names none.
    assert verifier.verify(hs256(claims())) is None


def test_alg_none_is_refused(public_pem: str) -> None:
    for header in ({"alg": "none", "typ": "JWT"}, {"alg": "None"}, {"alg": ""}, {"typ": "JWT"}):
        token = handmade(header, claims(), None)
        assert looks_like_jwt(token)
        assert hs_verifier().verify(token) is None
        assert rs_verifier(public_pem).verify(token) is None


def test_wrong_hs256_secret_is_refused() -> None:
    assert hs_verifier().verify(hs256(claims(), "x" * 48)) is None


def test_hs256_token_refused_when_only_rs256_is_configured(public_pem: str) -> None:
    assert rs_verifier(public_pem).verify(hs256(claims())) is None


def test_rs256_token_refused_when_only_hs256_is_configured(rsa_key: rsa.RSAPrivateKey) -> None:
    assert hs_verifier().verify(rs256(claims(), rsa_key)) is None


def test_rs256_token_signed_by_another_key_is_refused(public_pem: str) -> None:
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    assert rs_verifier(public_pem).verify(rs256(claims(), other)) is None


def test_hs_rs_confusion_is_refused(public_pem: str) -> None:
    # The classic attack: HS256 with the (public) RSA key as the HMAC secret.
    for pem in (public_pem, public_pem.strip(), public_pem.replace("\n", "\\n")):
        token = handmade({"alg": "HS256", "typ": "JWT"}, claims(), pem.encode())
        assert rs_verifier(public_pem).verify(token) is None
        both = JwtVerifier(secret=SECRET, public_key=public_pem, issuer=ISSUER, audience=AUDIENCE)
        assert both.verify(token) is None


@pytest.mark.parametrize(
    "token",
    [
        "a.b.c",
        "a.b.",
        "eyJhbGciOiJIUzI1NiJ9.e30.",
        "eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln",
        b64url(b"[1]") + "." + b64url(b"{}") + ".c2ln",
        b64url(b"[" * 1500 + b"]" * 1500) + "." + b64url(b"{}") + ".c2ln",
        b64url(b'{"alg":"HS256","crit":["exp"]}') + "." + b64url(b"{}") + ".c2ln",
    ],
    ids=["tiny", "no-signature", "empty-payload", "not-json", "header-list", "deep-json", "crit"],
)
def test_garbage_never_raises(token: str) -> None:
    assert hs_verifier().verify(token) is None


async def test_non_jwt_tokens_skip_the_verifier(falkor: FalkorStore) -> None:
    assert not looks_like_jwt("cfk_abc")
    assert not looks_like_jwt("a.b")
    assert not looks_like_jwt("a.b.c.d")
    assert not looks_like_jwt("a+b.c.d")
    keys = CountingKeys(falkor.keys)
    assert await authenticate(keys, bearer("a.b.c.d"), hs_verifier()) is None
    assert keys.lookups == 1


# --- configuration --------------------------------------------------------------------------


def test_from_settings_without_keys_is_none() -> None:
    assert JwtVerifier.from_settings(Settings()) is None
    assert JwtVerifier.from_settings(Settings(jwt_secret="", jwt_public_key="")) is None


def test_from_settings_builds_a_verifier(rsa_key: rsa.RSAPrivateKey, public_pem: str) -> None:
    settings = Settings(
        jwt_secret=SECRET,
        jwt_public_key=public_pem.replace("\n", "\\n"),  # as an environment variable holds it
        jwt_issuer=ISSUER,
        jwt_audience=AUDIENCE,
        jwt_org_claim="tenant",
    )
    verifier = JwtVerifier.from_settings(settings)
    assert verifier is not None and verifier.algorithms == ("HS256", "RS256")
    token = rs256(claims(org=None, tenant="acme"), rsa_key)
    assert verifier.verify(token) == Principal(
        "acme", "alice@example.test", frozenset({"read", "write"})
    )
    assert verifier.verify(hs256(claims())) is None  # no `tenant` claim


def test_weak_or_unusable_keys_fail_at_startup(rsa_key: rsa.RSAPrivateKey) -> None:
    with pytest.raises(ValueError, match="at least 32 bytes"):
        JwtVerifier.from_settings(Settings(jwt_secret="short"))
    with pytest.raises(ValueError, match="not a PEM public key"):
        JwtVerifier(public_key="not a key")
    private_pem = rsa_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    with pytest.raises(ValueError, match="not a PEM public key"):
        JwtVerifier(public_key=private_pem)
    ec_pem = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    with pytest.raises(ValueError, match="must be an RSA key"):
        JwtVerifier(public_key=ec_pem)
    small = rsa.generate_private_key(public_exponent=65537, key_size=1024).public_key()
    small_pem = small.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()
    with pytest.raises(ValueError, match="at least 2048 bits"):
        JwtVerifier(public_key=small_pem)
    with pytest.raises(ValueError, match="needs a secret or a public key"):
        JwtVerifier()
