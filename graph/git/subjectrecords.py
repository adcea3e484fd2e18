"""The subject records of a git import (docs/projection-format.md): the repository (how it
was imported, what it deleted), its people and its modules. Each is merged with what an
earlier import stored (aliases and previous names are unions, the oldest `valid_from` wins,
attributes kept unless written again), because a subject record replaces the stored one and
an incremental run sees only the newest commits. Kept apart from graph/git/records.py, which
makes the relationships, rollups and commit records."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from engine.domain import identities, lives, movedapart
from engine.domain.models import StoredSubject
from graph.git import gone
from graph.git import lives as lived
from graph.git.history import History, module_key
from graph.git.identity import Person
from graph.git.modules import Module, taken_names
from graph.git.records import COMMIT_KEYS, MODULE_LAYOUT

MAX_LIST = 64  # names kept in a subject's aliases or previous names


def _merge_names(current: list[str], stored: StoredSubject | None, attr: str) -> list[str]:
    names = list(dict.fromkeys(current + (list(getattr(stored, attr)) if stored else [])))
    return names[:MAX_LIST]


def _since(first: datetime | None, stored: StoredSubject | None) -> str | None:
    times = [t for t in (first, stored.valid_from if stored else None) if t is not None]
    return min(times).isoformat() if times else None


def _subject(body: dict[str, Any], stored: StoredSubject | None) -> dict[str, Any]:
    if stored is not None and not stored.stub:
        body["attributes"] = {**stored.attributes, **body.get("attributes", {})}
        if stored.description and not body.get("description"):
            body["description"] = stored.description
    for attr in ("aliases", "previous_names"):
        merged = _merge_names(body.get(attr, []), stored, attr)
        # An earlier path spelled as the name stays (attrs' attr/ is src/attr's): it says
        # the package moved, and a path under it reads through the move
        # (engine/resolving/formerpaths.py).
        names = [n for n in merged if n != body["name"] or attr == "previous_names"]
        if names:
            body[attr] = names
        else:
            body.pop(attr, None)
    return {k: v for k, v in body.items() if v is not None}


def subjects(
    history: History,
    stored: Mapping[str, StoredSubject],
    branch: str,
    head: str,
    start: Mapping[str, Any] | None = None,
) -> Iterator[dict[str, Any]]:
    """The repository, its people and its modules (and those renamed since an earlier import,
    closed). start: where the history read begins, on a run reading it whole
    (`history_since`: the --since given, "" for none; `shallow`: a shallow clone's), for a
    first change to say when an earlier one is not recorded (engine/questions/firstchange.py);
    None keeps what is stored."""
    yield _repository(history, stored.get(history.repo_key), branch, head, start)
    yield from _people(history, stored)
    yield from _modules(history, stored)


def _people(history: History, stored: Mapping[str, StoredSubject]) -> Iterator[dict[str, Any]]:
    """Each person, with the names and identities an earlier import stored kept."""
    for person in history.people.by_key.values():
        yield _subject(
            {
                "type": "subject",
                "key": person.key,
                "kind": "person",
                "name": person.name,
                "aliases": person.alias_list(),
                "source": f"git:{history.repo}",
                **_identities(person, stored.get(person.key)),
            },
            stored.get(person.key),
        )


def _modules(history: History, stored: Mapping[str, StoredSubject]) -> Iterator[dict[str, Any]]:
    """Each module of the head (graph/git/modules.py), with its path, kind, lineage and
    commits made apart from its era; a module renamed since an earlier import closed."""
    taken = taken_names(history.repo, history.modules)
    for path, module in history.modules.by_path.items():
        key = module_key(history.repo, path)
        yield _subject(
            {
                "type": "subject",
                "key": key,
                "kind": "module",
                "name": module.name[-200:],
                "aliases": list(dict.fromkeys(a[-200:] for a in module.aliases(history.repo))),
                "previous_names": [p[-200:] for p in module.previous_names(taken)],
                "source": f"git:{history.repo}",
                "attributes": {
                    **_module_attributes(history.repo, module),
                    **lived.lineage_attribute(path, history.born, history.earlier),
                    **lived.apart_attribute(
                        history.apart.get(path), _stored_attr(stored.get(key), movedapart.ATTRIBUTE)
                    ),
                },
            },
            stored.get(key),
        )
        yield from _retired(history, module.previous, key, module.renamed_at, stored)


def _repository(
    history: History,
    stored: StoredSubject | None,
    branch: str,
    head: str,
    start: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The repository's record: how it was imported (the marks graph/git/upgrade.py reads),
    where its history read begins, what it deleted, and the mark that it holds deleted
    files or folders (engine/domain/lives.py `DELETED`: their readers ask for those alone)."""
    deleted = {**_gone(history, stored), **_gone_files(history, stored)}
    held = stored is not None and bool(
        stored.attributes.get(gone.ATTRIBUTE) or stored.attributes.get(lives.GONE_FILES)
    )  # an incremental run keeps what is stored (`_subject`), so its mark too
    return _subject(
        {
            "type": "subject",
            "key": history.repo_key,
            "kind": "repository",
            "name": history.repo[:200],
            "source": f"git:{history.repo}",
            "valid_from": _since(history.first, stored),
            "attributes": {
                "vcs": "git", "branch": branch[:200], "head": head, "module_layout": MODULE_LAYOUT,
                "commit_keys": COMMIT_KEYS, **(start or {}), **deleted,
                **({lives.DELETED: True} if deleted or held else {}),
            },
        },
        stored,
    )  # fmt: skip


def _stored_attr(stored: StoredSubject | None, name: str) -> object:
    return stored.attributes.get(name) if stored is not None else None


def _gone(history: History, stored: StoredSubject | None) -> dict[str, Any]:
    """The folders the head has no more (graph/git/gone.py), those stored before kept (an
    incremental run reads only the new commits)."""
    kept = gone.decode(stored.attributes.get(gone.ATTRIBUTE)) if stored else {}
    present = history.modules.present  # a folder made again is no longer gone
    text = gone.encode({**{k: v for k, v in kept.items() if k not in present}, **history.gone})
    return {gone.ATTRIBUTE: text} if text else {}


def _gone_files(history: History, stored: StoredSubject | None) -> dict[str, Any]:
    kept = stored.attributes.get(lives.GONE_FILES) if stored else None
    before = stored.attributes.get(lives.EARLIER) if stored else None
    head = history.modules.head_files
    return {
        **lived.gone_attribute(history.gone_files, kept, head),
        **lived.gone_lives_attribute(history.gone_files, history.earlier, before, head),
    }


def _identities(person: Person, stored: StoredSubject | None) -> dict[str, Any]:
    """The identities the person joins, with their commits' instants, those an earlier
    import stored kept (engine/domain/identities.py); nothing for one identity."""
    kept = identities.instants(stored.attributes.get(identities.ATTRIBUTE)) if stored else {}
    text = identities.encode(identities.merged(person.identities, kept))
    return {"attributes": {identities.ATTRIBUTE: text}} if text else {}


def _module_attributes(repo: str, module: Module) -> dict[str, Any]:
    """What tells modules apart beside their names: the path, the kind (package, directory
    of files, file: a Python module or any other file) and a Python package's or module's
    dotted name (a file without one is no Python module); for a moved one, when it got its
    path and the path it had before."""
    out: dict[str, Any] = {"repository": repo[:200], "path": module.path[:1000]}
    out["module_kind"] = module.kind
    if module.renamed_at is not None and module.previous:
        # when it got its path and the path before (engine.resolving.disclosures says them
        # beside an answer counting what was made under the earlier path)
        out["moved_at"] = module.renamed_at.isoformat()
        out["moved_from"] = module.previous[0][:1000]
    dotted = module.dotted or module.subpackage
    if dotted is not None:
        out["dotted"] = dotted[-200:]
    return out


def _retired(
    history: History,
    previous: list[str],
    new_key: str,
    at: datetime | None,
    stored: Mapping[str, StoredSubject],
) -> Iterator[dict[str, Any]]:
    """A module renamed after an earlier import already stored it: close its window."""
    for old in previous:
        old_key = module_key(history.repo, old)
        found = stored.get(old_key)
        if found is None or found.stub or at is None:
            continue
        body = found.model_dump(mode="json", exclude={"id", "stub"}, exclude_none=True)
        body["attributes"] = {**found.attributes, "renamed_to": new_key}
        if found.valid_from is None or found.valid_from < at:
            body["valid_to"] = at.isoformat()
        yield {"type": "subject", **body}
