"""Headlines that answer the question asked, from the canonical facts alone.

A count question headlines the number; a "who" question headlines people, ranked by commits
(then changed lines), and says so, with the numbers the facts hold; "what changed" headlines
the changes (commits and lines). Other intents keep the status judgment (synthesis).
An organisation-wide answer says it is one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.facts import Fact, FactKind
from engine.providers import Window
from engine.timecontext import iso

SHOWN = 5


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def when(window: Window) -> str:
    return f"from {iso(window.start)} to {iso(window.end)}"


def scope_of(names: Mapping[str, str], organisation_wide: bool) -> str:
    if organisation_wide:
        return "the whole organisation"
    return ", ".join(names.values()) or "the organisation"


def headline(
    intent: str,
    facts: Sequence[Fact],
    names: Mapping[str, str],
    window: Window,
    organisation_wide: bool,
) -> str | None:
    scope = scope_of(names, organisation_wide)
    if intent == "count":
        people_only = bool(names) and all(k.startswith("person:") for k in names)
        return _count(facts, scope, window, people_only and not organisation_wide)
    if intent == "who":
        return _who(facts, scope, window)
    if intent == "what_changed":
        return _changes(facts, scope, window)
    return None


def _count(facts: Sequence[Fact], scope: str, window: Window, people_only: bool) -> str:
    commits = [f for f in facts if f.kind is FactKind.COMMIT_ACTIVITY]
    if commits or not facts:
        total = sum(_int(f.value.get("commits")) for f in commits)
        by = "by" if people_only else "to"
        return f"{total} commit(s) {by} {scope} {when(window)}."
    counted = {
        FactKind.INCIDENT_COUNT: ("started", "incident(s) started"),
        FactKind.DEPLOY_FREQUENCY: ("deploys", "production deploy(s)"),
        FactKind.THROUGHPUT: ("merged", "pull request(s) merged"),
        FactKind.OPEN_PULL_REQUESTS: ("open", "pull request(s) open at the end"),
        FactKind.OPEN_INCIDENTS: ("open", "incident(s) unresolved at the end"),
        FactKind.WORK_ITEMS_OVERDUE: ("overdue", "work item(s) overdue"),
        FactKind.ACTIVE_CONTRIBUTORS: ("contributors", "people changed it"),
    }
    parts = []
    for kind, (field, label) in counted.items():
        found = [f for f in facts if f.kind is kind]
        if found:
            parts.append(f"{sum(_int(f.value.get(field)) for f in found)} {label}")
    if not parts:
        return f"No count was available for {scope} {when(window)}."
    return f"{scope} {when(window)}: {'; '.join(parts)}."


def people(facts: Sequence[Fact]) -> list[tuple[str, int, int]]:
    """(name, commits, lines) per person over the contributor facts, by commits then lines.

    People are added up by key, not by name: one person active in several repositories is
    one row, and two identities that merely share a display name stay two rows, as the
    facts themselves list them."""
    commits: dict[str, int] = {}
    lines: dict[str, int] = {}
    names: dict[str, str] = {}
    for fact in facts:
        if fact.kind is not FactKind.ACTIVE_CONTRIBUTORS:
            continue
        keys = [str(k) for k in fact.value.get("top") or []]
        shown = fact.value.get("top_names") or keys
        for key, name, c, n in zip(
            keys,
            shown,
            fact.value.get("top_commits") or [],
            fact.value.get("top_lines") or [],
            strict=False,
        ):
            names.setdefault(key, str(name))
            commits[key] = commits.get(key, 0) + _int(c)
            lines[key] = lines.get(key, 0) + _int(n)
    ranked = sorted(commits, key=lambda k: (-commits[k], -lines[k], names[k], k))
    return [(names[k], commits[k], lines[k]) for k in ranked]


def _who(facts: Sequence[Fact], scope: str, window: Window) -> str:
    ranked = people(facts)
    if not ranked:
        return f"No one changed {scope} {when(window)}."
    total = sum(
        _int(f.value.get("contributors")) for f in facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS
    )
    shown = ", ".join(f"{p} ({c} commit(s), {n} line(s))" for p, c, n in ranked[:SHOWN])
    count = f" ({total} people in all)" if len(facts) == 1 else ""
    return f"Most active on {scope} {when(window)}, ranked by commits: {shown}{count}."


def _changes(facts: Sequence[Fact], scope: str, window: Window) -> str:
    churn = [f for f in facts if f.kind is FactKind.CHURN]
    if not churn:
        return f"No changes to or by {scope} were recorded {when(window)}."
    commits = sum(_int(f.value.get("commits")) for f in churn)
    added = sum(_int(f.value.get("lines_added")) for f in churn)
    removed = sum(_int(f.value.get("lines_removed")) for f in churn)
    return (
        f"{scope} {when(window)}: {commits} commit(s) changing {added + removed} line(s) "
        f"(+{added} -{removed})."
    )
