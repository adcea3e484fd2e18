"""Terminal results composed without any model: clarification, no match, failure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from engine.answering.framing import temporal_label
from engine.domain.contract import (
    Axis,
    CandidateChoice,
    FailureClassification,
    FailureStage,
    InvestigationResult,
    Outcome,
    TemporalLabel,
    TimeContext,
    Trace,
    Versions,
)
from engine.domain.timecontext import EffectiveTime
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Candidate

FALLBACK_PROMPT = "Several subjects match this question. Which one did you mean?"
MAX_CHOICES = 5  # candidates a clarification offers


@dataclass(frozen=True)
class Frame:
    """What every result of one investigation shares."""

    result_id: str
    org_id: str
    actor: str
    question: str
    created_at: datetime
    time_context: TimeContext
    interpretation: dict[str, Any]
    versions: Versions
    label: TemporalLabel | None
    # Each candidate's one-line label by key (engine/resolving/activity.labels), read once
    # the candidates are known: a clarification's prompt and choices say them.
    labels: Mapping[str, str] = field(default_factory=dict)

    def result(
        self, outcome: Outcome, trace: Trace | None = None, **fields: Any
    ) -> InvestigationResult:
        # Only a non-current axis needs the label (the contract refuses one without); the
        # current axis carries it too, so every answer says which time it covers.
        return InvestigationResult(
            id=self.result_id,
            org_id=self.org_id,
            actor=self.actor,
            question=self.question,
            created_at=self.created_at,
            time_context=self.time_context,
            interpretation=self.interpretation,
            outcome=outcome,
            versions=self.versions,
            temporal_label=self.label,
            trace=trace,
            **fields,
        )


def prompt_for(
    reference: str, candidates: Sequence[Candidate], labels: Mapping[str, str] | None = None
) -> str:
    """`labels`: each candidate's label by key, said instead of its name (names alike, "X
    could mean X, X", told nothing apart)."""
    names = [(labels or {}).get(c.subject.key, c.subject.name) for c in candidates[:5]]
    if not names:
        return FALLBACK_PROMPT
    # Every candidate offered is named: werkzeug's "did David or pgjones commit more?" offered
    # six Davids and the prompt named five, David Lord (the only one active) left out.
    rest = [c.subject.name for c in candidates[5:]]
    more = f" (also offered: {', '.join(rest)})" if rest else ""
    if labels:
        return f'"{reference}" could mean: {"; ".join(names)}{more}. Which one did you mean?'
    return f'"{reference}" could mean {", ".join(names)}{more}. Which one did you mean?'


def choices(
    frame: Frame,
    candidates: Sequence[Candidate],
    signer: ReceiptSigner,
    question: str | None = None,
) -> tuple[CandidateChoice, ...]:
    """Candidates with receipts the caller can bind back on a later question (`question`:
    the one the clarification suggests asking instead; by default the question asked)."""
    question = frame.question if question is None else question
    return tuple(
        CandidateChoice(
            subject_key=c.subject.key,
            name=c.subject.name,
            kind=c.subject.kind,
            score=min(max(c.score, 0.0), 1.0),
            receipt=signer.issue(frame.org_id, frame.actor, question, c.subject.key),
            label=frame.labels.get(c.subject.key),
        )
        for c in candidates
    )


def context_of(effective: EffectiveTime) -> TimeContext:
    """The time context a result states for the time it covers."""
    ranged = effective.axis.value == "range"
    return TimeContext(
        axis=Axis(effective.axis.value),
        as_of=effective.end if effective.axis.value == "as_of" else None,
        start=effective.start if ranged else None,
        end=effective.end if ranged else None,
    )


def framed(frame: Frame, effective: EffectiveTime) -> Frame:
    """The frame of a result covering another time than the one it was made with: the whole
    history of what a question naming no time asks about (engine/resolving/wholehistory.py)."""
    return replace(frame, time_context=context_of(effective), label=temporal_label(effective, []))


def clarification(
    frame: Frame,
    reference: str,
    candidates: Sequence[Candidate],
    signer: ReceiptSigner,
    trace: Trace | None,
    *,
    prompt: str | None = None,
    question: str | None = None,
    beside: str = "",
) -> InvestigationResult:
    """`prompt`: said instead of "which one did you mean?"; `question`: the question the
    prompt suggests asking instead, which the candidates' receipts are issued for; `beside`:
    what the question's other side was found to be, said after the prompt (a comparison's
    other person and their figure: never dropped unsaid)."""
    said = prompt or prompt_for(reference, candidates, frame.labels)
    return frame.result(
        Outcome.CLARIFICATION_REQUIRED,
        trace,
        candidates=choices(frame, candidates, signer, question),
        # prompt_for says the fixed prompt itself when there is no candidate to name: one
        # fallback, in one place (a second `or FALLBACK_PROMPT` here hid a broken one).
        clarification_prompt=f"{said} {beside}" if beside else said,
    )


def no_match(
    frame: Frame,
    trace: Trace | None,
    notes: Sequence[str] = (),
    closest: Sequence[Candidate] = (),
    signer: ReceiptSigner | None = None,
) -> InvestigationResult:
    """`closest`: the nearest readings of what named nothing, offered with receipts."""
    offered = choices(frame, closest[:MAX_CHOICES], signer) if signer is not None else ()
    return frame.result(
        Outcome.NO_MATCH,
        trace,
        limitations=tuple(notes)[:3],
        direct_judgment=None,
        candidates=offered,
    )


def failure(
    frame: Frame, stage: FailureStage, classification: FailureClassification, trace: Trace | None
) -> InvestigationResult:
    # Neither field ever carries text from an exception.
    return frame.result(
        Outcome.FAILED, trace, failure_stage=stage, failure_classification=classification
    )
