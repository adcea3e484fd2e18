"""Sentences a joined answer adds from its parts' claimed facts, for later parts whose answer
is no part's judgment alone: the share of the commits counted that came from bots (from the
contributors' fact: all its commits and the bots' among them), and, after the first question
asked again over another period, both periods' totals side by side.

Why here: the figures are in the facts each part claims (engine/providers/contributors.py
counts the bots' commits apart, engine/providers/changes.py the commits), and a sentence
made from them is checked against the same facts; nothing is computed that no fact holds,
and when a needed figure is not claimed the sentence is not made and the part stays said not
answered (engine/investigation/parts.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.domain.contract import InvestigationResult
from engine.domain.facts import FactKind


def _contributors(result: InvestigationResult) -> dict[str, object] | None:
    """The one contributors' fact a result claims (its value), or None."""
    found = [c.value for c in result.claimed_facts if c.kind is FactKind.ACTIVE_CONTRIBUTORS]
    return dict(found[0]) if len(found) == 1 else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def bots_share(result: InvestigationResult) -> str | None:
    """The share of a "who" answer's commits that came from bots, each bot named with its
    commits (the first few the fact lists), or None when it claims no one contributors' fact."""
    value = _contributors(result)
    if value is None:
        return None
    total, bots = _int(value.get("commits")), _int(value.get("bot_commits"))
    if total is None or bots is None or total == 0 or bots > total:
        return None
    names = value.get("bot_names")
    each = value.get("bot_commits_each")
    listed = [f"{n} ({c} commit(s))" for n, c in zip(names if isinstance(names, list) else [],
              each if isinstance(each, list) else [], strict=False)]  # fmt: skip
    said = f": {', '.join(listed)}" if listed else ""
    more = _int(value.get("bots"))
    if more is not None and more > len(listed) and listed:
        said += f" and {more - len(listed)} more bot(s)"
    return (f"Of these {total} commit(s), {bots} came from bots, {100 * bots / total:.1f} % "
            f"of them{said}.")  # fmt: skip


def _bots_of(results: Sequence[InvestigationResult]) -> str | None:
    """The bots' share from the last part's (the "who" asked) contributors' fact."""
    return bots_share(results[-1])


def _commits(result: InvestigationResult) -> int | None:
    """The commits a result counts: its one count of commits, or its contributors' total."""
    found = [_int(c.value.get("commits")) for c in result.claimed_facts
             if c.kind is FactKind.COMMIT_ACTIVITY]  # fmt: skip
    if len(found) == 1:
        return found[0]
    value = _contributors(result)
    return None if value is None else _int(value.get("commits"))


def _counted(result: InvestigationResult) -> bool:
    return any(c.kind is FactKind.COMMIT_ACTIVITY for c in result.claimed_facts)


def _span(result: InvestigationResult) -> str | None:
    label = result.temporal_label
    if label is None or label.effective_from is None or label.effective_to is None:
        return None
    stamp = "%Y-%m-%dT%H:%M:%SZ"
    return f"from {label.effective_from.strftime(stamp)} to {label.effective_to.strftime(stamp)}"


def _periods(results: Sequence[InvestigationResult]) -> str | None:
    """Both periods' commits side by side (the first question's and the later time's), after
    two "who" answers, whose judgments list people, not the commits in all; "" when there
    are not two such totals (a count's judgment says its own)."""
    counts = [None if _counted(r) else _commits(r) for r in results]
    spans = [_span(r) for r in results]
    if len(results) != 2 or None in counts or None in spans:
        return ""
    return (f"In all, {counts[0]} commit(s) {spans[0]} against {counts[1]} commit(s) "
            f"{spans[1]}.")  # fmt: skip


# The sentence each later part's join adds (engine.reading.parts.Parts.joins).
ADDS: dict[str, Callable[[Sequence[InvestigationResult]], str | None]] = {
    "bots": _bots_of,
    "again": _periods,
}
