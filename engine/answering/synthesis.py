"""Synthesis: from canonical facts and context to a judgment, a current state and drivers.

The deterministic synthesizer needs no model. Every driver it shows rests on the graph: one
from a canonical fact cites it as a claimed fact whose value is a copy of the fact's, with the
evidence the fact names; an ownership change cites the relationship.

Episode text is untrusted data: it is passed along fenced and never read as instructions.
The deterministic synthesizer reads it only for a few words of trouble ("rolled back",
"rollback", "outage", "paged"; engine/answering/drivers.py episode_drivers): an episode with one
becomes a driver of standing withheld that cites the episode and says only its date.
Withheld, because anyone able to write an episode could otherwise put in an answer a finding
no canonical fact backs: it is never the judgment, the answer projection leaves it out and
counts it (withheld_omitted), and the full result carries it marked withheld. Nothing of an
episode's text reaches the judgment, the state or any driver's statement. A model-backed
synthesizer may implement the same protocol; its output passes the same contract validator.

Here: the protocol, its input and output, and the deterministic synthesizer's judgment and
state; the rules reading facts are in engine/answering/signals.py, the drivers they become (and
those from relationships and episodes) in engine/answering/drivers.py, headlines in
engine/answering/headlines.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from engine.answering import both, busfactor, incidents
from engine.answering import nocontributors as unpeopled
from engine.answering.changelog import listed, typed
from engine.answering.compared import judgment as compared_judgment
from engine.answering.counted import when
from engine.answering.drivers import claim_also, episode_drivers, fact_drivers, relationship_drivers
from engine.answering.headlines import headline, scope_of
from engine.answering.signals import HEALTH_KINDS
from engine.answering.stillchanging import CHANGING, Last
from engine.answering.stillchanging import judgment as still_judgment
from engine.domain.contract import (
    Axis,
    Change,
    ClaimedFact,
    Driver,
    Standing,
)
from engine.domain.facts import Fact, FactKind
from engine.domain.models import Episode, StoredSubject
from engine.providers import Window
from engine.reading.vocabulary import Intent

FENCE = "<<untrusted-episode-text>>"


@dataclass(frozen=True)
class SynthesisInput:
    question: str
    intent: Intent
    subjects: tuple[StoredSubject, ...]
    facts: tuple[Fact, ...]
    episodes: tuple[Episode, ...]
    edges: tuple[Any, ...]  # relationships around the subjects (graph edges), for context
    window: Window
    axis: Axis
    organisation_wide: bool = False  # no subject was named: the subjects are the organisation
    asked: tuple[FactKind, ...] = ()  # the fact kinds the question asked for, by its words
    unanswerable: str | None = None  # the judgment when nothing here records what is asked
    # "Is X still maintained?": each subject's last change before the window, when it had
    # none in it (engine/answering/stillchanging.py).
    older: Mapping[str, Last | None] = field(default_factory=dict)
    # Read from the question's words (engine.reading.interpretation), never again here:
    # "both" asked, and what a "who" answer ranks people by ("commits" or "lines").
    asks_both: bool = False
    ranked_by: str = "commits"

    def fenced_episodes(self) -> list[str]:
        """Episode texts as data, for a model-backed synthesizer's prompt."""
        return [f"{FENCE}\n{e.text}\n{FENCE}" for e in self.episodes]


@dataclass(frozen=True)
class Synthesis:
    direct_judgment: str
    current_state: str
    drivers: tuple[Driver, ...]
    claimed_facts: tuple[ClaimedFact, ...]
    limitations: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()  # "what changed": the newest changes, each claimed
    changes_total: int = 0


class Synthesizer(Protocol):
    @property
    def model_identity(self) -> str | None:
        """The model that composes answers; None for the deterministic synthesizer."""
        ...

    async def synthesize(self, inputs: SynthesisInput) -> Synthesis: ...


class DeterministicSynthesizer:
    """Rules over canonical facts; no model, same answer for the same facts."""

    @property
    def model_identity(self) -> str | None:
        return None

    async def synthesize(self, inputs: SynthesisInput) -> Synthesis:
        names = {s.key: s.name for s in inputs.subjects}
        drivers, claims = fact_drivers(inputs.facts, names)
        drivers += relationship_drivers(inputs.edges, inputs.window, names, len(drivers))
        drivers += episode_drivers(inputs.episodes, len(drivers))
        ownership = [f for f in inputs.facts if f.kind is FactKind.OWNERSHIP]
        judgment = _judgment(inputs, drivers, ownership, names)
        people = inputs.intent == Intent.WHO or unpeopled.counts_people(inputs.intent, inputs.asked)
        if people and inputs.unanswerable is not None:
            claims += unpeopled.claims(inputs.facts, claims)  # the activity it says
        if inputs.unanswerable is None and incidents.asked(inputs.intent, inputs.asked):
            claims += incidents.claims(inputs.facts, claims)  # the incidents it counts
        if inputs.unanswerable is None and busfactor.asked(inputs.intent, inputs.asked):
            claims += busfactor.claims(inputs.facts, claims)  # the bus factors it states
        if inputs.intent == Intent.WHO_OWNS:  # the owners it names, their keys and relationships
            claims += claim_also(ownership, claims)
        shown, total = listed(inputs.facts) if inputs.intent == Intent.WHAT_CHANGED else ([], 0)
        changes = typed(shown, {c.fact_id: c.id for c in claims})
        return Synthesis(
            judgment,
            _state(inputs.facts, names),
            tuple(drivers),
            tuple(claims),
            changes=changes,
            changes_total=total if changes else 0,
        )


def _judgment(
    inputs: SynthesisInput,
    drivers: Sequence[Driver],
    ownership: Sequence[Fact],
    names: dict[str, str],
) -> str:
    if inputs.unanswerable is not None:  # engine/answering/recordgaps.py
        return inputs.unanswerable
    changing = all(s.kind in CHANGING for s in inputs.subjects)
    if inputs.window.before is not None and changing:  # "than last year": both periods
        return compared_judgment(inputs.facts, names, inputs.window)
    if inputs.intent == Intent.STILL:
        return still_judgment(inputs.facts, names, inputs.window, inputs.older)
    keys = [s.key for s in inputs.subjects]
    if both.asked(inputs.asks_both, inputs.intent, inputs.asked) and both.wanted(
        keys, inputs.organisation_wide
    ):
        return both.judgment(inputs.facts, names, inputs.window, inputs.intent == Intent.COUNT)
    direct = headline(
        inputs.intent,
        inputs.facts,
        names,
        inputs.window,
        inputs.organisation_wide,
        inputs.ranked_by,
        inputs.asked,
    )
    if direct is not None:
        return direct
    subject = scope_of(names, inputs.organisation_wide)
    if incidents.asked(inputs.intent, inputs.asked) and not inputs.organisation_wide:
        return incidents.judgment(inputs.facts, names, inputs.window)
    factor = busfactor.judgment(inputs.facts, names, inputs.window)
    if busfactor.asked(inputs.intent, inputs.asked) and factor is not None:
        return factor
    if inputs.intent == Intent.WHO_OWNS and ownership:
        return _owned(inputs, ownership, names)
    if inputs.intent == Intent.WHO_OWNS:  # a status judgment would answer another question
        named = "a repository or module" if inputs.organisation_wide else subject
        return (
            f"No ownership is recorded for {subject}: no team or person is recorded as its "
            f"owner at this time. Who changed it is computed from its commits: ask "
            f'"who changed {named}?".'
        )
    # A withheld driver (an episode's words) is never the judgment: it rests on no fact.
    shown = [d for d in drivers if d.standing is not Standing.WITHHELD]
    people = bool(names) and all(k.startswith("person:") for k in names)
    if not any(f.kind in HEALTH_KINDS for f in inputs.facts):
        leads = _leads(shown, names)
        return _unchecked(subject, leads, inputs.window, people) + _last_of(inputs.older, names)
    if not shown:
        return f"No canonical fact shows {subject} behind or under strain in this window."
    primary = [d for d in shown if d.standing is Standing.PRIMARY]
    lead = primary[0] if primary else shown[0]
    if inputs.intent == Intent.WHY_BEHIND:
        return f"{subject} is behind. Main reason: {lead.statement}"
    return f"{subject}: {lead.statement}"


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


MISSING = "no incident, deploy, pull-request or work-item facts"


def _leads(shown: Sequence[Driver], names: Mapping[str, str]) -> list[Driver]:
    """The first driver about each subject, in the order the subjects were named: with two
    ("compare core.py and parser.py"), the judgment gave core.py's figures alone, parser.py's
    only among the drivers."""
    leads: list[Driver] = []
    for key in names:
        lead = next((d for d in shown if key in d.subject_keys), None)
        if lead is not None and lead not in leads:
            leads.append(lead)
    return leads or list(shown[:1])


def _unchecked(subject: str, leads: Sequence[Driver], window: Window, people: bool) -> str:
    """A status question answered from no health fact (a git history holds commits only):
    the answer says what was looked at and what is missing, once, instead of a verdict
    ("No canonical fact shows X behind or under strain") that nothing was checked for.
    People have no health facts at all: their answer is their changes. `leads`: the lead
    driver of each subject, all of them said."""
    said = " ".join(d.statement for d in leads)
    if people:
        return f"{subject}: {said or f'no commit was recorded {when(window)}.'}"
    it = "them" if len(leads) > 1 else "it"
    head = f"The health of {subject} is not judged: {MISSING} were found for {it} {when(window)}"
    if not leads:  # which reads found nothing is a limitation (framing.limitations_of)
        return f"{head}."
    whose = "its" if len(leads) == 1 else "their"
    return f"{head}; only {whose} changes were read. {said}"


def _last_of(older: Mapping[str, Last | None], names: Mapping[str, str]) -> str:
    """The last change before the window of each subject that had none in it."""
    return "".join(
        f" {names.get(k, k)}'s last change before it was on {last.at:%Y-%m-%d} "
        f'("{last.title}", {last.ref}).'
        if last is not None
        else f" {names.get(k, k)} had no change before it either."
        for k, last in older.items()
    )


def _state(facts: Sequence[Fact], names: dict[str, str]) -> str:
    parts = []
    for fact in sorted(facts, key=lambda f: (f.subject_key, f.kind.value)):
        values = ", ".join(
            f"{k}={'not known' if v is None else v}"  # never Python's None in an answer
            for k, v in sorted(fact.value.items())
            if not isinstance(v, dict | list)
        )
        if values:
            parts.append(
                f"{names.get(fact.subject_key, fact.subject_key)} {fact.kind.value}: {values}"
            )
    return "; ".join(parts[:12]) or "No canonical facts were available for this window."
