"""The bulk demo organisation's activity: episodes and source records (pull requests,
work items, incidents, deploys, metric rollups), drawn after the subjects and edges."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from sources.demo.clock import DAY, SOURCE, SPAN_DAYS
from sources.demo.names import (
    PR_TITLES,
    SYMPTOMS,
    WORK_TITLES,
)
from sources.demo.organisation import Organisation
from sources.demo.story import (
    STORY_COUNTS,
    Record,
    src,
)

# -- episodes ----------------------------------------------------------------------

def episodes(demo: Organisation) -> Iterator[Record]:
    rng, c = demo.rng, demo.c
    first = STORY_COUNTS["episode"] + 1
    for n in range(first, first + demo.n_ep):
        shape = int(rng.random() * 8)
        if shape == 0:
            repo = demo.repos.pick(rng)
            text = f"Deploy of {repo[1]} to production rolled back after error spike"
            mentions = [repo[0]]
        elif shape == 1:
            person, team = demo.people.pick(rng), demo.teams.pick(rng)
            other = demo.other_team(team[0])
            text = f"{person[1]} moved from {other[1]} to {team[1]}"
            mentions = [person[0], other[0], team[0]]
        elif shape == 2:
            team, service = demo.teams.pick(rng), demo.services.pick(rng)
            text = f"{team[1]} took over on-call for {service[1]}"
            mentions = [team[0], service[0]]
        elif shape == 3:
            service, repo = demo.services.pick(rng), demo.repos.pick(rng)
            text = f"Postmortem: {service[1]} outage traced to a config change in {repo[1]}"
            mentions = [service[0], repo[0]]
        elif shape == 4:
            person, repo = demo.people.pick(rng), demo.repos.pick(rng)
            text = f"{person[1]} proposed splitting {repo[1]} into smaller modules"
            mentions = [person[0], repo[0]]
        elif shape == 5:
            a, b = demo.services.pick(rng), demo.services.pick(rng)
            text = f"Architecture review approved {a[1]} calling {b[1]} synchronously"
            mentions = [a[0]] if a[0] == b[0] else [a[0], b[0]]
        elif shape == 6:
            project, team = demo.projects.pick(rng), demo.teams.pick(rng)
            text = f"{project[1]} kickoff: {team[1]} committed to the first milestone"
            mentions = [project[0], team[0]]
        else:
            repo = demo.repos.pick(rng)
            text = f"Dependency upgrade in {repo[1]} broke the build for two days"
            mentions = [repo[0]]
        yield {"type": "episode", "key": f"episode:{n}",
               "occurred_at": c.at(c.rand(rng, c.lo, c.hi)), "text": text,
               "mentions": mentions, "source": SOURCE}  # fmt: skip

# -- source records ------------------------------------------------------------------

# Each bulk source record's kind is the first whose bound its one uniform draw is under:
# 40% pull requests, 20% work items, 5% incidents, 20% deploys, 15% metric rollups.
KINDS = (
    (0.40, "pull_request"),
    (0.60, "work_item"),
    (0.65, "incident"),
    (0.85, "deploy"),
    (1.00, "metric_rollup"),
)


def source_records(demo: Organisation) -> Iterator[Record]:
    numbers = {kind: n + 1 for kind, n in STORY_COUNTS.items()}
    for _ in range(demo.n_src):
        u = demo.rng.random()
        kind = next(kind for share, kind in KINDS if u < share)
        yield MAKE[kind](demo, numbers[kind])
        numbers[kind] += 1


def _pull_request(demo: Organisation, n: int) -> Record:
    """Four in five merged within five days, one in ten closed, the rest still open."""
    rng, c = demo.rng, demo.c
    repo, _name = demo.busy_repos.pick(rng)
    start = c.rand(rng, c.lo, c.hi)
    record = src("pull_request", n, repo, c.at(start),
                  actor=demo.people.pick(rng)[0],
                  title=PR_TITLES[int(rng.random() * len(PR_TITLES))])  # fmt: skip
    v = rng.random()
    if v < 0.80:
        end = start + DAY + int(rng.random() * 4 * DAY)
        status = "merged"
    elif v < 0.90:
        end = start + 60 + int(rng.random() * 10 * DAY)
        status = "closed"
    else:
        end, status = c.hi + 1, "open"
    if end <= c.hi:
        record["end"] = c.at(end)
    else:
        status = "open"
    record["status"] = status
    return record


def _work_item(demo: Organisation, n: int) -> Record:
    """On a project or a repository, due within two months; three in five done."""
    rng, c = demo.rng, demo.c
    if demo.busy_projects.size and rng.random() < 0.4:
        subject = demo.busy_projects.pick(rng)[0]
    else:
        subject = demo.busy_repos.pick(rng)[0]
    start = c.rand(rng, c.lo, c.hi - 60 * DAY)
    due = start + 7 * DAY + int(rng.random() * 53 * DAY)
    record = src(
        "work_item",
        n,
        subject,
        c.at(start),
        due=c.at(due),
        actor=demo.people.pick(rng)[0],
        title=WORK_TITLES[int(rng.random() * len(WORK_TITLES))],
    )
    v = rng.random()
    if v < 0.60:
        end = start + DAY + int(rng.random() * min(70 * DAY, c.hi - start - DAY))
        record["end"] = c.at(end)
        record["status"] = "done"
    else:
        record["status"] = "open" if v < 0.85 else "in_progress"
    return record


def _incident(demo: Organisation, n: int) -> Record:
    """On a service, mostly minor, nearly all resolved within two days."""
    rng, c = demo.rng, demo.c
    service, name = demo.busy_services.pick(rng)
    start = c.rand(rng, c.lo, c.hi)
    v = rng.random()
    severity = "sev1" if v < 0.05 else "sev2" if v < 0.20 else (
        "sev3" if v < 0.60 else "sev4")  # fmt: skip
    symptom = SYMPTOMS[int(rng.random() * len(SYMPTOMS))]
    record = src(
        "incident",
        n,
        service,
        c.at(start),
        severity=severity,
        actor=demo.people.pick(rng)[0],
        title=f"{name}: {symptom}",
    )
    end = start + 10 + int(rng.random() * 2 * DAY)
    if rng.random() < 0.97 and end <= c.hi:
        record["end"] = c.at(end)
        record["status"] = "resolved"
    else:
        record["status"] = "open"
    return record


def _deploy(demo: Organisation, n: int) -> Record:
    rng, c = demo.rng, demo.c
    service = demo.busy_services.pick(rng)[0]
    v = rng.random()
    status = "success" if v < 0.90 else "failed" if v < 0.96 else "rolled_back"
    version = (
        f"v{1 + int(rng.random() * 9)}.{int(rng.random() * 40)}"
        f".{int(rng.random() * 20)}"
    )
    return src("deploy", n, service, c.at(c.rand(rng, c.lo, c.hi)),
                environment="production" if rng.random() < 0.6 else "staging",
                status=status, title=f"{service[8:]} {version}")  # fmt: skip


def _metric_rollup(demo: Organisation, n: int) -> Record:
    """One day's commits or changed lines of a repository."""
    rng, c = demo.rng, demo.c
    repo = demo.busy_repos.pick(rng)[0]
    back = 1 + int(rng.random() * (SPAN_DAYS - 1))
    if rng.random() < 0.5:
        metric, value = "commits", int(rng.random() * 30)
    else:
        metric, value = "lines_changed", int(rng.random() * rng.random() * 4_000)
    return src("metric_rollup", n, repo, c.day_ago(back),
                end=c.day_ago(back - 1), metric=metric, value=value)  # fmt: skip


MAKE: dict[str, Callable[[Organisation, int], Record]] = {
    "pull_request": _pull_request,
    "work_item": _work_item,
    "incident": _incident,
    "deploy": _deploy,
    "metric_rollup": _metric_rollup,
}
