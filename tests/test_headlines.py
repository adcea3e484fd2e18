"""Headline ranking of people: added up by person key, shown by name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from engine.domain.contract import Axis
from engine.domain.facts import Fact, FactKind, Grain
from engine.providers import Window
from engine.questions import Case, SynthesisInput, default_questions
from engine.questions.who import people
from engine.reading.vocabulary import Intent

START = datetime(2024, 1, 1, tzinfo=UTC)
END = datetime(2025, 1, 1, tzinfo=UTC)


def headline(
    intent: str, facts: Sequence[Fact], names: Mapping[str, str], window: Window, wide: bool
) -> str | None:
    """The judgment of the first registered question type that answers (engine/questions/)."""
    inputs = SynthesisInput(
        "", Intent(intent), (), tuple(facts), (), (), window, Axis.RANGE, organisation_wide=wide
    )
    case = Case(inputs, names)
    return next((j for q in default_questions() if (j := q.judgment(case)) is not None), None)


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


def test_commits_counted_together_over_modules_are_each_person_s_never_summed() -> None:
    """One commit touching both modules is one commit: Sam made 3 in all, not 3 + 2."""
    facts = [
        contributors("module:r/a.py", [("person:sam@example.org", "Sam", 3, 30),
                                       ("person:kim@example.org", "Kim", 2, 5)]),
        contributors("module:r/b.py", [("person:sam@example.org", "Sam", 2, 4)]),
    ]
    together = {"person:sam@example.org": 3, "person:kim@example.org": 2}
    facts = [
        f.model_copy(update={"value": {**f.value, "top_commits_together": [
            together[k] for k in f.value["top"]]}})
        for f in facts
    ]  # fmt: skip
    assert people(facts) == [("Sam", 3, 34), ("Kim", 2, 5)]


def changes(subject: str, listed: list[tuple[str, str, str, str]], total: int) -> Fact:
    return Fact(
        id=f"changes:changes:{subject}",
        kind=FactKind.CHANGES,
        subject_key=subject,
        value={
            "changes": total,
            "commits": total,
            "merged_pull_requests": 0,
            "latest": [ref for ref, _, _, _ in listed],
            "latest_titles": [title for _, title, _, _ in listed],
            "latest_at": [at for _, _, at, _ in listed],
            "latest_by": [f"person:{who}" for _, _, _, who in listed],
            "latest_by_names": [who for _, _, _, who in listed],
        },
        window_start=START,
        window_end=END,
        grain=Grain.INSTANT,
        provider="changes",
        evidence=tuple(ref for ref, _, _, _ in listed),
        evidence_total=total,
    )


def test_what_changed_lists_the_newest_changes_across_subjects_with_the_total() -> None:
    facts = [
        changes("repository:a", [("commit:a2", "Fix a", "2024-05-02T10:00:00Z", "Sam"),
                                 ("commit:a1", "Add a", "2024-03-01T10:00:00Z", "Sam")], 9),
        changes("repository:b", [("commit:b1", "Fix b", "2024-04-01T10:00:00Z", "Ann")], 1),
    ]  # fmt: skip
    text = headline("what_changed", facts, {"repository:a": "a", "repository:b": "b"},
                    Window(START, END, True), False)  # fmt: skip
    assert text is not None and text.startswith("10 change(s) to a, b from 2024-01-01")
    assert text.index('"Fix a" by Sam') < text.index('"Fix b" by Ann') < text.index('"Add a"')
    assert "and 7 more (the evidence of the changes fact lists all 10)" in text


def test_people_over_several_subjects_are_counted_once_or_bounded() -> None:
    """Sam changed both repositories: two people changed them, not three. Facts that do not
    count the people together (another source's) bound the number instead of adding it up."""
    facts = [
        contributors("repository:a", [("person:sam@example.org", "Sam", 3, 30),
                                      ("person:kim@example.org", "Kim", 2, 5)]),
        contributors("repository:b", [("person:sam@example.org", "Sam", 1, 5)]),
    ]  # fmt: skip
    window = Window(START, END, True)
    names = {"repository:a": "a", "repository:b": "b"}
    bounded = headline("count", facts, names, window, False)
    assert bounded is not None and ": 2 to 3 people changed them (one who " in bounded, bounded
    together = [f.model_copy(update={"value": {**f.value, "contributors_together": 2}})
                for f in facts]  # fmt: skip
    assert (headline("count", together, names, window, False) or "").endswith(
        ": 2 people changed them."
    )
    one = headline("count", facts[:1], {"repository:a": "a"}, window, False)
    assert (one or "").endswith(": 2 people changed it.")
    # Two subjects asked about, one of them changed by no one: its fact is missing.
    alone = headline("count", together[:1], names, window, False)
    assert (alone or "").endswith(": 2 people changed them."), alone
