"""Signals' statements: what a driver line says of one fact."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine.answering.signals import signals_of
from engine.domain.facts import Fact, FactKind, Grain


def _contributors(people: list[tuple[str, int]]) -> Fact:
    return Fact(
        id="contributors:active_contributors:module:click.parser",
        kind=FactKind.ACTIVE_CONTRIBUTORS,
        subject_key="module:click.parser",
        value={
            "contributors": len(people),
            "top_names": [name for name, _ in people],
            "top_commits": [commits for _, commits in people],
            "lines_changed": 40,
        },
        window_start=datetime(2025, 1, 1, tzinfo=UTC),
        window_end=datetime(2026, 1, 1, tzinfo=UTC),
        grain=Grain.DAY,
        provider="contributors",
        evidence=("commit:1",),
    )


@pytest.mark.parametrize(
    ("people", "said"),
    [
        ([("Kim", 3)], "1 person changed click.parser in the window; all changes came from "
         "Kim (3 commit(s))."),
        ([("Kim", 3), ("Jo", 1)], "2 people changed click.parser in the window; most changes "
         "came from Kim (3 commit(s)), Jo (1 commit(s))."),
    ],
)  # fmt: skip
def test_a_contributor_count_is_said_in_the_right_number(
    people: list[tuple[str, int]], said: str
) -> None:
    """A driver line said "1 people changed click.parser"."""
    [(signal, _)] = signals_of([_contributors(people)], {"module:click.parser": "click.parser"})
    assert signal.statement == said
