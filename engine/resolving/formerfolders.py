"""A folder named by the path it had before a move ("commits to click/ dir 2019": click/
became src/click on 2020-03-06): the answer follows the package across the move, as
DESIGN's subjects are followed, and says so with both figures, the package's and what
touched the earlier path itself, as `git log -- click/` lists it. Unsaid, "45 commit(s) to
click" in 2019 counted 8 commits authored then on src/click (merged after the move) that
`git log -- click/` (37) does not list.

What touched the earlier path in a window is read from the module's commits before the
move and the few made apart from their era (engine/domain/movedapart.py), so no path is
read again; where those were not kept (an import before MODULE_LAYOUT 12, a list cut) the
answer still says it follows the package across the move, without the second figure.
"""

from __future__ import annotations

from datetime import datetime

from engine.domain import movedapart
from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.timecontext import iso
from engine.ports import OrgGraph
from engine.providers import Window
from engine.resolving.activity import commits_in


async def said(
    graph: OrgGraph, reference: str, subject: StoredSubject, window: Window | None
) -> str | None:
    """The note for a folder module named by its path before its move, when the answer
    reaches back before the move; None otherwise (a file: engine.resolving.disclosures
    says a former name)."""
    attributes = subject.attributes
    at, before, path = (attributes.get(k) for k in ("moved_at", "moved_from", "path"))
    if subject.kind is not SubjectKind.MODULE or attributes.get("module_kind") == "file":
        return None
    if not (isinstance(at, str) and isinstance(before, str) and isinstance(path, str)):
        return None
    written = reference.strip().strip("/").casefold()
    if written != before.casefold() or written == path.casefold():
        return None
    moved = datetime.fromisoformat(at)
    if window is None:
        return None  # no count in a window
    whole = window
    span = f"from {iso(whole.start)} to {iso(whole.end)}"
    # A window wholly after the move counts the folder as it is now, which the earlier path
    # named: said too ("commits under werkzeug/ in 2024" is src/werkzeug's 52 commits;
    # `git log -- werkzeug/` lists none), never the package's figure as the old folder's.
    after = whole.start >= moved
    if after:
        counted = f"counts {subject.name} as it is now, at {path}"
    else:
        counted = (
            f"follows {subject.name} across the move (what was made at {before}/ and at {path})"
        )
    ahead = (
        f'"{reference}" names {before}/, the folder {subject.name} had until '
        f"{moved.date().isoformat()}, now {path}: the answer {counted}"
    )
    apart = movedapart.decode(attributes.get(movedapart.ATTRIBUTE))
    if apart is None:
        return f"{ahead}; what touched {before}/ alone is not recorded apart."
    counts = await commits_in(graph, [subject], whole)
    early = {subject.key: 0}
    if not after:
        first = Window(whole.start, min(whole.end, moved), whole.historical)
        early = await commits_in(graph, [subject], first)
    start, end = int(whole.start.timestamp()), int(whole.end.timestamp())
    at_before = (
        early[subject.key]
        - movedapart.within(apart.early, start, end)
        + movedapart.within(apart.late, start, end)
    )
    return (
        f"{ahead}: {counts[subject.key]} commit(s) {span} in all, {at_before} of them touched "
        f"{before}/ itself (as `git log -- {before}/` lists them)."
    )
