"""Synthesis: from canonical facts and context to a judgment, a current state and drivers.

The deterministic synthesizer needs no model. Every driver it writes cites the canonical
facts it rests on as claimed facts whose values are copies of the facts' values, and the
evidence the facts name. Episode text is untrusted data: it is passed along fenced and never
read as instructions (the deterministic synthesizer does not read it at all). A model-backed
synthesizer may implement the same protocol; its output passes the same contract validator.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.changelog import listed, typed
from engine.contract import (
    Axis,
    Change,
    ClaimedFact,
    Driver,
    DriverCategory,
    EvidenceKind,
    EvidenceRef,
    Standing,
)
from engine.facts import Fact, FactKind
from engine.headlines import headline, ranking_basis, scope_of
from engine.models import Episode, StoredSubject
from engine.providers import Window

FENCE = "<<untrusted-episode-text>>"


@dataclass(frozen=True)
class SynthesisInput:
    question: str
    intent: str
    subjects: tuple[StoredSubject, ...]
    facts: tuple[Fact, ...]
    episodes: tuple[Episode, ...]
    edges: tuple[Any, ...]  # relationships around the subjects (graph edges), for context
    window: Window
    axis: Axis
    organisation_wide: bool = False  # no subject was named: the subjects are the organisation

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


@dataclass(frozen=True)
class Signal:
    category: DriverCategory
    standing: Standing
    statement: str
    weight: float  # orders drivers: most telling first


Rule = Callable[[Fact, str], Signal | None]


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _overdue(fact: Fact, name: str) -> Signal | None:
    count = _int(fact.value.get("overdue"))
    if not count:
        return None
    late = _int(fact.value.get("max_days_late"))
    standing = Standing.PRIMARY if count >= 3 else Standing.CONTRIBUTING
    return Signal(
        DriverCategory.SCHEDULE_SLIP,
        standing,
        f"{count} work item(s) for {name} are past their due date, the latest {late} day(s) late.",
        3.0 + count,
    )


def _throughput(fact: Fact, name: str) -> Signal | None:
    merged, before = _int(fact.value.get("merged")), _int(fact.value.get("prior_merged"))
    if before < 2 or merged > 0.7 * before:
        return None
    standing = Standing.PRIMARY if merged <= 0.5 * before else Standing.CONTRIBUTING
    return Signal(
        DriverCategory.DELIVERY_SLOWDOWN,
        standing,
        f"{name} merged {merged} pull request(s) in the window against {before} in "
        "the window before.",
        2.0 + (before - merged),
    )


def _cycle_time(fact: Fact, name: str) -> Signal | None:
    now, before = fact.value.get("median_hours"), fact.value.get("prior_median_hours")
    if not isinstance(now, int | float) or not isinstance(before, int | float) or before <= 0:
        return None
    if now < 1.5 * before:
        return None
    return Signal(
        DriverCategory.DELIVERY_SLOWDOWN,
        Standing.CONTRIBUTING,
        f"Median time to merge on {name} rose from {before:g} h to {now:g} h.",
        1.5 + now / before,
    )


def _open_incidents(fact: Fact, name: str) -> Signal | None:
    count = _int(fact.value.get("open"))
    if not count:
        return None
    return Signal(
        DriverCategory.INCIDENT_LOAD,
        Standing.PRIMARY,
        f"{count} incident(s) on {name} were unresolved at the end of the window.",
        4.0 + count,
    )


def _incident_count(fact: Fact, name: str) -> Signal | None:
    count = _int(fact.value.get("started"))
    if count < 2:
        return None
    return Signal(
        DriverCategory.INCIDENT_LOAD,
        Standing.CONTRIBUTING,
        f"{count} incidents started on {name} in the window.",
        1.0 + count,
    )


def _failed_deploys(fact: Fact, name: str) -> Signal | None:
    failed = _int(fact.value.get("failed"))
    if not failed:
        return None
    total = _int(fact.value.get("deploys"))
    return Signal(
        DriverCategory.DEPLOY_INSTABILITY,
        Standing.CONTRIBUTING,
        f"{failed} of {total} production deploy(s) of {name} failed or were rolled back.",
        1.0 + failed,
    )


def _churn(fact: Fact, name: str) -> Signal | None:
    changed, before = (
        _int(fact.value.get("lines_changed")),
        _int(fact.value.get("prior_lines_changed")),
    )
    if not changed:
        return None
    # A module whose churn at least doubled, on a non-trivial amount, is the finding.
    rising = changed >= 2 * max(before, 1) and changed >= 100
    return Signal(
        DriverCategory.ACTIVITY_CHANGE,
        Standing.PRIMARY if rising else Standing.CONTRIBUTING,
        f"{name} changed {changed} line(s) (+{_int(fact.value.get('lines_added'))} "
        f"-{_int(fact.value.get('lines_removed'))}) in {_int(fact.value.get('commits'))} "
        f"commit(s) in the window, against {before} line(s) in the window before.",
        1.0 + min(changed, 1_000_000) / 1_000_000,  # the most churned subject first
    )


def _contributors(fact: Fact, name: str) -> Signal | None:
    top = fact.value.get("top_names") or fact.value.get("top")
    commits = fact.value.get("top_commits")
    if not isinstance(top, list) or not top or not isinstance(commits, list):
        return None
    people = ", ".join(f"{p} ({_int(c)} commit(s))" for p, c in zip(top, commits, strict=False))
    lines = _int(fact.value.get("lines_changed"))
    return Signal(
        DriverCategory.ACTIVITY_CHANGE,
        Standing.CONTRIBUTING,
        f"{_int(fact.value.get('contributors'))} people changed {name} in the window; "
        f"most changes came from {people}.",
        1.0 + min(lines, 1_000_000) / 1_000_000,  # the busiest subject first
    )


def _bus_factor(fact: Fact, name: str) -> Signal | None:
    factor, people = _int(fact.value.get("bus_factor")), _int(fact.value.get("contributors"))
    if factor != 1 or _int(fact.value.get("commits")) < 3:
        return None
    share = fact.value.get("top_share")
    percent = f"{share:.0%}" if isinstance(share, int | float) else "most"
    return Signal(
        DriverCategory.DEPENDENCY_RISK,
        Standing.CONTRIBUTING,
        f"{fact.value.get('top_name') or 'One person'} made {percent} of the changes to "
        f"{name} in the window "
        f"(bus factor 1 among {people} contributor(s)).",
        1.5,
    )


def _activity(fact: Fact, name: str) -> Signal | None:
    commits = _int(fact.value.get("commits"))
    if not commits:
        return None
    return Signal(
        DriverCategory.ACTIVITY_CHANGE,
        Standing.CONTRIBUTING,
        f"{name} had {commits} commit(s) on {_int(fact.value.get('days'))} day(s) in the window.",
        1.0 + min(commits, 1_000_000) / 2_000_000,  # the busiest subject first
    )


def _changes(fact: Fact, name: str) -> Signal | None:
    total = _int(fact.value.get("changes"))
    titles, times = fact.value.get("latest_titles"), fact.value.get("latest_at")
    if not total or not isinstance(titles, list) or not isinstance(times, list) or not titles:
        return None
    return Signal(
        DriverCategory.ACTIVITY_CHANGE,
        Standing.CONTRIBUTING,
        f'{total} change(s) to or by {name} in the window; the latest, on {str(times[0])[:10]}: '
        f'"{titles[0]}".',
        1.0 + min(total, 1_000_000) / 2_000_000,
    )


_ORDER = {Standing.PRIMARY: 0, Standing.CONTRIBUTING: 1, Standing.WITHHELD: 2}

RULES: dict[FactKind, Rule] = {
    FactKind.WORK_ITEMS_OVERDUE: _overdue,
    FactKind.THROUGHPUT: _throughput,
    FactKind.CYCLE_TIME: _cycle_time,
    FactKind.OPEN_INCIDENTS: _open_incidents,
    FactKind.INCIDENT_COUNT: _incident_count,
    FactKind.FAILED_DEPLOYS: _failed_deploys,
    FactKind.CHURN: _churn,
    FactKind.COMMIT_ACTIVITY: _activity,
    FactKind.ACTIVE_CONTRIBUTORS: _contributors,
    FactKind.BUS_FACTOR: _bus_factor,
    FactKind.CHANGES: _changes,
}


def _claim(fact: Fact, n: int) -> ClaimedFact:
    # A copy of the canonical value: the contract validator compares them deeply.
    return ClaimedFact(
        id=f"claim-{n}",
        fact_id=fact.id,
        kind=fact.kind,
        subject_key=fact.subject_key,
        value=copy.deepcopy(fact.value),
        window_start=fact.window_start,
        window_end=fact.window_end,
        evidence_total=fact.evidence_total,
        evidence_selector=fact.evidence_selector,
    )


_EVIDENCE_KIND = {
    FactKind.OWNERSHIP: EvidenceKind.RELATIONSHIP,
    FactKind.SERVICE_PROFILE: EvidenceKind.SUBJECT,
}


def _evidence(fact: Fact) -> tuple[EvidenceRef, ...]:
    kind = _EVIDENCE_KIND.get(fact.kind, EvidenceKind.SOURCE_RECORD)
    return tuple(EvidenceRef(ref=e, kind=kind, subject_key=fact.subject_key) for e in fact.evidence)


class DeterministicSynthesizer:
    """Rules over canonical facts; no model, same answer for the same facts."""

    @property
    def model_identity(self) -> str | None:
        return None

    async def synthesize(self, inputs: SynthesisInput) -> Synthesis:
        names = {s.key: s.name for s in inputs.subjects}
        claims: list[ClaimedFact] = []
        signals: list[tuple[Signal, Fact]] = []
        for fact in inputs.facts:
            rule = RULES.get(fact.kind)
            signal = rule(fact, names.get(fact.subject_key, fact.subject_key)) if rule else None
            if signal is not None and fact.evidence:
                signals.append((signal, fact))
        signals.sort(key=lambda pair: (_ORDER[pair[0].standing], -pair[0].weight, pair[1].id))
        drivers = []
        for rank, (signal, fact) in enumerate(signals):
            claim = _claim(fact, len(claims) + 1)
            claims.append(claim)
            drivers.append(
                Driver(
                    id=f"driver-{rank + 1}",
                    standing=signal.standing,
                    category=signal.category,
                    statement=signal.statement,
                    subject_keys=(fact.subject_key,),
                    evidence=_evidence(fact),
                    claimed_fact_ids=(claim.id,),
                    rank=rank,
                )
            )
        drivers += _relationship_drivers(inputs, names, len(drivers))
        drivers += _episode_drivers(inputs, len(drivers))
        ownership = [f for f in inputs.facts if f.kind is FactKind.OWNERSHIP]
        judgment = _judgment(inputs, drivers, ownership, names)
        shown, total = listed(inputs.facts) if inputs.intent == "what_changed" else ([], 0)
        changes = typed(shown, {c.fact_id: c.id for c in claims})
        return Synthesis(
            judgment,
            _state(inputs.facts, names),
            tuple(drivers),
            tuple(claims),
            changes=changes,
            changes_total=total if changes else 0,
        )


def _relationship_drivers(
    inputs: SynthesisInput, names: dict[str, str], start: int
) -> list[Driver]:
    """Ownership that changed within the window: closes to the relationship itself."""
    out: list[Driver] = []
    for edge in inputs.edges:
        rel = edge.relationship
        if rel.type.value != "OWNS" or rel.valid_from is None:
            continue
        if not inputs.window.start <= rel.valid_from <= inputs.window.end:
            continue
        owned = names.get(rel.to_key, rel.to_key)
        statement = f"Ownership of {owned} moved to {edge.other.name} on {rel.valid_from:%Y-%m-%d}."
        ref = EvidenceRef(ref=rel.rel_id, kind=EvidenceKind.RELATIONSHIP, subject_key=rel.to_key)
        out.append(
            Driver(
                id=f"driver-{start + len(out) + 1}",
                standing=Standing.CONTRIBUTING,
                category=DriverCategory.OWNERSHIP_CHANGE,
                statement=statement,
                subject_keys=(rel.to_key, rel.from_key),
                evidence=(ref,),
                relationship_path=(rel.rel_id,),
                rank=start + len(out),
            )
        )
    return out


def _episode_drivers(inputs: SynthesisInput, start: int) -> list[Driver]:
    """Episodes are untrusted text: a rollback or outage they mention is shown to no one as a
    finding (withheld), only counted, until a canonical fact says the same."""
    out: list[Driver] = []
    for episode in inputs.episodes:
        text = episode.text.lower()
        if not any(word in text for word in ("rolled back", "rollback", "outage", "paged")):
            continue
        ref = EvidenceRef(ref=episode.key, kind=EvidenceKind.EPISODE)
        out.append(
            Driver(
                id=f"driver-{start + len(out) + 1}",
                standing=Standing.WITHHELD,
                category=DriverCategory.CONTEXT,
                statement=f"An episode on {episode.occurred_at:%Y-%m-%d} reports trouble.",
                subject_keys=tuple(episode.mentions[:3]),
                evidence=(ref,),
                rank=start + len(out),
            )
        )
        if len(out) >= 3:
            break
    return out


def _judgment(
    inputs: SynthesisInput,
    drivers: Sequence[Driver],
    ownership: Sequence[Fact],
    names: dict[str, str],
) -> str:
    direct = headline(
        inputs.intent,
        inputs.facts,
        names,
        inputs.window,
        inputs.organisation_wide,
        ranking_basis(inputs.question),
    )
    if direct is not None:
        return direct
    subject = scope_of(names, inputs.organisation_wide)
    if inputs.intent == "who_owns" and ownership:
        parts = [
            f"{names.get(f.subject_key, f.subject_key)} was owned by "
            f"{', '.join(f.value.get('owners') or []) or 'no team'}"
            for f in ownership
        ]
        return "; ".join(parts) + "."
    primary = [d for d in drivers if d.standing is Standing.PRIMARY]
    if not drivers:
        return f"No canonical fact shows {subject} behind or under strain in this window."
    lead = primary[0] if primary else drivers[0]
    if inputs.intent == "why_behind":
        return f"{subject} is behind. Main reason: {lead.statement}"
    return f"{subject}: {lead.statement}"


def _state(facts: Sequence[Fact], names: dict[str, str]) -> str:
    parts = []
    for fact in sorted(facts, key=lambda f: (f.subject_key, f.kind.value)):
        values = ", ".join(
            f"{k}={v}" for k, v in sorted(fact.value.items()) if not isinstance(v, dict | list)
        )
        if values:
            parts.append(
                f"{names.get(fact.subject_key, fact.subject_key)} {fact.kind.value}: {values}"
            )
    return "; ".join(parts[:12]) or "No canonical facts were available for this window."
