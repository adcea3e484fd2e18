"""A module subject of the git import (graph/git/modules.py makes them) and its names: the
name it goes by, what a user would type for it (its path, file name, dotted name without its
package's), and its earlier names, unless a name of the head is taken by them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graph.git.modules import Modules


@dataclass
class Module:
    path: str  # the current path (the newest name)
    previous: list[str] = field(default_factory=list)
    renamed_at: datetime | None = None  # when it got its current path, if renamed
    package: bool = False  # an outermost package root: named by its directory's own name
    dotted: str | None = None  # a Python module (a file): its dotted name, `click.parser`
    # The module directory holding it, if any: its package, the directory holding that ...
    parent: str | None = None
    kind: str = "directory"  # "package", "directory" or "file"
    # A package inside a Python package: its dotted name, `werkzeug.routing`.
    subpackage: str | None = None

    @property
    def name(self) -> str:
        if self.dotted is not None:
            return self.dotted
        if self.subpackage is not None:
            return self.subpackage
        return self.path.rpartition("/")[2] if self.package else self.path

    def aliases(self, repo: str) -> list[str]:
        """What a user would type for it: its path (with and without the repository); for
        a Python module also its file name and the name without `.py` (`parser`), and its
        dotted name once its package's name is dropped (`commands.cmd_init`); for another
        file its file name (`conf.py` for docs/conf.py); for a subpackage its directory's
        name (`routing`) and its dotted name without the top package's."""
        own = [self.path, f"{repo}/{self.path}"]
        if self.kind == "file" and self.dotted is None:
            own.append(self.path.rpartition("/")[2])
        if self.dotted is not None:
            base = self.path.rpartition("/")[2]
            own += [base, base.removesuffix(".py"), self.dotted.partition(".")[2]]
        if self.subpackage is not None:
            own += [self.path.rpartition("/")[2], self.subpackage.partition(".")[2]]
        return [a for a in dict.fromkeys(own) if a and a != self.name]

    def previous_names(self, taken: frozenset[str] = frozenset()) -> list[str]:
        """Its earlier paths (another file's, those with a "/" or a "." only); for a Python
        module also the earlier file names without `.py`
        ("router" for a routing.py that was router.py), as a user who knew it by them types,
        unless a name of the head is `taken` by them: click's core.py was click.py, and
        "click" is the package (and the repository), not an old name of click.core."""
        names = list(self.previous)
        if self.kind == "file" and self.dotted is None:
            # Another file's earlier path is a name only as a path or a file name: requests'
            # AUTHORS.rst was AUTHORS, and "how many authors touched adapters.py" names no file.
            names = [n for n in names if "/" in n or "." in n]
        if self.dotted is not None:
            stems = [p.rpartition("/")[2].removesuffix(".py") for p in self.previous]
            names += [n for n in stems if n not in taken]
        if self.kind == "package":  # the file it was: "routing.py" for werkzeug.routing
            files = [p.rpartition("/")[2] for p in self.previous if p.endswith(".py")]
            names += [n for n in files if n not in taken]
        return list(dict.fromkeys(names))


def taken_names(repo: str, modules: Modules) -> frozenset[str]:
    """The names the head's packages and Python modules (by file name without `.py` too),
    the modules this run saw and the repository go by: an earlier file name equal to one of
    them names that, not the module renamed."""
    names = {repo, *(root.rpartition("/")[2] for root in modules.roots)}
    names.update(d.rpartition("/")[2] for d in modules.dotted)
    for path, dotted in modules.files.items():
        names.update((dotted, path.rpartition("/")[2].removesuffix(".py")))
    names.update(module.name for module in modules.by_path.values())
    return frozenset(names)
