"""Headlines that answer the question asked, from the canonical facts alone.

A count question headlines the number (engine/answering/counted.py); a "who" question headlines
people, ranked by commits (then changed lines), and says so, with the numbers the facts
hold; "what changed" lists the changes themselves, newest first, with their total (and the
lines they changed); a ranking lists its subjects by commits.
Other intents keep the status judgment (synthesis).
An organisation-wide answer says it is one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.answering.changelog import Listed, listed
from engine.answering.counted import (
    commits_of,
    contributors,
    count,
    each_subject,
    number,
    per_person,
    when,
)
from engine.domain.contract import PEOPLE_SHOWN
from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.reading.vocabulary import Intent

SHOWN = PEOPLE_SHOWN
SHOWN_CHANGES = 5  # in the headline; the result's `changes` lists engine.answering.changelog.SHOWN


def scope_of(names: Mapping[str, str], organisation_wide: bool) -> str:
    if organisation_wide:
        return "the whole organisation"
    return ", ".join(names.values()) or "the organisation"


def headline(
    intent: Intent,
    facts: Sequence[Fact],
    names: Mapping[str, str],
    window: Window,
    organisation_wide: bool,
    basis: str = "commits",
    asked: Sequence[FactKind] = (),
) -> str | None:
    """basis: what a "who" answer ranks people by, "commits" or "lines" (the
    interpretation's `ranked_by`); asked: the fact kinds the question asked for by its words
    (none: the intent's own)."""
    scope = scope_of(names, organisation_wide)
    if intent == Intent.COUNT and _no_one(facts, names, organisation_wide, asked):
        return f"No one changed {scope} {when(window)}: 0 people."
    if intent == Intent.COUNT:
        people_only = bool(names) and all(k.startswith("person:") for k in names)
        if len(names) > 1 and not people_only and not organisation_wide:
            return each_subject(facts, names, window, asked)
        text = count(facts, scope, window, people_only and not organisation_wide, asked)
        if len(names) > 1 and people_only and not organisation_wide:
            text += " " + per_person(facts, names)
        return text
    if intent == Intent.WHO:
        if names and all(k.startswith("person:") for k in names) and not organisation_wide:
            return _people_named(facts, names, scope, window)
        return _who(facts, scope, window, basis)
    if intent == Intent.RANKED:
        return _ranked(facts, names, window)
    if intent == Intent.WHAT_CHANGED:
        people_only = bool(names) and all(k.startswith("person:") for k in names)
        return _changes(facts, scope, window, people_only and not organisation_wide)
    return None


def _no_one(
    facts: Sequence[Fact], names: Mapping[str, str], wide: bool, asked: Sequence[FactKind]
) -> bool:
    """A count of the people who changed repositories or modules (whose contributor records
    are read) with none in the window: no one did ("how many people changed parser.py
    lately?" said "No count was available"). Other activity recorded without the people is
    said by engine/answering/nocontributors.py before this."""
    changing = bool(names) and all(k.startswith(("repository:", "module:")) for k in names)
    return (
        changing
        and not wide
        and tuple(asked) == (FactKind.ACTIVE_CONTRIBUTORS,)
        and not any(f.kind is FactKind.ACTIVE_CONTRIBUTORS for f in facts)
    )


def _people_named(
    facts: Sequence[Fact], names: Mapping[str, str], scope: str, window: Window
) -> str:
    """A who question naming only people ("who made more commits in 2025, David Lord or
    Kevin Deldycke?"): those people ranked by their commits. Who someone is or works with
    is not computed, and is said so: people are ranked for repositories and modules (it said
    "No one changed David Lord")."""
    commits = commits_of(facts)
    if not commits:
        return (
            f"{scope}: who a person is or works with is not computed here (people are "
            f'ranked for repositories and modules). Ask "what did {scope} change?", or "who '
            'changed X?" about a repository or module.'
        )
    ranked = sorted(names.items(), key=lambda kv: (-commits.get(kv[0], 0), kv[0]))
    shown = ", ".join(f"{n} ({commits.get(k, 0)} commit(s))" for k, n in ranked)
    return f"{scope} {when(window)}, ranked by commits: {shown}."





def people(facts: Sequence[Fact], by: str = "commits") -> list[tuple[str, int, int]]:
    """(name, commits, lines) per person over the contributor facts, by commits then lines
    (by="lines": lines, then commits).

    People are added up by key, not by name: one person active in several repositories is
    one row, and two identities that merely share a display name stay two rows, as the
    facts themselves list them. Each fact lists, besides its own top five, the people who
    lead across all the facts' subjects (engine/providers/contributions.py), so the first
    five here are exactly the leaders across them, with their exact totals: anyone else's
    sum can only be short of their true total, which ranks below the fifth leader's.

    A commit touching several of the modules asked about is one commit: where the facts
    count each person's commits over all of them together (`top_commits_together`, from
    the commit records), that count is the person's, never the sum over the modules."""
    commits: dict[str, int] = {}
    together: dict[str, int] = {}
    lines: dict[str, int] = {}
    lines_together: dict[str, int] = {}
    names: dict[str, str] = {}
    for fact in facts:
        if fact.kind is not FactKind.ACTIVE_CONTRIBUTORS:
            continue
        keys = [str(k) for k in fact.value.get("top") or []]
        shown = fact.value.get("top_names") or keys
        once = fact.value.get("top_commits_together")
        whole = fact.value.get("top_lines_together")
        for key, name, c, n, t in zip(
            keys,
            shown,
            fact.value.get("top_commits") or [],
            fact.value.get("top_lines") or [],
            once if isinstance(once, list) else [None] * len(keys),
            strict=False,
        ):
            names.setdefault(key, str(name))
            commits[key] = commits.get(key, 0) + number(c)
            lines[key] = lines.get(key, 0) + number(n)
            if t is not None:
                together[key] = max(together.get(key, 0), number(t))
        for key, n in zip(keys, whole if isinstance(whole, list) else [], strict=False):
            lines_together[key] = max(lines_together.get(key, 0), number(n))
    commits.update(together)
    lines.update(lines_together)
    if by == "lines":  # as the provider ranks
        ranked = sorted(commits, key=lambda k: (-lines[k], -commits[k], k))
    else:
        ranked = sorted(commits, key=lambda k: (-commits[k], -lines[k], k))
    return [(names[k], commits[k], lines[k]) for k in ranked]


def _who(facts: Sequence[Fact], scope: str, window: Window, by: str) -> str:
    ranked = people(facts, by)
    if not ranked:
        return f"No one changed {scope} {when(window)}."
    least, most = contributors(facts)
    who = "person" if least == 1 else "people"
    count = f" ({least} {who} in all)" if least == most else ""
    if by == "lines":
        shown = ", ".join(f"{p} ({n} line(s), {c} commit(s))" for p, c, n in ranked[:SHOWN])
        return f"Most active on {scope} {when(window)}, ranked by lines changed: {shown}{count}."
    shown = ", ".join(f"{p} ({c} commit(s), {n} line(s))" for p, c, n in ranked[:SHOWN])
    return f"Most active on {scope} {when(window)}, ranked by commits: {shown}{count}."


def _ranked(facts: Sequence[Fact], names: Mapping[str, str], window: Window) -> str:
    """Subjects ranked by their commits (engine.resolving.rankedsubjects chose them), the numbers
    from their changes facts, each citing its commit records. A name two of them share shows the
    key."""
    commits = {
        f.subject_key: number(f.value.get("commits")) for f in facts if f.kind is FactKind.CHANGES
    }
    order = sorted(names, key=lambda k: (-commits.get(k, 0), k))
    shared = Counter(names.values())
    items = "; ".join(
        f"{i}. {names[k] if shared[names[k]] == 1 else k} ({commits.get(k, 0)} commit(s))"
        for i, k in enumerate(order, 1)
    )
    return (
        f"Ranked by commits {when(window)}, the most first (each commit counted once for "
        f"each subject it touched; equal counts in key order): {items}."
    )


def _changes(facts: Sequence[Fact], scope: str, window: Window, people_only: bool) -> str:
    """The changes themselves, newest first, with how many there are in all; the lines they
    changed when the churn facts count the same commits (whole UTC days)."""
    shown, total = listed(facts)
    if not total:
        return f"No changes to or by {scope} were recorded {when(window)}."
    items = "; ".join(_change(c) for c in shown[:SHOWN_CHANGES])
    more = total - min(len(shown), SHOWN_CHANGES)
    rest = f"; and {more} more (the evidence of the changes fact lists all {total})" if more else ""
    by = "by" if people_only else "to"
    text = f"{total} change(s) {by} {scope} {when(window)}, newest first: {items}{rest}."
    churn = [f for f in facts if f.kind is FactKind.CHURN]
    added = sum(number(f.value.get("lines_added")) for f in churn)
    removed = sum(number(f.value.get("lines_removed")) for f in churn)
    commits = sum(number(f.value.get("commits")) for f in churn)
    changed = sum(number(f.value.get("commits")) for f in facts if f.kind is FactKind.CHANGES)
    if churn and commits == changed:
        text += f" Lines changed: +{added} -{removed}."
    elif churn:
        text += (
            f" Lines changed on the whole UTC days of the window: +{added} -{removed} "
            f"in {commits} commit(s)."
        )
    return text


def _change(change: Listed) -> str:
    if change.where:  # a person's own change: where it was made
        return f'{change.at:%Y-%m-%d} "{change.title}" in {change.where.split(":", 1)[-1]}'
    by = f" by {change.by_name}" if change.by_name else ""
    return f'{change.at:%Y-%m-%d} "{change.title}"{by}'
