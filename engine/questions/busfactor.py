""""What is the bus factor of X?", "is X a knowledge silo?": the bus factor asked for, stated
with its figure for every window that has changes, and the bus-factor fact claimed.

Read as a status question, a bus factor was said only when it was a risk (1, from three
commits up: engine/answering/signals.py); any other figure made no driver, so "what is the
bus factor of core.py in 2024?" (click: 20 commits, bus factor 2) answered that the health
of click.core is not judged, and even named its last change before 2024, as if the year had
none. Here a question asking for the bus factor alone gets it for each subject with changes
in the window; a subject without any says so (its last change before the window is
engine/questions/still.py's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.domain.contract import ClaimedFact
from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import Case, Question, claim_also, number, when
from engine.reading.vocabulary import Intent

_INTENTS = frozenset({Intent.STATUS, Intent.WHICH})


class BusFactor(Question):
    """The bus factor asked for alone, stated with its figure."""

    name = "bus_factor"

    def judgment(self, case: Case) -> str | None:
        if not asked(case.intent, case.asked):
            return None
        return judgment(case.facts, case.names, case.window)

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        wanted = case.answerable and asked(case.intent, case.asked)
        return claims(case.facts, claimed) if wanted else []


def asked(intent: Intent, kinds: Sequence[FactKind]) -> bool:
    """A question asking for the bus factor alone ("bus factor", "key person risk",
    "knowledge silo": engine/reading/vocabulary.py)."""
    return intent in _INTENTS and set(kinds) == {FactKind.BUS_FACTOR}


def judgment(facts: Sequence[Fact], names: Mapping[str, str], window: Window) -> str | None:
    """Each subject's bus factor in the window; None when no subject has one (no change in
    the window: the status judgment says so, with the last change before it)."""
    found = {f.subject_key: f.value for f in facts if f.kind is FactKind.BUS_FACTOR}
    if not found:
        return None
    return " ".join(_one(name, found.get(key), window) for key, name in names.items())


def _one(name: str, value: Mapping[str, object] | None, window: Window) -> str:
    if value is None:
        return f"{name} has no bus factor {when(window)}: no change to it is recorded there."
    factor, people = number(value.get("bus_factor")), number(value.get("contributors"))
    basis = "changed lines" if value.get("basis") == "lines" else "commits"
    share = value.get("top_share")
    percent = f"{share:.0%}" if isinstance(share, int | float) else "the most"
    top = value.get("top_name") or value.get("top") or "one person"
    commits = number(value.get("commits"))
    if people == 1:
        return (
            f"The bus factor of {name} {when(window)} is 1: {top} made all of its {basis} "
            f"({commits} commit(s)), the only contributor."
        )
    whom = "person" if factor == 1 else "people"
    return (
        f"The bus factor of {name} {when(window)} is {factor}: {factor} {whom} of "
        f"{people} contributor(s) made at least half of its {basis} "
        f"({commits} commit(s)); {top} made {percent} of them."
    )


def claims(facts: Sequence[Fact], claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
    """The bus-factor facts the judgment cites that no driver claimed."""
    return claim_also((f for f in facts if f.kind is FactKind.BUS_FACTOR), claimed)
