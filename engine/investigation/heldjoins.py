"""Whether the first question's answer holds a later part (engine/reading/heldparts.py reads
which), and the sentence it adds from the answer's own claimed facts: who made the most
commits in a "who" answer's ranking, the lines a person's changes added and removed.

Why decided here, on the claimed facts: the part is said answered only when a fact the answer
claims holds its figure, so the limitation ("Only the first question is answered") and the
answer never disagree either way (z40a C06, C12: the note said "not answered" beside the
figure). When the figure is not claimed (no ranking of people, no lines read), None: the part
stays said not answered (engine/investigation/parts.py).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.domain.contract import InvestigationResult
from engine.domain.facts import FactKind
from engine.reading.vocabulary import Intent


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _one(result: InvestigationResult, kind: FactKind) -> dict[str, object] | None:
    """The value of the one fact of `kind` the result claims, or None (none, or several)."""
    found = [c.value for c in result.claimed_facts if c.kind is kind]
    return dict(found[0]) if len(found) == 1 else None


def most(result: InvestigationResult) -> str | None:
    """Who made the most commits among the people a "who" answer ranks (all tied at the top
    named), of all its commits."""
    value = _one(result, FactKind.ACTIVE_CONTRIBUTORS)
    asked = result.interpretation.get("intent")
    if asked not in (Intent.WHO, Intent.COUNT, Intent.STATUS) or value is None:
        return None
    names, commits = value.get("top_names"), value.get("top_commits")
    if not isinstance(names, list) or not isinstance(commits, list) or not names:
        return None
    counts = [c for c in (_int(x) for x in commits) if c is not None]
    if len(counts) != len(names) or counts[0] != max(counts):
        return None
    top = counts[0]
    tied = [str(n) for n, c in zip(names, counts, strict=True) if c == top]
    total = _int(value.get("commits"))
    of = f" of the {total}" if total is not None else ""
    if len(tied) == 1:
        return f"{tied[0]} made the most commits: {top}{of}."
    return f"{', '.join(tied[:-1])} and {tied[-1]} made the most commits, {top} each{of}."


def lines(result: InvestigationResult) -> str | None:
    """The lines the answer's one churn fact counts; "" when the judgment already says them."""
    value = _one(result, FactKind.CHURN)
    if value is None:
        return None
    added, removed = _int(value.get("lines_added")), _int(value.get("lines_removed"))
    commits = _int(value.get("commits"))
    if added is None or removed is None or commits is None:
        return None
    if f"+{added} -{removed}" in (result.direct_judgment or ""):
        return ""
    return f"Lines changed: +{added} -{removed} in {commits} commit(s)."


def commits(result: InvestigationResult) -> str | None:
    """The commits the answer's one changes fact counts."""
    value = _one(result, FactKind.CHANGES)
    counted = None if value is None else _int(value.get("commits"))
    return None if counted is None else f"That is {counted} commit(s)."


# The sentence each held part adds (engine.reading.parts.Parts.joins), or None: not held.
HELD: dict[str, Callable[[InvestigationResult], str | None]] = {
    "most": most, "lines": lines, "commits": commits,
}  # fmt: skip
