"""The headline of a count question ("how many commits to X?", "how many authors touched
X and Y?", "how many lines changed in X?"), from the canonical facts alone.

Several subjects may hold one another or share what they count: one commit touches several
modules, one person changes several, a package holds its Python modules' lines. So a count
over several says each one's number, or counts what they share once; it never adds them up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.domain.bots import is_bot
from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import Case, Question, number, when
from engine.questions.botsown import bots_own
from engine.reading.vocabulary import Intent


class Count(Question):
    """ "How many": the number, said for each subject where they may share what is counted."""

    name = "count"

    def judgment(self, case: Case) -> str | None:
        if case.intent != Intent.COUNT:
            return None
        facts, names, window, asked = case.facts, case.names, case.window, case.asked
        if case.inputs.bots_only is not None:  # "how many bot commits", "how many bots"
            people = FactKind.COMMIT_ACTIVITY not in asked
            return bots_own(facts, names, case.scope, window, people)
        if case.inputs.bots is not None and not case.people_only:
            return without_bots(facts, names, case.scope, window, asked, case.wide)
        if case.inputs.bots is not None and any(is_bot(n) for n in names.values()):
            bots = ", ".join(n for n in names.values() if is_bot(n))
            return f"{bots}: a bot, and the question leaves bots out: nothing of theirs is counted."
        if _no_one(facts, names, case.wide, asked):
            return f"No one changed {case.scope} {when(window)}: 0 people."
        commits = commits_of(facts)
        counted = [(n, commits.get(k, 0)) for k, n in names.items()]
        lead = most_of(counted, "commits") if case.inputs.compares and commits else ""
        if len(names) > 1 and not case.people_only and not case.wide:
            return lead + (each_subject(facts, names, window, asked, case.inputs.net) or "")
        text = count(facts, case.scope, window, case.people_only, asked, net=case.inputs.net)
        if case.inputs.bots is not None:  # "how many commits did X make, no bots": X is none
            text += " No one of them is a bot (leaving bots out leaves this count as it is)."
        if len(names) > 1 and case.people_only:
            text = lead + text + " " + per_person(facts, names)
        return text


def _no_one(
    facts: Sequence[Fact], names: Mapping[str, str], wide: bool, asked: Sequence[FactKind]
) -> bool:
    """A count of the people who changed repositories or modules (whose contributor records
    are read) with none in the window: no one did ("how many people changed parser.py
    lately?" said "No count was available"). Other activity recorded without the people is
    said by engine/questions/unpeopled.py before this."""
    changing = bool(names) and all(k.startswith(("repository:", "module:")) for k in names)
    return (
        changing
        and not wide
        and tuple(asked) == (FactKind.ACTIVE_CONTRIBUTORS,)
        and not any(f.kind is FactKind.ACTIVE_CONTRIBUTORS for f in facts)
    )


def count(
    facts: Sequence[Fact],
    scope: str,
    window: Window,
    people_only: bool,
    asked: Sequence[FactKind],
    apart: Mapping[str, str] | None = None,
    net: bool = False,
) -> str:
    """No fact of a kind asked is no count: "how many deploys?" with none read is never
    "0 commit(s)" (commits are counted when asked for, or when nothing else was). `apart`:
    the names of subjects that may hold one another, whose lines are said each. Commits
    and lines both asked ("how much did X do in Y?") are both said; `net`: the lines added
    less those removed are asked ("by how many lines did X grow?")."""
    commits = [f for f in facts if f.kind is FactKind.COMMIT_ACTIVITY]
    churn = [f for f in facts if f.kind is FactKind.CHURN]
    if commits or (not facts and (not asked or FactKind.COMMIT_ACTIVITY in asked)):
        total = sum(number(f.value.get("commits")) for f in commits)
        by = "by" if people_only else "to"
        lines = f", {_lines(churn, net)}" if churn and FactKind.CHURN in asked else ""
        return f"{total} commit(s) {by} {scope} {when(window)}{lines}."
    counted = {
        FactKind.INCIDENT_COUNT: ("started", "incident(s) started"),
        FactKind.DEPLOY_FREQUENCY: ("deploys", "production deploy(s)"),
        FactKind.THROUGHPUT: ("merged", "pull request(s) merged"),
        FactKind.OPEN_PULL_REQUESTS: ("open", "pull request(s) open at the end"),
        FactKind.OPEN_INCIDENTS: ("open", "incident(s) unresolved at the end"),
        FactKind.WORK_ITEMS_OVERDUE: ("overdue", "work item(s) overdue"),
    }
    parts = []
    for kind, (field, label) in counted.items():
        found = [f for f in facts if f.kind is kind]
        if found:
            parts.append(f"{sum(number(f.value.get(field)) for f in found)} {label}")
    if any(f.kind is FactKind.ACTIVE_CONTRIBUTORS for f in facts):
        parts.append(_people_count(facts))
    if len(churn) > 1 and apart:
        parts.append(_lines_each(churn, apart, net))
    elif churn:  # "how many lines changed in X?" (it said no count was available)
        parts.append(_lines(churn, net))
    if not parts:
        return f"No count was available for {scope} {when(window)}."
    return f"{scope} {when(window)}: {'; '.join(parts)}."


def _lines(churn: Sequence[Fact], net: bool) -> str:
    """The lines changed, or with `net` the lines added less those removed, with both sides."""
    added = sum(number(f.value.get("lines_added")) for f in churn)
    removed = sum(number(f.value.get("lines_removed")) for f in churn)
    if net:
        return f"net {added - removed:+d} line(s) (+{added} added, -{removed} removed)"
    return f"{added + removed} line(s) changed (+{added} -{removed})"


def without_bots(
    facts: Sequence[Fact],
    names: Mapping[str, str],
    scope: str,
    window: Window,
    asked: Sequence[FactKind],
    wide: bool,
) -> str:
    """A count with bots left out ("how many commits this year excluding bots", "how many
    human contributors to X?"): each contributor fact's own count less its bots' (the
    provider counts them, engine.domain.bots), with how many were left out. Over several
    subjects each one's, as `each_subject` says why (an organisation's repositories share
    no commit, so theirs add up)."""
    found = [f for f in facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS]
    people = FactKind.ACTIVE_CONTRIBUTORS in asked and FactKind.COMMIT_ACTIVITY not in asked
    field, noun = ("contributors", "people") if people else ("commits", "commit(s)")
    left, bot = ("bots", "bot(s)") if people else ("bot_commits", "commit(s) by bots")

    def figures(of: Sequence[Fact]) -> tuple[int, int]:
        total = sum(number(f.value.get(field)) for f in of)
        out = sum(number(f.value.get(left)) for f in of)
        return total - out, out

    if wide or len(names) <= 1:
        kept, out = figures(found)
        return (
            f"{kept} {noun} {'changed' if people else 'to'} {scope} {when(window)}, bots left "
            f"out ({out} {bot} not counted)."
        )
    each = []
    for key, name in names.items():
        kept, out = figures([f for f in found if f.subject_key == key])
        each.append(f"{kept} in {name} ({out} {bot} not counted)")
    return (
        f"{noun.capitalize()} {when(window)}, bots left out: {'; '.join(each)}. One "
        f"{'person' if people else 'commit'} may count in several of them, so they are not "
        "added up."
    )


def contributors(facts: Sequence[Fact]) -> tuple[int, int]:
    """How many people changed the subjects of the contributors facts, each once, as a range
    (the same number twice when known). Added up over the subjects, a person who changed two
    of them was counted for each ("how many authors touched core.py and parser.py in 2025?"
    said 13 on click, where 12 people did); facts counting them together say it, others
    bound it: at least the most of one subject, at most the sum."""
    found = [f for f in facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS]
    each = [number(f.value.get("contributors")) for f in found]
    if len(found) == 1:
        return each[0], each[0]
    together = {f.value.get("contributors_together") for f in found}
    if len(together) == 1 and isinstance(known := together.pop(), int):
        return known, known
    return max(each, default=0), sum(each)


def _people_count(facts: Sequence[Fact]) -> str:
    least, most = contributors(facts)
    found = [f for f in facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS]
    several = len(found) > 1 or any("contributors_together" in f.value for f in found)
    it = "them" if several else "it"
    if least == most:
        return f"{least} {'person' if least == 1 else 'people'} changed {it}"
    return (
        f"{least} to {most} people changed {it} (one who changed several of them is counted "
        "for each)"
    )


def each_subject(
    facts: Sequence[Fact],
    names: Mapping[str, str],
    window: Window,
    asked: Sequence[FactKind],
    net: bool = False,
) -> str | None:
    """Commits to several modules or repositories, each on its own: one commit may touch
    several of them ("core.py and parser.py": 15 and 4 in click's 2023, 15 in all), so a
    sum would count it again for each (it said 19). Lines asked beside the commits ("how many
    commits and lines changed in src/attr versus src/attrs?") are said each too: they were
    read and left out of the judgment."""
    commits = [f for f in facts if f.kind is FactKind.COMMIT_ACTIVITY]
    if not commits:
        return count(facts, ", ".join(names.values()), window, False, asked, names, net)
    churn = [f for f in facts if f.kind is FactKind.CHURN]
    lines = _lines_each(churn, names, net) if churn and FactKind.CHURN in asked else ""
    lines = f" {lines[0].upper()}{lines[1:]}." if lines else ""
    each = [
        f"{sum(number(f.value.get('commits')) for f in commits if f.subject_key == key)} "
        f"to {name}"
        for key, name in names.items()
    ]
    return (
        f"Commit(s) {when(window)}: {'; '.join(each)}. A commit touching several of them "
        "counts for each, so they are not added up." + lines
    )


def _lines_each(churn: Sequence[Fact], names: Mapping[str, str], net: bool = False) -> str:
    """Lines changed in several modules or repositories, each on its own: a repository
    holds its modules' lines and a package its Python modules' ("the click module and
    core.py" in click's 2025: 2074 and 1307, 2074 in all), so a sum counted them again (it
    said 3381)."""
    each = []
    for key, name in names.items():
        added = sum(number(f.value.get("lines_added")) for f in churn if f.subject_key == key)
        removed = sum(number(f.value.get("lines_removed")) for f in churn if f.subject_key == key)
        figure = f"{added - removed:+d}" if net else str(added + removed)
        each.append(f"{figure} (+{added} -{removed}) in {name}")
    return (
        f"{'net line(s)' if net else 'line(s) changed'}: {'; '.join(each)} (a line of several "
        "of them counts for each, so they are not added up)"
    )


def most_of(counted: Sequence[tuple[str, int]], what: str) -> str:
    """The lead of a comparison of several subjects' counts ("did X commit more than Y?",
    "X or Y, who committed more?"): who has the most, or that they tie ("" for fewer than
    two)."""
    if len(counted) < 2:
        return ""
    ranked = sorted(counted, key=lambda c: -c[1])
    (top, most), rest = ranked[0], ranked[1:]
    if all(n == most for _, n in rest):
        return f"They tie: {most} {what} each. "
    against = ", ".join(f"{n} by {name}" for name, n in rest)
    return f"{top} has the most {what} of them: {most}, against {against}. "


def commits_of(facts: Sequence[Fact]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in facts:
        if f.kind is FactKind.COMMIT_ACTIVITY:
            out[f.subject_key] = out.get(f.subject_key, 0) + number(f.value.get("commits"))
    return out


def per_person(facts: Sequence[Fact], names: Mapping[str, str]) -> str:
    """Each person's part of a count over several ("David Lord vs Kevin Deldycke")."""
    commits = commits_of(facts)
    return "Each: " + "; ".join(f"{commits.get(k, 0)} by {n}" for k, n in names.items()) + "."
