"""A module named with its repository ("starlette middleware", "click's tests", "the tests of
click", "routing in starlette"), and a repository named like its own package ("click").

A scope (engine.reading.scopes.Scope) whose holder is a repository's name resolves to the module
of that name inside that repository: never the repository itself, never a module of the same
name in another repository. When the repository holds no such module, the answer says so
(a clarification naming the phrase, offering the repository and the same-named modules
elsewhere), never answering the repository in its place. A holder that is a module holds the
one module of the part's name under its path ("complex's cli"). A holder that names nothing,
or a part that names a subject of another kind ("Kevin's click commits"), is no scope: the
references then resolve one by one.

A name written as words whose first names a repository ("attrs validators": the dotted name
of src/attrs/validators.py, and the validators of the repository attrs, src/attr/validators.py
too) reads both ways: when the repository holds more than one module of the rest's name, the
question asks which (`read_as_scope`). It was answered for attrs.validators alone, while the
code is in src/attr/validators.py (an independent check, z32a a02: 1 commit missed).

A reference naming exactly a repository and packages inside it ("click": the repository and
its src/click package) is the repository, and the answer says so, offering the packages
with receipts: asking about the project by its name means the project.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph
from engine.reading.scopes import Scope
from engine.resolving.candidates import holds
from engine.resolving.resolution import Ambiguous, Candidate, Resolved, Resolver, Stage
from engine.resolving.wordforms import described

__all__ = [
    "Within", "holder_of_path", "holds", "read_as_scope", "repository_over_its_package",
    "tests_of", "within",
]  # fmt: skip

MODULE_SAMPLE = 50  # modules of one name read to find the one inside the repository
OFFERED = 5  # what a clarification offers


@dataclass(frozen=True)
class Within:
    """What a scope resolved to: one module, or what to ask (a prompt and candidates)."""

    subject: StoredSubject | None
    candidates: tuple[Candidate, ...] = ()
    prompt: str | None = None
    note: str | None = None  # what the answer must say (a misspelt part)


async def within(
    graph: OrgGraph, resolver: Resolver, actor: str, scope: Scope
) -> Within | None:
    """The module `scope.inner` inside the repository `scope.outer`; None when this is no
    scope (see the module docstring)."""
    repositories, _ = await graph.subjects_by_handle(scope.outer, [SubjectKind.REPOSITORY], 5)
    if not repositories:
        return await _in_module(graph, scope)
    name = described(scope.inner)  # "werkzeug's test suite": its tests
    modules, _ = await graph.subjects_by_handle(
        name or scope.inner, [SubjectKind.MODULE], MODULE_SAMPLE
    )
    held = [m for m in modules if any(holds(r, m) for r in repositories)]
    note = None
    if name is not None and len(held) == 1:
        note = (
            f'"{scope.phrase}" was read as {held[0].name} ({_path(held[0])}): "{scope.inner}" '
            f'describes the folder "{name}" of {_names(repositories)}.'
        )
    if not held and name is None:
        others, _ = await graph.subjects_by_handle(scope.inner, (), 5)
        if any(s.kind is not SubjectKind.MODULE for s in others):
            return None  # the part names someone else: two references, not a scope
        kind = SubjectKind.MODULE
        outcome = await resolver.resolve(actor, scope.inner, kind, 10, use_recent=False)
        found: list[StoredSubject] = []
        if isinstance(outcome, Resolved):
            found = [outcome.subject]
        elif isinstance(outcome, Ambiguous):
            found = [c.subject for c in outcome.candidates]
        held = [m for m in found if any(holds(r, m) for r in repositories)]
        if len(held) == 1:
            note = (
                f'"{scope.inner}" names no module of {_names(repositories)} exactly: it was '
                f"taken to mean {held[0].name} ({held[0].key})."
            )
    if len(held) == 1:
        return Within(held[0], note=note)
    if held:
        offered = tuple(Candidate(m, 0.9) for m in held[:OFFERED])
        names = ", ".join(f"{m.name} ({_path(m)})" for m in held[:OFFERED])
        return Within(None, offered, f'"{scope.phrase}" could mean {names}. Which one?')
    return _not_held(scope, repositories, modules[: OFFERED - 1])


# What a test suite calls the tests of X: its folder, or its test module (pytest's names).
_TEST_PATHS = ("tests/{}", "tests/test_{}.py", "test/{}", "test/test_{}.py")


async def tests_of(graph: OrgGraph, scope: Scope) -> Within | None:
    """"the routing tests", "the sansio tests": the tests of what the first word names, the
    folder or test module of that name in the test suite (werkzeug's tests/test_routing.py,
    tests/sansio; click's tests/test_termui.py), said. They asked between the module and the
    whole test suite, or between the package and the test package of one name. None when
    the second word is no "tests" or no such path is there; several ask which."""
    if not scope.bare or (described(scope.inner) or scope.inner.lower()) not in ("tests", "test"):
        return None
    name = scope.outer.strip().lower().replace(" ", "_")
    if not name.isidentifier():
        return None
    found: dict[str, StoredSubject] = {}
    for path in (p.format(name) for p in _TEST_PATHS):
        subjects, _ = await graph.subjects_by_handle(path, [SubjectKind.MODULE], OFFERED)
        found.update((s.key, s) for s in subjects if s.attributes.get("path") == path)
    held = list(found.values())
    if len(held) == 1:
        where = "" if _path(held[0]) == held[0].name else f" ({_path(held[0])})"
        note = (
            f'"{scope.phrase}" was read as the tests of {scope.outer}: {held[0].name}{where}, '
            "in the test suite."
        )
        return Within(held[0], note=note)
    if held:
        offered = tuple(Candidate(m, 0.9) for m in held[:OFFERED])
        names = ", ".join(f"{m.name} ({_path(m)})" for m in held[:OFFERED])
        return Within(None, offered, f'"{scope.phrase}" could mean {names}. Which one?')
    return None


async def read_as_scope(
    graph: OrgGraph, resolver: Resolver, actor: str, reference: str, subject: StoredSubject
) -> Within | None:
    """What to ask when a module's name written as words also reads as a repository's
    module (see the module docstring); None when it reads one way only."""
    words = reference.split()
    if len(words) < 2 or subject.kind is not SubjectKind.MODULE or "/" in reference:
        return None
    if any("." in w for w in words):
        return None  # written dotted ("attrs.validators"): the one module so named
    scope = Scope(reference, words[0], " ".join(words[1:]), bare=True)
    found = await within(graph, resolver, actor, scope)
    if found is None or found.subject is not None or len(found.candidates) < 2:
        return None
    if subject.key not in {c.subject.key for c in found.candidates}:
        return None
    return found


async def _in_module(graph: OrgGraph, scope: Scope) -> Within | None:
    """A module named with a module holding it ("complex's cli", "click's core" where the
    repository has another name): the one module of that name under the holder's path. It
    counted the holder and the part side by side. None when no one such module is there."""
    holders, _ = await graph.subjects_by_handle(scope.outer, [SubjectKind.MODULE], 5)
    if not holders:
        return None
    parts, _ = await graph.subjects_by_handle(scope.inner, [SubjectKind.MODULE], MODULE_SAMPLE)
    held = [m for m in parts if any(m.key.startswith(f"{h.key}/") for h in holders)]
    return Within(held[0]) if len(held) == 1 else None


def _not_held(
    scope: Scope, repositories: Sequence[StoredSubject], elsewhere: Sequence[StoredSubject]
) -> Within:
    """The repository holds no such module: say so, offering the repository and the
    modules of that name elsewhere."""
    where = ""
    if elsewhere:
        where = f" ({scope.inner} is a module of {', '.join(_repository(m) for m in elsewhere)})"
    prompt = (
        f'"{scope.phrase}": {_names(repositories)} has no module "{scope.inner}"{where}. '
        "Ask about the whole repository or another module with one of these receipts, or "
        "name the module as its repository has it."
    )
    offered = tuple(Candidate(s, 0.5) for s in [*repositories[:1], *elsewhere])
    return Within(None, offered, prompt)


def repository_over_its_package(
    reference: str, outcome: Ambiguous
) -> tuple[StoredSubject, list[Candidate], str] | None:
    """A tie between one repository and packages inside it, all named `reference` exactly:
    the repository, the packages offered, and the note saying so. None for any other tie."""
    if outcome.stage is not Stage.EXACT_NAME or (outcome.total or 0) > len(outcome.candidates):
        return None
    repositories = [c for c in outcome.candidates if c.subject.kind is SubjectKind.REPOSITORY]
    if len(repositories) != 1:
        return None
    repository = repositories[0].subject
    packages = [c for c in outcome.candidates if c.subject.key != repository.key]
    if not packages or not all(
        c.subject.kind is SubjectKind.MODULE and holds(repository, c.subject) for c in packages
    ):
        return None
    names = ", ".join(f"{c.subject.name} ({_path(c.subject)})" for c in packages)
    note = (
        f'"{reference}" names the repository {repository.name} and its package {names}: '
        f'answered for the whole repository; ask about "the {normalise(reference)} module" '
        "or use a receipt for the package alone."
    )
    return repository, packages, note


async def holder_of_path(
    graph: OrgGraph, reference: str
) -> tuple[StoredSubject | None, str] | None:
    """A path no subject is named by: the Python module it names without its extension
    ("src/click/core" is src/click/core.py: its dotted name says as much), else the one
    module named by its longest directory prefix ("docs/index.md"), and the note saying
    which module the answer is for. Any other path inside a module names no file of the
    head: it is said (None and the note), never answered for the module holding it
    ("src/click/nonexistent/thing.py" was answered for all of click, "docs/index.md" with
    another file's last change)."""
    parts = reference.strip("/").split("/")
    if "." not in parts[-1]:
        found, total = await graph.subjects_by_handle(
            f"{reference.strip('/')}.py", [SubjectKind.MODULE], 2
        )
        if total == 1:
            return found[0], (
                f'"{reference}" was taken to mean the Python module {found[0].name} '
                f"({_path(found[0])})."
            )
    if (ending := await _ending_so(graph, parts)) is not None:
        return ending, (
            f'"{reference}" was taken to mean {ending.name} ({_path(ending)}), the one module '
            "whose path ends so."
        )
    for n in range(len(parts) - 1, 0, -1):
        prefix = "/".join(parts[:n])
        found, total = await graph.subjects_by_handle(prefix, [SubjectKind.MODULE], 2)
        if total > 1:
            return None  # several modules hold it: the path alone cannot say which
        if total == 1:
            module = found[0]
            # Every file of the imported head is a subject (module_layout 7), so a path
            # inside a module naming none is a file deleted or moved since, or never there:
            # never answered for the module holding it, whose figures are other files'.
            return None, (
                f'"{reference}" names no file of the repository as it is now (every file '
                "there is a subject; a file deleted or moved since, or never in its history, "
                f"is not), so no answer is given for it, and none for {module.name} "
                f"({_path(module)}) in its place. Ask about {module.name}, or the file's path "
                "now."
            )
    return None


async def _ending_so(graph: OrgGraph, parts: list[str]) -> StoredSubject | None:
    """The one module whose path ends with the path written ("sansio/multipart.py":
    src/werkzeug/sansio/multipart.py), found by its last part's name; None when none or
    several do ("utils.py" paths end so in several places)."""
    found, _ = await graph.subjects_by_handle(parts[-1], [SubjectKind.MODULE], MODULE_SAMPLE)
    ending = "/" + "/".join(parts)
    held = [m for m in found if f"/{_path(m)}".endswith(ending)]
    return held[0] if len(held) == 1 else None


def _names(subjects: Sequence[StoredSubject]) -> str:
    return " or ".join(s.name for s in subjects)


def _path(module: StoredSubject) -> str:
    return str(module.attributes.get("path") or module.key.partition(":")[2])


def _repository(module: StoredSubject) -> str:
    return str(module.attributes.get("repository") or module.key.partition(":")[2].split("/")[0])
