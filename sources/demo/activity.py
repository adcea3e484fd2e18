"""The bulk demo organisation's activity: episodes and source records (pull requests,
work items, incidents, deploys, metric rollups), drawn after the subjects and edges."""

from __future__ import annotations

from collections.abc import Iterator

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

def source_records(demo: Organisation) -> Iterator[Record]:
    rng, c = demo.rng, demo.c
    numbers = {kind: n + 1 for kind, n in STORY_COUNTS.items()}
    lo, hi = c.lo, c.hi
    day = DAY
    for _ in range(demo.n_src):
        u = rng.random()
        if u < 0.40:
            kind = "pull_request"
            repo, _name = demo.busy_repos.pick(rng)
            start = c.rand(rng, lo, hi)
            record = src(kind, numbers[kind], repo, c.at(start),
                          actor=demo.people.pick(rng)[0],
                          title=PR_TITLES[int(rng.random() * len(PR_TITLES))])  # fmt: skip
            v = rng.random()
            if v < 0.80:
                end = start + day + int(rng.random() * 4 * day)
                status = "merged"
            elif v < 0.90:
                end = start + 60 + int(rng.random() * 10 * day)
                status = "closed"
            else:
                end, status = hi + 1, "open"
            if end <= hi:
                record["end"] = c.at(end)
            else:
                status = "open"
            record["status"] = status
        elif u < 0.60:
            kind = "work_item"
            if demo.busy_projects.size and rng.random() < 0.4:
                subject = demo.busy_projects.pick(rng)[0]
            else:
                subject = demo.busy_repos.pick(rng)[0]
            start = c.rand(rng, lo, hi - 60 * day)
            due = start + 7 * day + int(rng.random() * 53 * day)
            record = src(
                kind,
                numbers[kind],
                subject,
                c.at(start),
                due=c.at(due),
                actor=demo.people.pick(rng)[0],
                title=WORK_TITLES[int(rng.random() * len(WORK_TITLES))],
            )
            v = rng.random()
            if v < 0.60:
                end = start + day + int(rng.random() * min(70 * day, hi - start - day))
                record["end"] = c.at(end)
                record["status"] = "done"
            else:
                record["status"] = "open" if v < 0.85 else "in_progress"
        elif u < 0.65:
            kind = "incident"
            service, name = demo.busy_services.pick(rng)
            start = c.rand(rng, lo, hi)
            v = rng.random()
            severity = "sev1" if v < 0.05 else "sev2" if v < 0.20 else (
                "sev3" if v < 0.60 else "sev4")  # fmt: skip
            symptom = SYMPTOMS[int(rng.random() * len(SYMPTOMS))]
            record = src(
                kind,
                numbers[kind],
                service,
                c.at(start),
                severity=severity,
                actor=demo.people.pick(rng)[0],
                title=f"{name}: {symptom}",
            )
            end = start + 10 + int(rng.random() * 2 * day)
            if rng.random() < 0.97 and end <= hi:
                record["end"] = c.at(end)
                record["status"] = "resolved"
            else:
                record["status"] = "open"
        elif u < 0.85:
            kind = "deploy"
            service, name = demo.busy_services.pick(rng)
            v = rng.random()
            status = "success" if v < 0.90 else "failed" if v < 0.96 else "rolled_back"
            version = (
                f"v{1 + int(rng.random() * 9)}.{int(rng.random() * 40)}"
                f".{int(rng.random() * 20)}"
            )
            record = src(kind, numbers[kind], service, c.at(c.rand(rng, lo, hi)),
                          environment="production" if rng.random() < 0.6 else "staging",
                          status=status, title=f"{service[8:]} {version}")  # fmt: skip
        else:
            kind = "metric_rollup"
            repo = demo.busy_repos.pick(rng)[0]
            back = 1 + int(rng.random() * (SPAN_DAYS - 1))
            if rng.random() < 0.5:
                metric, value = "commits", int(rng.random() * 30)
            else:
                metric, value = "lines_changed", int(rng.random() * rng.random() * 4_000)
            record = src(kind, numbers[kind], repo, c.day_ago(back),
                          end=c.day_ago(back - 1), metric=metric, value=value)  # fmt: skip
        numbers[kind] += 1
        yield record
