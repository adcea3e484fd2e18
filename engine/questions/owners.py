"""Who owns something ("who owns payments-api?", "which team owned checkout-web in February
2026?"): each subject's owners by name, from the ownership facts and the relationships they
cite. With no ownership recorded (a git history records none), said so, and the people who
changed it most are given in its place, ranked by commits over the window asked (the last
365 days when the question names no time), as "who changed X?" ranks them: an independent
check (c33b F2) had "who owns X" answered with the sentence that nothing is recorded alone,
an answer with nothing in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from engine.domain.contract import Axis, ClaimedFact
from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import (
    Asked,
    Case,
    Found,
    Question,
    Reader,
    SynthesisInput,
    claim_also,
    when,
)
from engine.questions.who import shares, who_changed
from engine.reading.vocabulary import Intent

YEAR = timedelta(days=365)  # who changed it, when no time is named (as "who changed X?")


@dataclass(frozen=True)
class Changers:
    """The window over which the people who changed the subjects were read in its place."""

    window: Window
    shares: bool = False  # each person's share asked ("ownership breakdown of X")


class Owners(Question):
    """Ownership asked by who, whose, a team or a person."""

    name = "who_owns"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        """No ownership recorded: the subjects' contributors over the window (the last 365
        days when none is named), read beside."""
        if asked.intent != Intent.WHO_OWNS or asked.wide or not asked.subjects:
            return None
        if any(f.kind is FactKind.OWNERSHIP for f in asked.facts):
            return None
        end = asked.window.end
        window = asked.window if asked.ranged else Window(end - YEAR, end, historical=True)
        read = await reader.facts(asked.subjects, [FactKind.ACTIVE_CONTRIBUTORS], window)
        note = (
            "No ownership is recorded here (no team or person is recorded as an owner): the "
            f"people who changed it most, by commits {when(window)}, are given in its place."
        )
        start = None if asked.ranged else window.start  # the answer covers that year too
        kept = Changers(window, asked.understood.shares)
        return Found(results=tuple(read), start=start, notes=(note,), kept=kept)

    def judgment(self, case: Case) -> str | None:
        if case.intent != Intent.WHO_OWNS:
            return None
        ownership = _ownership(case)
        if ownership:
            return _owned(case.inputs, ownership, case.names)
        none = (
            f"No ownership is recorded for {case.scope}: no team or person is recorded as its "
            "owner at this time."
        )
        changers = case.inputs.kept.get(self.name)
        if isinstance(changers, Changers):
            facts = _changers(case, changers)
            if changers.shares:
                return f"{none} {shares(facts, case.scope, changers.window)}"
            return f"{none} {who_changed(facts, case.scope, changers.window, 'commits')}"
        # A status judgment would answer another question.
        named = "a repository or module" if case.wide else case.scope
        return f'{none} Who changed it is computed from its commits: ask "who changed {named}?".'

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        """The owners it names: their keys and relationships (or who changed it instead)."""
        if case.intent != Intent.WHO_OWNS:
            return []
        changers = case.inputs.kept.get(self.name)
        if not _ownership(case) and isinstance(changers, Changers):
            return claim_also(_changers(case, changers), claimed)
        return claim_also(_ownership(case), claimed)


def _changers(case: Case, changers: Changers) -> list[Fact]:
    return [
        f
        for f in case.facts
        if f.kind is FactKind.ACTIVE_CONTRIBUTORS
        and (f.window_start, f.window_end) == (changers.window.start, changers.window.end)
    ]


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
