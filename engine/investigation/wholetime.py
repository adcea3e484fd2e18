"""The time an answer covers when the question names none or one too wide: the whole history
of what it names (engine/resolving/wholehistory.py), answered over it when it fits in the 400
days one answer may cover; otherwise the question asked again over the widest window allowed
(engine.resolving.questiontime.Narrower: "ever", "since 2020", a whole history too long).
Taken out of engine/investigation/pipeline.py, which runs the stages around it."""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.contract import InvestigationResult, Outcome, Trace
from engine.domain.models import StoredSubject
from engine.domain.timecontext import EffectiveTime
from engine.investigation.stages import Stages
from engine.ports import OrgGraph
from engine.reading.interpretation import Interpretation
from engine.resolving import outcomes
from engine.resolving.questiontime import NO_TIME, Narrower, TooWide
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Candidate
from engine.resolving.wholehistory import whole_history


async def whole(
    graph: OrgGraph,
    allow_clarification: bool,
    understood: Interpretation,
    resolved: list[StoredSubject],
    effective: EffectiveTime,
    frame: outcomes.Frame,
    stages: Stages,
    phrase: str | None = None,
) -> tuple[EffectiveTime, outcomes.Frame]:
    """A question naming no time (or the whole history: `phrase`, "ever") that counts or
    ranks changes: the time and frame of the whole history of what it names
    (engine/resolving/wholehistory.py), its note in place of the default window's; or,
    wider than one answer covers, asked again (too_wide)."""
    told = stages.told
    slot = understood.slot(phrase or "")
    found = await whole_history(
        graph, resolved, told, effective, slot, allow_clarification, phrase or ""
    )
    stages.too_wide = found.wider
    if found.effective is not None:
        told.notes = [n for n in told.notes if not n.startswith(NO_TIME)]
        effective, frame = found.effective, outcomes.framed(frame, found.effective)
    told.notes.extend([found.note] if found.note else [])
    return effective, frame


def narrower(
    wide: Narrower,
    resolved: list[StoredSubject],
    frame: outcomes.Frame,
    signer: ReceiptSigner,
    trace: Trace,
    ranked_in: Sequence[StoredSubject] = (),
) -> InvestigationResult:
    """The time phrase spans too much: ask again over the widest window allowed, offering
    the subjects found over it. A ranking offers what it ranks in (`ranked_in`: "which files
    has denuoweb changed most in click?" offers click), not the subjects it ranked: their
    receipts made the question offered rank inside the five files ranked first."""
    offered = ranked_in or resolved
    return outcomes.clarification(
        frame,
        "",
        [Candidate(s, 1.0) for s in offered[: outcomes.MAX_CHOICES]],
        signer,
        trace,
        prompt=wide.prompt(),
        question=wide.question(),
    )


def also_too_wide(ended: InvestigationResult, wide: Narrower | None) -> InvestigationResult:
    """A question ending on words not understood whose time is also wider than one answer
    covers says the rule first, then the words: "debug hotspots 2025 and 2026 combined" and
    "the full ranking from January 2020 through June 2026" were refused naming only a word
    (z39a A8, A10), and asked again without it they met the 400-day rule."""
    if not isinstance(wide, TooWide) or ended.outcome is not Outcome.NO_MATCH:
        return ended
    return ended.model_copy(update={"limitations": (wide.refused(), *ended.limitations)})
