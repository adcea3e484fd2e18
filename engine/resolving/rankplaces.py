"""The modules a ranking asked by their place holds (engine/reading/rankplaces.py reads the
words), what the answer says it ranked, and the no match of a repository with no
subpackage.

A subpackage is a Python package inside another (a folder holding `__init__.py` under the
top package: the git import gives it a dotted name, `pkg.sub`); a package is any Python
package of the code, top or inner; both outside the tests, examples and docs. The parts of a
repository are its top-level folders and packages: a folder no other folder ranked holds
(a src layout's src/ holds nothing but packages and is no module, so its packages are at
the top). Each counts every commit to what lies inside it, as `git log --no-merges
--full-history -- <folder>/` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph, SubjectQuery
from engine.reading.rankplaces import PACKAGE, SUBPACKAGE, TOP
from engine.resolving.candidates import ASIDE
from engine.resolving.rankable import inside, is_file

NOUNS = {SUBPACKAGE: "subpackage", PACKAGE: "package", TOP: "top-level folder"}
NOTES = {
    SUBPACKAGE: (
        "A subpackage is a Python package inside another (a folder holding __init__.py "
        "under the top package, pkg.sub in src/pkg), outside the tests, examples and docs: "
        "each is ranked by every commit to what lies inside it, what `git log --no-merges "
        "--full-history -- <folder>/` counts; the top package, files and plain folders are "
        "not ranked."
    ),
    PACKAGE: (
        "Every Python package of the code is ranked (a folder holding __init__.py, the top "
        "package and the packages inside it), outside the tests, examples and docs: each by "
        "every commit to what lies inside it, what `git log --no-merges --full-history -- "
        "<folder>/` counts; files and plain folders are not ranked."
    ),
    TOP: (
        "The parts of a repository are read as its top-level folders and packages (a src "
        "layout's packages in src/): each is ranked by every commit to what lies inside it, "
        "what `git log --no-merges --full-history -- <folder>/` counts; the files at the top "
        "(README, pyproject.toml) are not ranked."
    ),
}
_PAGE = 200


def placed(
    place: str, modules: Sequence[StoredSubject], active: Sequence[StoredSubject]
) -> list[StoredSubject]:
    """Of `modules` (ranked, most first), those at the place asked; `active`, every module
    with a commit in the window, tells which folders hold others (a folder holding a
    module has a commit whenever that module has)."""
    if place == TOP:
        folders = [m for m in active if m.kind is SubjectKind.MODULE and not is_file(m)]
        return [
            m
            for m in modules
            if not is_file(m) and not any(inside(f, m) for f in folders if f.key != m.key)
        ]
    return [m for m in modules if is_place(place, m)]


def is_place(place: str, module: StoredSubject) -> bool:
    """A package (a subpackage: one inside another, with a dotted name of its own) outside
    the tests, examples and docs."""
    path = str(module.attributes.get("path", "")).split("/")
    if module.attributes.get("module_kind") != "package" or ASIDE.keys() & set(path):
        return False  # tests/ itself a package too (attrs)
    return place == PACKAGE or "." in str(module.attributes.get("dotted", ""))


async def none_here(graph: OrgGraph, place: str, holders: Sequence[StoredSubject]) -> str | None:
    """Why nothing at the place asked can be ranked when the code has none at all (click
    holds no package inside src/click): the packages it does have named; None when some
    exist (none had a commit in the window, said as usual)."""
    query = SubjectQuery(kinds=(SubjectKind.MODULE,), attributes=(("module_kind", "package"),))
    packages: list[StoredSubject] = []
    page = await graph.find_subjects(query, _PAGE)
    packages += page.items
    while page.has_next and page.positions:
        page = await graph.find_subjects(query, _PAGE, page.positions[-1])
        packages += page.items
    packages = [p for p in packages if not holders or any(inside(h, p) for h in holders)]
    if place == TOP or any(is_place(place, p) for p in packages):
        return None
    tops = sorted(p.name for p in packages if is_place(PACKAGE, p))
    where = f" in {', '.join(h.name for h in holders)}" if holders else ""
    have = (
        f"its packages ({', '.join(tops)}) hold no package inside them"
        if tops
        else "it holds no Python package outside its tests, examples and docs"
    )
    what = " A subpackage is a Python package inside another (a folder holding __init__.py)."
    return (
        f"There is no {NOUNS[place]}{where} to rank: {have}."
        + (what if place == SUBPACKAGE else "")
        + " Ask which modules or folders changed the most instead, or about one package by "
        "its name."
    )
