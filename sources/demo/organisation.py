"""The bulk demo organisation: subjects and their relationships, sized from the record
count and drawn from one seeded random stream."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime
from itertools import count

from sources.demo.clock import Clock
from sources.demo.names import (
    KIND_WEIGHTS,
    LANGUAGES,
    LOCATIONS,
    MODULE,
    PERSON,
    PROJECT,
    REPO,
    ROLE_TEXT,
    ROLES,
    RUNTIMES,
    SERVICE,
    SMALL_ORDER,
    TEAM,
    Pool,
    acronym,
    dir_name,
    mix,
    person_name,
    project_parts,
    repo_parts,
    repo_slug,
    service_name,
    service_slug,
    team_name,
)
from sources.demo.story import (
    QUIET_REPOS,
    QUIET_SERVICES,
    STORY_PEOPLE,
    STORY_PROJECTS,
    STORY_REPOS,
    STORY_SERVICES,
    STORY_TEAMS,
    Record,
    rel,
    story_episodes,
    story_relationships,
    story_source_records,
    story_subjects,
    subject,
)

# --- the bulk organisation ---------------------------------------------------------------


def split_counts(total: int) -> list[int]:
    """Subjects per kind: every kind at least once when total >= 6."""
    counts = [0] * 6
    if total < 6:
        for kind in SMALL_ORDER[:total]:
            counts[kind] = 1
        return counts
    counts = [max(1, int(total * w)) for w in KIND_WEIGHTS]
    counts[PERSON] += total - sum(counts)
    while counts[PERSON] < 1:  # only for tiny totals, where the minimums overshoot
        biggest = max(range(6), key=lambda k: counts[k] if k != PERSON else -1)
        counts[biggest] -= 1
        counts[PERSON] += 1
    return counts


def interleave(counts: list[int]) -> Iterator[tuple[int, int]]:
    """(kind, index) for every bulk subject, kinds mixed in proportion."""
    done = [0] * len(counts)
    kinds = [k for k in range(len(counts)) if counts[k]]
    for _ in range(sum(counts)):
        best = min(
            (k for k in kinds if done[k] < counts[k]), key=lambda k: (done[k] + 0.5) / counts[k]
        )
        yield best, done[best]
        done[best] += 1


class Organisation:
    def __init__(self, records: int, seed: int, anchor: datetime) -> None:
        self.c = Clock(anchor)
        self.seed = seed
        self.rng = random.Random(seed)
        self.salts = [mix(seed * 16 + kind) for kind in range(6)]
        self.story = (
            story_subjects(self.c)
            + story_relationships(self.c)
            + story_episodes(self.c)
            + story_source_records(self.c)
        )
        bulk = max(0, records - len(self.story))
        n_sub = max(round(bulk * 0.08), min(6, bulk // 4))
        self.n_rel = round(bulk * 0.20)
        self.n_ep = round(bulk * 0.12)
        self.n_src = bulk - n_sub - self.n_rel - self.n_ep
        self.counts = split_counts(n_sub)
        n = self.counts
        self.teams = Pool(STORY_TEAMS, n[TEAM], self._team)
        self.people = Pool(STORY_PEOPLE, n[PERSON], self._person)
        self.repos = Pool(STORY_REPOS, n[REPO], self._repo)
        self.services = Pool(STORY_SERVICES, n[SERVICE], self._service)
        self.projects = Pool(STORY_PROJECTS, n[PROJECT], self._project)
        self.busy_repos = Pool(QUIET_REPOS, n[REPO], self._repo)
        self.busy_services = Pool(QUIET_SERVICES, n[SERVICE], self._service)
        self.busy_projects = Pool([], n[PROJECT], self._project)

    # -- subjects --------------------------------------------------------------------

    def _trait(self, kind: int, i: int) -> int:
        return mix(self.salts[kind] + i)

    def _since(self, h: int) -> int:
        """Days before the anchor's day that the subject came into being."""
        return 30 + h % 1_400

    def _retired(self, h: int, since: int) -> int | None:
        """Days before the anchor's day that the subject retired, for about 2%."""
        if (h >> 12) % 50:
            return None
        return 1 + (h >> 24) % (since - 1)

    def _team(self, i: int) -> tuple[str, str]:
        slug, name = team_name(i)
        return f"team:{slug}", name

    def _person(self, i: int) -> tuple[str, str]:
        slug, name, _ = person_name(i)
        return f"person:{slug}", name

    def _repo(self, i: int) -> tuple[str, str]:
        slug = repo_slug(i)
        return f"repository:{slug}", slug

    def _service(self, i: int) -> tuple[str, str]:
        slug = service_slug(i)
        return f"service:{slug}", service_name(slug)

    def _project(self, i: int) -> tuple[str, str]:
        slug, name = project_parts(i)
        return f"project:{slug}", name

    def _module(self, j: int) -> tuple[str, str]:
        # Module j sits in repository j mod |repos|; j div |repos| numbers its directory.
        d, repo = divmod(j, self.repos.size)
        name = f"{self.repos.get(repo)[1]}/{dir_name(d)}"
        return f"module:{name}", name

    def subjects(self) -> Iterator[Record]:
        make = (self._team_record, self._person_record, self._repo_record,
                self._service_record, self._project_record, self._module_record)  # fmt: skip
        for kind, i in interleave(self.counts):
            yield make[kind](i, self._trait(kind, i))

    def _window(self, record: Record, h: int) -> Record:
        since = self._since(h)
        record["valid_from"] = self.c.day_ago(since)
        retired = self._retired(h, since)
        if retired is not None:
            record["valid_to"] = self.c.day_ago(retired)
        return record

    def _team_record(self, i: int, h: int) -> Record:
        slug, name = team_name(i)
        record = subject(f"team:{slug}", name, aliases=[name.removeprefix("Team ")],
                          description=f"{name} builds and runs a slice of the product.",
                          attributes={"on_call": f"{slug}-oncall",
                                      "cost_center": f"CC-{2000 + i}"})  # fmt: skip
        if h & 1:
            record["valid_from"] = self.c.day_ago(self._since(h))
        return record

    def _person_record(self, i: int, h: int) -> Record:
        slug, name, first = person_name(i)
        record = subject(
            f"person:{slug}", name,
            attributes={"email": f"{slug.replace('-', '.')}@example.com",
                        "role": ROLES[(h >> 8) % len(ROLES)],
                        "location": LOCATIONS[(h >> 16) % len(LOCATIONS)]},
        )  # fmt: skip
        if (h >> 4) % 3 == 0:
            record["aliases"] = [first]
        record["valid_from"] = self.c.day_ago(self._since(h))
        return record

    def _repo_record(self, i: int, h: int) -> Record:
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
        return self._window(record, h)

    def _service_record(self, i: int, h: int) -> Record:
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
        return self._window(record, h)

    def _project_record(self, i: int, h: int) -> Record:
        slug, name = project_parts(i)
        record = subject(
            f"project:{slug}", name, description=f"{name}: a cross-team initiative.",
            attributes={"status": ("planned", "active", "active", "done")[(h >> 8) % 4]},
        )  # fmt: skip
        if (h >> 4) % 3 == 0:
            record["aliases"] = [acronym(name.replace(" ", "-"))]
        if h & 1:
            record["valid_from"] = self.c.day_ago(self._since(h))
        return record

    def _module_record(self, i: int, h: int) -> Record:
        key, name = self._module(i)
        path = name.split("/", 1)[1]
        return subject(key, name, description=f"The {path} package of {name.split('/')[0]}.",
                        attributes={"path": f"src/{path}"})  # fmt: skip

    # -- relationships ---------------------------------------------------------------

    def relationships(self) -> Iterator[Record]:
        """Structural edges per bulk subject, plus fan-out edges that keep the total on target.

        Each edge has a bulk subject at one end and is unique by construction, so no two
        share (relation, from, to, valid_from) and no explicit id is needed.
        """
        n_sub = sum(self.counts)
        emitted = 0
        for pos, (kind, i) in enumerate(interleave(self.counts)):
            h = self._trait(kind, i)
            edges = self._structural(kind, i, h)
            target = self.n_rel * (pos + 1) // n_sub
            room = target - emitted - len(edges) + int(self.rng.random() * 3) - 1
            if room > 0:
                edges += self._fan_out(kind, i, room)
            emitted += len(edges)
            yield from edges
            if emitted >= self.n_rel:
                return

    def _owner_edges(self, key: str, slug: str, h: int, label: str) -> list[Record]:
        since = self._since(h)
        retired = self._retired(h, since)
        end = {} if retired is None else {"valid_to": self.c.day_ago(retired)}
        first = self.teams.pick(self.rng)[0]
        start = self.c.day_ago(since)
        last = retired or 0
        if (h >> 40) % 8 or since - last < 60:
            return [rel("OWNS", first, key, f"{label}:{slug}@{start[:10]}", valid_from=start,
                         **end)]  # fmt: skip
        switch = self.c.day_ago(last + 1 + int(self.rng.random() * (since - last - 30)))
        second = self.other_team(first)[0]
        return [
            rel("OWNS", first, key, f"{label}:{slug}@{start[:10]}", valid_from=start,
                 valid_to=switch),
            rel("OWNS", second, key, f"{label}:{slug}@{switch[:10]}", valid_from=switch,
                 **end),
        ]  # fmt: skip

    def other_team(self, team: str) -> tuple[str, str]:
        while True:
            other = self.teams.pick(self.rng)
            if other[0] != team:
                return other

    def _structural(self, kind: int, i: int, h: int) -> list[Record]:
        rng = self.rng
        if kind == PERSON:
            key = self._person(i)[0]
            since = self._since(h)
            start = self.c.day_ago(since)
            team = self.teams.pick(rng)[0]
            slug = team.split(":", 1)[1]
            if (h >> 40) % 10 or since < 60:
                return [rel("MEMBER_OF", key, team, f"hr:{slug}@{start[:10]}",
                             valid_from=start)]  # fmt: skip
            switch = self.c.day_ago(1 + int(rng.random() * (since - 30)))
            team2 = self.other_team(team)[0]
            return [
                rel("MEMBER_OF", key, team, f"hr:{slug}@{start[:10]}", valid_from=start,
                     valid_to=switch),
                rel("MEMBER_OF", key, team2, f"hr:{team2.split(':', 1)[1]}@{switch[:10]}",
                     valid_from=switch),
            ]  # fmt: skip
        if kind == REPO:
            key, slug = self._repo(i)
            edges = self._owner_edges(key, slug, h, "codeowners")
            if (h >> 44) % 5 < 3:
                project = self.projects.pick(rng)[0]
                edges.append(rel("PART_OF", key, project, f"tracker:{project[8:]}"))
            return edges
        if kind == SERVICE:
            key = self._service(i)[0]
            return self._owner_edges(key, key[8:], h, "service-catalog")
        if kind == MODULE:
            key, name = self._module(i)
            repo = self.repos.get(i % self.repos.size)[0]
            return [rel("PART_OF", key, repo, f"tree:{name}")]
        if kind == TEAM:
            key = self._team(i)[0]
            lead = self.people.pick(rng)[0]
            return [rel("LEADS", lead, key, f"hr:{key[5:]}")]
        key = self._project(i)[0]
        lead = self.people.pick(rng)[0]
        return [rel("LEADS", lead, key, f"tracker:{key[8:]}")]

    def _fan_out(self, kind: int, i: int, room: int) -> list[Record]:
        rng = self.rng
        if kind == PERSON:
            key = self._person(i)[0]
            picks = rng.sample(range(self.repos.size), min(room, 8, self.repos.size))
            out = []
            for p in picks:
                repo, name = self.repos.get(p)
                out.append(rel("CONTRIBUTES_TO", key, repo, f"git:{name}"))
            return out
        if kind in (REPO, SERVICE):
            pool = self.repos if kind == REPO else self.services
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

    def padding(self) -> Iterator[Record]:
        """Contribution periods for tiny organisations: each round has its own start time."""
        for rnd in count(1):
            start = self.c.at(self.c.lo + rnd * 60)
            for p in range(self.people.size):
                person = self.people.get(p)[0]
                repo, name = self.repos.pick(self.rng)
                yield rel("CONTRIBUTES_TO", person, repo, f"git:{name}@{start[:10]}",
                           valid_from=start)  # fmt: skip
