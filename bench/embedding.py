"""Local embedder throughput on short texts (subject names, the shape search embeds).

Usage: python bench/embedding.py [--texts 20000] [--repeat 3]
Moved here from the test suite, where a texts/s floor failed under load and passed alone:
a rate is a measurement, not a test. The reference machine gave about 190k texts/s warm and
130k/s cold. The last line printed is one JSON object.

Every text's expected outcome: its row in the batch equals the text embedded alone, and the
row has unit length (zero when the text has no letters or digits). Hard cases are mixed in:
the empty string, punctuation only, NFKC-equivalent forms, right-to-left and combining
characters, a 10,000-character text. `wrong` counts rows that break either rule.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from engine.domain.embedding import HashingEmbedder

HARD = ["", "---", "\ufb01le-sync", "file-sync", "\uff30\uff41\uff59", "payments", "שירות-תשלומים",
        "cafe\u0301", "café", "x" * 10_000, "💥 api", "A-B_C.D"]


def texts(n: int) -> list[str]:
    words = [f"{w}{i}" for i in range(60) for w in ("pay", "check", "ledger", "auth", "web")]
    out = [
        f"{words[i % 300]}-{words[(i * 7) % 300]} | repository | {words[(i * 13) % 300]}-svc"
        for i in range(n)
    ]
    return out + HARD


def check(
    embedder: HashingEmbedder, batch: list[str], rows: np.ndarray, sample: int
) -> tuple[int, int]:
    """(rows checked, rows wrong): a spread sample of the batch and every hard case."""
    picked = [*range(0, len(batch) - len(HARD), max(1, len(batch) // sample)),
              *range(len(batch) - len(HARD), len(batch))]
    wrong = 0
    for i in picked:
        alone = embedder.embed_sync([batch[i]])[0]
        norm = float(np.linalg.norm(rows[i]))
        unit = abs(norm - 1.0) < 1e-4 or (norm == 0.0 and not any(c.isalnum() for c in batch[i]))
        wrong += int(not np.array_equal(alone, rows[i]) or not unit)
    return len(picked), wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    batch = texts(args.texts)
    embedder = HashingEmbedder()
    started = time.perf_counter()
    rows = embedder.embed_sync(batch)  # cold: the token cache starts empty
    cold = time.perf_counter() - started
    warm = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        embedder.embed_sync(batch)
        warm.append(time.perf_counter() - started)
    checked, wrong = check(embedder, batch, rows, 200)
    print(json.dumps({
        "texts": len(batch),
        "cold_texts_per_s": round(len(batch) / cold),
        "warm_texts_per_s": round(len(batch) / min(warm)),
        "checked": checked,
        "wrong": wrong,
    }))


if __name__ == "__main__":
    main()
