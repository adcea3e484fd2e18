"""The bulk demo organisation: how big each kind of subject is, who the i-th subject of a
kind is, and the one seeded random stream every later part draws from.

What the organisation yields lives beside it, one module per kind of record, each drawing
from `Organisation.rng` in the order `sources.demo.generate` calls them: subjects.py,
relationships.py, activity.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime

from sources.demo.clock import Clock
from sources.demo.names import (
    KIND_WEIGHTS,
    PERSON,
    PROJECT,
    REPO,
    SERVICE,
    SMALL_ORDER,
    TEAM,
    Pool,
    dir_name,
    mix,
    person_name,
    project_parts,
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
    story_episodes,
    story_relationships,
    story_source_records,
    story_subjects,
)


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
        self.teams = Pool(STORY_TEAMS, n[TEAM], self.team)
        self.people = Pool(STORY_PEOPLE, n[PERSON], self.person)
        self.repos = Pool(STORY_REPOS, n[REPO], self.repo)
        self.services = Pool(STORY_SERVICES, n[SERVICE], self.service)
        self.projects = Pool(STORY_PROJECTS, n[PROJECT], self.project)
        self.busy_repos = Pool(QUIET_REPOS, n[REPO], self.repo)
        self.busy_services = Pool(QUIET_SERVICES, n[SERVICE], self.service)
        self.busy_projects = Pool([], n[PROJECT], self.project)

    # -- traits: a subject's hash, and the dates drawn from it, not from the stream -------

    def trait(self, kind: int, i: int) -> int:
        return mix(self.salts[kind] + i)

    def since(self, h: int) -> int:
        """Days before the anchor's day that the subject came into being."""
        return 30 + h % 1_400

    def retired(self, h: int, since: int) -> int | None:
        """Days before the anchor's day that the subject retired, for about 2%."""
        if (h >> 12) % 50:
            return None
        return 1 + (h >> 24) % (since - 1)

    # -- the i-th bulk subject of a kind, as (key, name) -------------------------------

    def team(self, i: int) -> tuple[str, str]:
        slug, name = team_name(i)
        return f"team:{slug}", name

    def person(self, i: int) -> tuple[str, str]:
        slug, name, _ = person_name(i)
        return f"person:{slug}", name

    def repo(self, i: int) -> tuple[str, str]:
        slug = repo_slug(i)
        return f"repository:{slug}", slug

    def service(self, i: int) -> tuple[str, str]:
        slug = service_slug(i)
        return f"service:{slug}", service_name(slug)

    def project(self, i: int) -> tuple[str, str]:
        slug, name = project_parts(i)
        return f"project:{slug}", name

    def module(self, j: int) -> tuple[str, str]:
        # Module j sits in repository j mod |repos|; j div |repos| numbers its directory.
        d, repo = divmod(j, self.repos.size)
        name = f"{self.repos.get(repo)[1]}/{dir_name(d)}"
        return f"module:{name}", name

    def other_team(self, team: str) -> tuple[str, str]:
        """A team other than `team`, drawn from the stream (someone moving, a handover)."""
        while True:
            other = self.teams.pick(self.rng)
            if other[0] != team:
                return other
