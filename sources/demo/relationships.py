"""The bulk demo organisation's relationships: each bulk subject's structural edges
(membership, ownership, leadership, containment), fan-out edges (contributions,
dependencies) that keep the total on target, and padding for tiny organisations.

Every draw comes from `Organisation.rng`, after the subjects and before the activity; the
order of the draws below is part of the output's identity.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count

from sources.demo.names import MODULE, PERSON, REPO, SERVICE, TEAM
from sources.demo.organisation import Organisation, interleave
from sources.demo.story import Record, rel


def relationships(org: Organisation) -> Iterator[Record]:
    """Structural edges per bulk subject, plus fan-out edges that keep the total on target.

    Each edge has a bulk subject at one end and is unique by construction, so no two
    share (relation, from, to, valid_from) and no explicit id is needed.
    """
    n_sub = sum(org.counts)
    emitted = 0
    for pos, (kind, i) in enumerate(interleave(org.counts)):
        h = org.trait(kind, i)
        edges = _structural(org, kind, i, h)
        target = org.n_rel * (pos + 1) // n_sub
        room = target - emitted - len(edges) + int(org.rng.random() * 3) - 1
        if room > 0:
            edges += _fan_out(org, kind, i, room)
        emitted += len(edges)
        yield from edges
        if emitted >= org.n_rel:
            return


def padding(org: Organisation) -> Iterator[Record]:
    """Contribution periods for tiny organisations: each round has its own start time."""
    for rnd in count(1):
        start = org.c.at(org.c.lo + rnd * 60)
        for p in range(org.people.size):
            person = org.people.get(p)[0]
            repo, name = org.repos.pick(org.rng)
            yield rel("CONTRIBUTES_TO", person, repo, f"git:{name}@{start[:10]}",
                       valid_from=start)  # fmt: skip


def _structural(org: Organisation, kind: int, i: int, h: int) -> list[Record]:
    rng = org.rng
    if kind == PERSON:
        return _memberships(org, i, h)
    if kind == REPO:
        key, slug = org.repo(i)
        edges = _owners(org, key, slug, h, "codeowners")
        if (h >> 44) % 5 < 3:
            project = org.projects.pick(rng)[0]
            edges.append(rel("PART_OF", key, project, f"tracker:{project[8:]}"))
        return edges
    if kind == SERVICE:
        key = org.service(i)[0]
        return _owners(org, key, key[8:], h, "service-catalog")
    if kind == MODULE:
        key, name = org.module(i)
        repo = org.repos.get(i % org.repos.size)[0]
        return [rel("PART_OF", key, repo, f"tree:{name}")]
    if kind == TEAM:
        key = org.team(i)[0]
        lead = org.people.pick(rng)[0]
        return [rel("LEADS", lead, key, f"hr:{key[5:]}")]
    key = org.project(i)[0]
    lead = org.people.pick(rng)[0]
    return [rel("LEADS", lead, key, f"tracker:{key[8:]}")]


def _memberships(org: Organisation, i: int, h: int) -> list[Record]:
    """A person's team, and for about one in ten long-standing people a move to another."""
    key = org.person(i)[0]
    since = org.since(h)
    start = org.c.day_ago(since)
    team = org.teams.pick(org.rng)[0]
    slug = team.split(":", 1)[1]
    if (h >> 40) % 10 or since < 60:
        return [rel("MEMBER_OF", key, team, f"hr:{slug}@{start[:10]}",
                     valid_from=start)]  # fmt: skip
    switch = org.c.day_ago(1 + int(org.rng.random() * (since - 30)))
    team2 = org.other_team(team)[0]
    return [
        rel("MEMBER_OF", key, team, f"hr:{slug}@{start[:10]}", valid_from=start,
             valid_to=switch),
        rel("MEMBER_OF", key, team2, f"hr:{team2.split(':', 1)[1]}@{switch[:10]}",
             valid_from=switch),
    ]  # fmt: skip


def _owners(org: Organisation, key: str, slug: str, h: int, label: str) -> list[Record]:
    """The owning team over the subject's life, for about one in eight a handover."""
    since = org.since(h)
    retired = org.retired(h, since)
    end = {} if retired is None else {"valid_to": org.c.day_ago(retired)}
    first = org.teams.pick(org.rng)[0]
    start = org.c.day_ago(since)
    last = retired or 0
    if (h >> 40) % 8 or since - last < 60:
        return [rel("OWNS", first, key, f"{label}:{slug}@{start[:10]}", valid_from=start,
                     **end)]  # fmt: skip
    switch = org.c.day_ago(last + 1 + int(org.rng.random() * (since - last - 30)))
    second = org.other_team(first)[0]
    return [
        rel("OWNS", first, key, f"{label}:{slug}@{start[:10]}", valid_from=start,
             valid_to=switch),
        rel("OWNS", second, key, f"{label}:{slug}@{switch[:10]}", valid_from=switch,
             **end),
    ]  # fmt: skip


def _fan_out(org: Organisation, kind: int, i: int, room: int) -> list[Record]:
    rng = org.rng
    if kind == PERSON:
        key = org.person(i)[0]
        picks = rng.sample(range(org.repos.size), min(room, 8, org.repos.size))
        out = []
        for p in picks:
            repo, name = org.repos.get(p)
            out.append(rel("CONTRIBUTES_TO", key, repo, f"git:{name}"))
        return out
    if kind in (REPO, SERVICE):
        pool = org.repos if kind == REPO else org.services
        idx = pool.n_story + i
        key = pool.get(idx)[0]
        evidence = "manifest" if kind == REPO else "tracing"
        # Only earlier subjects as targets: the dependency graph has no cycles.
        picks = rng.sample(range(idx), min(room, 6 if kind == REPO else 4, idx))
        return [
            rel("DEPENDS_ON", key, pool.get(p)[0], f"{evidence}:{key.split(':', 1)[1]}")
            for p in picks
        ]
    return []
