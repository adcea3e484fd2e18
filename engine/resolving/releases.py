"""A release named by version placed in time at its release commit (issue 32): "who
contributed to click since the 8.4.1 release?", "what changed between v2.34.0 and v2.34.2?"
ended on "releases (tags) are not recorded here". The import records no tags, but each
history holds its release commits: the one commit of the repository asked whose subject is a
release marker of exactly that version (engine/reading/time/releases.py `MARKERS`).

"since V" covers what came after V's release commit, up to now; "between V1 and V2" and
"from V1 to V2" cover (V1's commit, V2's commit]: after V1's release commit, up to and
including V2's (by author time, to the second git records). The release commit is the
release's own, so neither counts it as after it (a checker's truth for click "since the 8.4.1
release": 69 commits after 'release version 8.4.1', where the first version counted 70).
The answer says which commit placed each release.
A version no commit marks, or that two commits mark, is not placed: the question ends on the
phrase as before (engine.resolving.questiontime.unread), never on another window. So does a
question whose repository is not one: none named among several, or several named.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from datetime import datetime, timedelta

from engine.domain.commits import commit_of
from engine.domain.models import SourceRecord, SourceRecordKind, StoredSubject, SubjectKind
from engine.domain.timecontext import to_utc
from engine.ports import OrgGraph, SubjectQuery
from engine.reading.interpretation import Interpretation
from engine.reading.time.reasons import Unread
from engine.reading.time.releases import Asked, Span, asked, marked

_REPOSITORIES = 50  # more than any organisation asked here holds; more is no one repository
_SECOND = timedelta(seconds=1)  # git records author times to the second


async def placed(graph: OrgGraph, understood: Interpretation) -> Interpretation:
    """`understood` with its one release phrase read as the window its release commits place,
    said in `time_note`; unchanged when the phrase names no release placed."""
    if understood.start is not None or understood.as_of is not None:
        return understood
    if len(understood.time_reasons) != 1 or understood.time_reasons[0][1] is not Unread.RELEASE:
        return understood
    releases = asked(understood.time_reasons[0][0])
    repository = await _repository(graph, understood) if releases else None
    if releases is None or repository is None:
        return understood
    found = await graph.source_records_of([repository.key], kinds=[SourceRecordKind.COMMIT])
    commits = _release_commits(found.get(repository.key, []))
    chosen = [commits.get(v, []) for v in releases.versions]
    if any(len(c) != 1 for c in chosen):  # unmarked, or marked twice: not placed
        return understood
    return _window(understood, releases, [c[0] for c in chosen])


async def _repository(graph: OrgGraph, understood: Interpretation) -> StoredSubject | None:
    """The repository asked: the one the question names, else the organisation's only one."""
    query = SubjectQuery(kinds=(SubjectKind.REPOSITORY,), brief=True)
    repositories = (await graph.find_subjects(query, _REPOSITORIES)).items
    named = {r.casefold() for r in understood.references}
    chosen = [r for r in repositories if r.name.casefold() in named] or repositories
    return chosen[0] if len(chosen) == 1 else None


def _release_commits(records: list[SourceRecord]) -> dict[str, list[SourceRecord]]:
    """The release commits of a repository's commit records, by the version each marks."""
    found: dict[str, list[SourceRecord]] = defaultdict(list)
    for record in records:
        if (mark := marked(record.title)) is not None:
            found[mark[0]].append(record)
    return found


def _window(
    understood: Interpretation, releases: Asked, commits: list[SourceRecord]
) -> Interpretation:
    """The question read over the window its release commits place."""
    times = [to_utc(c.start) for c in commits]
    start: datetime
    end: datetime | None
    if releases.span is Span.SINCE:
        start, end, said = times[0] + _SECOND, None, "after its release commit, up to now"
    else:
        if times[1] <= times[0]:  # the later release was committed first: no window
            return understood
        start, end = times[0] + _SECOND, times[1] + _SECOND
        said = (f"after {releases.versions[0]}'s release commit, up to and including "
                f"{releases.versions[1]}'s")  # fmt: skip
    where = "; ".join(
        f"{v} is placed at the commit '{c.title}' ({(commit_of(c).sha or '')[:7]}, "
        f"{to_utc(c.start).date().isoformat()})"
        for v, c in zip(releases.versions, commits, strict=True)
    )
    note = (f'"{releases.phrase}" is read {said}: {where}. The import records no tags; a '
            "release is found by its release commit's subject")  # fmt: skip
    phrase = releases.phrase
    return replace(
        understood,
        start=start,
        end=end,
        time_expression=phrase,
        time_note=note,
        time_not_understood=tuple(t for t in understood.time_not_understood if t != phrase),
        time_reasons=(),
    )
