"""The other activity read when a question about people finds no contributor record naming
anyone (engine/questions/unpeopled.py says it): the subjects' pull requests and commits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.answering.planning import plan, read_facts
from engine.domain.facts import Fact, FactKind
from engine.domain.models import StoredSubject
from engine.ports import FactSource
from engine.providers import Provider, ProviderResult, Window
from engine.questions.unpeopled import OTHER


async def other_activity(
    providers: Sequence[Provider],
    subjects: Sequence[StoredSubject],
    source: FactSource,
    window: Window,
    read: Sequence[Fact] = (),
) -> list[ProviderResult]:
    """The subjects' pull requests and commits over the window, only the kinds in OTHER
    that the question did not read already (`read`): "did anyone commit to X?" read X's
    commits, and reading them again said and claimed them twice."""
    have = {(f.kind, f.subject_key) for f in read}
    chosen = plan(providers, subjects, OTHER)
    results = await read_facts(chosen, source, window)
    return [replace(r, facts=tuple(f for f in r.facts if _new(f, have))) for r in results]


def _new(fact: Fact, have: set[tuple[FactKind, str]]) -> bool:
    return fact.kind in OTHER and (fact.kind, fact.subject_key) not in have
