"""A "who" question ("who changed X?", "the top contributors to X", "who made more commits,
A or B?"): people ranked by commits (then changed lines; by lines when the question asks for
lines), and said so, with the numbers the contributor facts hold. A who question naming only
people ranks those people. An organisation-wide answer says it is one.

"Who committed to click this year?" asks for the people: everyone is listed, up to
PEOPLE_LISTED (above it the first of them and how many in all). It listed the top five and
"39 people in all", another question's answer. A question asking who led ("the top
contributors", "most active", "the main authors": Interpretation.leaders, kept by `read`)
keeps the short list of PEOPLE_SHOWN.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.domain.bots import is_bot
from engine.domain.contract import PEOPLE_LISTED, PEOPLE_SHOWN
from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import Asked, Case, Found, Question, Reader, number, when
from engine.questions.botsown import bots_own
from engine.questions.count import commits_of, contributors, most_of
from engine.reading.vocabulary import Intent

SHOWN = PEOPLE_SHOWN
SHARES = "shares"  # kept by `read`: each person's share is asked (engine.reading.shares)


class Who(Question):
    """People asked for, about changes: ranked by commits or lines."""

    name = "who"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        """Keeps how many people the answer lists: the few who led when the question asks
        for them, else everyone up to PEOPLE_LISTED (read from its words, never again)."""
        if asked.intent != Intent.WHO:
            return None
        if asked.understood.shares:
            return Found(kept=SHARES)
        return Found(kept=asked.understood.people_listed())

    def judgment(self, case: Case) -> str | None:
        if case.intent != Intent.WHO:
            return None
        if case.people_only:
            return _people_named(case.facts, case.names, case.scope, case.window)
        if case.inputs.bots_only is not None:  # "which bots committed to X?"
            return bots_own(case.facts, case.names, case.scope, case.window, people=True)
        listed = case.inputs.kept.get(self.name)  # Interpretation.people_listed
        shown = listed if isinstance(listed, int) else SHOWN
        if case.inputs.bots is not None:
            by = case.inputs.ranked_by
            return _without_bots(case.facts, case.scope, case.window, by, shown)
        if listed == SHARES:
            return shares(case.facts, case.scope, case.window)
        return who_changed(case.facts, case.scope, case.window, case.inputs.ranked_by, shown)


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
    counted = [(n, commits.get(k, 0)) for k, n in ranked]
    return f"{most_of(counted, 'commits')}{scope} {when(window)}, ranked by commits: {shown}."


def people(facts: Sequence[Fact], by: str = "commits") -> list[tuple[str, int, int]]:
    """(name, commits, lines) per person over the contributor facts, by commits then lines
    (by="lines": lines, then commits).

    People are added up by key, not by name: one person active in several repositories is
    one row, and two identities that merely share a display name stay two rows, as the
    facts themselves list them. Each fact lists, besides its own top five, the people who
    lead across all the facts' subjects (engine/providers/contributors.py), so the first
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


def who_changed(
    facts: Sequence[Fact], scope: str, window: Window, by: str, listed: int = SHOWN
) -> str:
    """People ranked by commits (or lines) over the contributor facts, the first `listed`
    of them (by lines, the few who led: the facts carry the first PEOPLE_SHOWN by lines
    only), with how many in all; where that is more than are listed, said."""
    ranked = people(facts, by)
    if not ranked:
        return f"No one changed {scope} {when(window)}."
    least, most = contributors(facts)
    who = "person" if least == 1 else "people"
    count = f" ({least} {who} in all)" if least == most else ""
    if listed > SHOWN and least == most and least > listed:
        count = f" (the first {listed} of {least} people in all; the others are not listed)"
    if by == "lines":
        shown = ", ".join(f"{p} ({n} line(s), {c} commit(s))" for p, c, n in ranked[:listed])
        return f"Most active on {scope} {when(window)}, ranked by lines changed: {shown}{count}."
    shown = ", ".join(f"{p} ({c} commit(s), {n} line(s))" for p, c, n in ranked[:listed])
    return f"Most active on {scope} {when(window)}, ranked by commits: {shown}{count}."


def _without_bots(
    facts: Sequence[Fact], scope: str, window: Window, by: str, listed: int = SHOWN
) -> str:
    """People ranked as who_changed ranks them, bots left out (engine.domain.bots): the
    contributor facts list the top five who are no bots too, and the leaders across the
    subjects who are none (engine/providers/contributors.py), so the first five here are
    exact: `listed` is those five (Interpretation.people_listed reads
    engine.reading.meaning.few_only). The bots ranked above the fifth are named, with their
    commits."""
    everyone = people(facts, by)
    ranked = [row for row in everyone if not is_bot(row[0])]
    if not ranked:
        return f"No one but bots changed {scope} {when(window)}."
    last = everyone.index(ranked[:listed][-1])
    bots = [f"{p} {c} commit(s)" for p, c, _ in everyone[:last] if is_bot(p)]
    left = f" ({'; '.join(bots)})" if bots else " (none ranked among them)"
    if by == "lines":
        shown = ", ".join(f"{p} ({n} line(s), {c} commit(s))" for p, c, n in ranked[:listed])
    else:
        shown = ", ".join(f"{p} ({c} commit(s), {n} line(s))" for p, c, n in ranked[:listed])
    basis = "lines changed" if by == "lines" else "commits"
    return (
        f"Most active on {scope} {when(window)}, ranked by {basis}, bots left out{left}: {shown}."
    )


def shares(facts: Sequence[Fact], scope: str, window: Window) -> str:
    """Each person's share of one subject's commits and lines changed in the window
    ("ownership breakdown of src/click/core.py this year"), everyone listed by commits: the
    shares add up to the fact's totals, as git log counts them. Over several subjects (a
    commit may touch several) or more people than are listed, the people as who_changed
    lists them, and why no shares are given, said."""
    found = [f for f in facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS]
    ranked = people(found)
    total = number(found[0].value.get("commits")) if len(found) == 1 else 0
    lines = number(found[0].value.get("lines_changed")) if len(found) == 1 else 0
    if not ranked or not total or len(ranked) > PEOPLE_LISTED:
        said = who_changed(facts, scope, window, "commits", PEOPLE_LISTED)
        why = "one subject" if len(found) != 1 else f"at most {PEOPLE_LISTED} people"
        return f"{said} Shares are given for {why} at a time; ask about each."
    each = "; ".join(
        f"{p} {c} commit(s) ({_percent(c, total)}), {n} line(s) ({_percent(n, lines)})"
        for p, c, n in ranked
    )
    who = "person" if len(ranked) == 1 else "people"
    return (
        f"Shares of {scope} {when(window)}, of {total} commit(s) and {lines} line(s) changed "
        f"by {len(ranked)} {who}, most commits first: {each}."
    )


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "no lines"
