"""Subjects ranked by how much they changed: by the number of commits in the window.

A git import writes one `commit` source record per commit and subject it touched
(graph/git/records.py), so the commit records of a module in a window are its commits there,
each once, as `git log --no-merges --full-history -- <path>` lists them (merges are not
imported; a plain `git log -- <path>` may show fewer: it hides the commits of a merged branch
whose changes the merge left out). Daily metric rollups are never counted: they are not
commits, and an organisation holding only rollups (the demo's) is told it has no commits to
rank. The graph counts the records (OrgGraph.active_subjects: most first, then by key), over
the window as the facts read it: half-open, nothing at or after its end.

What is ranked: the kind asked for; "files" are the modules that are files (every file of
the imported head a commit touched, a Python module or any other: graph/git/modules.py), and
a question naming a repository or a module ranks what is inside it. The answer says how
many qualified and whether the list was cut, and what a module's count includes (its
earlier paths, its own Python modules).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from engine.answering.framing import lookback_of, window_of
from engine.domain.contract import InvestigationResult
from engine.domain.models import (
    SourceRecordKind,
    StoredSubject,
    SubjectKind,
)
from engine.domain.timecontext import EffectiveTime, iso
from engine.ports import OrgGraph, TimeSpan
from engine.providers import Window, holding
from engine.reading.interpretation import Interpretation
from engine.reading.ranking import Ranking
from engine.resolving import outcomes
from engine.resolving.unmatchedwords import unread_note
from engine.resolving.within import holds

Found = list[StoredSubject] | Callable[..., InvestigationResult]

# A ranking asked by lines ("churned the most", "the heaviest churn", "top 10 files by
# churn"): not computed. It was ranked by commits with this said, another question answered.
LINES_NOTE = (
    "A ranking by lines changed (churn) is not computed: subjects are ranked by their commits "
    'only, which would answer another question. Ask "which files changed the most?" for the '
    "ranking by commits, or about one subject for its lines."
)
SHOWN = 10  # ranked when the question names no size ("top 5")
MOST = 50  # the largest size a question may ask for
READ = 1_000  # counts read: the busiest subjects of the kind, before files and scope
PLURALS = {
    SubjectKind.MODULE: "modules",
    SubjectKind.REPOSITORY: "repositories",
    SubjectKind.SERVICE: "services",
    SubjectKind.PROJECT: "projects",
}


async def subjects(
    graph: OrgGraph,
    understood: Interpretation,
    effective: EffectiveTime,
    notes: list[str],
    resolve: Callable[[Interpretation], Awaitable[Found]],
) -> Found:
    """The subjects a ranking question asks for, most commits first, the answer's
    limitations added to `notes`; or the composer of the no match saying why there are
    none. What the question names holds what is ranked: it is resolved as any reference is
    (`resolve`: engine.resolving.subjects), the kind word naming what is ranked, not the
    reference."""
    assert understood.ranking is not None
    if understood.ranked_by == "lines":  # "which modules churned the most?"
        return lambda frame, trace: outcomes.no_match(frame, trace, (LINES_NOTE,))
    within: list[StoredSubject] = []
    if understood.references:
        found = await resolve(replace(understood, ranking=None, kind_hint=None))
        if not isinstance(found, list):
            return found
        within = found
    else:
        notes.extend(unread_note(understood))
    window = window_of(effective, lookback_of(understood.intent))
    ranked = await rank(graph, understood.ranking, window, within)
    if isinstance(ranked, str):
        return lambda frame, trace: outcomes.no_match(frame, trace, (ranked,))
    notes.extend(ranked[1])
    return ranked[0]


async def rank(
    graph: OrgGraph, ranking: Ranking, window: Window, within: Sequence[StoredSubject]
) -> tuple[list[StoredSubject], list[str]] | str:
    """The subjects ranked, most commits first (then by key), with the limitations the
    answer states; or why there is nothing to rank (a no match says it)."""
    holders = [s for s in within if s.kind in (SubjectKind.REPOSITORY, SubjectKind.MODULE)]
    if len(holders) != len(within) or (within and ranking.kind is not SubjectKind.MODULE):
        return _not_inside(ranking, within)
    span = TimeSpan(window.start_ns, window.end_ns - 1)  # the window is half-open
    rows = await graph.active_subjects(
        [SourceRecordKind.COMMIT], span, READ, subject_kinds=(ranking.kind,)
    )
    found = await graph.subjects_by_keys([k for k, _ in rows])
    qualified = [
        found[k]
        for k, _ in rows
        if k in found and found[k].kind is ranking.kind and _asked(found[k], ranking, holders)
    ]
    where = f" in {', '.join(s.name for s in holders)}" if holders else ""
    when = f"from {iso(window.start)} to {iso(window.end)}"
    if not qualified:
        return (
            f"No {_noun(ranking, 1)}{where} has "
            f"a commit recorded {when}: there are no commits to rank. Only commits are "
            "counted, one per commit and subject; daily metric rollups are not commits."
        )
    size = min(ranking.size or SHOWN, MOST)
    notes = _notes(ranking, qualified, size, len(rows) >= READ, where, when)
    return qualified[:size], notes + await _nested(graph, qualified[:size], list(found.values()))


async def _nested(
    graph: OrgGraph, ranked: Sequence[StoredSubject], found: Sequence[StoredSubject]
) -> list[str]:
    """A package inside a ranked directory module (click's tests/test_utils in tests) counts
    for it when the import says it is PART_OF it, through any number of modules between
    (graph/git/modules.py). One imported before
    that, and not read again since, counts only for itself, where `git log -- tests` counts
    it: the answer says which (at most two)."""
    pairs = [
        (outer, inner)
        for outer in ranked
        if not is_file(outer)
        for inner in found
        if not is_file(inner) and inner.key != outer.key and inside(outer, inner)
    ]
    if pairs:
        # At any depth: examples/cx/cx is PART_OF examples/cx, which is PART_OF examples.
        above = await holding.containers(graph, list({inner.key for _, inner in pairs}))
        pairs = [(outer, inner) for outer, inner in pairs if outer.key not in above[inner.key]]
    return [
        f"{inner.attributes.get('path')} is a module of its own: its commits are not "
        f"counted for {outer.name}."
        for outer, inner in pairs[:2]
    ]


def _noun(ranking: Ranking, n: int) -> str:
    if ranking.files:
        return "file" if n == 1 else "files"
    return ranking.kind.value if n == 1 else PLURALS[ranking.kind]


def _not_inside(ranking: Ranking, within: Sequence[StoredSubject]) -> str:
    """What a ranking inside something other than a repository or a module says."""
    names = ", ".join(s.name for s in within)
    if any(s.kind is SubjectKind.PERSON for s in within):
        return (
            f"Ranking {_noun(ranking, 2)} by one person's commits is not computed: ask "
            f'"what did {names} change?" for their changes, or "who changed X the most?" '
            "about a repository or module."
        )
    return (
        f"Ranking {_noun(ranking, 2)} inside {names} is not computed: only modules and "
        'files are ranked inside a repository or a module ("which files in click changed '
        'the most?"), and any kind across the organisation.'
    )


def _asked(subject: StoredSubject, ranking: Ranking, holders: Sequence[StoredSubject]) -> bool:
    """A file when files are asked for; inside one of the holders, when any is named."""
    if ranking.files and not is_file(subject):
        return False
    return not holders or any(inside(h, subject) for h in holders)


def is_file(module: StoredSubject) -> bool:
    """A module that is one file: the git import's kind "file" (a Python module or any other
    file of the head); one imported without a kind, a path that is a .py file."""
    kind = module.attributes.get("module_kind")
    if kind is not None:
        return kind == "file"
    return str(module.attributes.get("path", "")).endswith(".py")


def inside(holder: StoredSubject, module: StoredSubject) -> bool:
    """The module belongs to the repository, or lies under the module's path in its
    repository (the Python modules of a package)."""
    if holder.kind is SubjectKind.REPOSITORY:
        return holds(holder, module)
    path, under = holder.attributes.get("path"), module.attributes.get("path")
    same = holder.attributes.get("repository") == module.attributes.get("repository")
    return same and isinstance(path, str) and str(under).startswith(f"{path}/")


def _notes(
    ranking: Ranking,
    qualified: list[StoredSubject],
    size: int,
    read_all: bool,
    where: str,
    when: str,
) -> list[str]:
    """How many qualified and how many are ranked; what a count includes."""
    many = f"at least {len(qualified)}" if read_all else str(len(qualified))
    notes = [
        f"{many} {_noun(ranking, 1 if many == '1' else 2)}{where} had commits {when}; "
        + (
            ("it is ranked." if many == "1" else "all of them are ranked.")
            if len(qualified) <= size and not read_all
            else f"the {size} with the most are ranked (equal counts in key order, at the "
            f'cut too): ask for the "top {min(size * 2, MOST)}" to see more.'
        )
    ]
    if (ranking.size or 0) > MOST:
        notes.append(f"At most {MOST} are ranked in one answer.")
    if ranking.files:
        notes.append(
            "Every file of the repository as it is now is ranked, a renamed one with the "
            "commits made under its earlier names: a file's count is what `git log --follow "
            "--no-merges --full-history -- <path>` counts; a file deleted since is not ranked."
        )
    if ranking.kind is SubjectKind.MODULE:
        notes.append(
            "A module's count includes the commits made under its earlier paths (renames "
            "are followed), a package's the commits to its own Python modules, and a "
            "directory's the commits to the packages inside it: it is "
            "what `git log --no-merges --full-history -- <path>` counts (a plain `git log "
            "-- <path>` can show fewer: it leaves out the commits of a merged branch whose "
            "changes the merge did not keep)."
        )
    return notes
