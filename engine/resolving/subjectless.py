"""A question naming no subject: it is about the organisation (its repositories), or about a
cohort of the kind it asks for ("which services had incidents last week?"), or, in an
organisation holding nothing, a no match that says so. The answer states each choice."""

from __future__ import annotations

from collections.abc import Sequence

from engine.answering.framing import window_of
from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.timecontext import EffectiveTime
from engine.ports import OrgGraph, SubjectOrder, SubjectQuery, TimeSpan
from engine.providers import Provider
from engine.reading.interpretation import Interpretation
from engine.reading.vocabulary import Intent

COHORT_LIMIT = 10  # a cohort answer names its most affected subjects, not all of them
ORGANISATION_LIMIT = 50  # an organisation-wide answer reads at most this many repositories


async def organisation(
    graph: OrgGraph, effective: EffectiveTime
) -> tuple[list[StoredSubject], str | None]:
    """No subject named: the organisation, as its repositories (the most recently active
    first, at most ORGANISATION_LIMIT), and the note the answer states."""
    at = TimeSpan.point(window_of(effective).end_ns)  # a point: the lookback is irrelevant
    query = SubjectQuery(kinds=(SubjectKind.REPOSITORY,), at=at, order=SubjectOrder.RECENT)
    page = await graph.find_subjects(query, ORGANISATION_LIMIT)
    found = list(page.items)
    if not found:
        return found, None
    more = f"; only the {len(found)} most recently active" if page.has_next else ""
    return found, (
        "No subject was named: answered for the whole organisation "
        f"({len(found)} repositor{'y' if len(found) == 1 else 'ies'}{more})."
    )


# "across the project", "the whole project": an organisation recording no subject of kind
# project (a git history records repositories) means the repositories asked about by it; it
# ended "No project subject qualified for this question" (z36a A9, attrs).
PROJECT_NOTE = (
    "\"project\": no subject of kind project is recorded here, so the project asked about is "
    "read as the organisation's repositories"
)


async def _as_repositories(
    graph: OrgGraph, effective: EffectiveTime, notes: list[str]
) -> list[StoredSubject]:
    found, _ = await organisation(graph, effective)
    names = ", ".join(s.name for s in found[:5]) + (", ..." if len(found) > 5 else "")
    notes.extend([f"{PROJECT_NOTE} ({names})."] if found else [])
    return found


async def cohort(
    graph: OrgGraph,
    providers: Sequence[Provider],
    understood: Interpretation,
    effective: EffectiveTime,
    notes: list[str],
) -> list[StoredSubject]:
    """No subject named, a kind asked about ("which services had incidents last week"):
    the subjects of that kind with the most records the asked facts are computed from,
    in the window; without such facts, the most recently active of the kind. The graph
    filters by kind before its limit (busier subjects of other kinds must not crowd the
    asked kind out), and a list cut at COHORT_LIMIT says so (in `notes`)."""
    kind = understood.kind_hint
    assert kind is not None
    window = window_of(effective)
    record_kinds = sorted(
        {
            k
            for p in providers
            if not understood.fact_kinds or p.kinds & set(understood.fact_kinds)
            for k in p.record_kinds
        }
    )
    unranked = kind is SubjectKind.PROJECT and understood.intent is not Intent.RANKED
    if unranked and not (await graph.find_subjects(SubjectQuery(kinds=(kind,)), 1)).items:
        return await _as_repositories(graph, effective, notes)
    # "the very first commit in the repo": one change at any age (engine/questions/
    # firstchange.py), its subjects not the ones active in the default window (werkzeug, last
    # changed in May, ended "No repository subject qualified"): the most recently active.
    point = understood.asks_first or understood.asks_last
    if understood.fact_kinds and record_kinds and not point:
        span = TimeSpan(window.start_ns, window.end_ns)
        # A margin over the limit: a record's subject may be unknown to the graph.
        active = await graph.active_subjects(
            record_kinds, span, COHORT_LIMIT * 4, subject_kinds=(kind,)
        )
        found = await graph.subjects_by_keys([k for k, _ in active])
        ranked = [found[k] for k, _ in active if k in found and found[k].kind == kind]
        if len(ranked) > COHORT_LIMIT:
            notes.append(_cut(kind, "with the most records in the window"))
        return ranked[:COHORT_LIMIT]
    at = TimeSpan.point(window.end_ns)
    query = SubjectQuery(kinds=(kind,), at=at, order=SubjectOrder.RECENT)
    page = await graph.find_subjects(query, COHORT_LIMIT)
    if page.has_next:
        notes.append(_cut(kind, "most recently active"))
    return list(page.items)


async def emptiness(graph: OrgGraph) -> tuple[str, ...]:
    """A question that matched nothing in an organisation holding nothing says so. Asked
    as the most recently active subject: a store reads that page from its activity
    index, where the first by key ranked every subject (a no-match question's p95 at
    100k subjects); the never active come last, so the page is empty only when the
    organisation holds no subject."""
    query = SubjectQuery(brief=True, order=SubjectOrder.RECENT)
    page = await graph.find_subjects(query, 1)
    if page.items:
        return ()
    return ("This organisation holds no data: nothing was imported or ingested for it.",)


def nothing_found(understood: Interpretation) -> str:
    """What a no match says when the question named no subject (it said nothing): no subject
    of the kind asked qualified, or nothing it asks is answered organisation-wide."""
    if understood.kind_hint is not None and understood.intent != Intent.WHO:
        return f"No {understood.kind_hint.value} subject qualified for this question."
    return (
        "The question names no subject, and what it asks is not answered for the whole "
        "organisation: name a repository, module, team or person."
    )


def _cut(kind: SubjectKind, which: str) -> str:
    """The limitation a cohort cut at COHORT_LIMIT states: more of the kind qualified."""
    return (
        f"Only the {COHORT_LIMIT} {kind.value} subjects {which} are answered for; "
        "more qualified: name one to ask about it."
    )
