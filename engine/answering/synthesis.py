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

Here: the protocol, its output, and the deterministic synthesizer, which asks the question
types (engine/questions/, one module each, registered in order) for the judgment and the
claims it rests on; its input is engine/questions/base.py's `SynthesisInput`. The rules
reading facts are in engine/answering/signals.py, the drivers they become (and those from
relationships and episodes) in engine/answering/drivers.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.answering.drivers import episode_drivers, fact_drivers, relationship_drivers
from engine.domain.contract import Change, ClaimedFact, Driver
from engine.domain.facts import Fact
from engine.questions import Case, Question, SynthesisInput, default_questions
from engine.questions.base import FENCE
from engine.questions.changes import typed

__all__ = ["FENCE", "DeterministicSynthesizer", "Synthesis", "SynthesisInput", "Synthesizer"]


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
    # The question types, in order: their own reads run before synthesis
    # (engine/investigation/pipeline.py), and a synthesizer judges with them.
    questions: Sequence[Question]

    @property
    def model_identity(self) -> str | None:
        """The model that composes answers; None for the deterministic synthesizer."""
        ...

    async def synthesize(self, inputs: SynthesisInput) -> Synthesis: ...


class DeterministicSynthesizer:
    """Rules over canonical facts; no model, same answer for the same facts. The question
    types (engine/questions/, stateless) are asked in their registry's order: the first that
    judges heads the answer, and each adds the claims its figures rest on."""

    questions: Sequence[Question] = tuple(default_questions())

    def __init__(self, questions: Sequence[Question] | None = None) -> None:
        if questions is not None:
            self.questions = tuple(questions)

    @property
    def model_identity(self) -> str | None:
        return None

    async def synthesize(self, inputs: SynthesisInput) -> Synthesis:
        names = {s.key: s.name for s in inputs.subjects}
        drivers, claims = fact_drivers(inputs.facts, names)
        drivers += relationship_drivers(inputs.edges, inputs.window, names, len(drivers))
        drivers += episode_drivers(inputs.episodes, len(drivers))
        case = Case(inputs, names, drivers)
        judgment = inputs.unanswerable  # engine/answering/recordgaps.py
        for kind in self.questions:  # question types, in order
            judgment = judgment if judgment is not None else kind.judgment(case)
            claims += kind.claims(case, claims)
        shown, total = next(
            (listed for q in self.questions if (listed := q.changes(case))[1]), ([], 0)
        )
        changes = typed(shown, {c.fact_id: c.id for c in claims})
        return Synthesis(
            judgment if judgment is not None else "",
            _state(inputs.facts, names),
            tuple(drivers),
            tuple(claims),
            changes=changes,
            changes_total=total if changes else 0,
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
