"""The bulk demo organisation's subjects: one record per (kind, index), its names,
attributes and validity window all computed from the subject's trait, so this part draws
nothing from the random stream."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from sources.demo.names import (
    LANGUAGES,
    LOCATIONS,
    ROLE_TEXT,
    ROLES,
    RUNTIMES,
    acronym,
    person_name,
    project_parts,
    repo_parts,
    repo_slug,
    service_name,
    service_slug,
    team_name,
)
from sources.demo.organisation import Organisation, interleave
from sources.demo.story import Record, subject


def subjects(org: Organisation) -> Iterator[Record]:
    # Indexed by kind, in names.py's order of kinds.
    make: tuple[Callable[[Organisation, int, int], Record], ...] = (
        _team, _person, _repo, _service, _project, _module
    )
    for kind, i in interleave(org.counts):
        yield make[kind](org, i, org.trait(kind, i))


def _window(org: Organisation, record: Record, h: int) -> Record:
    since = org.since(h)
    record["valid_from"] = org.c.day_ago(since)
    retired = org.retired(h, since)
    if retired is not None:
        record["valid_to"] = org.c.day_ago(retired)
    return record


def _team(org: Organisation, i: int, h: int) -> Record:
    slug, name = team_name(i)
    record = subject(f"team:{slug}", name, aliases=[name.removeprefix("Team ")],
                      description=f"{name} builds and runs a slice of the product.",
                      attributes={"on_call": f"{slug}-oncall",
                                  "cost_center": f"CC-{2000 + i}"})  # fmt: skip
    if h & 1:
        record["valid_from"] = org.c.day_ago(org.since(h))
    return record


def _person(org: Organisation, i: int, h: int) -> Record:
    slug, name, first = person_name(i)
    record = subject(
        f"person:{slug}", name,
        attributes={"email": f"{slug.replace('-', '.')}@example.com",
                    "role": ROLES[(h >> 8) % len(ROLES)],
                    "location": LOCATIONS[(h >> 16) % len(LOCATIONS)]},
    )  # fmt: skip
    if (h >> 4) % 3 == 0:
        record["aliases"] = [first]
    record["valid_from"] = org.c.day_ago(org.since(h))
    return record


def _repo(org: Organisation, i: int, h: int) -> Record:
    domain, role, tier = repo_parts(i)
    slug = repo_slug(i)
    language = LANGUAGES[(h >> 8) % len(LANGUAGES)]
    record = subject(
        f"repository:{slug}", slug,
        description=f"{ROLE_TEXT[role]} for the {domain.replace('-', ' ')} domain, "
                    f"written in {language.capitalize()}.",
        attributes={"language": language, "tier": 1 + (h >> 16) % 3,
                    "default_branch": "main" if (h >> 20) % 5 else "master"},
    )  # fmt: skip
    if slug.count("-") >= 2 + (1 if tier else 0):
        record["aliases"] = [acronym(f"{domain}-{role}")]
    if (h >> 32) % 33 == 0:
        old = f"{domain.replace('-', '')}_{role}" + (f"_{tier + 1}" if tier else "")
        record["previous_names"] = [old]
    return _window(org, record, h)


def _service(org: Organisation, i: int, h: int) -> Record:
    slug = service_slug(i)
    name = service_name(slug)
    record = subject(
        f"service:{slug}", name,
        description=f"{name} runs the {slug.split('-')[0]} capability in production.",
        attributes={"tier": 1 + (h >> 16) % 3, "runtime": RUNTIMES[(h >> 8) % 4],
                    "on_call": f"{slug}-oncall"},
    )  # fmt: skip
    aliases = [f"{slug.removesuffix('-service')}-svc"]
    if len(name.split()) >= 3:
        aliases.append(acronym(name.replace(" ", "-")))
    record["aliases"] = aliases
    return _window(org, record, h)


def _project(org: Organisation, i: int, h: int) -> Record:
    slug, name = project_parts(i)
    record = subject(
        f"project:{slug}", name, description=f"{name}: a cross-team initiative.",
        attributes={"status": ("planned", "active", "active", "done")[(h >> 8) % 4]},
    )  # fmt: skip
    if (h >> 4) % 3 == 0:
        record["aliases"] = [acronym(name.replace(" ", "-"))]
    if h & 1:
        record["valid_from"] = org.c.day_ago(org.since(h))
    return record


def _module(org: Organisation, i: int, h: int) -> Record:
    key, name = org.module(i)
    path = name.split("/", 1)[1]
    return subject(key, name, description=f"The {path} package of {name.split('/')[0]}.",
                    attributes={"path": f"src/{path}"})  # fmt: skip
