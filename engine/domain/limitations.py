"""A result's limitations: capped, and the degraded-retrieval disclosure never lost.

Limitations are capped at MAX_LIMITATIONS (engine.domain.validation reports a result over it). The
degraded-retrieval disclosure is displacing: at the cap it pushes out the last other
limitation instead of being dropped (a degraded answer must never read as a clean one) and
instead of overflowing the cap (which would fail the whole result). Every displacement is
counted on the result, because a displaced list and a list that simply had room look the same
afterwards.
"""

from __future__ import annotations

MAX_LIMITATIONS = 8
DEGRADED_RETRIEVAL = (
    "Retrieval ran degraded: some search or graph sources were unavailable, so relevant "
    "subjects or context may be missing from this answer."
)


def is_degraded_retrieval(text: str) -> bool:
    return text.strip() == DEGRADED_RETRIEVAL


def add_limitation(
    limitations: tuple[str, ...], text: str, displaced: int
) -> tuple[tuple[str, ...], int]:
    """Append a limitation within the cap; returns the new list and displaced count.

    A repeated limitation is not added twice. An ordinary limitation arriving at the cap is
    itself the one displaced (counted). The degraded-retrieval disclosure is never dropped:
    at the cap it displaces the last other limitation (counted) and the list never grows past
    MAX_LIMITATIONS.
    """
    if text in limitations or (
        is_degraded_retrieval(text) and any(is_degraded_retrieval(x) for x in limitations)
    ):
        return limitations, displaced
    if len(limitations) < MAX_LIMITATIONS:
        return (*limitations, text), displaced
    if not is_degraded_retrieval(text):
        return limitations, displaced + 1
    # The disclosure is absent here, so every entry is an "other": keep the prefix that
    # leaves room for it, dropping (and counting) from the end.
    room = MAX_LIMITATIONS - 1
    return (*limitations[:room], text), displaced + len(limitations) - room


def disclose_degraded_retrieval(
    limitations: tuple[str, ...], displaced: int
) -> tuple[tuple[str, ...], int]:
    """Add the fixed degraded-retrieval disclosure (idempotent), displacing if at the cap."""
    return add_limitation(limitations, DEGRADED_RETRIEVAL, displaced)
