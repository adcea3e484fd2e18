"""A reference typed by a kind word that names no subject of that kind.

"The click repository", "the click repo", "the click project", "the click package": the kind
word is part of what the question says, so it constrains the reference. On a history
imported from a directory named `clk`, "click" names only the src/click package (a module):
answering the package for "the click repository" counts 44 commits where git counts 119 for
the repository. So when the name matches no subject of the kind asked, the answer never
takes a subject of another kind in its place: it asks, listing what the name does mean with
each one's kind, and for a module the repository holding it (the repository a question
about "the click project" most likely means). A kind word elsewhere in the question ("which
services ...", "who ...") names the answer, not the reference: a reference resolved past it
to another kind is said (`switched`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph, SubjectOrder, SubjectQuery
from engine.reading.interpretation import Interpretation
from engine.reading.vocabulary import Intent
from engine.resolving import firsttypos
from engine.resolving.candidates import aside_of
from engine.resolving.resolution import (
    Ambiguous,
    Candidate,
    Match,
    NotFound,
    Resolution,
    Resolved,
    Resolver,
    Stage,
)
from engine.resolving.within import Within

OFFERED = 5  # what a clarification offers
# Intents whose kind word names the answer, not a reference ("which services ...").
ANSWER_KINDS = frozenset({Intent.WHO_OWNS, Intent.WHO, Intent.WHICH})


async def _named(
    resolver: Resolver,
    actor: str,
    reference: str,
    kind: SubjectKind | None,
    understood: Interpretation,
) -> Resolution:
    """A reference resolved, and remembered when it commits. The actor's recent references
    settle a tie only for a reference a follow-up carried from the previous question ("and in
    2024?": the subject asked about before); a name the question writes itself is settled by
    its words alone, a tie asked about, as a fresh actor is: after "src/attrs/converters.py",
    "how many commits to converters.py in 2025?" was answered for it "chosen from your recent
    references" where src/attr/converters.py has the name too (generalise, session mode)."""
    if reference in understood.carried:
        return await resolver.resolve(actor, reference, kind, 5)
    outcome = await resolver.resolve(actor, reference, kind, 5, use_recent=False)
    if isinstance(outcome, Resolved):
        resolver.admit(actor, outcome.subject)
    return outcome


async def resolve(
    graph: OrgGraph,
    resolver: Resolver,
    actor: str,
    reference: str,
    understood: Interpretation,
    kind: SubjectKind | None,
    notes: list[str],
) -> Resolution | Within:
    """The kind word next to a reference (`kind`: "the httpx module") constrains it: when
    nothing of that kind matches, what the name does mean is asked (`other_kind`,
    `exactly_another`), never answered in its place. Else a kind word elsewhere in the
    question narrows it first, unless it names the answer ("which engineers changed X",
    "which team owns X"); if nothing of that kind matches, the reference is tried alone,
    and a subject of another kind is said in `notes`."""
    if kind is not None:
        outcome = await _named(resolver, actor, reference, kind, understood)
        if kind is SubjectKind.MODULE and isinstance(outcome, Ambiguous):
            chosen = package_first(reference, outcome, notes)
            outcome = outcome if chosen is None else chosen
        if isinstance(outcome, Ambiguous):
            other = await exactly_another(graph, reference, kind, outcome)
        elif isinstance(outcome, NotFound):
            other = await other_kind(graph, resolver, actor, reference, kind)
        else:
            return outcome
        return outcome if other is None else other
    hint = None if counts_people(understood) else understood.kind_hint
    if hint is not None and understood.intent not in (Intent.WHO_OWNS, Intent.WHO):
        outcome = await _named(resolver, actor, reference, hint, understood)
        if not isinstance(outcome, NotFound):
            return outcome
    outcome = await _named(resolver, actor, reference, None, understood)
    if isinstance(outcome, Ambiguous) and reference in understood.coded:  # "the views code"
        outcome = package_first(reference, outcome, notes) or outcome
    if hint and isinstance(outcome, Resolved) and understood.intent not in ANSWER_KINDS:
        note = switched(reference, hint, outcome.subject)
        notes.extend([note] if note else [])
    if isinstance(outcome, Resolved) and (
        asked := await firsttypos.ordinary_person(graph, reference, outcome)
    ):
        return asked  # "json commits": a word taken for "jason" by a near spelling
    return outcome


def package_first(reference: str, outcome: Ambiguous, notes: list[str]) -> Resolved | None:
    """"The views package", "the views code", "the views module": of the modules named
    exactly so, the one package or directory when every other one is a file (a package's
    own `__init__.py`, a same-named `views.py` elsewhere), said in `notes`; None when that
    is not so (two packages of the name still ask which)."""
    if (outcome.total or 0) > len(outcome.candidates):
        return None
    exact = [c for c in outcome.candidates if c.exact]
    if len(exact) != len(outcome.candidates):
        return None
    packages = [c for c in exact if not _file(c.subject)]
    if len(packages) != 1:
        return None
    package = packages[0]
    files = [c for c in exact if c is not package]
    if aside_of(package.subject) and any(aside_of(c.subject) is None for c in files):
        return None  # an example's package, a shipped file: the shipped one (resolving.aside)
    notes.append(
        f'"{reference}" was read as the package {_described(package.subject)}, not the '
        f"file{'s' if len(files) > 1 else ''} of that name "
        f"({', '.join(_path(c.subject) for c in files)}): the question says package, "
        "module or code."
    )
    return Resolved(
        package.subject, package.score, Stage.EXACT_NAME, package.matched_handle,
        package.how or Match.EXACT, tuple(files),
    )  # fmt: skip


def _file(subject: StoredSubject) -> bool:
    """A module that is one file (the git import's kind, else its path's extension)."""
    kind = subject.attributes.get("module_kind")
    if kind is not None:
        return kind == "file"
    return "." in _path(subject).rpartition("/")[2]


def _path(subject: StoredSubject) -> str:
    return str(subject.attributes.get("path") or subject.key.partition(":")[2])


async def alone(
    graph: OrgGraph, understood: Interpretation
) -> tuple[list[StoredSubject], list[str]]:
    """"Who changed the repo and the docs?": "the repo" is the organisation's one subject of
    its kind, said (it was dropped silently, the docs answered alone), as "the docs" is the
    subject of that name; with none or several of the kind it names no one subject: said,
    left out of the answer, never guessed."""
    found: list[StoredSubject] = []
    notes: list[str] = []
    for phrase, kind in understood.kinds_alone:
        if kind is None:  # "the code": of which module or repository is not known
            notes.append(f'"{phrase}" names no one subject, so it is left out of the answer; '
                         "name the module or repository meant.")
            continue
        query = SubjectQuery(kinds=(kind,), order=SubjectOrder.RECENT)
        page = await graph.find_subjects(query, 2)
        name = kind.value
        if len(page.items) == 1 and not page.has_next:
            found.append(page.items[0])
            notes.append(f'"{phrase}" was read as {page.items[0].name}, the one {name} known here.')
        else:
            many = "several are" if page.items else "none is"
            notes.append(
                f'"{phrase}" names no one {name}: {many} known here, so it is left out of the '
                f"answer; name the {name} meant."
            )
    return found, notes


def counts_people(understood: Interpretation) -> bool:
    """"How many people changed X?", "how many commits did people make (to X)?": the person
    kind word names who is counted or whose changes are, as "who" names the answer; X is no
    person, and the people are all of them (the organisation's), not a cohort of the 10
    busiest. Each such answer said 'The question names a person, but "X" names none', or
    summed the 10 busiest people's commits (198 of click's 251 in 2025)."""
    return understood.kind_hint is SubjectKind.PERSON and understood.intent == Intent.COUNT


async def other_kind(
    graph: OrgGraph, resolver: Resolver, actor: str, reference: str, kind: SubjectKind
) -> Within | None:
    """What `reference` names when it names no subject of `kind`: a clarification listing
    those subjects (and the repositories holding the modules among them), kinds said; None
    when it names nothing at all."""
    outcome = await resolver.resolve(actor, reference, None, OFFERED, use_recent=False)
    if isinstance(outcome, Resolved):
        found = [outcome.subject]
    elif isinstance(outcome, Ambiguous):
        found = [c.subject for c in outcome.candidates]
    else:
        return None
    found = [s for s in found if s.kind is not kind][:OFFERED]
    if not found:
        return None
    holders = await _holders(graph, found)
    offered = [*found, *(h for h in holders if h.key not in {s.key for s in found})]
    names = ", ".join(_described(s) for s in found)
    also = ""
    if holders:
        also = f"; the {_names(holders)} repository holds it"
    prompt = (
        f'No {_kind(kind)} is named "{reference}": "{reference}" names {names}{also}. '
        "Which one did you mean?"
    )
    return Within(None, tuple(Candidate(s, 0.5) for s in offered[:OFFERED]), prompt)


async def exactly_another(
    graph: OrgGraph, reference: str, kind: SubjectKind, outcome: Ambiguous
) -> Within | None:
    """A kind-typed reference that matches subjects of its kind only in part ("the clk
    module": modules under clk/) while it is exactly the name of a subject of another kind
    (the clk repository): the clarification offers both, kinds said. None when no candidate
    of the kind is a partial match or the name is no other subject's exactly."""
    if any(c.exact for c in outcome.candidates):
        return None
    exact, _ = await graph.subjects_by_handle(reference, (), OFFERED)
    exact = [s for s in exact if s.kind is not kind]
    if not exact:
        return None
    partial = [c.subject for c in outcome.candidates][: OFFERED - len(exact)]
    names = ", ".join(_described(s) for s in exact)
    close = ", ".join(s.name for s in partial)
    prompt = (
        f'No {_kind(kind)} is named "{reference}": "{reference}" names {names}'
        f"{f'; {_kind(kind)}s with a name like it: {close}' if close else ''}. "
        "Which one did you mean?"
    )
    offered = [Candidate(s, 0.5) for s in exact] + outcome.candidates[: len(partial)]
    return Within(None, tuple(offered), prompt)


def switched(reference: str, hint: SubjectKind, subject: StoredSubject) -> str | None:
    """The note an answer states when a kind word elsewhere in the question did not fit the
    reference and it was resolved to a subject of another kind; None when it did fit."""
    if subject.kind is hint:
        return None
    return (
        f'The question names a {_kind(hint)}, but "{reference}" names none: it was taken to '
        f"mean {_described(subject)}."
    )


async def _holders(graph: OrgGraph, found: Sequence[StoredSubject]) -> list[StoredSubject]:
    """The repositories holding the modules among `found`, by the importer's attribute."""
    keys = [
        f"repository:{s.attributes['repository']}"
        for s in found
        if s.kind is SubjectKind.MODULE and s.attributes.get("repository")
    ]
    if not keys:
        return []
    stored = await graph.subjects_by_keys(list(dict.fromkeys(keys)))
    return [stored[k] for k in dict.fromkeys(keys) if k in stored]


def _described(subject: StoredSubject) -> str:
    if subject.kind is SubjectKind.MODULE:
        path = subject.attributes.get("path") or subject.key.partition(":")[2]
        where = subject.attributes.get("repository")
        inside = f" in repository {where}" if where else ""
        return f"{subject.name} (module {path}{inside})"
    return f"{subject.name} ({_kind(subject.kind)})"


def _kind(kind: SubjectKind) -> str:
    return kind.value.replace("_", " ")


def _names(subjects: Sequence[StoredSubject]) -> str:
    return " or ".join(s.name for s in subjects)
