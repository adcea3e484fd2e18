"""A reference naming a folder the repository no longer has (werkzeug's contrib, deleted in
2019; requests' requests/packages, the vendored libraries deleted in 2017): only the head's
files and folders are subjects, so nothing is counted for it, but the question is told what
the folder was, its last change and where git lists its history, never "names no subject
known here" with no way on (z37a werkzeug 9), and a path written with a slash is never read
as the file of the same name made after the folder went ("requests/packages" was answered
for src/requests/packages.py, z37a requests 8). The folders are the repository's attribute
`gone_folders` (engine/domain/gone.py, written by the git import)."""

from __future__ import annotations

from engine.domain.gone import ATTRIBUTE, decode
from engine.domain.lives import names
from engine.domain.models import StoredSubject
from engine.ports import OrgGraph
from engine.resolving.gonerepos import holding_deleted

_SHOWN = 4  # folders named in one note, the latest changed first


async def gone_note(graph: OrgGraph, reference: str, *, exact: bool = False) -> str | None:
    """What is said of a reference naming deleted folders: the whole path, or its last
    segments ("contrib": src/werkzeug/contrib and werkzeug/contrib); `exact`: the whole path
    only. None when it names none."""
    written = reference.strip().strip("/").casefold()
    if not written or " " in written:
        return None
    hits = [
        (when, folder, sha, who, repository)
        for repository in await holding_deleted(graph)
        for folder, (when, sha, who) in decode(repository.attributes.get(ATTRIBUTE)).items()
        if folder.casefold() == written or (not exact and names(written, folder))
    ]
    if not hits:
        return None
    hits.sort(reverse=True)
    said = "; ".join(
        f"{folder} in {_name(repository)}, last changed {when[:10]} ({sha}, by {who})"
        for when, folder, sha, who, repository in hits[:_SHOWN]
    )
    more = f" and {len(hits) - _SHOWN} more" if len(hits) > _SHOWN else ""
    paths = " ".join(folder for _, folder, _, _, _ in hits[:_SHOWN])
    return (
        f'"{reference}" names a folder the repository no longer has: {said}{more}. A folder '
        "deleted since is not kept as a subject here, so nothing is counted for it: `git log "
        f"--no-merges --full-history -- {paths}` lists its history."
    )


def _name(repository: StoredSubject) -> str:
    return repository.name
