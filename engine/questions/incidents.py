""""Which incidents hit X?": the incidents asked for, counted from the incident facts, each
incident cited in the claimed fact's evidence; never a health summary of X.

"which incidents hit checkout-web last month?" answered "The health of checkout-web is not
judged: no incident, deploy, pull-request or work-item facts were found", a status sentence
for a question asking for incidents. Here a question asking for incidents alone says how
many started on each subject in the window and how many were unresolved at the window's end.(the
incidents themselves are the evidence of the incident-count fact), or that none is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.domain.contract import ClaimedFact
from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import Case, Question, claim_also, number, when
from engine.reading.vocabulary import Intent

KINDS = frozenset({FactKind.INCIDENT_COUNT, FactKind.OPEN_INCIDENTS, FactKind.TIME_TO_RESOLVE})
_INTENTS = frozenset({Intent.WHICH, Intent.STATUS, Intent.WHAT_CHANGED})


class Incidents(Question):
    """The incidents that hit a subject, asked for alone, counted and cited."""

    name = "incidents"

    def judgment(self, case: Case) -> str | None:
        if not asked(case.intent, case.asked) or case.wide:
            return None
        return judgment(case.facts, case.names, case.window)

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        wanted = case.answerable and asked(case.intent, case.asked)
        return claims(case.facts, claimed) if wanted else []


def asked(intent: Intent, kinds: Sequence[FactKind]) -> bool:
    """A question asking for incidents alone ("which incidents hit X?")."""
    return intent in _INTENTS and bool(kinds) and set(kinds) <= KINDS


def judgment(facts: Sequence[Fact], names: Mapping[str, str], window: Window) -> str:
    parts = []
    for key, name in names.items():
        found = {f.kind: f.value for f in facts if f.subject_key == key and f.kind in KINDS}
        if FactKind.INCIDENT_COUNT not in found:
            parts.append(f"No incident of {name} is recorded {when(window)}.")
            continue
        started = number(found[FactKind.INCIDENT_COUNT].get("started"))
        unresolved = number(found.get(FactKind.OPEN_INCIDENTS, {}).get("open"))
        parts.append(
            f"{started} incident(s) started on {name} {when(window)}; {unresolved} incident(s) "
            "were unresolved at the window's end."
        )
    return " ".join(parts) + (
        " Each incident is cited in the evidence of the incident facts (the incidents are "
        "not listed one by one here)."
        if any(f.kind is FactKind.INCIDENT_COUNT for f in facts)
        else ""
    )


def claims(facts: Sequence[Fact], claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
    """The incident facts the judgment cites that no driver claimed."""
    counted = (f for f in facts if f.kind in (FactKind.INCIDENT_COUNT, FactKind.OPEN_INCIDENTS))
    return claim_also(counted, claimed)
