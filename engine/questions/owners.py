"""Who owns something ("who owns payments-api?", "which team owned checkout-web in February
2026?"): each subject's owners by name, from the ownership facts and the relationships they
cite; with no ownership recorded, said so and pointed at who changed it instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from engine.domain.contract import Axis, ClaimedFact
from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import Case, Question, SynthesisInput, claim_also
from engine.reading.vocabulary import Intent


class Owners(Question):
    """Ownership asked by who, whose, a team or a person."""

    name = "who_owns"

    def judgment(self, case: Case) -> str | None:
        if case.intent != Intent.WHO_OWNS:
            return None
        ownership = _ownership(case)
        if ownership:
            return _owned(case.inputs, ownership, case.names)
        # A status judgment would answer another question.
        named = "a repository or module" if case.wide else case.scope
        return (
            f"No ownership is recorded for {case.scope}: no team or person is recorded as its "
            f"owner at this time. Who changed it is computed from its commits: ask "
            f'"who changed {named}?".'
        )

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        """The owners it names: their keys and relationships."""
        return claim_also(_ownership(case), claimed) if case.intent == Intent.WHO_OWNS else []


def _ownership(case: Case) -> list[Fact]:
    return [f for f in case.facts if f.kind is FactKind.OWNERSHIP]


def _owned(inputs: SynthesisInput, ownership: Sequence[Fact], names: Mapping[str, str]) -> str:
    """Each subject's owners by name (their keys are in the ownership relationships the fact
    cites), in the present tense when the ownership is read at the present: "who owns
    analytics-api?" said "was owned by team:cobalt-2"."""
    known = {e.other.key: e.other.name for e in inputs.edges if getattr(e, "other", None)}
    verb = "was" if inputs.window.historical else "is"
    # A period asked about ("in February 2026"), not a point ("as of 2026-03-01": the owners
    # then are the whole answer).
    ranged = inputs.axis is Axis.RANGE

    def owner(key: str) -> str:
        name = known.get(key)
        return name if name and name != key else key

    parts = []
    for fact in ownership:
        subject = names.get(fact.subject_key, fact.subject_key)
        owners = ", ".join(owner(str(k)) for k in fact.value.get("owners") or []) or "no team"
        since = _since(fact, inputs.window, subject, owners) if ranged else ""
        parts.append(f"{subject} {verb} owned by {owners}{since}")
    return "; ".join(parts) + "."


def _since(fact: Fact, window: Window, subject: str, owners: str) -> str:
    """When a past window's owners began within it: "who owned checkout-web in February
    2026?" said "was owned by Checkout Squad", the whole month, where it moved to them on
    the 15th. Who owned it before is another reading (its owners as of a day before)."""
    since = fact.value.get("since")
    began = datetime.fromisoformat(since) if isinstance(since, str) else None
    if began is not None and began.tzinfo is None:
        began = began.replace(tzinfo=UTC)
    # One owner: with several, "since" is the latest one's (engine/providers/relations.py).
    one = len(fact.value.get("owners") or []) == 1
    if not (window.historical and one and began and window.start < began < window.end):
        return ""
    day = began - timedelta(days=1)
    return (
        f" from {began:%Y-%m-%d}; before that, within the window, {owners} did not own it "
        f'(ask "who owned {subject} as of {day:%Y-%m-%d}?")'
    )
