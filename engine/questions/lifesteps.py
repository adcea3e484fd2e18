"""Which commit of a path's life a question asks for (engine/questions/lives.py answers it),
read from what the git import keeps (engine/domain/lives.py): a module's `lineage` (the
commit first writing each of its paths, newest first, each with the path git's rename
detection says it came from) and a repository's `gone_files` (the commit deleting each file
the head has no more).

- made, became: the path written at its oldest ("core.py" is click/core.py, written by the
  split of click.py on 2014-04-26, said with click.py it came from); a name no path holds
  ("sansio", "click.core") is the module's oldest path;
- removed: the deletion of the file written; one the head still has was not deleted (a path
  it moved from was moved, said so); a deleted path only ending with the name never stands
  for a module whose own earlier or present path is the name as written ("the click
  folder": click/, moved to src/click in 2020, not docs/_themes/click deleted in 2018);
- moved: the move out of the path written, else the newest move; none when it never moved;
- into_src: the move of the repository's package into src/ (requests, 2023-08-13);
- replaced: one file made another, by git's rename or by one commit deleting the first and
  adding the second.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from engine.domain import gone as folders
from engine.domain import lives
from engine.domain.evidence import EvidenceRequest, EvidenceRule
from engine.domain.lives import Step
from engine.domain.models import SourceRecordKind, StoredSubject, SubjectKind, to_ns
from engine.ports import OrgGraph, SubjectQuery

_PACKAGES = 200  # a repository's packages read for the one moved into src/, at most


@dataclass(frozen=True)
class Life:
    """The event asked and the commit it was, with the steps said beside it: the older
    paths it came from (`earlier`, newest first) and the moves since (`later`, oldest
    first). Events: made, became, removed, moved, into_src; kept (asked deleted, never
    deleted) and unmoved (asked moved, never moved) state the path's creation."""

    event: str
    step: Step
    earlier: tuple[Step, ...] = ()
    later: tuple[Step, ...] = ()
    # the earlier lives of the path asked (and of the paths it came from), oldest first: the
    # step is of its latest life (requests' test_requests.py, written again in 2012-12)
    lived: tuple[lives.Lived, ...] = ()


async def found_life(
    graph: OrgGraph, event: str, references: Sequence[str], subjects: Sequence[StoredSubject]
) -> Life | None:
    """The event asked of the one subject the question names, None when nothing is kept."""
    if event == "replaced":
        return await _replaced(graph, references, subjects)
    if len(subjects) != 1:
        return None
    (subject,) = subjects
    if event == "into_src":
        return await _into_src(graph, subject)
    lineage = lives.decode(subject.attributes.get(lives.LINEAGE))
    if event == "removed":
        return await _removed(graph, references, subject, lineage)
    if not lineage:
        return None
    if event == "moved":
        return _moved(references, lineage)
    if event == "became" and subject.attributes.get("module_kind") == "file":
        return None  # a file is no folder: "became a package" asks about one
    # werkzeug's datastructures: the file (2009) and the package (2023) are one module; "when
    # did datastructures show up?" is its first change, the folder's creation only by its path
    if event == "made" and _was_file(subject) and not _by_path(references, lineage):
        return None
    return _lived(_made(event, references, lineage), subject)


def _lived(life: Life, subject: StoredSubject, *, path: str = "") -> Life:
    """`life` with the earlier lives kept for its path (`path`, else its step's) and the
    paths it came from (engine/domain/lives.py `earlier_lives`)."""
    paths = {path or life.step.path, *(s.path for s in life.earlier)}
    if path:
        paths = {path}
    found = lives.decode_lived(subject.attributes.get(lives.EARLIER))
    kept = tuple(one for one in found if one.born.path in paths)
    return replace(life, lived=kept) if kept else life


def _was_file(subject: StoredSubject) -> bool:
    """A package that was a Python file of its name (graph/git/modules: one module)."""
    package = subject.attributes.get("module_kind") == "package"
    return package and any(n.endswith(".py") for n in subject.previous_names)


def _by_path(references: Sequence[str], lineage: list[Step]) -> bool:
    return any("/" in r and lives.names(r, s.path) for r in references for s in lineage)


def _made(event: str, references: Sequence[str], lineage: list[Step]) -> Life:
    named = [s for s in lineage if any(lives.names(ref, s.path) for ref in references)]
    at = lineage.index(named[-1]) if named else len(lineage) - 1
    return Life(event, lineage[at], tuple(lineage[at + 1 :]), tuple(reversed(lineage[:at])))


def _moved(references: Sequence[str], lineage: list[Step]) -> Life:
    """The move out of the path written ("where did tests/typing_example.py go?"), with the
    moves after it; else the newest move, with those before it; else the creation."""
    moves = [s for s in lineage if s.came_from]
    out = [s for s in moves if any(lives.names(ref, s.came_from) for ref in references)]
    if out:
        at = lineage.index(out[-1])
        return Life("moved", lineage[at], (), tuple(reversed(lineage[:at])))
    if moves:
        return Life("moved", moves[0], tuple(moves[1:]))
    return Life("unmoved", lineage[-1])


async def _removed(
    graph: OrgGraph, references: Sequence[str], subject: StoredSubject, lineage: list[Step]
) -> Life | None:
    """The deletion of the file written, kept on the repository (a module named by a path it
    had, a file that became a package: its earlier path's deletion); a path it moved from
    was moved; a module of the head written by its name was not deleted."""
    repository = subject
    if subject.kind is SubjectKind.MODULE:
        key = f"repository:{subject.attributes.get('repository')}"
        repository = (await graph.subjects_by_keys([key])).get(key) or subject
    hits, _ = await deleted_named(graph, repository, references)
    if _own_path(references, [s.path for s in lineage]) and not _own_path(
        references, [s.path for s in hits]
    ):
        hits = []  # "the click folder": click/, moved to src/click, not docs/_themes/click
    if len(hits) == 1:  # its earlier lives kept on the repository (attrs' AUTHORS.rst)
        return _lived(Life("removed", hits[0]), repository, path=hits[0].path)
    if hits or not lineage:
        return None  # several deleted files of the name: none of them chosen
    moved = _moved(references, lineage)
    now = any(lives.names(r, lineage[0].path) for r in references)  # "_make.py": it is here
    left = _own_path(references, [moved.step.came_from])  # "click": click/ left, moved
    if (
        moved.event == "moved"
        and (not now or left)
        and any(lives.names(r, moved.step.came_from) for r in references)
    ):
        moved_away = replace(moved, event="moved_away")  # "tests/typing_example.py": moved
        return _lived(moved_away, subject, path=moved.step.came_from)
    return _lived(Life("kept", lineage[-1], (), tuple(reversed(lineage[:-1]))), subject)


async def _replaced(
    graph: OrgGraph, references: Sequence[str], subjects: Sequence[StoredSubject]
) -> Life | None:
    """One file made another ("when did CHANGELOG.rst become CHANGELOG.md?"): git's rename of
    the first into the second (a step of the second's lineage from it: werkzeug README.rst,
    bc6cf7f); else the commit that deleted the first and first wrote the second (attrs
    afe2111: git pairs no rename, the texts differ) or wrote it too (`_touched`), the first
    writing said; "unreplaced" with both when two commits did (requests HISTORY.md); None
    when the second is no one module of the head or the first no one deleted file."""
    if len(references) != 2:
        return None
    old, new = references
    modules = {
        s.key: s
        for s in subjects
        if s.kind is SubjectKind.MODULE
        and any(lives.names(new, step.path) for step in _lineage(s)[:1])
    }
    if len(modules) != 1:
        return None
    (module,) = modules.values()
    lineage = _lineage(module)
    moved = [s for s in lineage if s.came_from and lives.names(old, s.came_from)]
    if moved:
        at = lineage.index(moved[-1])
        return Life("moved", lineage[at], (), tuple(reversed(lineage[:at])))
    key = f"repository:{module.attributes.get('repository')}"
    repository = (await graph.subjects_by_keys([key])).get(key)
    hits, _ = await deleted_named(graph, repository, [old]) if repository else ([], [])
    born = [s for s in lineage if lives.names(new, s.path)]
    if len(hits) != 1 or not born:
        return None
    gone, first = hits[0], born[-1]
    if gone.sha == first.sha:
        return Life("replaced", replace(first, came_from=gone.path))
    if await _touched(graph, module, gone.at):  # click 03d3b8a: CHANGES.md written again
        return Life("replaced", Step(first.path, gone.at, gone.sha, gone.by, gone.path), (first,))
    return Life("unreplaced", first, (gone,))


async def _touched(graph: OrgGraph, module: StoredSubject, at: str) -> bool:
    """Whether the module has a commit in the second of `at` (the commit deleting the file
    it replaced wrote it too: click's CHANGES.md, first added by 237be50 on one line of work,
    written with CHANGES.rst's deletion by 03d3b8a on another)."""
    start = to_ns(datetime.fromisoformat(at))
    assert start is not None
    rule = EvidenceRequest(
        module.key, (SourceRecordKind.COMMIT,), EvidenceRule.CHANGES, start, start + 10**9
    )
    return (await graph.evidence_counts([rule]))[0] > 0


def _lineage(subject: StoredSubject) -> list[Step]:
    return lives.decode(subject.attributes.get(lives.LINEAGE))


def _own_path(references: Sequence[str], paths: Sequence[str]) -> bool:
    """Whether a reference is written as one of the whole paths: "click" is click/, the
    folder src/click moved from, where docs/_themes/click (deleted) only ends with the name;
    "test_requests.py" is the file moved to tests/, not tests/integration/test_requests.py."""
    written = {r.strip().strip("/").casefold() for r in references}
    return any(p.casefold() in written for p in paths if p)


async def deleted_named(
    graph: OrgGraph, repository: StoredSubject, references: Sequence[str]
) -> tuple[list[Step], list[str]]:
    """The deleted files and folders of `repository` the references name, one per path; of
    several, the one alone written as its whole path (attrs "CHANGELOG.rst", not
    docs/changelog.rst), else the one alone that lay in the shipped code, with the others'
    paths to be said (werkzeug's "contrib": src/werkzeug/contrib, not tests/, docs/ or
    examples/contrib, all deleted by 81e10efb; said, each a way on); else the one alone
    holding the others
    (requests' "packages": requests/packages, the vendored libraries, not
    requests/packages/urllib3/packages inside it). engine.resolving.gonefiles reads the same."""
    named = (s for r in references for s in lives.deleted(repository.attributes, r))
    hits = list({s.path: s for s in named}.values())
    if len(hits) <= 1:
        return hits, []
    final = [s for s in hits if _last(repository, s)]  # werkzeug/contrib: moved after, not it
    kept = [s for s in final if _own_path(references, [s.path])]  # "CHANGELOG.rst": the root's
    if len(kept) != 1:
        kept = [s for s in hits if await _shipped(graph, repository.name, s.path)]
    if len(kept) != 1:
        kept = [s for s in hits if not any(s.path.startswith(f"{o.path}/") for o in hits)]
    if len(kept) != 1:
        return hits, []
    return kept, [s.path for s in hits if s is not kept[0]]


def _last(repository: StoredSubject, step: Step) -> bool:
    """Whether a deleted path's deletion is its last change: a file's always (`gone_files`
    keeps the last commit touching it); a folder's unless its last change (`gone_folders`)
    came after, as werkzeug/contrib's move to src/ (adb0edd, 2019-02-13) after the commit
    deleting two of its files (adb0cd7, 2018-12-09): that folder was not deleted there."""
    last = folders.decode(repository.attributes.get(folders.ATTRIBUTE)).get(step.path)
    if last is None or last[1] == step.sha:
        return True
    return datetime.fromisoformat(last[0]) <= datetime.fromisoformat(step.at)


async def _shipped(graph: OrgGraph, repository: str, path: str) -> bool:
    """Whether a path lay directly in a package the head still has (src/werkzeug/contrib in
    src/werkzeug): the shipped code, not its tests, docs or examples."""
    parent = path.rpartition("/")[0]
    if not parent:
        return False
    found, _ = await graph.subjects_by_handle(parent, [SubjectKind.MODULE], 10)
    return any(
        m.attributes.get("path") == parent
        and m.attributes.get("module_kind") == "package"
        and m.attributes.get("repository") == repository
        for m in found
    )


async def _into_src(graph: OrgGraph, subject: StoredSubject) -> Life | None:
    """The commit that moved the repository's package into src/: the newest path of a
    package right under src/ written by a move from outside it."""
    own = subject.attributes.get("repository")
    repo = subject.name if subject.kind is SubjectKind.REPOSITORY else own
    if not isinstance(repo, str):
        return None
    where = (("repository", repo), ("module_kind", "package"))
    page = await graph.find_subjects(
        SubjectQuery(kinds=(SubjectKind.MODULE,), attributes=where), _PACKAGES
    )
    steps = [
        lineage[0]
        for m in page.items
        if (lineage := lives.decode(m.attributes.get(lives.LINEAGE)))
        and lineage[0].path.count("/") == 1
        and lineage[0].path.startswith("src/")
        and lineage[0].came_from
        and not lineage[0].came_from.startswith("src/")
    ]
    return Life("into_src", min(steps, key=lambda s: s.at)) if steps else None
