"""Signals: the rules that read one canonical fact as a finding about its subject (a
category, a standing and a statement), and the order that puts the most telling first.

A rule reads only the fact's value and its subject's name; a fact no rule reads, or one
whose value shows nothing unusual, signals nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.domain.contract import DriverCategory, Standing
from engine.domain.facts import Fact, FactKind
from engine.providers.contributions import TOP


@dataclass(frozen=True)
class Signal:
    category: DriverCategory
    standing: Standing
    statement: str
    weight: float  # orders drivers: most telling first


Rule = Callable[[Fact, str], Signal | None]


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _overdue(fact: Fact, name: str) -> Signal | None:
    count = _int(fact.value.get("overdue"))
    if not count:
        return None
    late = _int(fact.value.get("max_days_late"))
    standing = Standing.PRIMARY if count >= 3 else Standing.CONTRIBUTING
    return Signal(
        DriverCategory.SCHEDULE_SLIP,
        standing,
        f"{count} work item(s) for {name} are past their due date, the latest {late} day(s) late.",
        3.0 + count,
    )


def _throughput(fact: Fact, name: str) -> Signal | None:
    merged, before = _int(fact.value.get("merged")), _int(fact.value.get("prior_merged"))
    if before < 2 or merged > 0.7 * before:
        return None
    standing = Standing.PRIMARY if merged <= 0.5 * before else Standing.CONTRIBUTING
    return Signal(
        DriverCategory.DELIVERY_SLOWDOWN,
        standing,
        f"{name} merged {merged} pull request(s) in the window against {before} in "
        "the window before.",
        2.0 + (before - merged),
    )


def _cycle_time(fact: Fact, name: str) -> Signal | None:
    now, before = fact.value.get("median_hours"), fact.value.get("prior_median_hours")
    if not isinstance(now, int | float) or not isinstance(before, int | float) or before <= 0:
        return None
    if now < 1.5 * before:
        return None
    return Signal(
        DriverCategory.DELIVERY_SLOWDOWN,
        Standing.CONTRIBUTING,
        f"Median time to merge on {name} rose from {before:g} h to {now:g} h.",
        1.5 + now / before,
    )


def _open_incidents(fact: Fact, name: str) -> Signal | None:
    count = _int(fact.value.get("open"))
    if not count:
        return None
    return Signal(
        DriverCategory.INCIDENT_LOAD,
        Standing.PRIMARY,
        f"{count} incident(s) on {name} were unresolved at the end of the window.",
        4.0 + count,
    )


def _incident_count(fact: Fact, name: str) -> Signal | None:
    count = _int(fact.value.get("started"))
    if count < 2:
        return None
    return Signal(
        DriverCategory.INCIDENT_LOAD,
        Standing.CONTRIBUTING,
        f"{count} incidents started on {name} in the window.",
        1.0 + count,
    )


def _failed_deploys(fact: Fact, name: str) -> Signal | None:
    failed = _int(fact.value.get("failed"))
    if not failed:
        return None
    total = _int(fact.value.get("deploys"))
    return Signal(
        DriverCategory.DEPLOY_INSTABILITY,
        Standing.CONTRIBUTING,
        f"{failed} of {total} production deploy(s) of {name} failed or were rolled back.",
        1.0 + failed,
    )


def _churn(fact: Fact, name: str) -> Signal | None:
    changed, before = (
        _int(fact.value.get("lines_changed")),
        _int(fact.value.get("prior_lines_changed")),
    )
    if not changed:
        return _unchanged_lines(fact, name)
    # A module whose churn at least doubled, on a non-trivial amount, is the finding.
    rising = changed >= 2 * max(before, 1) and changed >= 100
    return Signal(
        DriverCategory.ACTIVITY_CHANGE,
        Standing.PRIMARY if rising else Standing.CONTRIBUTING,
        f"{name} changed {changed} line(s) (+{_int(fact.value.get('lines_added'))} "
        f"-{_int(fact.value.get('lines_removed'))}) in {_int(fact.value.get('commits'))} "
        f"commit(s) in the window, against {before} line(s) in the window before.",
        1.0 + min(changed, 1_000_000) / 1_000_000,  # the most churned subject first
    )


def _unchanged_lines(fact: Fact, name: str) -> Signal | None:
    """Commits that changed no line as git counts them (a move, binary files): the churn asked
    is 0 lines, said, not left out. attrs "what was the churn of typing_tests/mypy.py?" (its
    one commit of the month moved it) claimed no fact, and its lines were never given."""
    commits = _int(fact.value.get("commits"))
    if not commits:
        return None
    return Signal(
        DriverCategory.ACTIVITY_CHANGE,
        Standing.CONTRIBUTING,
        f"{name} changed 0 line(s) (+0 -0) in {commits} commit(s) in the window: git's "
        "--numstat counts no line added or removed in them.",
        1.0,
    )


def _contributors(fact: Fact, name: str) -> Signal | None:
    top = fact.value.get("top_names") or fact.value.get("top")
    commits = fact.value.get("top_commits")
    if not isinstance(top, list) or not top or not isinstance(commits, list):
        return None
    # The fact lists its TOP by commits first, then those among its TOP by lines or leading
    # elsewhere: only the first TOP are the most changes, in order. Listing a sixth chosen for
    # its lines ("Veritia (4 commit(s))") skipped people with more commits (10 and 9).
    ranked = list(zip(top, commits, strict=False))[:TOP]
    people = ", ".join(f"{p} ({_int(c)} commit(s))" for p, c in ranked)
    lines = _int(fact.value.get("lines_changed"))
    count = _int(fact.value.get("contributors"))
    # One contributor is "1 person", and made all of the changes, not most ("1 people
    # changed click.parser").
    who, share = ("person", "all") if count == 1 else ("people", "most")
    return Signal(
        DriverCategory.ACTIVITY_CHANGE,
        Standing.CONTRIBUTING,
        f"{count} {who} changed {name} in the window; {share} changes came from {people}.",
        1.0 + min(lines, 1_000_000) / 1_000_000,  # the busiest subject first
    )


def _bus_factor(fact: Fact, name: str) -> Signal | None:
    factor, people = _int(fact.value.get("bus_factor")), _int(fact.value.get("contributors"))
    if factor != 1 or _int(fact.value.get("commits")) < 3:
        return None
    share = fact.value.get("top_share")
    percent = f"{share:.0%}" if isinstance(share, int | float) else "most"
    return Signal(
        DriverCategory.DEPENDENCY_RISK,
        Standing.CONTRIBUTING,
        f"{fact.value.get('top_name') or 'One person'} made {percent} of the changes to "
        f"{name} in the window "
        f"(bus factor 1 among {people} contributor(s)).",
        1.5,
    )


def _activity(fact: Fact, name: str) -> Signal | None:
    commits = _int(fact.value.get("commits"))
    if not commits:
        return None
    return Signal(
        DriverCategory.ACTIVITY_CHANGE,
        Standing.CONTRIBUTING,
        f"{name} had {commits} commit(s) on {_int(fact.value.get('days'))} day(s) in the window.",
        1.0 + min(commits, 1_000_000) / 2_000_000,  # the busiest subject first
    )


def _changes(fact: Fact, name: str) -> Signal | None:
    total = _int(fact.value.get("changes"))
    titles, times = fact.value.get("latest_titles"), fact.value.get("latest_at")
    if not total or not isinstance(titles, list) or not isinstance(times, list) or not titles:
        return None
    return Signal(
        DriverCategory.ACTIVITY_CHANGE,
        Standing.CONTRIBUTING,
        f'{total} change(s) to or by {name} in the window; the latest, on {str(times[0])[:10]}: '
        f'"{titles[0]}".',
        1.0 + min(total, 1_000_000) / 2_000_000,
    )


_ORDER = {Standing.PRIMARY: 0, Standing.CONTRIBUTING: 1, Standing.WITHHELD: 2}

RULES: dict[FactKind, Rule] = {
    FactKind.WORK_ITEMS_OVERDUE: _overdue,
    FactKind.THROUGHPUT: _throughput,
    FactKind.CYCLE_TIME: _cycle_time,
    FactKind.OPEN_INCIDENTS: _open_incidents,
    FactKind.INCIDENT_COUNT: _incident_count,
    FactKind.FAILED_DEPLOYS: _failed_deploys,
    FactKind.CHURN: _churn,
    FactKind.COMMIT_ACTIVITY: _activity,
    FactKind.ACTIVE_CONTRIBUTORS: _contributors,
    FactKind.BUS_FACTOR: _bus_factor,
    FactKind.CHANGES: _changes,
}


def signals_of(facts: Sequence[Fact], names: Mapping[str, str]) -> list[tuple[Signal, Fact]]:
    """The facts that signal something and cite evidence, most telling first (primary before
    contributing, heavier first, then by fact id so the order never depends on read order)."""
    signals: list[tuple[Signal, Fact]] = []
    for fact in facts:
        rule = RULES.get(fact.kind)
        signal = rule(fact, names.get(fact.subject_key, fact.subject_key)) if rule else None
        if signal is not None and fact.evidence:
            signals.append((signal, fact))
    signals.sort(key=lambda pair: (_ORDER[pair[0].standing], -pair[0].weight, pair[1].id))
    return signals
