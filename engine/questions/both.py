"""The people who changed every one of several repositories or modules: "who changed both
core.py and parser.py in 2025?" (it ranked everyone who changed either, then ended naming
"both"), "how many people changed both X and Y?".

Each subject's contributor fact lists its side of the intersection (the people who changed
all of the subjects asked about, engine/providers/contributors.py `_shared`), with their
commits to it: the answer names each person with their commits to each subject, every
figure from a claimed fact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import Case, Question, number, when
from engine.reading.vocabulary import Intent

SHOWN = 10


class Both(Question):
    """The people who changed every one of several repositories or modules."""

    name = "both"

    def judgment(self, case: Case) -> str | None:
        inputs = case.inputs
        if not asked(inputs.asks_both, case.intent, case.asked):
            return None
        if case.window.before is not None:  # "who contributed in both 2024 and 2025?"
            return periods(case.facts, case.scope, case.window, case.intent == Intent.COUNT)
        if not wanted([s.key for s in inputs.subjects], case.wide):
            return None
        return judgment(case.facts, case.names, case.window, case.intent == Intent.COUNT)


def asked(asks_both: bool, intent: Intent, asked_kinds: Sequence[FactKind]) -> bool:
    """"both" in a who question, or in one counting people (`asks_both`: the question's
    words hold "both", engine.reading.interpreter)."""
    people = intent == Intent.WHO or (
        intent == Intent.COUNT and tuple(asked_kinds) == (FactKind.ACTIVE_CONTRIBUTORS,)
    )
    return people and asks_both


def wanted(keys: Sequence[str], organisation_wide: bool) -> bool:
    """Several repositories or modules, named."""
    changing = all(k.startswith(("repository:", "module:")) for k in keys)
    return len(keys) > 1 and changing and not organisation_wide


def judgment(
    facts: Sequence[Fact], names: Mapping[str, str], window: Window, counted: bool
) -> str:
    """Who changed each of the subjects in the window (or how many people did)."""
    found = {f.subject_key: f for f in facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS}
    scope = " and ".join(names.values())
    sides = [found.get(k) for k in names]
    if any(f is None for f in sides):
        idle = ", ".join(n for k, n in names.items() if k not in found)
        return f"No one changed each of {scope} {when(window)}: no one changed {idle}."
    first = found[next(iter(names))]
    shared, shared_names = first.value.get("shared") or [], first.value.get("shared_names") or []
    people = list(zip(shared, shared_names, strict=False))
    total = number(first.value.get("shared_total"))
    if not people:
        each = "; ".join(
            f"{number(found[k].value.get('contributors'))} changed {n}" for k, n in names.items()
        )
        return f"No one changed each of {scope} {when(window)} ({each})."
    shown = []
    for key, name in people[:SHOWN]:
        parts = [f"{_commits(found[k], key)} commit(s) to {n}" for k, n in names.items()]
        shown.append(f"{name} ({', '.join(parts)})")
    more = f" (the first {SHOWN} shown)" if total > SHOWN else ""
    if counted:
        who = "person" if total == 1 else "people"
        return f"{total} {who} changed each of {scope} {when(window)}: {'; '.join(shown)}{more}."
    return f"Changed each of {scope} {when(window)}: {'; '.join(shown)}{more} ({total} in all)."


def periods(facts: Sequence[Fact], scope: str, window: Window, counted: bool) -> str:
    """The people who changed `scope` both in the window and in the period it is compared
    with (the contributor facts list them: engine/providers/contributors.py), with their
    commits in each."""
    before = window.before
    assert before is not None
    found = [f for f in facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS]
    spans = f"both {when(before)} and {when(window)}"
    if not found:
        return f"No one changed {scope} {spans}: no one changed it {when(window)}."
    value = found[0].value
    total = number(value.get("both_periods_total"))
    rows = zip(
        value.get("both_periods_names") or [],
        value.get("both_periods_commits_before") or [],
        value.get("both_periods_commits") or [],
        strict=False,
    )
    shown = [f"{n} ({number(b)} then, {number(c)} later)" for n, b, c in rows][:SHOWN]
    if not total:
        return f"No one changed {scope} {spans}."
    more = f" (the first {SHOWN} shown)" if total > SHOWN else ""
    who = "person" if total == 1 else "people"
    head = f"{total} {who} changed {scope} {spans}" if counted else f"Changed {scope} {spans}"
    tail = "" if counted else f" ({total} in all)"
    return f"{head}, by commits in each: {'; '.join(shown)}{more}{tail}."


def _commits(fact: Fact, person: str) -> int:
    keys = list(fact.value.get("shared") or [])
    commits = list(fact.value.get("shared_commits") or [])
    return number(commits[keys.index(person)]) if person in keys else 0
