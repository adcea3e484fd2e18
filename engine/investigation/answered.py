"""The answer a run composes once its synthesis is made (the compose stage of
engine/investigation/pipeline.py): the synthesis with what the answer says about its own
reach (coverage, the limitations under their cap, the temporal label) and the other
candidates the question could mean. Kept apart so the pipeline reads as its stages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.answering.framing import coverage_of, limitations_of, temporal_label
from engine.answering.synthesis import Synthesis
from engine.domain.contract import (
    CoverageObservation,
    CoverageReason,
    CoverageState,
    InvestigationResult,
    Outcome,
)
from engine.domain.limitations import MAX_LIMITATIONS, disclose_degraded_retrieval
from engine.domain.models import StoredSubject
from engine.domain.timecontext import EffectiveTime
from engine.investigation.stages import Stages
from engine.resolving import outcomes, together
from engine.resolving.disclosures import Disclosures
from engine.resolving.receipts import ReceiptSigner

if TYPE_CHECKING:  # what the pipeline read; this module only reads its fields
    from engine.investigation.reads import Reading


def compose(
    frame: outcomes.Frame,
    effective: EffectiveTime,
    reading_note: str | None,
    resolved: list[StoredSubject],
    reading: Reading,
    synthesis: Synthesis,
    stages: Stages,
    vector_missed: bool,
    signer: ReceiptSigner,
) -> InvestigationResult:
    """The answer: the synthesis with what the answer says about its own reach (coverage,
    limitations, the temporal label) and the other candidates the question could mean.
    `vector_missed`: the resolver's vector arm was off (said as degraded coverage)."""
    coverage = coverage_of(reading.chosen.entries, reading.results, resolved, reading.edges)
    if vector_missed:  # the resolver's vector arm was off
        coverage += (
            CoverageObservation(
                source="vector-search",
                state=CoverageState.DEGRADED,
                reason=CoverageReason.VECTOR_ARM_DISABLED,
                count=None,
            ),
        )
    names = {s.key: s.name for s in together.named(resolved, stages.told.part)}
    limitations, displaced = _limitations(
        stages.told, synthesis, limitations_of(reading.results, names), coverage
    )
    kept = [r.grain for r in reading.results if r.facts]
    label = temporal_label(effective, kept, reading.window, reading_note)
    return frame.result(
        Outcome.ANSWERED,
        direct_judgment=stages.told.judged(synthesis.direct_judgment),
        current_state=synthesis.current_state,
        drivers=synthesis.drivers,
        claimed_facts=synthesis.claimed_facts,
        changes=synthesis.changes,
        changes_total=synthesis.changes_total,
        coverage=coverage,
        limitations=limitations,
        limitations_displaced=displaced,
        subject_keys=tuple(s.key for s in resolved),
        candidates=outcomes.choices(frame, stages.told.candidates, signer),
    ).model_copy(update={"temporal_label": label})


def _limitations(
    told: Disclosures,
    synthesis: Synthesis,
    reach: Sequence[str],
    coverage: Sequence[CoverageObservation],
) -> tuple[tuple[str, ...], int]:
    """The limitations an answer states, and how many more were displaced past the cap.
    reach: what the reads say about their reach (framing.limitations_of)."""
    # Each once: two readings may say one thing alike ('"April 31" was not understood as a
    # time' was said twice), and a repeat took the place of another under the cap.
    limitations = tuple(dict.fromkeys((*told.notes, *synthesis.limitations, *reach)))
    # The most telling first (how time and subjects were chosen); beyond the cap the
    # rest is counted as displaced, never allowed to fail the result.
    displaced = max(len(limitations) - MAX_LIMITATIONS, 0)
    limitations = limitations[:MAX_LIMITATIONS]
    if any(o.reason is CoverageReason.VECTOR_ARM_DISABLED for o in coverage):
        limitations, displaced = disclose_degraded_retrieval(limitations, displaced)
    return limitations, displaced
