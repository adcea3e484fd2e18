"""The investigation: interpret -> resolve -> plan -> read facts -> context -> synthesize ->
validate -> persist, each stage typed, timed and tagged on failure.

An unresolved question (ambiguous or absent subjects) ends before any canonical fact is read,
with a result composed without a model. A failure carries a closed stage and classification,
never an exception's text. Results are immutable once saved.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from engine import outcomes
from engine.asking import Disclosures, Subjects
from engine.contract import (
    MAX_LIMITATIONS,
    Axis,
    CoverageObservation,
    CoverageReason,
    CoverageState,
    FailureClassification,
    FailureStage,
    InvestigationResult,
    Outcome,
    TimeContext,
    Trace,
    Versions,
    disclose_degraded_retrieval,
)
from engine.errors import BadUserInput, PublicError
from engine.framing import (
    coverage_of,
    limitations_of,
    lookback_of,
    temporal_label,
    window_of,
)
from engine.interpretation import Interpretation, handle_candidates, interpret
from engine.models import RelationshipType
from engine.observer import NULL_OBSERVER, InvestigationObserver
from engine.planning import Decision, plan, read_facts
from engine.ports import (
    GraphError,
    GraphTimeout,
    OrgGraph,
    TimeSpan,
)
from engine.providers import Provider
from engine.questiontime import TooWide, question_time, too_wide
from engine.receipts import ReceiptSigner
from engine.resolution import Candidate, Resolver
from engine.synthesis import SynthesisInput, Synthesizer
from engine.text import normalise
from engine.timecontext import MAX_RANGE, EffectiveTime, resolve_time, time_axis_key
from engine.validation import ContractViolation, require_valid

EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
CONTEXT_TYPES = (RelationshipType.OWNS, RelationshipType.DEPENDS_ON)
# Relationships read around a subject to recheck an explicit-id one on reuse (past this it is
# not found, and the answer is recomputed rather than reused).
RECHECK_EDGES = 1_000
T = TypeVar("T")


log = logging.getLogger("fabric.investigate")


def _classify(exc: GraphError) -> FailureClassification:
    if isinstance(exc, GraphTimeout):
        return FailureClassification.TIMEOUT
    return FailureClassification.GRAPH_UNAVAILABLE


class InvestigationFailed(Exception):
    """Raised when a failed result cannot even be saved (the graph is down)."""

    def __init__(self, result: InvestigationResult) -> None:
        super().__init__(f"investigation failed at {result.failure_stage}")
        self.result = result


@dataclass(frozen=True)
class InvestigationRequest:
    question: str
    as_of: datetime | None = None
    start: datetime | None = None
    end: datetime | None = None
    allow_clarification: bool = True
    prior_receipts: tuple[str, ...] = ()


@dataclass
class _Stages:
    timings: list[tuple[str, float]] = field(default_factory=list)
    current: FailureStage = FailureStage.INTERPRET
    chosen: tuple[str, ...] = ()
    pruned: tuple[tuple[str, CoverageReason], ...] = ()
    told: Disclosures = field(default_factory=Disclosures)  # found before synthesis
    too_wide: TooWide | None = None  # the question's time phrase spans too much

    @asynccontextmanager
    async def stage(self, stage: FailureStage) -> AsyncIterator[None]:
        self.current = stage
        started = time.perf_counter()
        try:
            yield
        finally:
            self.timings.append((stage.value, round((time.perf_counter() - started) * 1000, 3)))


def reuse_key(question: str, org_id: str, versions: Versions, axis_key: str) -> str:
    """Every dimension a reused answer must match: the question as normalised, the
    organisation, contract/projection/embedder/model identities, the projection epoch, the
    retrieval policy (gates, tau, search depth), and the time axis."""
    parts = (
        normalise(question),
        org_id,
        versions.contract,
        versions.projection,
        versions.embedder,
        versions.model or "deterministic",
        str(versions.epoch),
        versions.retrieval_policy,
        axis_key,
    )
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


class Investigator:
    """Runs investigations for one organisation.

    graph: the organisation's graph (directory, fact source, episodes, result store).
    round_trips: reads the graph statements sent so far (for the trace).
    reuse_max_age: answer reuse window; None turns reuse off (the default).
    observer: told the outcome and stage timings of every investigation (metrics).
    """

    def __init__(
        self,
        graph: OrgGraph,
        resolver: Resolver,
        providers: Sequence[Provider],
        synthesizer: Synthesizer,
        signer: ReceiptSigner,
        versions: Versions,
        *,
        now: Callable[[], datetime],
        round_trips: Callable[[], int] = lambda: 0,
        reuse_max_age: timedelta | None = None,
        observer: InvestigationObserver = NULL_OBSERVER,
    ) -> None:
        self.graph = graph
        self.resolver = resolver
        self.providers = list(providers)
        self.synthesizer = synthesizer
        self.signer = signer
        # A result names the epoch it read; the reuse key carries it, so reuse never crosses
        # epochs (the graph is pinned to one for its life).
        self.versions = versions.model_copy(update={"epoch": getattr(graph, "epoch", 0)})
        self.now = now
        self.round_trips = round_trips
        self.reuse_max_age = reuse_max_age
        self.observer = observer

    async def investigate(
        self, actor: str, request: InvestigationRequest
    ) -> tuple[InvestigationResult, bool]:
        """The result, and whether it was reused. BadUserInput for refused times."""
        now = self.now()
        effective = resolve_time(request.as_of, request.start, request.end, now)
        # Time phrases are read relative to the request's time ("in the last 3 months" with
        # asOf: the 3 months before asOf), and never reach past it.
        anchor = effective.end
        try:
            understood = await self._interpret(actor, request.question, now, effective, anchor)
        except (InvestigationFailed, PublicError):
            raise
        except Exception:  # a bug: a tagged, saved failure, never a bare error
            frame = self._frame(actor, request.question, now, effective, None)
            return await self._internal(frame, FailureStage.INTERPRET, _Stages(), None), False
        wide = too_wide(understood, anchor) if effective.axis.value != "range" else None
        asked = effective
        if wide is not None and not request.allow_clarification:
            raise BadUserInput(
                f'"{wide.phrase}": the range is wider than {MAX_RANGE.days} days'
            )
        if wide is not None:  # subjects are found over the window offered instead
            effective, time_notes = wide.suggested, list[str]()
        else:
            effective, time_notes = question_time(effective, understood, anchor)
        if effective.start < EARLIEST:
            raise BadUserInput("times before 1970 cannot be asked about")
        key = reuse_key(
            request.question, self.resolver.org_id, self.versions, time_axis_key(effective)
        )
        if self.reuse_max_age is not None and not request.prior_receipts:
            reused = await self._reusable(key, now)
            if reused is not None:
                self.observer.investigation(reused.outcome.value, True, ())
                return reused, True
        stages = _Stages(too_wide=wide)
        frame = self._frame(actor, request.question, now, asked if wide else effective, understood)
        start_trips = self.round_trips()
        stages.told.notes = list(time_notes)
        try:
            result = await self._run(actor, request, effective, understood, frame, stages)
        except GraphError as exc:
            kind = _classify(exc)
            self.observer.investigation(Outcome.FAILED.value, False, stages.timings)
            raise InvestigationFailed(
                outcomes.failure(frame, stages.current, kind, self._trace(stages, start_trips))
            ) from exc
        except ContractViolation:
            result = outcomes.failure(
                frame,
                FailureStage.VALIDATE,
                FailureClassification.CONTRACT_VIOLATION,
                self._trace(stages, start_trips),
            )
        except PublicError:
            raise
        except Exception:  # a bug in any stage: a tagged, saved failure, never a bare error
            trace = self._trace(stages, start_trips)
            return await self._internal(frame, stages.current, stages, trace), False
        result = result.model_copy(update={"trace": self._trace(stages, start_trips)})
        try:
            await self._persist(result, key if result.outcome is Outcome.ANSWERED else None)
        except InvestigationFailed:
            self.observer.investigation(Outcome.FAILED.value, False, stages.timings)
            raise
        self.observer.investigation(result.outcome.value, False, stages.timings)
        return result, False

    async def _run(
        self,
        actor: str,
        request: InvestigationRequest,
        effective: EffectiveTime,
        understood: Interpretation,
        frame: outcomes.Frame,
        stages: _Stages,
    ) -> InvestigationResult:
        async with stages.stage(FailureStage.RESOLVE):
            resolved = await self._subjects().resolve(
                actor,
                request.question,
                request.prior_receipts,
                request.allow_clarification,
                understood,
                effective,
                stages.told,
            )
        if not isinstance(resolved, list):
            return resolved(frame, self._trace(stages, 0))
        if stages.too_wide is not None:
            wide = stages.too_wide
            return outcomes.clarification(
                frame,
                "",
                [Candidate(s, 1.0) for s in resolved[: outcomes.MAX_CHOICES]],
                self.signer,
                self._trace(stages, 0),
                prompt=wide.prompt(request.question),
                question=wide.question(request.question),
            )
        window = window_of(effective, lookback_of(understood.intent))
        async with stages.stage(FailureStage.PLAN):
            chosen = plan(self.providers, resolved, understood.fact_kinds)
        stages.chosen = tuple(r.provider.name for r in chosen.reads)
        stages.pruned = tuple(
            (e.provider, CoverageReason(e.decision.value))
            for e in chosen.entries
            if e.decision in (Decision.PRUNED, Decision.NOT_ASKED)
        )
        async with stages.stage(FailureStage.READ_FACTS):
            results = await read_facts(chosen, self.graph, window)
        async with stages.stage(FailureStage.DISCOVER_CONTEXT):
            keys = [s.key for s in resolved]
            span = TimeSpan(window.start_ns, window.end_ns)
            episodes, edges = await asyncio.gather(
                self.graph.episodes_of(keys, span=span, limit_per_subject=10),
                # Relationships valid at the effective time: owners and dependencies.
                self.graph.relationships_of(
                    keys,
                    types=CONTEXT_TYPES,
                    at=TimeSpan.point(window.end_ns),
                    limit_per_subject=20,
                ),
            )
        facts = tuple(f for r in results for f in r.facts)
        async with stages.stage(FailureStage.SYNTHESIZE):
            synthesis = await self.synthesizer.synthesize(
                SynthesisInput(
                    request.question,
                    understood.intent,
                    tuple(resolved),
                    facts,
                    tuple(e for es in episodes.values() for e in es),
                    tuple(e for es in edges.values() for e in es),
                    window,
                    Axis(effective.axis.value),
                    organisation_wide=stages.told.organisation_wide,
                )
            )
        context_edges = [e for es in edges.values() for e in es]
        coverage = coverage_of(chosen.entries, results, resolved, context_edges)
        if self.resolver.vector_arm_missed:
            coverage += (
                CoverageObservation(
                    source="vector-search",
                    state=CoverageState.DEGRADED,
                    reason=CoverageReason.VECTOR_ARM_DISABLED,
                    count=None,
                ),
            )
        limitations = tuple(stages.told.notes) + synthesis.limitations + limitations_of(results)
        # The most telling first (how time and subjects were chosen); beyond the cap the
        # rest is counted as displaced, never allowed to fail the result.
        displaced = max(len(limitations) - MAX_LIMITATIONS, 0)
        limitations = limitations[:MAX_LIMITATIONS]
        if any(o.reason is CoverageReason.VECTOR_ARM_DISABLED for o in coverage):
            limitations, displaced = disclose_degraded_retrieval(limitations, displaced)
        kept = [r.grain for r in results if r.facts]
        reading = understood.time_note if request.start is None else None
        label = temporal_label(effective, kept, window, reading)
        result = frame.result(
            Outcome.ANSWERED,
            direct_judgment=synthesis.direct_judgment,
            current_state=synthesis.current_state,
            drivers=synthesis.drivers,
            claimed_facts=synthesis.claimed_facts,
            changes=synthesis.changes,
            changes_total=synthesis.changes_total,
            coverage=coverage,
            limitations=limitations,
            limitations_displaced=displaced,
            subject_keys=tuple(keys),
            candidates=outcomes.choices(frame, stages.told.candidates, self.signer),
        ).model_copy(update={"temporal_label": label})
        async with stages.stage(FailureStage.VALIDATE):
            return require_valid(result, {f.id: f for f in facts})

    async def _interpret(
        self,
        actor: str,
        question: str,
        now: datetime,
        effective: EffectiveTime,
        anchor: datetime,
    ) -> Interpretation:
        """Interpretation with the question's known names looked up first; the graph being
        unavailable then fails the investigation at the interpret stage."""
        try:
            known = await self._subjects().known_handles(handle_candidates(question, anchor))
        except GraphError as exc:
            stages = _Stages()
            frame = self._frame(actor, question, now, effective, interpret(question, anchor))
            self.observer.investigation(Outcome.FAILED.value, False, stages.timings)
            raise InvestigationFailed(
                outcomes.failure(frame, FailureStage.INTERPRET, _classify(exc), None)
            ) from exc
        return interpret(question, anchor, known.__contains__)

    def _subjects(self) -> Subjects:
        return Subjects(self.graph, self.resolver, self.signer, self.providers)

    async def _reusable(self, key: str, now: datetime) -> InvestigationResult | None:
        assert self.reuse_max_age is not None
        since = int((now - self.reuse_max_age).timestamp() * 1_000_000) * 1_000
        stored = await self.graph.results.reusable(key, since)
        if stored is None:
            return None
        result = InvestigationResult.model_validate_json(stored.payload)
        return result if await self._still_visible(result) else None

    async def _still_visible(self, result: InvestigationResult) -> bool:
        """Reuse rechecks that every subject and every evidence reference (source records,
        episodes, subjects, relationships by derived or explicit id) can still be read here;
        a reference that cannot be rechecked is not reused (fail closed)."""
        subjects = set(result.subject_keys)
        records: set[str] = set()
        episodes: set[str] = set()
        derived: set[tuple[str, str]] = set()  # (start key, "TYPE|from|to|valid_from")
        explicit: set[tuple[str, str]] = set()  # (a subject at one end, the explicit id)
        for ref in (r for driver in result.drivers for r in driver.evidence):
            kind = ref.kind.value
            if kind == "source_record":
                records.add(ref.ref)
            elif kind == "episode":
                episodes.add(ref.ref)
            elif kind == "subject":
                subjects.add(ref.ref)
            elif ref.ref.count("|") == 3:
                derived.add((ref.ref.split("|")[1], ref.ref))
            elif ref.subject_key is not None:
                explicit.add((ref.subject_key, ref.ref))
            else:
                return False
        ends = sorted({key for key, _ in explicit})
        found_subjects, found_records, found_episodes, found_edges, around = await asyncio.gather(
            self.graph.subjects_by_keys(sorted(subjects)),
            self.graph.source_records_by_keys(sorted(records)),
            self.graph.episodes_by_keys(sorted(episodes)),
            self.graph.edges_by_id(sorted(derived)),
            self.graph.relationships_of(ends, limit_per_subject=RECHECK_EDGES),
        )
        seen = {(key, e.relationship.rel_id) for key, edges in around.items() for e in edges}
        return (
            len(found_subjects) == len(subjects)
            and len(found_records) == len(records)
            and len(found_episodes) == len(episodes)
            and len(found_edges) == len(derived)
            and explicit <= seen
        )

    async def _internal(
        self, frame: outcomes.Frame, stage: FailureStage, stages: _Stages, trace: Trace | None
    ) -> InvestigationResult:
        """An unexpected exception at `stage`: logged here with its traceback (operators
        need it), while the result carries only the closed stage and `internal`."""
        log.error("investigation %s failed at stage %s", frame.result_id, stage.value,
                  exc_info=True)  # fmt: skip
        result = outcomes.failure(frame, stage, FailureClassification.INTERNAL, trace)
        try:
            await self._persist(result, None)
        finally:
            self.observer.investigation(Outcome.FAILED.value, False, stages.timings)
        return result

    async def _persist(self, result: InvestigationResult, key: str | None) -> None:
        try:
            await self.graph.results.save(
                result.id,
                result.model_dump_json(),
                created_ns=time.time_ns(),
                subject_keys=result.subject_keys,
                reuse_key=key,
                outcome=result.outcome.value,
            )
        except Exception as exc:
            kind = _classify(exc) if isinstance(exc, GraphError) else FailureClassification.INTERNAL
            if kind is FailureClassification.INTERNAL:
                log.error("investigation %s could not be saved", result.id, exc_info=True)
            failed = result.model_copy(
                update={
                    "outcome": Outcome.FAILED,
                    "failure_stage": FailureStage.PERSIST,
                    "failure_classification": kind,
                }
            )
            raise InvestigationFailed(failed) from exc

    def _frame(
        self,
        actor: str,
        question: str,
        now: datetime,
        effective: EffectiveTime,
        understood: Interpretation | None,
    ) -> outcomes.Frame:
        context = TimeContext(
            axis=Axis(effective.axis.value),
            as_of=effective.end if effective.axis.value == "as_of" else None,
            start=effective.start if effective.axis.value == "range" else None,
            end=effective.end if effective.axis.value == "range" else None,
        )
        summary = (
            {}  # the question was never understood (interpretation itself failed)
            if understood is None
            else {
                "references": list(understood.references),
                "fact_kinds": [k.value for k in understood.fact_kinds],
                "time_expression": understood.time_expression,
                "intent": understood.intent,
            }
        )
        return outcomes.Frame(
            result_id=str(uuid.uuid4()),
            org_id=self.resolver.org_id,
            actor=actor,
            question=question,
            created_at=now,
            time_context=context,
            interpretation=summary,
            versions=self.versions,
            label=temporal_label(effective, []),
        )

    def _trace(self, stages: _Stages, start_trips: int) -> Trace:
        return Trace(
            stages=tuple(stages.timings),
            graph_round_trips=max(self.round_trips() - start_trips, 0),
            providers_chosen=stages.chosen,
            providers_pruned=stages.pruned,
        )


__all__ = ["InvestigationFailed", "InvestigationRequest", "Investigator"]
