"""Embeddings of subject search text: the identity stamp, the embedder port and a local default.

Every subject carries one *search text* (name, kind, aliases and previous names, composed by
``engine.domain.text.search_text``). The full-text index and the vector index both cover it, and
reference resolution fuses the two arms. A vector is only comparable with vectors made by the
same embedder over the same composition, so every embedder names itself with an
:class:`EmbedderIdentity`; its :meth:`~EmbedderIdentity.stamp` is what an index records, and a
stamp that differs from the running embedder's means the stored vectors are stale.

:class:`HashingEmbedder` is the deterministic local default: no download, no network, the same
vector for the same text in every process on every machine. It hashes character n-grams of
word tokens (the "hashing trick"), so it measures *spelling* overlap, not meaning.

What it can match:

* typos and near-spellings: ``paymnets-api`` ~ ``payments-api`` (most 3-grams survive one edit);
* shared substrings and word parts: ``payments`` ~ ``payments-api`` ~ ``payment-service``;
* word reordering and punctuation: ``api payments`` ~ ``payments-api`` ~ ``Payments_API``
  (a text is a bag of tokens; anything that is not a letter or a digit separates tokens);
* case and compatibility forms: full-width letters, ligatures (NFKC, then lower case);
* renames that keep some overlap: ``payments-gateway`` ~ ``payments-api`` (shared token).

What it cannot match:

* synonyms or related meanings: ``billing`` vs ``invoicing``, ``auth`` vs ``login``;
* acronyms and abbreviations: ``CIS`` vs ``customer identity service`` — unless the acronym is
  itself an alias or previous name, and therefore in the search text;
* other languages or scripts: ``Zahlungen`` vs ``payments``;
* renames without shared spelling: ``atlas`` renamed to ``nimbus``.

Tokens are joined without their separators (``camelCase`` and ``PaymentsApi`` stay one token
each), and tokens longer than :data:`MAX_TOKEN_CHARS` are cut to that length. Words common to
many texts (a kind such as ``repository``) raise the similarity of every text that shares them;
the embedder is stateless and cannot down-weight them — the lexical arm's ranking can.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike, NDArray

# The version of the search-text composition (engine.domain.text.search_text: fields joined
# by " | ", each field cut to 200 characters, folded by engine.domain.text.normalise). Change
# it whenever that composition changes, so that every stored vector's stamp goes stale. t3:
# letters with no decomposition are transliterated (anyascii: "Łukasz" is "lukasz", no longer
# "ukasz"; a Cyrillic name is no longer empty).
COMPOSITION_TAG = "t3:f200"

Vectors = NDArray[np.float32]

MAX_DIMENSION = 65_536
MAX_TOKEN_CHARS = 64
WORD_WEIGHT = 2.0  # a whole-token feature counts twice a character n-gram
NGRAM_WEIGHT = 1.0

_TOKEN = re.compile(r"[^\W_]+")  # runs of letters and digits (Unicode-aware)
_HASH_PERSON = b"cfg-char-ngram1"  # domain separation for the feature hash (<= 16 bytes)
_GRAM_CACHE = 1 << 17  # n-gram -> (bucket, signed weight), per dimension
_TOKEN_CACHE = 1 << 15  # token -> its features, per dimension
_CHUNK = 8_192  # texts per dense accumulation, bounding scratch memory to CHUNK x dimension
_THREAD_THRESHOLD = 2_048  # async embed of more texts than this runs off the event loop


class EmbeddingError(Exception):
    """An embedding could not be produced or verified; callers must fail closed.

    Messages name what went wrong, never a response body, a URL or a credential.
    """


def _escape(text: str, reserved: str) -> str:
    out = text.replace("%", "%25")
    for ch in reserved:
        out = out.replace(ch, f"%{ord(ch):02X}")
    return out


@dataclass(frozen=True)
class EmbedderIdentity:
    """Which vectors an embedder makes: provider, model, dimension and search-text composition."""

    provider: str
    model: str
    dimension: int
    composition: str = COMPOSITION_TAG

    def __post_init__(self) -> None:
        for name in ("provider", "model", "composition"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"embedder identity needs a non-empty {name}")
        if (
            isinstance(self.dimension, bool)
            or not isinstance(self.dimension, int)
            or not 1 <= self.dimension <= MAX_DIMENSION
        ):
            raise ValueError(f"embedder dimension must be an integer in 1..{MAX_DIMENSION}")

    def stamp(self) -> str:
        """``provider/model#dimension@composition``, e.g. ``local/char-ngram-v1#128@t1:f200``.

        Equal identities give equal stamps and different identities different stamps: ``%``
        and ``/`` are percent-escaped in the provider and ``%`` and ``#`` in the model, so the
        first ``/``, the following ``#`` and the ``@`` after the digits always delimit.
        """
        provider = _escape(self.provider, "/")
        model = _escape(self.model, "#")
        return f"{provider}/{model}#{self.dimension}@{self.composition}"


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit vectors: shape (len(texts), dimension), float32, L2-normalised rows.

    A row with nothing to embed (an empty text) is all zeros and stays zero.
    """

    @property
    def identity(self) -> EmbedderIdentity: ...

    async def embed(self, texts: Sequence[str]) -> Vectors: ...


def texts_list(texts: Sequence[str]) -> list[str]:
    """The texts as a list, refusing a bare string (which is itself a sequence of strings)."""
    if isinstance(texts, str | bytes):
        raise TypeError("embed() takes a sequence of texts, not a single string")
    items = list(texts)
    for item in items:
        if not isinstance(item, str):
            raise TypeError("embed() takes texts (str) only")
    return items


def l2_normalise(matrix: ArrayLike) -> Vectors:
    """Rows scaled to unit length as float32 (computed in float64); zero rows stay zero."""
    m = np.array(matrix, dtype=np.float64, copy=True)
    if m.ndim != 2:
        raise ValueError("l2_normalise expects a 2-D matrix")
    norms = np.sqrt(np.einsum("ij,ij->i", m, m))[:, None]
    np.divide(m, norms, out=m, where=norms > 0)
    return m.astype(np.float32)


def cosine(a: ArrayLike, b: ArrayLike) -> Vectors:
    """Cosine similarities of the rows of ``a`` against the rows of ``b``: (len(a), len(b)).

    Inputs are expected L2-normalised (as every :class:`Embedder` returns them); a single
    vector is taken as one row. Results are clipped to [-1, 1] against rounding.
    """
    a2 = np.atleast_2d(np.asarray(a, dtype=np.float32))
    b2 = np.atleast_2d(np.asarray(b, dtype=np.float32))
    if a2.ndim != 2 or b2.ndim != 2 or a2.shape[1] != b2.shape[1]:
        raise ValueError("cosine needs two matrices with the same number of columns")
    sims: Vectors = np.clip(a2 @ b2.T, -1.0, 1.0).astype(np.float32, copy=False)
    return sims


FeatureFn = Callable[[str], tuple[int, float]]
TokenFn = Callable[[str], tuple[tuple[int, ...], tuple[float, ...]]]


def _feature_hash(feature: str) -> int:
    """A stable 64-bit hash of a feature: BLAKE2b, never Python's per-process ``hash()``."""
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8, person=_HASH_PERSON)
    return int.from_bytes(digest.digest(), "little")


@functools.cache
def _caches(dimension: int) -> tuple[FeatureFn, TokenFn]:
    """The LRU caches for one dimension, shared by every embedder of that dimension.

    ``gram`` maps a character n-gram to its (bucket, signed weight); ``token`` maps a token to
    all its features, n-grams and the whole word. Both are pure functions of their argument,
    so the caches only change speed, never results; ``functools.lru_cache`` is thread-safe.
    """

    def signed(name: str, weight: float) -> tuple[int, float]:
        value = _feature_hash(name)
        # Bit 0 gives the sign; the remaining bits choose the bucket.
        return (value >> 1) % dimension, weight if value & 1 == 0 else -weight

    @functools.lru_cache(maxsize=_GRAM_CACHE)
    def gram(text: str) -> tuple[int, float]:
        return signed("g:" + text, NGRAM_WEIGHT)

    @functools.lru_cache(maxsize=_TOKEN_CACHE)
    def token(tok: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
        padded = f"<{tok}>"  # tokens hold letters and digits only: the markers never clash
        n = len(padded)
        grams = [padded[i : i + 3] for i in range(n - 2)]
        if len(tok) < 4:
            grams += [padded[i : i + 2] for i in range(n - 1)]
        features = list(map(gram, grams))
        features.append(signed("w:" + tok, WORD_WEIGHT))
        buckets, weights = zip(*features, strict=True)
        return buckets, weights

    return gram, token


class HashingEmbedder:
    """Signed feature hashing of character n-grams of word tokens; see the module docstring.

    Each text is NFKC-normalised and lower-cased, then split into tokens of letters and
    digits. Each token is padded with boundary markers (``<token>``) and contributes its
    character 3-grams (plus 2-grams when shorter than four characters) with weight 1 and the
    whole token with weight :data:`WORD_WEIGHT`, each hashed with BLAKE2b into one of
    ``dimension`` buckets with a sign from another hash bit. Rows are L2-normalised.
    """

    def __init__(self, dimension: int = 128) -> None:
        self._identity = EmbedderIdentity(
            provider="local", model="char-ngram-v1", dimension=dimension
        )
        self._dimension = dimension
        _, self._token = _caches(dimension)

    @property
    def identity(self) -> EmbedderIdentity:
        return self._identity

    def embed_sync(self, texts: Sequence[str]) -> Vectors:
        items = texts_list(texts)
        out = np.zeros((len(items), self._dimension), dtype=np.float32)
        for start in range(0, len(items), _CHUNK):
            chunk = items[start : start + _CHUNK]
            out[start : start + len(chunk)] = self._embed_chunk(chunk)
        return out

    async def embed(self, texts: Sequence[str]) -> Vectors:
        items = texts_list(texts)
        if len(items) > _THREAD_THRESHOLD:
            return await asyncio.to_thread(self.embed_sync, items)
        return self.embed_sync(items)

    def _embed_chunk(self, items: list[str]) -> Vectors:
        dimension = self._dimension
        features = self._token
        tokenize = _TOKEN.findall
        normalize = unicodedata.normalize
        cap = MAX_TOKEN_CHARS
        buckets: list[int] = []
        weights: list[float] = []
        counts: list[int] = []
        for text in items:
            before = len(buckets)
            for token in tokenize(normalize("NFKC", text).lower()):
                b, w = features(token[:cap])
                buckets += b
                weights += w
            counts.append(len(buckets) - before)
        n = len(items)
        rows = np.repeat(np.arange(n, dtype=np.int64) * dimension, counts)
        flat = rows + np.asarray(buckets, dtype=np.int64)
        dense = np.bincount(
            flat, weights=np.asarray(weights, dtype=np.float64), minlength=n * dimension
        ).reshape(n, dimension)
        return l2_normalise(dense)
