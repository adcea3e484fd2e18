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
from engine.domain.evidence import by_actor, is_change, whole_days
from engine.domain.models import (
    SourceRecordKind,
    StoredSubject,
    SubjectKind,
)
from engine.domain.timecontext import EffectiveTime, iso
from engine.ports import OrgGraph, TimeSpan
from engine.providers import Window, holding
from engine.providers.contributions import exactly, tally
from engine.reading.bots import bots_elsewhere
from engine.reading.interpretation import Interpretation
from engine.reading.ranking import Ranking
from engine.resolving import outcomes, rankplaces, together
from engine.resolving.disclosures import Disclosures
from engine.resolving.rankable import FOLDERS_NOTE, asked, holds_python, inside, is_file
from engine.resolving.unmatchedwords import unread_note

Found = list[StoredSubject] | Callable[..., InvestigationResult]

# "source files" with no directory named: which files are source (not tests, docs, config)
# is not recorded, and ranking every file would answer another question.
SOURCE_NOTE = (
    '"source": which files are source code is not recorded here: name the directory that holds '
    'them ("which modules under src/click changed the most?").'
)
# "the modules of requests": what a ranking of modules inside a repository or package holds.
PYTHON_NOTE = (
    "The modules of {} are the Python modules and subpackages of its packages, not its other "
    'files, nor a repository\'s tests, examples or docs: ask for its "files" to rank every '
    "file."
)
# "Which Python module changed most?": what a Python module or file ranked is.
LANGUAGE_NOTE = (
    "Python modules and files are ranked as the repository's .py files: packages, "
    "directories and other files are not."
)
_PARTS_NOTE = (
    "Ranking by the commits of everyone but some people, or of several people together, is "
    'not computed: ask for one person\'s files ("which files has X changed most?") or '
    "everyone's."
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
    told: Disclosures,
    resolve: Callable[[Interpretation], Awaitable[Found]],
) -> Found:
    """The subjects a ranking question asks for, most commits (or lines: "by churn") first,
    the answer's limitations added to `told`; or the composer of the no match saying why
    there are none. What the question names holds what is ranked: it is resolved as any
    reference is (`resolve`: engine.resolving.subjects), the kind word naming what is ranked,
    not the reference; a person named ranks by their part (engine.resolving.together.Part,
    set on `told`: the facts are theirs too)."""
    assert understood.ranking is not None
    notes = told.notes
    if understood.bots is not None:  # "which files changed most excluding bots"
        elsewhere = bots_elsewhere(understood.bots)
        return lambda frame, trace: outcomes.no_match(frame, trace, (elsewhere,))
    within: list[StoredSubject] = []
    if understood.references:
        found = await resolve(replace(understood, ranking=None, kind_hint=None))
        if not isinstance(found, list):
            return found
        within = told.ranked_in = found
        if told.part is not None and not any(s.kind is SubjectKind.PERSON for s in within):
            # the person was read as a part of what they rank in ("which files has denuoweb
            # changed most in click?"): ranked by everyone's commits, each file then showed
            # his count, 0 for most; the ranking is his
            if told.part.others or told.part.also:
                return lambda frame, trace: outcomes.no_match(frame, trace, (_PARTS_NOTE,))
            within = [*within, told.part.person]
    else:
        notes.extend(unread_note(understood))
    if understood.ranking.source and not any(s.kind is SubjectKind.MODULE for s in within):
        return lambda frame, trace: outcomes.no_match(frame, trace, (SOURCE_NOTE,))
    window = window_of(effective, lookback_of(understood.intent))
    by = understood.ranked_by
    ranked = await rank(graph, understood.ranking, window, within, by)
    if isinstance(ranked, str):
        return lambda frame, trace: outcomes.no_match(frame, trace, (ranked,))
    people = [s for s in within if s.kind is SubjectKind.PERSON]
    if people:
        told.part = together.Part(people[0])
        notes.append(told.part.note(ranked[0]))
    notes.extend(ranked[1])
    return ranked[0]


async def rank(
    graph: OrgGraph,
    ranking: Ranking,
    window: Window,
    within: Sequence[StoredSubject],
    by: str = "commits",
) -> tuple[list[StoredSubject], list[str]] | str:
    """The subjects ranked, most commits (by="lines": lines changed) first, then by key,
    with the limitations the answer states; or why there is nothing to rank (a no match says
    it). One person among `within` ranks by that person's commits or lines."""
    holders = [s for s in within if s.kind in (SubjectKind.REPOSITORY, SubjectKind.MODULE)]
    people = [s for s in within if s.kind is SubjectKind.PERSON]
    if (
        len(holders) + len(people) != len(within)
        or len(people) > 1
        or (within and ranking.kind is not SubjectKind.MODULE)
    ):
        return _not_inside(ranking, within)
    span = TimeSpan(window.start_ns, window.end_ns - 1)  # the window is half-open
    rows = await graph.active_subjects(
        [SourceRecordKind.COMMIT], span, READ, subject_kinds=(ranking.kind,)
    )
    found = await graph.subjects_by_keys([k for k, _ in rows])
    qualified = [
        found[k]
        for k, _ in rows
        if k in found and found[k].kind is ranking.kind and asked(found[k], ranking, holders)
    ]
    if ranking.place:  # "which subpackage", "the parts of the repo"
        qualified = rankplaces.placed(ranking.place, qualified, list(found.values()))
        none = None if qualified else await rankplaces.none_here(graph, ranking.place, holders)
        if none is not None:
            return none
    person = people[0] if people else None
    if by == "lines" or person is not None:
        qualified = await measured(graph, qualified, window, by, person)
    where = f" in {', '.join(s.name for s in holders)}" if holders else ""
    where += f" by {person.name}" if person is not None else ""
    when = f"from {iso(window.start)} to {iso(window.end)}"
    if not qualified:
        return (
            f"No {_noun(ranking, 1)}{where} has "
            f"a commit recorded {when}: there are no commits to rank. Only commits are "
            "counted, one per commit and subject; daily metric rollups are not commits."
        )
    size = min(ranking.size or (MOST if ranking.whole else SHOWN), MOST)
    notes = [*ranking.said, *_notes(ranking, qualified, size, len(rows) >= READ, where, when)]
    python = [h.name for h in holders if ranking.python and holds_python(h)]
    notes += [PYTHON_NOTE.format(" and ".join(python))] if python else []
    notes += [LANGUAGE_NOTE] if ranking.language else []
    notes += [FOLDERS_NOTE] if ranking.folders else []
    notes += [rankplaces.NOTES[ranking.place]] if ranking.place else []
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
    if ranking.place:
        noun = rankplaces.NOUNS[ranking.place]
        return noun if n == 1 else f"{noun}s"
    if ranking.files or ranking.folders:
        noun = "file" if ranking.files else "folder"
        return noun if n == 1 else f"{noun}s"
    return ranking.kind.value if n == 1 else PLURALS[ranking.kind]


async def measured(
    graph: OrgGraph,
    qualified: Sequence[StoredSubject],
    window: Window,
    by: str,
    person: StoredSubject | None,
) -> list[StoredSubject]:
    """The subjects re-ranked by what their records in the window hold, most first (then by
    key), those with none left out: with `person`, only the records whose author is that
    person (their commits, as `git log --author -- PATH` lists them); by="lines", the lines
    changed (added and removed, the churn fact's: whole days from the daily rollups, a day
    the window cuts from its commit records)."""
    kinds = (SourceRecordKind.METRIC_ROLLUP, SourceRecordKind.COMMIT)
    found = await graph.source_records_of(
        [s.key for s in qualified], kinds=kinds, span=whole_days(window.start, window.end)
    )
    amounts: dict[str, int] = {}
    for subject in qualified:
        records = [
            r
            for r in found.get(subject.key, [])
            if by_actor(r, person.key if person else None, others=False)
        ]
        if by == "lines":
            exact = exactly(records, window, split=True)
            amounts[subject.key] = tally(records, window, exact).total_lines
        else:
            amounts[subject.key] = sum(
                r.record_kind is SourceRecordKind.COMMIT and is_change(r, window.start, window.end)
                for r in records
            )
    ranked = sorted(qualified, key=lambda s: (-amounts[s.key], s.key))
    return [s for s in ranked if amounts[s.key] > 0]


def _not_inside(ranking: Ranking, within: Sequence[StoredSubject]) -> str:
    """What a ranking inside something other than a repository or a module says."""
    names = ", ".join(s.name for s in within)
    if sum(s.kind is SubjectKind.PERSON for s in within) > 1:
        return (
            f"Ranking {_noun(ranking, 2)} by several people's commits together is not "
            "computed: ask about each person in turn."
        )
    return (
        f"Ranking {_noun(ranking, 2)} inside {names} is not computed: only modules and "
        'files are ranked inside a repository or a module ("which files in click changed '
        'the most?"), and any kind across the organisation.'
    )


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
    # Files are those of the head: "4 files by Edward Girling had commits" in click's 2026,
    # where git lists 6 (CHANGES.rst and docs/index.rst deleted since), was a false count.
    now = ", counting only the files the repository has now" if ranking.files else ""
    notes = [
        f"{many} {_noun(ranking, 1 if many == '1' else 2)}{where} had commits {when}{now}; "
        + (
            ("it is ranked." if many == "1" else "all of them are ranked.")
            if len(qualified) <= size and not read_all
            else f"the {size} with the most are ranked (equal counts in key order, at the "
            + (
                f"cut too): at most {MOST} are ranked in one answer, so the whole ranking is "
                "cut: name a directory or a shorter window to see the rest."
                if size >= MOST
                else f'cut too): ask for the "top {min(size * 2, MOST)}" to see more.'
            )
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
