"""A question comparing two periods: now with an earlier one ("is core.py changing more or
less than last year?" asks for this year so far against last year, not for last year against
the year before it), or two periods named ("q4 '25 vs q1 '26 commits", "was the changelog
busier in q1 or q2?", "nate's commits may vs june").

Interpretation reads the period named after "than" ("compared to", "vs") as the one compared
with, when it ended before the question's time and the time since its end is no longer than
it (engine.reading.asked `_compared`): the answer covers the time since its end (this year
to date). Of two periods named, the answer covers the later and the earlier is the one
compared with, whichever the question names first (engine/reading/twoperiods.py). The churn
fact's "window before" (its prior lines and commits) reads that period instead (Window.before).
The spans may differ (a year so far against a whole one, 90 days against 92): the judgment
gives both totals and both rates per day, over the whole UTC days each counts, and never a
verdict on fewer totals from a shorter span alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from engine.domain.contract import ClaimedFact
from engine.domain.facts import Fact, FactKind
from engine.domain.models import SubjectKind
from engine.domain.timecontext import iso
from engine.providers import Window
from engine.questions import both
from engine.questions.base import Case, Question, claim_also
from engine.reading.vocabulary import Intent

DAY = timedelta(days=1)
CHANGING = frozenset({SubjectKind.REPOSITORY, SubjectKind.MODULE, SubjectKind.PERSON})


class Compared(Question):
    """A period against an earlier one, for subjects that change (repositories, modules,
    people)."""

    name = "compared"

    def judgment(self, case: Case) -> str | None:
        changing = all(s.kind in CHANGING for s in case.inputs.subjects)
        if case.window.before is None or not changing:
            return None
        if both.asked(case.inputs.asks_both, case.intent, case.asked):
            return None  # the people of both periods (engine/questions/both.py)
        if _headcount(case):
            return headcount(case.facts, case.names, case.window)
        said = judgment(case.facts, case.names, case.window)
        if FactKind.ACTIVE_CONTRIBUTORS in case.asked:  # "..., how many commits and who"
            return f"{said} {people(case.facts, case.names, case.window)}"
        return said

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        """The churn facts the judgment's figures of both periods come from: a period with
        no commit beside one with some is said from a fact no driver claims."""
        if self.judgment(case) is None:
            return []
        names = case.names
        kinds = {FactKind.ACTIVE_CONTRIBUTORS} if _headcount(case) else {FactKind.CHURN}
        if FactKind.ACTIVE_CONTRIBUTORS in case.asked:  # each period's people, said
            kinds.add(FactKind.ACTIVE_CONTRIBUTORS)
        return claim_also(
            (f for f in case.facts if f.kind in kinds and f.subject_key in names), claimed
        )


def _headcount(case: Case) -> bool:
    """How many people changed it in each period ("attrs contributors 2022 vs 2023",
    engine/reading/twoperiods.py `measure`), not its commits and lines."""
    return case.intent is Intent.COUNT and list(case.asked) == [FactKind.ACTIVE_CONTRIBUTORS]


def headcount(facts: Sequence[Fact], names: Mapping[str, str], window: Window) -> str:
    """Each subject's people in the window and in the period compared with, each person
    once (as the import groups authors: said beside, engine/answering/people.py); a subject
    no one changed in either has no fact."""
    before = window.before
    assert before is not None
    found = {f.subject_key: f.value for f in facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS}
    now = f"from {iso(window.start)} to {iso(window.end)}"
    then = f"{iso(before.start)} to {iso(before.end)}"
    parts = []
    for key, name in names.items():
        value = found.get(key, {})
        people = _int(value.get("contributors")), _int(value.get("prior_contributors"))
        way = "more" if people[0] > people[1] else "fewer" if people[0] < people[1] else "as many"
        parts.append(
            f"{_people(people[0])} changed {name} {now}, against {people[1]} from {then}: "
            f"{way} people in the later period."
        )
    return " ".join(parts)


def people(facts: Sequence[Fact], names: Mapping[str, str], window: Window) -> str:
    """Who changed each subject in each period, most commits first, with their commits (the
    contributor fact lists both: engine/providers/contributors.py), each person once as the
    import groups authors; no one, said."""
    before = window.before
    assert before is not None
    found = {f.subject_key: f.value for f in facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS}
    spans = (f"from {iso(window.start)} to {iso(window.end)}",
             f"from {iso(before.start)} to {iso(before.end)}")  # fmt: skip
    parts = []
    for key, name in names.items():
        value = found.get(key, {})
        sides = (
            (value.get("top_names"), value.get("top_commits"), value.get("contributors")),
            (value.get("prior_top_names"), value.get("prior_top_commits"),
             value.get("prior_contributors")),
        )  # fmt: skip
        for (who, commits, total), span in zip(sides, spans, strict=True):
            parts.append(f"Who changed {name} {span}: {_listed(who, commits, _int(total))}.")
    return " ".join(parts)


def _listed(who: object, commits: object, total: int) -> str:
    """People with their commits ("A (3 commit(s)), B (1 commit(s))"), and how many in all."""
    rows = list(zip(who if isinstance(who, list) else [],
                    commits if isinstance(commits, list) else [], strict=False))  # fmt: skip
    if not rows:
        return "no one"
    listed = ", ".join(f"{n} ({_int(c)} commit(s))" for n, c in rows)
    more = f", the first {len(rows)} shown" if total > len(rows) else ""
    return f"{listed} ({_people(total)} in all{more})"


def _days(start: datetime, end: datetime) -> int:
    """The whole UTC days in [start, end): what daily rollups count."""
    first = start.date() if start.time() == datetime.min.time() else start.date() + DAY
    return max((end.date() - first).days, 0)


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def judgment(facts: Sequence[Fact], names: Mapping[str, str], window: Window) -> str:
    """Each subject's lines and commits now and in the period compared with, the spans and
    the rates per day."""
    before = window.before
    assert before is not None
    churn = {f.subject_key: f for f in facts if f.kind is FactKind.CHURN}
    days = _days(window.start, window.end), _days(before.start, before.end)
    now = f"from {iso(window.start)} to {iso(window.end)}"
    then = f"{iso(before.start)} to {iso(before.end)}"
    parts = []
    for key, name in names.items():
        fact = churn.get(key)  # none: no commit in either period (the provider keeps one
        v = {} if fact is None else fact.value  # for a period with commits beside one without)
        lines = _int(v.get("lines_changed")), _int(v.get("prior_lines_changed"))
        commits = _int(v.get("commits")), _int(v.get("prior_commits"))
        parts.append(
            f"{name} changed {lines[0]} line(s) in {commits[0]} commit(s) {now}, against "
            f"{lines[1]} line(s) in {commits[1]} commit(s) from {then}. Over {days[0]} whole "
            f"day(s) against {days[1]}, that is {_rate(lines[0], days[0])} line(s) and "
            f"{_rate(commits[0], days[0])} commit(s) a day against {_rate(lines[1], days[1])} "
            f"and {_rate(commits[1], days[1])}: {_more(lines, days)} lines and "
            f"{_more(commits, days)} commits a day. In all, {_apart(commits, 'commit(s)')} and "
            f"{_apart(lines, 'line(s)')} than from {then}. {_sides(v, now, then)}"
        )
    return " ".join(parts)


def _sides(v: Mapping[str, object], now: str, then: str) -> str:
    """The lines added and removed in each period, and the net ("net lines in X jul vs
    aug", "lines +/- ... vs ...": the lines changed were given alone, another figure)."""
    added, removed = _int(v.get("lines_added")), _int(v.get("lines_removed"))
    before = _int(v.get("prior_lines_added")), _int(v.get("prior_lines_removed"))
    return (
        f"Lines added and removed: +{added} -{removed} (net {added - removed:+d}) {now}, "
        f"against +{before[0]} -{before[1]} (net {before[0] - before[1]:+d}) from {then}."
    )


def _apart(counts: tuple[int, int], noun: str) -> str:
    """By how many the period answered differs from the one compared with, in all ("which was
    busier, ..., and by how many commits?": the rates alone left the difference to the
    asker)."""
    now, then = counts
    if now == then:
        return f"as many {noun}"
    return f"{abs(now - then)} {'more' if now > then else 'fewer'} {noun}"


def _people(n: int) -> str:
    return f"{n} person" if n == 1 else f"{n} people"


def _rate(n: int, days: int) -> str:
    return f"{n / days:.2f}" if days else "none"


def _more(counts: tuple[int, int], days: tuple[int, int]) -> str:
    if not days[0] or not days[1]:
        return "no whole day to compare"
    now, then = counts[0] / days[0], counts[1] / days[1]
    return "more" if now > then else "fewer" if now < then else "as many"
