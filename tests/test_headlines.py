"""Headline ranking of people: added up by person key, shown by name."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.facts import Fact, FactKind, Grain
from engine.headlines import people

START = datetime(2024, 1, 1, tzinfo=UTC)
END = datetime(2025, 1, 1, tzinfo=UTC)


def contributors(subject: str, top: list[tuple[str, str, int, int]]) -> Fact:
    return Fact(
        id=f"contributors:active_contributors:{subject}",
        kind=FactKind.ACTIVE_CONTRIBUTORS,
        subject_key=subject,
        value={
            "contributors": len(top),
            "top": [key for key, _, _, _ in top],
            "top_names": [name for _, name, _, _ in top],
            "top_commits": [c for _, _, c, _ in top],
            "top_lines": [n for _, _, _, n in top],
        },
        window_start=START,
        window_end=END,
        grain=Grain.DAY,
        provider="contributors",
        evidence=(),
    )


def test_people_sharing_a_display_name_stay_apart_and_one_person_adds_up_across_subjects() -> None:
    facts = [
        contributors("repository:a", [
            ("person:alex@one.example", "Alex", 3, 30),
            ("person:alex@two.example", "Alex", 2, 50),
            ("person:sam@example.org", "Sam", 4, 10),
        ]),
        contributors("repository:b", [("person:sam@example.org", "Sam", 1, 5)]),
    ]
    assert people(facts) == [("Sam", 5, 15), ("Alex", 3, 30), ("Alex", 2, 50)]
