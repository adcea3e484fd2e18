"""How active candidates were: each one's commits in a window, read in one round trip, so a
choice offered says which candidate did what (a namesake's 9 commits beside the exact name's
0; the package's commits beside the test directory's) instead of listing names alike.

A git import writes one `commit` record per commit for the repository, each module it
touched and its author (graph/git/records.py): a subject's commit records in a window are its
commits there, as `git log --no-merges [--author] -- PATH` lists them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime

from engine.domain.evidence import EvidenceRequest, EvidenceRule
from engine.domain.models import SourceRecordKind, StoredSubject, SubjectKind, to_ns
from engine.domain.timecontext import iso
from engine.ports import OrgGraph
from engine.providers import Window


async def commits_in(
    graph: OrgGraph, subjects: Sequence[StoredSubject], window: Window
) -> dict[str, int]:
    """Each subject's commits in the half-open window, by key."""
    start, end = to_ns(window.start), to_ns(window.end)
    assert start is not None and end is not None
    requests = [
        EvidenceRequest(s.key, (SourceRecordKind.COMMIT,), EvidenceRule.CHANGES, start, end)
        for s in subjects
    ]
    counts = await graph.evidence_counts(requests)
    return {s.key: n for s, n in zip(subjects, counts, strict=True)}


async def existed(
    graph: OrgGraph, subjects: Sequence[StoredSubject], window: Window
) -> list[StoredSubject]:
    """Those of `subjects` with a commit before the window ends: a module of a git import
    exists from its first commit, so one with none before a past window did not exist in it
    ("attrs converters in 2019": src/attrs/converters.py was made in 2021)."""
    ever = Window(datetime(1970, 1, 1, tzinfo=UTC), window.end, window.historical)
    counts = await commits_in(graph, subjects, ever)
    return [s for s in subjects if counts[s.key] > 0]


async def commits_over(
    graph: OrgGraph, subjects: Sequence[StoredSubject], windows: Sequence[Window]
) -> dict[str, tuple[int, ...]]:
    """Each subject's commits in each of the windows (a comparison's two periods), by key."""
    each = [await commits_in(graph, subjects, w) for w in windows]
    return {s.key: tuple(counts[s.key] for counts in each) for s in subjects}


def counted_over(counts: Sequence[int], windows: Sequence[Window]) -> str:
    """Each window's count said ("5 commits from A to B"), joined by "and"."""
    return " and ".join(f"{counted(n)} {span(w)}" for n, w in zip(counts, windows, strict=True))


def counted(n: int) -> str:
    return f"{n:,} commit{'' if n == 1 else 's'}"


def span(window: Window) -> str:
    return f"from {iso(window.start)} to {iso(window.end)}"


def described(subject: StoredSubject) -> str:
    """The subject's kind and where it is: "person person:a@b.example", "package
    src/werkzeug/sansio in werkzeug" (the git import's module kind: package, directory or
    file; "module" where it says none)."""
    if subject.kind is SubjectKind.MODULE:
        path = subject.attributes.get("path") or subject.key.partition(":")[2]
        where = subject.attributes.get("repository")
        kind = subject.attributes.get("module_kind") or "module"
        return f"{kind} {path}{f' in {where}' if where else ''}"
    if subject.kind is SubjectKind.PERSON:
        return f"person {subject.key}"
    return subject.kind.value.replace("_", " ")


async def labels(
    graph: OrgGraph, subjects: Sequence[StoredSubject], window: Window
) -> dict[str, str]:
    """A one-line label per subject telling it apart from the others offered beside it:
    name, kind, where it is, its commits in the window and in all: "werkzeug.sansio: package
    src/werkzeug/sansio in werkzeug, 20 commits from ... to ..., 90 in all before 2026-09-01"
    beside "sansio: package tests/sansio in werkzeug, 7 commits ..., 21 in all before ...".
    Two offered alike ("X could mean X, X") are told apart by their keys. A window compared
    with an earlier one (`window.before`: "Kai in 2020 vs 2021") says each one's commits, the
    earlier first: a person offered for the earlier period alone shows why."""
    if not subjects:
        return {}
    ever = Window(datetime(1970, 1, 1, tzinfo=UTC), window.end, window.historical)
    windows = (window,) if window.before is None else (window.before, window)
    recent, total = (
        await commits_over(graph, subjects, windows),
        await commits_in(graph, subjects, ever),
    )
    before = iso(window.end)[:10]
    out = {
        s.key: f"{s.name}: {described(s)}, {counted_over(recent[s.key], windows)}, "
        f"{total[s.key]:,} in all before {before}"
        for s in subjects
    }
    seen = Counter(out.values())
    return {k: f"{v} ({k})" if seen[v] > 1 else v for k, v in out.items()}


async def beside(
    graph: OrgGraph, subjects: Sequence[StoredSubject], window: Window | None
) -> str:
    """What a clarification says of the people already found beside the name it asks about
    (a comparison's other side), with their commits in the window: "dependabot vs X" asked
    which X, dependabot's 12 commits nowhere (z39b w9); "" when there are none."""
    people = [s for s in subjects if s.kind is SubjectKind.PERSON]
    if not people or window is None:
        return ""
    counts = await commits_in(graph, people, window)
    each = "; ".join(f"{p.name} ({p.key}) {counted(counts[p.key])}" for p in people)
    return f"Beside it the question names {each} {span(window)}."
