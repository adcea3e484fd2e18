"""A ranking of subjects by how much they changed ("which modules changed the most?"):
engine.resolving.rankedsubjects chose them; here they are listed by their commits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import Case, Question, number, when
from engine.reading.vocabulary import Intent


class Ranked(Question):
    """Subjects ranked by their commits in the window."""

    name = "ranked"

    def judgment(self, case: Case) -> str | None:
        if case.intent != Intent.RANKED:
            return None
        return _ranked(case.facts, case.names, case.window)


def _ranked(facts: Sequence[Fact], names: Mapping[str, str], window: Window) -> str:
    """Subjects ranked by their commits (engine.resolving.rankedsubjects chose them), the numbers
    from their changes facts, each citing its commit records. A name two of them share shows the
    key."""
    lines = {
        f.subject_key: number(f.value.get("lines_changed"))
        for f in facts
        if f.kind is FactKind.CHURN
    }
    commits = {
        f.subject_key: number(f.value.get("commits"))
        for f in facts
        if f.kind in (FactKind.CHANGES, FactKind.CHURN)
    }
    amounts = lines or commits
    order = sorted(names, key=lambda k: (-amounts.get(k, 0), k))
    shared = Counter(names.values())

    def item(k: str) -> str:
        said = f"{commits.get(k, 0)} commit(s)"
        return f"{lines.get(k, 0)} line(s) changed, {said}" if lines else said

    items = "; ".join(
        f"{i}. {names[k] if shared[names[k]] == 1 else k} ({item(k)})"
        for i, k in enumerate(order, 1)
    )
    if lines:
        return (
            f"Ranked by lines changed (added and removed) {when(window)}, the most first "
            f"(equal counts in key order): {items}."
        )
    return (
        f"Ranked by commits {when(window)}, the most first (each commit counted once for "
        f"each subject it touched; equal counts in key order): {items}."
    )
