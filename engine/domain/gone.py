"""The folders a repository's head no longer has, each with its last change, as one text
attribute of the repository (written by graph/git/gone.py, read by
engine/resolving/gonefolders.py): "path<TAB>author time<TAB>hash<TAB>author" per line."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

ATTRIBUTE = "gone_folders"
MAX_CHARS = 19_000  # one attribute text (engine/domain/models.MAX_TEXT is 20,000)

Gone = tuple[str, str, str]  # (last change's author time, abbreviated hash, author)


def encode(found: Mapping[str, Gone]) -> str:
    """One line per folder, the shallowest first while they fit (a vendored tree's depths
    are the first left out)."""
    folders = sorted(found, key=lambda f: (f.count("/"), f))
    return capped("\t".join((f, *found[f])).replace("\n", " ") for f in folders)


def capped(lines: Iterable[str], *, skipping: bool = False) -> str:
    """`lines` joined while they fit in one attribute text (MAX_CHARS): the first that does
    not fit ends them, or, `skipping`, is left out and a shorter one after it may fit."""
    kept: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > MAX_CHARS:
            if skipping:
                continue
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def decode(text: object) -> dict[str, Gone]:
    out: dict[str, Gone] = {}
    for line in str(text or "").splitlines():
        parts = line.split("\t")
        if len(parts) == 4:
            out[parts[0]] = (parts[1], parts[2], parts[3])
    return out
