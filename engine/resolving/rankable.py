"""Which subjects a ranking of changes counts (engine/resolving/rankedsubjects.py ranks them):
files when files are asked for, what lies inside the repository or module the question
names, and inside a repository or a Python package its Python modules when its "modules"
are asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.models import StoredSubject, SubjectKind
from engine.reading.ranking import Ranking
from engine.resolving.candidates import aside_of
from engine.resolving.within import holds


def asked(subject: StoredSubject, ranking: Ranking, holders: Sequence[StoredSubject]) -> bool:
    """A file when files are asked for, a Python file (.py) when Python's are ("Which
    Python module changed most?"); inside one of the holders, when any is named; a Python
    module of the code inside a repository or package when its modules are asked for
    (`python_module`)."""
    if ranking.files and not is_file(subject):
        return False
    if ranking.folders and is_file(subject):
        return False
    if ranking.language and not str(subject.attributes.get("path", "")).endswith(".py"):
        return False
    if not holders:
        return True
    return any(
        inside(h, subject) and (not ranking.python or python_module(h, subject)) for h in holders
    )


def python_module(holder: StoredSubject, module: StoredSubject) -> bool:
    """What "the modules of" a repository or a Python package are: the Python modules and
    subpackages of its packages (graph/git/modules.py), outside its tests, examples and
    docs for a repository. "Which modules of requests changed most?" ranked .github,
    pyproject.toml and the workflow files beside requests.models. Inside a plain directory
    ("the modules under tests") every module is still one; so is a module imported without
    a kind (another source's)."""
    if not holds_python(holder) or "module_kind" not in module.attributes:
        return True
    if holder.kind is SubjectKind.REPOSITORY and aside_of(module) is not None:
        return False
    # The package asked about has its own module, __init__.py (src/click/__init__.py), with
    # no dotted name of its own; another package's stands for that package, ranked itself;
    # a Python file outside any package (setup.py) is none.
    own = f"{holder.attributes.get('path')}/__init__.py"
    return "dotted" in module.attributes or module.attributes.get("path") == own


def holds_python(holder: StoredSubject) -> bool:
    """A repository, or a Python package (an outermost one has no dotted name)."""
    if holder.kind is SubjectKind.REPOSITORY or "dotted" in holder.attributes:
        return True
    return holder.attributes.get("module_kind") == "package"


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


# What a ranking of folders says it counted.
FOLDERS_NOTE = (
    "Every folder of the repository as it is now is ranked, at any depth (a package is a "
    "folder too, a src layout's src/ is its package): a folder's count is every commit to "
    "what lies inside it, what `git log --no-merges --full-history -- <folder>/` counts; a "
    "folder deleted since is not ranked."
)
