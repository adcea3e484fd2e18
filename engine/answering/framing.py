"""What an answer says about its own reach: the window its facts cover, the temporal label,
the coverage observations and the limitations, composed from the stages' outcomes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from engine.answering.planning import Decision
from engine.domain.contract import (
    Axis,
    CoverageObservation,
    CoverageReason,
    CoverageState,
    TemporalLabel,
)
from engine.domain.facts import ProviderState
from engine.domain.models import StoredSubject
from engine.domain.timecontext import EffectiveTime, compose_label
from engine.providers import ProviderResult, Window
from engine.reading.vocabulary import Intent

DEFAULT_WINDOW = timedelta(days=30)
# Questions about people and amounts of change read a year when no time is named: who knows
# a module, or what changed in it lately, is not a matter of the last month. The answer says
# so. A count, ranking or list of people over changes naming no time asks about the whole
# history instead (engine/resolving/wholehistory.py): the year stands for those whose words
# are about now ("what changed in X?", "is X still maintained?", "who knows X best?").
LOOKBACK = {
    Intent.WHO: timedelta(days=365),
    Intent.COUNT: timedelta(days=365),
    Intent.WHAT_CHANGED: timedelta(days=365),
    Intent.RANKED: timedelta(days=365),  # which modules changed the most
    Intent.STILL: timedelta(days=365),  # "is X still maintained?": a quiet month says little
}


def lookback_of(intent: Intent) -> timedelta:
    return LOOKBACK.get(intent, DEFAULT_WINDOW)


def window_of(effective: EffectiveTime, lookback: timedelta = DEFAULT_WINDOW) -> Window:
    """The window facts are read over: the range asked, else `lookback` up to the point."""
    historical = effective.axis.value != "current"
    if effective.axis.value == "range":
        return Window(effective.start, effective.end, historical)
    return Window(effective.end - lookback, effective.end, historical)


def temporal_label(
    effective: EffectiveTime,
    grains: list[Any],
    window: Window | None = None,
    reading: str | None = None,
) -> TemporalLabel:
    """The time the answer covers: the effective time, and from the start of the window the
    fact reads covered (it only ever narrows what was asked). `reading`: how a vague time
    phrase of the question was read ("lately": the last 90 days), stated in the label."""
    parts = compose_label(effective, grains)
    start, end = parts.effective_from, parts.effective_to
    # A window ending before the effective time: a first change's second alone.
    narrowed = window is not None and end is not None and window.end < end
    if window is not None and (effective.axis.value != "range" or narrowed):
        start = window.start
    if window is not None and narrowed:
        end = window.end
    return TemporalLabel(
        axis=Axis(parts.axis.value),
        effective_from=start,
        effective_to=end,
        grain=parts.grain,
        note="; ".join(n for n in (reading, parts.note) if n) or None,
    )


_STATES = {
    ProviderState.AVAILABLE: CoverageState.AVAILABLE,
    ProviderState.NO_DATA: CoverageState.NO_DATA,
    ProviderState.NOT_APPLICABLE: CoverageState.NOT_APPLICABLE,
    ProviderState.FAILED: CoverageState.FAILED,
}


def coverage_of(
    entries: Sequence[Any],
    results: Sequence[ProviderResult],
    subjects: Sequence[StoredSubject],
    edges: Sequence[Any] = (),
) -> tuple[CoverageObservation, ...]:
    # Every planning decision that left a subject unread is recorded with its closed reason
    # (pruned: no subject of a supported kind; narrowed: some dropped; not asked: the question
    # asked other fact kinds), counting the subjects it left out. A selected provider is
    # recorded by its read below. Pruning is not a degradation: its state is `pruned`.
    out = [
        CoverageObservation(
            source=e.provider,
            state=CoverageState.PRUNED,
            reason=CoverageReason(e.decision.value),
            count=len(e.dropped),
        )
        for e in entries
        if e.decision is not Decision.SELECTED
    ]
    for r in results:
        out.append(
            CoverageObservation(
                source=r.provider,
                state=_STATES[r.state],
                reason=CoverageReason(r.reason),
                count=len(r.facts),
            )
        )
    windowless = _windowless(subjects, edges)
    return (*out, windowless) if windowless is not None else tuple(out)


def _windowless(
    subjects: Sequence[StoredSubject], edges: Sequence[Any]
) -> CoverageObservation | None:
    """Elements with no validity window are admitted at every time, whatever time was asked:
    the coverage counts the subjects and relationships read that had none, so a reader can
    see how much of an answer rests on elements that carry no time. None when all had one."""
    count = sum(1 for s in subjects if s.valid_from is None and s.valid_to is None)
    count += sum(
        1 for e in edges if e.relationship.valid_from is None and e.relationship.valid_to is None
    )
    if not count:
        return None
    return CoverageObservation(
        source="graph-validity-windows",
        state=CoverageState.AVAILABLE,
        reason=CoverageReason.ELEMENTS_WITHOUT_WINDOW,
        count=count,
    )


def limitations_of(
    results: Sequence[ProviderResult], names: Mapping[str, str] | None = None
) -> tuple[str, ...]:
    """What the reads say about their reach; the providers that found nothing in the window
    in one note (five such notes said one thing five times), naming whose records they read
    (`names`: subject key to name as the answer says it). "No activity records are retained
    for this window" read as if nothing was kept then, when only the subject had none."""
    notes: list[str] = []
    empty = [r.provider for r in results if r.state is ProviderState.NO_DATA]
    for r in results:
        if r.facts:
            notes.extend(n for n in r.notes if n not in notes)
        if r.state is ProviderState.NO_DATA and r.provider == empty[0]:
            notes.append(_none_for(empty, results, names or {}))
        elif r.state is ProviderState.NOT_APPLICABLE:
            notes.append(f"{r.provider} keeps no history, so it cannot answer for that time.")
        elif r.state is ProviderState.FAILED:
            notes.append(f"The {r.provider} facts could not be read.")
    return tuple(notes)


def _none_for(
    empty: Sequence[str], results: Sequence[ProviderResult], names: Mapping[str, str]
) -> str:
    """The note of the reads that found nothing: whose records, when the subjects read are
    known ("No activity records of David Lord fall in this window.")."""
    keys = dict.fromkeys(
        k for r in results if r.state is ProviderState.NO_DATA for k in r.subject_keys
    )
    who = [names[k] for k in keys if k in names]
    if not who or len(who) < len(keys):
        return f"No {_either(empty)} records are retained for this window."
    shown = _either(who[:NAMED]) if len(who) <= NAMED else (
        f"{', '.join(who[:NAMED])} and {len(who) - NAMED} more"
    )  # fmt: skip
    return f"No {_either(empty)} records of {shown} fall in this window."


NAMED = 3  # subjects named in the note of the reads that found nothing


def _either(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
