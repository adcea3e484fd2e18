"""What one run of an investigation is given: the request as received, and the record a run
carries through its stages (who asked, the request, the time answered, the reading, the
result's frame and the stages' record). One record, so that the steps from the investigator
to the pipeline's stages pass one value, never the same six parameters in turn."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.domain.timecontext import EffectiveTime
from engine.investigation.stages import Stages
from engine.reading.interpretation import Interpretation
from engine.resolving import outcomes


@dataclass(frozen=True)
class InvestigationRequest:
    question: str
    as_of: datetime | None = None
    start: datetime | None = None
    end: datetime | None = None
    allow_clarification: bool = True
    prior_receipts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Run:
    """One run: who asked, the request (its question a part's or a window's when run as a
    question of its own), the time answered (the whole history's once resolving chose it:
    a new record, `dataclasses.replace`), the reading, the result's frame, and the stages'
    record (mutable: timings and what must be said are added as the run goes)."""

    actor: str
    request: InvestigationRequest
    effective: EffectiveTime
    understood: Interpretation
    frame: outcomes.Frame
    stages: Stages
