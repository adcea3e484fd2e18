"""An :class:`~engine.domain.embedding.Embedder` over an OpenAI-compatible ``/v1/embeddings``
endpoint.

Every response is verified before a vector is used, and anything unexpected fails closed with
an :class:`~engine.domain.embedding.EmbeddingError`:

* a non-2xx status, a timeout, a transport error, a body that is not JSON or is too large;
* a ``model`` field that is absent or names another model. It is compared with the configured
  model after ``strip()`` and ASCII-only case folding (A-Z to a-z, nothing else), because some
  servers silently answer with whatever model they have loaded, and a vector from another
  model is meaningless against an index built with this one;
* ``data`` without exactly one entry per input, or with a missing, duplicate or out-of-range
  ``index`` (entries are ordered by ``index``, not by position);
* a vector whose length is not the configured dimension, or a value that is not a finite number.

Error messages never carry the response body, the URL or the API key.

Texts that are empty or whitespace-only are not sent (OpenAI refuses empty input); their rows
are zero vectors, as :class:`~engine.domain.embedding.HashingEmbedder` gives for an empty text.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Self

import httpx
import numpy as np

from engine.domain.embedding import (
    EmbedderIdentity,
    EmbeddingError,
    Vectors,
    l2_normalise,
    texts_list,
)

PROVIDER = "openai-compatible"
_ASCII_FOLD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_RESPONSE_SLACK = 1 << 20  # bytes allowed beyond the vectors themselves
_BYTES_PER_VALUE = 48  # a generous upper bound for one JSON number and its separator


def ascii_fold(text: str) -> str:
    """Lower-case A-Z only; every other character, ASCII or not, is kept as it is."""
    return text.translate(_ASCII_FOLD)


def model_key(model: str) -> str:
    """What a served model name is compared by: trimmed, ASCII case folded."""
    return ascii_fold(model.strip())


def _refuse_constant(name: str) -> float:
    raise EmbeddingError(f"embedding response has a non-finite value ({name})")


class HttpEmbedder:
    """Embeds texts with an OpenAI-compatible server, verifying every response (fail closed)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        dimension: int,
        *,
        api_key: str | None = None,
        timeout_s: float = 30.0,
        batch_size: int = 64,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self._identity = EmbedderIdentity(provider=PROVIDER, model=model, dimension=dimension)
        try:
            url = httpx.URL(base_url.rstrip("/") + "/embeddings")
        except httpx.InvalidURL:
            raise ValueError("embedder base_url is not a valid URL") from None
        if url.scheme not in ("http", "https") or not url.host:
            raise ValueError("embedder base_url must be an http(s) URL")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError("embedder batch_size must be a positive integer")
        if not math.isfinite(timeout_s) or timeout_s <= 0:
            raise ValueError("embedder timeout_s must be a positive number of seconds")
        self._url = url
        self._model = model
        self._expected = model_key(model)
        self._dimension = dimension
        self._batch_size = batch_size
        self._timeout = httpx.Timeout(timeout_s)
        self._headers = {"Accept": "application/json"}
        if api_key:
            if not api_key.isascii() or not api_key.isprintable() or api_key != api_key.strip():
                raise ValueError("embedder api_key must be printable ASCII without spaces around")
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._owns_client = client is None
        self._client = client if client is not None else httpx.AsyncClient(timeout=self._timeout)

    def __repr__(self) -> str:
        return f"HttpEmbedder({self._identity.stamp()!r})"

    @property
    def identity(self) -> EmbedderIdentity:
        return self._identity

    async def embed(self, texts: Sequence[str]) -> Vectors:
        items = texts_list(texts)
        out = np.zeros((len(items), self._dimension), dtype=np.float32)
        todo = [i for i, text in enumerate(items) if text.strip()]
        for start in range(0, len(todo), self._batch_size):
            positions = todo[start : start + self._batch_size]
            out[positions] = await self._embed_batch([items[i] for i in positions])
        return out

    async def aclose(self) -> None:
        """Close the HTTP client if this embedder made it; a client passed in stays open."""
        if self._owns_client:
            await self._client.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _embed_batch(self, batch: list[str]) -> Vectors:
        body = await self._post({"model": self._model, "input": batch}, len(batch))
        try:
            doc = json.loads(body, parse_constant=_refuse_constant)
        except (ValueError, RecursionError):
            # Never chained: a JSONDecodeError keeps the whole body in its ``doc``.
            raise EmbeddingError("embedding response is not valid JSON") from None
        return self._verify(doc, len(batch))

    async def _post(self, payload: dict[str, Any], count: int) -> bytes:
        limit = _RESPONSE_SLACK + count * (self._dimension * _BYTES_PER_VALUE + 1024)
        try:
            async with self._client.stream(
                "POST", self._url, json=payload, headers=self._headers, timeout=self._timeout
            ) as response:
                if not 200 <= response.status_code < 300:
                    raise EmbeddingError(f"embedding server answered HTTP {response.status_code}")
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.aiter_bytes():
                    size += len(chunk)
                    if size > limit:
                        raise EmbeddingError("embedding response is too large")
                    chunks.append(chunk)
        except httpx.TimeoutException:
            raise EmbeddingError("embedding request timed out") from None
        except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError) as exc:
            # The class name only: httpx messages may quote the URL.
            raise EmbeddingError(f"embedding request failed ({type(exc).__name__})") from None
        return b"".join(chunks)

    def _verify(self, doc: Any, count: int) -> Vectors:
        if not isinstance(doc, dict):
            raise EmbeddingError("embedding response is not a JSON object")
        served = doc.get("model")
        if not isinstance(served, str) or model_key(served) != self._expected:
            raise EmbeddingError(
                f"embedding response is not from the configured model {self._model!r} "
                "(model field absent or different)"
            )
        data = doc.get("data")
        if not isinstance(data, list) or len(data) != count:
            raise EmbeddingError(f"embedding response must hold {count} embeddings")
        rows: list[list[float] | None] = [None] * count
        for entry in data:
            if not isinstance(entry, dict):
                raise EmbeddingError("embedding response entry is not an object")
            index = entry.get("index")
            if type(index) is not int or not 0 <= index < count:
                raise EmbeddingError("embedding response entry has a missing or invalid index")
            if rows[index] is not None:
                raise EmbeddingError("embedding response repeats an index")
            rows[index] = self._vector(entry.get("embedding"))
        # count entries, each index in range and none repeated: every row is filled.
        matrix = np.array(rows, dtype=np.float64)
        if not np.isfinite(matrix).all():
            raise EmbeddingError("embedding response has a non-finite value")
        return l2_normalise(matrix)

    def _vector(self, values: Any) -> list[float]:
        if not isinstance(values, list):
            raise EmbeddingError("embedding response entry has no vector (base64 is refused)")
        if len(values) != self._dimension:
            raise EmbeddingError(
                f"embedding response vector has {len(values)} values, expected {self._dimension}"
            )
        try:
            row = [float(v) for v in values if type(v) is float or type(v) is int]
        except OverflowError:
            raise EmbeddingError("embedding response has a non-finite value") from None
        if len(row) != len(values):
            raise EmbeddingError("embedding response vector holds a value that is not a number")
        return row
