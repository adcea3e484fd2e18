"""Embeddings: the local hashing embedder and the verified OpenAI-compatible HTTP embedder."""

from __future__ import annotations

import asyncio
import json
import math
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
import uvicorn
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from engine.domain.embedding import (
    COMPOSITION_TAG,
    Embedder,
    EmbedderIdentity,
    EmbeddingError,
    HashingEmbedder,
    cosine,
)
from gateway.embedder_http import HttpEmbedder, ascii_fold, model_key

ROOT = Path(__file__).resolve().parent.parent
DIM = 16
SECRET_BODY = "SECRET-BODY-TEXT stack trace api_key=sk-leaked"
API_KEY = "sk-test-key-123"


def _sim(embedder: HashingEmbedder, a: str, b: str) -> float:
    vectors = embedder.embed_sync([a, b])
    return float(cosine(vectors[:1], vectors[1:])[0, 0])


# --- identity -------------------------------------------------------------------------------


def test_identity_stamp_is_readable_and_tracks_every_field() -> None:
    identity = HashingEmbedder().identity
    assert identity == EmbedderIdentity("local", "char-ngram-v1", 128)
    assert identity.composition == COMPOSITION_TAG == "t3:f200"
    assert identity.stamp() == "local/char-ngram-v1#128@t3:f200"
    assert HashingEmbedder(64).identity.stamp() == "local/char-ngram-v1#64@t3:f200"
    assert identity.stamp() == EmbedderIdentity("local", "char-ngram-v1", 128).stamp()
    assert EmbedderIdentity("local", "char-ngram-v1", 128, "t9:f200").stamp() != identity.stamp()
    # Separators inside provider or model are escaped, so different identities never collide.
    assert EmbedderIdentity("a/b", "c", 8).stamp() != EmbedderIdentity("a", "b/c", 8).stamp()
    assert EmbedderIdentity("a", "m#8@x", 8).stamp() != EmbedderIdentity("a", "m", 8, "x").stamp()
    assert EmbedderIdentity("p", "org/model", 8).stamp() == "p/org/model#8@t3:f200"


@pytest.mark.parametrize("dimension", [0, -1, True, 1.5, 70_000])
def test_identity_refuses_a_bad_dimension(dimension: Any) -> None:
    with pytest.raises(ValueError, match="dimension"):
        HashingEmbedder(dimension)


def test_both_embedders_satisfy_the_protocol() -> None:
    assert isinstance(HashingEmbedder(), Embedder)
    assert isinstance(HttpEmbedder("http://127.0.0.1:1/v1", "m", 4), Embedder)


# --- HashingEmbedder ------------------------------------------------------------------------


async def test_shape_dtype_and_unit_rows() -> None:
    embedder = HashingEmbedder(64)
    texts = ["payments-api", "Checkout Web | repository", "", "x", "ÄÖÜ ß 東京 🙂"]
    vectors = await embedder.embed(texts)
    assert vectors.shape == (5, 64)
    assert vectors.dtype == np.float32
    norms = np.linalg.norm(vectors, axis=1)
    assert np.allclose(norms[[0, 1, 3, 4]], 1.0, atol=1e-5)
    assert np.array_equal(vectors, embedder.embed_sync(texts))
    assert embedder.embed_sync([]).shape == (0, 64)


def test_texts_without_letters_or_digits_are_zero_vectors() -> None:
    vectors = HashingEmbedder().embed_sync(["", "   ", " | -_- | "])
    assert not vectors.any()


def test_a_bare_string_or_non_text_is_refused() -> None:
    with pytest.raises(TypeError):
        HashingEmbedder().embed_sync("payments")
    with pytest.raises(TypeError):
        HashingEmbedder().embed_sync([b"payments"])  # type: ignore[list-item]


def test_deterministic_across_instances_and_batches() -> None:
    texts = ["payments-api | repository | payments", "checkout-web", "ledger"]
    first = HashingEmbedder().embed_sync(texts)
    assert np.array_equal(first, HashingEmbedder().embed_sync(texts))
    one_by_one = np.vstack([HashingEmbedder().embed_sync([t]) for t in reversed(texts)])[::-1]
    assert np.array_equal(first, one_by_one)


def test_deterministic_across_processes() -> None:
    text = "payments-api | repository | payments service | Zahlungen"
    code = (
        "import json, sys; from engine.domain.embedding import HashingEmbedder;"
        "print(json.dumps(HashingEmbedder().embed_sync([sys.argv[1]])[0].tolist()))"
    )
    here = HashingEmbedder().embed_sync([text])[0].tolist()
    for seed in ("0", "12345"):
        result = subprocess.run(
            [sys.executable, "-c", code, text], cwd=ROOT, capture_output=True, text=True,
            timeout=120, env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == here


def test_what_it_matches() -> None:
    e = HashingEmbedder()
    # Shared words, whatever the punctuation: closer than an unrelated name.
    assert _sim(e, "payments-api", "payments api service") > _sim(e, "payments-api", "checkout-web")
    # A one-letter transposition keeps most character 3-grams.
    typo = _sim(e, "paymnets-api", "payments-api")
    for other in ("checkout-web", "identity-service", "ledger", "web-frontend"):
        assert typo > _sim(e, "paymnets-api", other) + 0.2
    # Word order, case and separators do not matter.
    assert _sim(e, "payments-api", "API Payments") == pytest.approx(1.0, abs=1e-5)
    assert _sim(e, "payments-api", "Payments_API") == pytest.approx(1.0, abs=1e-5)
    # A rename that keeps a word.
    assert _sim(e, "payments-gateway", "payments-api") > _sim(e, "payments-gateway", "checkout")
    # Compatibility forms (NFKC): full-width letters are the plain ones.
    full_width = "".join(chr(ord(c) + 0xFEE0) for c in "PAYMENTS")
    assert _sim(e, full_width, "payments") == pytest.approx(1.0, abs=1e-5)


def test_what_it_cannot_match() -> None:
    e = HashingEmbedder()
    # An acronym shares no spelling with what it stands for...
    assert _sim(e, "CIS", "customer identity service") < 0.3
    # ...unless it is in the text, as an alias is in the search text.
    assert _sim(e, "CIS", "customer identity service | service | CIS") > 0.3


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=60), max_size=8), st.sampled_from([1, 7, 64, 128]))
def test_rows_are_unit_or_zero_and_finite(texts: list[str], dimension: int) -> None:
    vectors = HashingEmbedder(dimension).embed_sync(texts)
    assert vectors.shape == (len(texts), dimension)
    assert np.isfinite(vectors).all()
    for norm in np.linalg.norm(vectors.astype(np.float64), axis=1):
        assert abs(norm) < 1e-5 or abs(norm - 1.0) < 1e-5


def test_cosine_shapes() -> None:
    e = HashingEmbedder(32)
    a = e.embed_sync(["a b", "c d", "e"])
    b = e.embed_sync(["a b", "x"])
    sims = cosine(a, b)
    assert sims.shape == (3, 2)
    assert sims[0, 0] == pytest.approx(1.0, abs=1e-5)
    assert cosine(a[0], b).shape == (1, 2)
    with pytest.raises(ValueError):
        cosine(a, np.zeros((1, 8), dtype=np.float32))


async def test_async_embed_of_a_large_batch_matches_sync() -> None:
    texts = [f"service-{i} | repository" for i in range(3_000)]
    embedder = HashingEmbedder(32)
    assert np.array_equal(await embedder.embed(texts), embedder.embed_sync(texts))


# --- HttpEmbedder against a real local server ------------------------------------------------

ABSENT = object()


@dataclass
class FakeOpenAI:
    """The server's switchable behaviour and what it was sent."""

    behaviour: str = "ok"
    model_field: object = None  # None echoes the requested model; ABSENT drops the field
    requests: list[dict[str, Any]] = field(default_factory=list)
    auth: list[str | None] = field(default_factory=list)
    url: str = ""

    def reset(self) -> None:
        self.behaviour = "ok"
        self.model_field = None
        self.requests.clear()
        self.auth.clear()


def _server_vectors(texts: list[str]) -> list[list[float]]:
    # Deliberately not unit length: the client must normalise.
    return (HashingEmbedder(DIM).embed_sync(texts) * 3.0).astype(np.float64).tolist()  # type: ignore[no-any-return]


def _app(state: FakeOpenAI) -> Starlette:
    async def embeddings(request: Request) -> Response:
        body = await request.json()
        state.requests.append(body)
        state.auth.append(request.headers.get("authorization"))
        behaviour = state.behaviour
        if behaviour == "http_500":
            return PlainTextResponse(SECRET_BODY, status_code=500)
        if behaviour == "invalid_json":
            return Response(b'{"data": [' + SECRET_BODY.encode(), media_type="application/json")
        if behaviour == "slow":
            await asyncio.sleep(1.0)
        data: list[dict[str, Any]] = [
            {"object": "embedding", "index": i, "embedding": v}
            for i, v in enumerate(_server_vectors(body["input"]))
        ]
        if behaviour == "wrong_dimension":
            data[0]["embedding"] = data[0]["embedding"] + [0.5]
        elif behaviour == "reversed":
            data.reverse()
        elif behaviour == "missing_index":
            del data[-1]["index"]
        elif behaviour == "duplicate_index":
            data[-1]["index"] = 0
        elif behaviour == "too_few":
            data.pop()
        elif behaviour == "nan":
            data[0]["embedding"][1] = math.nan
        elif behaviour == "string_value":
            data[0]["embedding"][1] = "0.5"
        doc: dict[str, Any] = {"object": "list", "data": data, "usage": {"prompt_tokens": 1}}
        if state.model_field is None:
            doc["model"] = body["model"]
        elif state.model_field is not ABSENT:
            doc["model"] = state.model_field
        return Response(json.dumps(doc, allow_nan=True), media_type="application/json")

    return Starlette(routes=[Route("/v1/embeddings", embeddings, methods=["POST"])])


@pytest.fixture(scope="module")
async def openai_server() -> AsyncIterator[FakeOpenAI]:
    state = FakeOpenAI()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        _app(state), host="127.0.0.1", port=port, log_level="warning", lifespan="off",
        access_log=False,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.02)
        if task.done():
            task.result()
    state.url = f"http://127.0.0.1:{port}/v1"
    try:
        yield state
    finally:
        server.should_exit = True
        await task
        sock.close()


@pytest.fixture
async def fake(openai_server: FakeOpenAI) -> AsyncIterator[FakeOpenAI]:
    openai_server.reset()
    yield openai_server
    openai_server.reset()


async def _embed(fake: FakeOpenAI, texts: list[str], model: str = "modelx", **kw: Any) -> Any:
    embedder = HttpEmbedder(fake.url, model, DIM, api_key=API_KEY, **kw)
    try:
        return await embedder.embed(texts)
    finally:
        await embedder.aclose()


def _expected(texts: list[str]) -> Any:
    return HashingEmbedder(DIM).embed_sync(texts)


async def test_http_correct_response(fake: FakeOpenAI) -> None:
    texts = ["payments-api", "checkout-web", "ledger"]
    vectors = await _embed(fake, texts)
    assert vectors.shape == (3, DIM)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(vectors, _expected(texts), atol=1e-6)
    assert fake.requests == [{"model": "modelx", "input": texts}]
    assert fake.auth == [f"Bearer {API_KEY}"]


async def test_http_identity_and_no_key_in_repr(fake: FakeOpenAI) -> None:
    embedder = HttpEmbedder(fake.url, "modelx", DIM, api_key=API_KEY)
    assert embedder.identity == EmbedderIdentity("openai-compatible", "modelx", DIM)
    assert embedder.identity.stamp() == "openai-compatible/modelx#16@t3:f200"
    assert API_KEY not in repr(embedder)
    await embedder.aclose()


async def test_http_without_api_key_sends_no_authorization(fake: FakeOpenAI) -> None:
    async with HttpEmbedder(fake.url + "/", "modelx", DIM) as embedder:
        await embedder.embed(["a"])
    assert fake.auth == [None]


async def test_http_model_is_compared_trimmed_and_ascii_case_folded(fake: FakeOpenAI) -> None:
    fake.model_field = "  ModelX "
    vectors = await _embed(fake, ["payments"])
    assert np.allclose(vectors, _expected(["payments"]), atol=1e-6)
    fake.model_field = "modelx"
    await _embed(fake, ["payments"], model=" MODELX")


@pytest.mark.parametrize(("configured", "served"), [
    ("modelx", "modelx-other"),
    ("modelx", "modelx2"),
    ("modelx", ""),
    ("modelx", 7),
    ("modelx", None),
    ("model\u0131", "MODELI"),  # DOTLESS I configured: "I" folds to "i", never to it
    ("modeli", "MODEL\u0130"),  # CAPITAL I WITH DOT: never folded to "i"
    ("modelk", "MODEL\u212a"),  # KELVIN SIGN: str.lower() and casefold() give "k"
    ("models", "MODEL\u017f"),  # LONG S: casefold() gives "s"
])
async def test_http_refuses_another_model(fake: FakeOpenAI, configured: str, served: Any) -> None:
    fake.model_field = ABSENT if served is None else served
    with pytest.raises(EmbeddingError, match="model"):
        await _embed(fake, ["payments"], model=configured)


async def test_http_model_field_absent_is_refused(fake: FakeOpenAI) -> None:
    fake.model_field = ABSENT
    with pytest.raises(EmbeddingError, match="absent or different"):
        await _embed(fake, ["payments"])


def test_ascii_fold_touches_only_a_to_z() -> None:
    assert ascii_fold("ABCxyz-\u0130I\u0131\u212a\u00c4") == "abcxyz-\u0130i\u0131\u212a\u00c4"
    assert model_key("  Nomic-AI/Nomic-Embed  ") == "nomic-ai/nomic-embed"


async def test_http_out_of_order_indexes_are_sorted(fake: FakeOpenAI) -> None:
    fake.behaviour = "reversed"
    texts = ["payments-api", "checkout-web", "ledger", "auth"]
    vectors = await _embed(fake, texts)
    assert np.allclose(vectors, _expected(texts), atol=1e-6)


@pytest.mark.parametrize(("behaviour", "message"), [
    ("wrong_dimension", "expected 16"),
    ("missing_index", "index"),
    ("duplicate_index", "index"),
    ("too_few", "must hold 3"),
    ("nan", "non-finite"),
    ("string_value", "not a number"),
    ("invalid_json", "not valid JSON"),
    ("http_500", "HTTP 500"),
])
async def test_http_refuses_a_bad_response(fake: FakeOpenAI, behaviour: str, message: str) -> None:
    fake.behaviour = behaviour
    with pytest.raises(EmbeddingError, match=message) as caught:
        await _embed(fake, ["payments-api", "checkout-web", "ledger"])
    error = caught.value
    for secret in ("SECRET", "sk-", API_KEY, "127.0.0.1"):
        assert secret not in str(error)
        assert secret not in repr(error)
    assert error.__cause__ is None


async def test_http_timeout_fails_closed(fake: FakeOpenAI) -> None:
    fake.behaviour = "slow"
    with pytest.raises(EmbeddingError, match="timed out"):
        await _embed(fake, ["payments"], timeout_s=0.1)


async def test_http_unreachable_server_fails_closed() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    embedder = HttpEmbedder(f"http://127.0.0.1:{port}/v1", "modelx", DIM, timeout_s=2)
    with pytest.raises(EmbeddingError, match="request failed"):
        await embedder.embed(["payments"])
    await embedder.aclose()


async def test_http_batches_by_batch_size(fake: FakeOpenAI) -> None:
    texts = [f"service-{i}" for i in range(10)]
    vectors = await _embed(fake, texts, batch_size=4)
    assert [len(r["input"]) for r in fake.requests] == [4, 4, 2]
    assert [t for r in fake.requests for t in r["input"]] == texts
    assert np.allclose(vectors, _expected(texts), atol=1e-6)


async def test_http_empty_texts_are_zero_rows_and_not_sent(fake: FakeOpenAI) -> None:
    vectors = await _embed(fake, ["payments", "", "  ", "ledger"])
    assert fake.requests == [{"model": "modelx", "input": ["payments", "ledger"]}]
    assert not vectors[1:3].any()
    assert np.allclose(vectors[[0, 3]], _expected(["payments", "ledger"]), atol=1e-6)
    assert (await _embed(fake, [])).shape == (0, DIM)
    assert len(fake.requests) == 1


async def test_http_a_passed_client_is_used_and_left_open(fake: FakeOpenAI) -> None:
    async with httpx.AsyncClient() as client:
        embedder = HttpEmbedder(fake.url, "modelx", DIM, client=client)
        await embedder.embed(["payments"])
        await embedder.aclose()
        assert not client.is_closed
        await embedder.embed(["ledger"])
    assert len(fake.requests) == 2


@pytest.mark.parametrize("kwargs", [
    {"base_url": "ftp://host/v1"},
    {"base_url": "not a url"},
    {"batch_size": 0},
    {"timeout_s": 0},
    {"timeout_s": math.inf},
    {"api_key": "key\nInjected: 1"},
    {"model": "  "},
    {"dimension": 0},
])
def test_http_refuses_a_bad_configuration(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"base_url": "http://127.0.0.1:1/v1", "model": "m", "dimension": 4}
    args.update(kwargs)
    with pytest.raises(ValueError) as caught:
        HttpEmbedder(**args)
    assert "Injected" not in str(caught.value)
