"""A deterministic demo organisation, streamed as projection records (NDJSON format v1).

`generate(records, seed, anchor)` yields exactly `records` JSON-ready dicts, each of which
`graph.records.parse_record` accepts. The same arguments always give the same records; the
wall clock is never read. Records come in load order: subjects first, then relationships,
episodes and source records, so every key a record references was yielded earlier as a
subject. No header line is yielded.

The output starts with a fixed "story" (the same for every seed; its dates move with the
anchor, and are the dates written below for the default anchor):

* teams `team:payments` ("Payments", alias "Payments Team"), `team:platform`, `team:sre`
  ("Site Reliability Engineering", alias "SRE"), `team:checkout` ("Checkout Squad");
* people `person:alex-kim` and `person:alex-romero` (both alias "Alex"), `person:sam-lee`,
  `person:priya-natarajan`, `person:jordan-okafor`;
* repositories `repository:payments-api` (aliases "payments", "pay-api"),
  `repository:checkout-web` (renamed from "shop-frontend"), `repository:ledger-core`
  (renamed from "ledger"), `repository:legacy-billing` (retired);
* services `service:payments` ("Payments Service", alias "payments-svc"),
  `service:checkout`; project `project:q4-reliability` ("Q4 Reliability", alias "Q4R");
  module `module:payments-api/settlement`;
* ownership of checkout-web moving from team:payments [2025-06-01, 2026-02-15) to
  team:checkout [2026-02-15, open); payments-api is behind: overdue open work items,
  fewer and slower merged pull requests in the last 30 days, and three recent incidents on
  service:payments of which the latest is unresolved.

After the story comes a bulk organisation whose size grows with `records` (about 8%
subjects, 20% relationships, 12% episodes and 60% source records). Bulk activity never
touches repository:payments-api or service:payments, so the story's signals stay clear.
Subject keys are computed from an index, so memory use does not grow with `records`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from itertools import chain, count, islice
from math import gcd
from typing import Any

Record = dict[str, Any]

DEFAULT_ANCHOR = datetime(2026, 11, 15, tzinfo=UTC)
SOURCE = "demo"
SPAN_DAYS = 400  # every activity time lies in the SPAN_DAYS before the anchor

_DAY = 1_440  # minutes
_PAST_DAYS = 2_000  # how far back subject validity may start
_HM = [f"T{m // 60:02d}:{m % 60:02d}:00Z" for m in range(_DAY)]
_M64 = (1 << 64) - 1

TEAM, PERSON, REPO, SERVICE, PROJECT, MODULE = range(6)
_KIND_WEIGHTS = (0.06, 0.40, 0.22, 0.12, 0.05, 0.15)
_SMALL_ORDER = (REPO, PERSON, TEAM, SERVICE, PROJECT, MODULE)

# --- name pools ------------------------------------------------------------------------

_TEAM_WORDS = (
    "Aurora", "Borealis", "Comet", "Delta", "Ember", "Falcon", "Glacier", "Harbor", "Ion",
    "Juniper", "Kestrel", "Lumen", "Meridian", "Nebula", "Onyx", "Pioneer", "Quasar", "Raven",
    "Summit", "Tundra", "Umbra", "Vertex", "Willow", "Zenith", "Atlas", "Beacon", "Cobalt",
    "Drift", "Echo", "Fjord", "Granite", "Helix", "Indigo", "Jade", "Kite", "Lynx", "Mosaic",
    "Nova", "Orbit", "Prism",
)  # fmt: skip
_FIRST = (
    "Alex", "Sam", "Chris", "Alexandra", "Samantha", "Christina", "Jordan", "Taylor", "Morgan",
    "Priya", "Wei", "Fatima", "Lukas", "Sofia", "Mateo", "Aisha", "Kenji", "Olga", "Diego",
    "Hannah", "Omar", "Ines", "Ravi", "Noah", "Mia", "Elena", "Tomasz", "Yuki", "Amara",
    "Jonas", "Leila", "Marco", "Nadia",
)  # fmt: skip
_LAST = (
    "Chen", "Garcia", "Muller", "Patel", "Nguyen", "Silva", "Johansson", "Kowalski", "Haddad",
    "Tanaka", "Okonkwo", "Rossi", "Novak", "Fischer", "Singh", "Moreau", "Costa", "Ivanova",
    "Park", "Schmidt", "Ahmed", "Dubois", "Reyes", "Larsen", "Yilmaz", "Sato", "Mendes",
    "Brennan", "Hughes", "Lindqvist", "Petrov", "Alvarez", "Bianchi", "Cohen", "Dias",
    "Eriksen", "Fontaine", "Gallagher", "Horvat", "Ito", "Jensen", "Kaur", "Lopez", "Martins",
    "Nakamura", "Oliveira", "Popescu", "Quinn", "Ramos", "Sorensen", "Torres", "Usman",
    "Vargas", "Walsh", "Xu", "Yamamoto", "Zhang", "Abbasi", "Becker", "Carvalho", "Doyle",
)  # fmt: skip
_INITIALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOCATIONS = ("Berlin", "Lisbon", "London", "Toronto", "Singapore", "Austin", "Warsaw", "Remote")
_ROLES = (
    "Software Engineer", "Senior Engineer", "Staff Engineer", "Engineering Manager",
    "Site Reliability Engineer", "Product Manager", "Data Engineer", "QA Engineer",
)  # fmt: skip
_DOMAINS = (
    "inventory", "fraud", "customer-identity", "order", "search", "pricing", "catalog",
    "shipping", "notification", "order-history", "risk-model", "user-profile", "billing",
    "reporting", "analytics", "recommendation", "loyalty", "tax", "refund", "audit", "session",
    "media", "geo", "warehouse", "supplier", "promo", "review", "feature-flag", "price-rule",
    "merchant-onboarding",
)  # fmt: skip
_REPO_ROLES = (
    "sync", "scoring", "service", "api", "worker", "gateway", "engine", "store", "pipeline",
    "portal", "adapter", "indexer", "scheduler", "exporter", "web", "sdk", "jobs",
)  # fmt: skip
_ROLE_TEXT = {
    "sync": "Synchronisation jobs",
    "scoring": "Scoring models and their serving code",
    "service": "Backend service",
    "api": "HTTP API",
    "worker": "Background workers",
    "gateway": "Edge gateway",
    "engine": "Rules engine",
    "store": "Storage layer",
    "pipeline": "Data pipeline",
    "portal": "Internal portal",
    "adapter": "Third-party adapter",
    "indexer": "Search indexer",
    "scheduler": "Job scheduler",
    "exporter": "Data exporter",
    "web": "Web front end",
    "sdk": "Client SDK",
    "jobs": "Batch jobs",
}
_SERVICE_ROLES = (
    "service", "gateway", "router", "broker", "scoring", "sync", "engine", "scheduler", "store",
    "notifier", "resolver",
)  # fmt: skip
_LANGUAGES = ("go", "python", "java", "typescript", "kotlin", "rust", "scala", "ruby")
_RUNTIMES = ("kubernetes", "lambda", "ecs", "nomad")
_THEMES = (
    ("search-relevance", "Search Relevance"), ("billing-accuracy", "Billing Accuracy"),
    ("onboarding", "Onboarding"), ("mobile-checkout", "Mobile Checkout"),
    ("data-retention", "Data Retention"), ("observability", "Observability"),
    ("cost-reduction", "Cost Reduction"), ("api-versioning", "API Versioning"),
    ("sso", "SSO"), ("accessibility", "Accessibility"), ("latency", "Latency"),
    ("disaster-recovery", "Disaster Recovery"), ("pci-compliance", "PCI Compliance"),
    ("localisation", "Localisation"), ("partner-api", "Partner API"),
)  # fmt: skip
_PROJECT_NOUNS = (
    "revamp", "migration", "hardening", "cleanup", "launch", "rewrite", "rollout", "audit",
)  # fmt: skip
_DIRS = (
    "api", "core", "db", "workers", "client", "config", "auth", "events", "cli", "internal",
    "handlers", "models", "jobs", "web", "proto", "migrations",
)  # fmt: skip
_PR_TITLES = tuple(
    f"{verb} {thing}"
    for verb in ("Fix", "Add", "Refactor", "Remove", "Speed up", "Document", "Test")
    for thing in (
        "retry logic", "pagination", "config loading", "metrics export", "auth middleware",
        "schema migration", "cache invalidation", "error handling", "feature flag checks",
        "batch job", "rate limiting", "logging noise",
    )
)  # fmt: skip
_WORK_TITLES = tuple(
    f"{verb} {thing}"
    for verb in ("Investigate", "Implement", "Design", "Roll out", "Deprecate", "Upgrade")
    for thing in (
        "alerting thresholds", "dependency versions", "the on-call runbook", "SLO dashboards",
        "data export", "access reviews", "load tests", "the public API", "backfill job",
    )
)  # fmt: skip
_SYMPTOMS = (
    "elevated error rate", "latency above SLO", "pods crash-looping", "queue backlog growing",
    "stale cache served", "certificate expired", "database connections exhausted",
    "degraded after deploy",
)  # fmt: skip


def _stride(n: int) -> int:
    """A step coprime with n, so i -> i*step mod n visits every slot once (a shuffle)."""
    step = int(n * 0.6180339887) | 1
    while gcd(step, n) != 1:
        step += 2
    return step


_PEOPLE_COMBOS = len(_FIRST) * len(_LAST)
_PEOPLE_STEP = _stride(_PEOPLE_COMBOS)
_REPO_COMBOS = len(_DOMAINS) * len(_REPO_ROLES)
_REPO_STEP = _stride(_REPO_COMBOS)
_SERVICE_COMBOS = len(_DOMAINS) * len(_SERVICE_ROLES)
_SERVICE_STEP = _stride(_SERVICE_COMBOS)
_PROJECT_COMBOS = len(_THEMES) * len(_PROJECT_NOUNS)
_PROJECT_STEP = _stride(_PROJECT_COMBOS)


def _mix(x: int) -> int:
    """splitmix64 finaliser: a well-spread 64-bit hash of an integer."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def _title(slug: str) -> str:
    return " ".join(word.capitalize() for word in slug.split("-"))


def _acronym(slug: str) -> str:
    return "".join(word[0] for word in slug.split("-")).upper()


# --- bulk names from an index ------------------------------------------------------------


def _team_name(i: int) -> tuple[str, str]:
    tier, j = divmod(i, len(_TEAM_WORDS))
    word = _TEAM_WORDS[(j * 7) % len(_TEAM_WORDS)]
    if tier == 0:
        return word.lower(), f"Team {word}"
    return f"{word.lower()}-{tier + 1}", f"Team {word} {tier + 1}"


def _person_name(i: int) -> tuple[str, str, str]:
    """(slug, full name, first name)."""
    tier, r = divmod(i, _PEOPLE_COMBOS)
    j = (r * _PEOPLE_STEP) % _PEOPLE_COMBOS
    first = _FIRST[j % len(_FIRST)]
    last = _LAST[j // len(_FIRST)]
    if tier == 0:
        return f"{first}-{last}".lower(), f"{first} {last}", first
    extra, t = divmod(tier - 1, len(_INITIALS))
    initial = _INITIALS[t]
    slug = f"{first}-{initial}-{last}".lower() + (f"-{extra + 1}" if extra else "")
    return slug, f"{first} {initial}. {last}", first


def _repo_parts(i: int) -> tuple[str, str, int]:
    tier, r = divmod(i, _REPO_COMBOS)
    j = (r * _REPO_STEP) % _REPO_COMBOS
    return _DOMAINS[j % len(_DOMAINS)], _REPO_ROLES[j // len(_DOMAINS)], tier


def _repo_slug(i: int) -> str:
    domain, role, tier = _repo_parts(i)
    return f"{domain}-{role}" + (f"-{tier + 1}" if tier else "")


def _service_slug(i: int) -> str:
    tier, r = divmod(i, _SERVICE_COMBOS)
    j = (r * _SERVICE_STEP + 11) % _SERVICE_COMBOS
    slug = f"{_DOMAINS[j % len(_DOMAINS)]}-{_SERVICE_ROLES[j // len(_DOMAINS)]}"
    return slug + (f"-{tier + 1}" if tier else "")


def _service_name(slug: str) -> str:
    name = _title(slug)
    return name if slug.split("-")[-1] == "service" else f"{name} Service"


def _project_parts(i: int) -> tuple[str, str]:
    tier, r = divmod(i, _PROJECT_COMBOS)
    j = (r * _PROJECT_STEP) % _PROJECT_COMBOS
    theme, label = _THEMES[j % len(_THEMES)]
    noun = _PROJECT_NOUNS[j // len(_THEMES)]
    if tier == 0:
        return f"{theme}-{noun}", f"{label} {noun.capitalize()}"
    return f"{theme}-{noun}-{tier + 1}", f"{label} {noun.capitalize()} {tier + 1}"


def _dir_name(d: int) -> str:
    tier, j = divmod(d, len(_DIRS))
    return _DIRS[j] + (f"-{tier + 1}" if tier else "")


class _Pool:
    """Story subjects followed by bulk subjects, addressed by one index: (key, name)."""

    __slots__ = ("bulk", "make", "n_story", "size", "story")

    def __init__(
        self, story: list[tuple[str, str]], bulk: int, make: Callable[[int], tuple[str, str]]
    ) -> None:
        self.story = story
        self.n_story = len(story)
        self.bulk = bulk
        self.size = self.n_story + bulk
        self.make = make

    def get(self, i: int) -> tuple[str, str]:
        return self.story[i] if i < self.n_story else self.make(i - self.n_story)

    def pick(self, rng: random.Random) -> tuple[str, str]:
        return self.get(int(rng.random() * self.size))


# --- time -------------------------------------------------------------------------------


class _Clock:
    """Times as whole minutes since a base day, formatted without datetime arithmetic."""

    def __init__(self, anchor: datetime) -> None:
        anchor = anchor.replace(tzinfo=UTC) if anchor.tzinfo is None else anchor.astimezone(UTC)
        if not 1980 <= anchor.year < 2190:
            raise ValueError("anchor must lie between 1980 and 2190")
        self.day0 = anchor.replace(hour=0, minute=0, second=0, microsecond=0)
        base = self.day0 - timedelta(days=SPAN_DAYS + 1)
        self._days = [(base + timedelta(days=i)).strftime("%Y-%m-%d") for i in range(SPAN_DAYS + 3)]
        self._past = [
            (self.day0 - timedelta(days=k)).strftime("%Y-%m-%dT00:00:00Z")
            for k in range(_PAST_DAYS + 1)
        ]
        self.now = int((anchor - base).total_seconds()) // 60
        self.hi = self.now - 1  # latest usable minute, strictly before the anchor
        self.lo = self.now - SPAN_DAYS * _DAY + 1  # earliest, inside the span
        self._shift = self.day0.date() - DEFAULT_ANCHOR.date()

    def at(self, minute: int) -> str:
        return self._days[minute // _DAY] + _HM[minute % _DAY]

    def ago(self, days: float) -> str:
        return self.at(self.now - int(days * _DAY))

    def day_ago(self, days: int) -> str:
        """Midnight `days` days before the anchor's day."""
        return self._past[days]

    def story(self, year: int, month: int, day: int) -> str:
        """A story date: exact for the default anchor, moved with any other anchor."""
        return (date(year, month, day) + self._shift).isoformat() + "T00:00:00Z"

    def rand(self, rng: random.Random, lo: int, hi: int) -> int:
        return lo + int(rng.random() * (hi - lo + 1))


# --- the story ----------------------------------------------------------------------------


def _subject(key: str, name: str, **fields: Any) -> Record:
    return {"type": "subject", "key": key, "kind": key.split(":", 1)[0], "name": name,
            "source": SOURCE, **fields}  # fmt: skip


def _rel(relation: str, src: str, dst: str, evidence: str, **window: str) -> Record:
    return {"type": "relationship", "relation": relation, "from": src, "to": dst,
            "evidence": evidence, "source": SOURCE, **window}  # fmt: skip


_STORY_TEAMS = [("team:payments", "Payments"), ("team:platform", "Platform"),
                ("team:sre", "Site Reliability Engineering"),
                ("team:checkout", "Checkout Squad")]  # fmt: skip
_STORY_PEOPLE = [("person:alex-kim", "Alex Kim"), ("person:alex-romero", "Alex Romero"),
                 ("person:sam-lee", "Sam Lee"), ("person:priya-natarajan", "Priya Natarajan"),
                 ("person:jordan-okafor", "Jordan Okafor")]  # fmt: skip
# Active story repositories (legacy-billing is retired and takes no new edges or activity).
_STORY_REPOS = [("repository:payments-api", "payments-api"),
                ("repository:checkout-web", "checkout-web"),
                ("repository:ledger-core", "ledger-core")]  # fmt: skip
_STORY_SERVICES = [("service:payments", "Payments Service"),
                   ("service:checkout", "Checkout Service")]  # fmt: skip
_STORY_PROJECTS = [("project:q4-reliability", "Q4 Reliability")]
# Bulk activity stays off the story's "behind" subjects.
_QUIET_REPOS = _STORY_REPOS[1:]
_QUIET_SERVICES = _STORY_SERVICES[1:]


def _story_subjects(c: _Clock) -> list[Record]:
    d = c.story
    return [
        _subject("team:payments", "Payments", aliases=["Payments Team"], valid_from=d(2024, 1, 1),
                 description="Owns card payments: authorisation, capture, refunds, settlement.",
                 attributes={"on_call": "payments-oncall", "cost_center": "CC-1001"}),
        _subject("team:platform", "Platform", valid_from=d(2023, 6, 1),
                 description="Shared infrastructure, CI and developer tooling.",
                 attributes={"on_call": "platform-oncall", "cost_center": "CC-1002"}),
        _subject("team:sre", "Site Reliability Engineering", aliases=["SRE"],
                 valid_from=d(2023, 9, 1),
                 description="Runs production, incident response and the SLO programme.",
                 attributes={"on_call": "sre-oncall", "cost_center": "CC-1003"}),
        _subject("team:checkout", "Checkout Squad", valid_from=d(2026, 2, 1),
                 description="Formed from Payments to own the checkout journey end to end.",
                 attributes={"on_call": "checkout-oncall", "cost_center": "CC-1004"}),
        _subject("person:alex-kim", "Alex Kim", aliases=["Alex"], valid_from=d(2024, 3, 1),
                 attributes={"email": "alex.kim@example.com", "role": "Staff Engineer",
                             "location": "Berlin"}),
        _subject("person:alex-romero", "Alex Romero", aliases=["Alex"],
                 valid_from=d(2025, 5, 15),
                 attributes={"email": "alex.romero@example.com", "role": "Senior Engineer",
                             "location": "Lisbon"}),
        _subject("person:sam-lee", "Sam Lee", aliases=["Sam"], valid_from=d(2024, 11, 1),
                 attributes={"email": "sam.lee@example.com", "role": "Software Engineer",
                             "location": "Toronto"}),
        _subject("person:priya-natarajan", "Priya Natarajan", aliases=["Priya"],
                 valid_from=d(2023, 9, 1),
                 attributes={"email": "priya.natarajan@example.com", "role": "SRE Lead",
                             "location": "London"}),
        _subject("person:jordan-okafor", "Jordan Okafor", valid_from=d(2025, 1, 10),
                 attributes={"email": "jordan.okafor@example.com",
                             "role": "Engineering Manager", "location": "London"}),
        _subject("repository:payments-api", "payments-api", aliases=["payments", "pay-api"],
                 valid_from=d(2025, 1, 1),
                 description="Payment authorisation, capture and refunds API.",
                 attributes={"language": "go", "tier": 1, "default_branch": "main"}),
        _subject("repository:checkout-web", "checkout-web", aliases=["checkout"],
                 previous_names=["shop-frontend"], valid_from=d(2025, 6, 1),
                 description="Web checkout front end; renamed from shop-frontend.",
                 attributes={"language": "typescript", "tier": 1, "default_branch": "main"}),
        _subject("repository:ledger-core", "ledger-core", previous_names=["ledger"],
                 valid_from=d(2024, 6, 1),
                 description="Double-entry ledger library and reconciliation jobs.",
                 attributes={"language": "java", "tier": 1, "default_branch": "main"}),
        _subject("repository:legacy-billing", "legacy-billing", valid_from=d(2024, 1, 1),
                 valid_to=d(2025, 9, 30),
                 description="Retired billing monolith, replaced by payments-api.",
                 attributes={"language": "php", "tier": 3, "archived": True}),
        _subject("service:payments", "Payments Service", aliases=["payments-svc"],
                 valid_from=d(2025, 3, 1),
                 description="Production deployment of payments-api behind the card gateway.",
                 attributes={"tier": 1, "runtime": "kubernetes", "on_call": "sre-oncall"}),
        _subject("service:checkout", "Checkout Service", valid_from=d(2025, 6, 1),
                 description="Serves the checkout flow; calls Payments Service.",
                 attributes={"tier": 1, "runtime": "kubernetes",
                             "on_call": "checkout-oncall"}),
        _subject("project:q4-reliability", "Q4 Reliability", aliases=["Q4R"],
                 valid_from=d(2026, 9, 15),
                 description="Cut payment incidents and pay down reliability debt before peak.",
                 attributes={"status": "at_risk", "quarter": "Q4"}),
        _subject("module:payments-api/settlement", "payments-api/settlement",
                 description="Settlement batching and ledger posting.",
                 attributes={"path": "internal/settlement", "language": "go"}),
    ]  # fmt: skip


def _story_relationships(c: _Clock) -> list[Record]:
    d = c.story
    return [
        _rel("OWNS", "team:payments", "repository:checkout-web",
             "codeowners:checkout-web@2025-06-01", valid_from=d(2025, 6, 1),
             valid_to=d(2026, 2, 15)),
        _rel("OWNS", "team:checkout", "repository:checkout-web",
             "codeowners:checkout-web@2026-02-15", valid_from=d(2026, 2, 15)),
        _rel("OWNS", "team:payments", "repository:payments-api",
             "codeowners:payments-api@2025-01-01", valid_from=d(2025, 1, 1)),
        _rel("OWNS", "team:sre", "service:payments", "service-catalog:payments@2025-03-01",
             valid_from=d(2025, 3, 1)),
        _rel("OWNS", "team:platform", "repository:ledger-core",
             "codeowners:ledger-core@2024-06-01", valid_from=d(2024, 6, 1)),
        _rel("OWNS", "team:payments", "service:checkout", "service-catalog:checkout@2025-06-01",
             valid_from=d(2025, 6, 1), valid_to=d(2026, 2, 15)),
        _rel("OWNS", "team:checkout", "service:checkout", "service-catalog:checkout@2026-02-15",
             valid_from=d(2026, 2, 15)),
        _rel("OWNS", "team:payments", "repository:legacy-billing",
             "codeowners:legacy-billing@2024-01-01", valid_from=d(2024, 1, 1),
             valid_to=d(2025, 9, 30)),
        _rel("DEPENDS_ON", "repository:payments-api", "repository:ledger-core",
             "manifest:payments-api/go.mod"),
        _rel("DEPENDS_ON", "service:checkout", "service:payments", "tracing:checkout->payments"),
        _rel("PART_OF", "repository:payments-api", "project:q4-reliability",
             "tracker:q4-reliability", valid_from=d(2026, 9, 15)),
        _rel("PART_OF", "module:payments-api/settlement", "repository:payments-api",
             "tree:payments-api/internal/settlement"),
        _rel("MEMBER_OF", "person:alex-kim", "team:payments", "hr:payments@2024-03-01",
             valid_from=d(2024, 3, 1)),
        _rel("MEMBER_OF", "person:alex-romero", "team:payments", "hr:payments@2025-05-15",
             valid_from=d(2025, 5, 15), valid_to=d(2026, 2, 15)),
        _rel("MEMBER_OF", "person:alex-romero", "team:checkout", "hr:checkout@2026-02-15",
             valid_from=d(2026, 2, 15)),
        _rel("MEMBER_OF", "person:sam-lee", "team:platform", "hr:platform@2024-11-01",
             valid_from=d(2024, 11, 1), valid_to=d(2026, 4, 1)),
        _rel("MEMBER_OF", "person:sam-lee", "team:payments", "hr:payments@2026-04-01",
             valid_from=d(2026, 4, 1)),
        _rel("MEMBER_OF", "person:priya-natarajan", "team:sre", "hr:sre@2023-09-01",
             valid_from=d(2023, 9, 1)),
        _rel("MEMBER_OF", "person:jordan-okafor", "team:checkout", "hr:checkout@2026-02-01",
             valid_from=d(2026, 2, 1)),
        _rel("LEADS", "person:jordan-okafor", "team:checkout", "hr:checkout@2026-02-01",
             valid_from=d(2026, 2, 1)),
        _rel("LEADS", "person:priya-natarajan", "project:q4-reliability",
             "tracker:q4-reliability", valid_from=d(2026, 9, 15)),
        _rel("CONTRIBUTES_TO", "person:alex-kim", "repository:payments-api", "git:payments-api"),
        _rel("CONTRIBUTES_TO", "person:sam-lee", "repository:payments-api", "git:payments-api"),
        _rel("CONTRIBUTES_TO", "person:sam-lee", "repository:ledger-core", "git:ledger-core"),
        _rel("CONTRIBUTES_TO", "person:alex-romero", "repository:checkout-web",
             "git:checkout-web"),
    ]  # fmt: skip


def _story_episodes(c: _Clock) -> list[Record]:
    return [
        {"type": "episode", "key": "episode:1", "occurred_at": c.ago(6.08),
         "text": "Deploy of payments-api to production rolled back after error spike",
         "mentions": ["repository:payments-api", "service:payments"], "source": SOURCE},
        {"type": "episode", "key": "episode:2", "occurred_at": c.story(2026, 2, 15),
         "text": "Ownership of checkout-web (formerly shop-frontend) moved from Payments to "
                 "Checkout Squad",
         "mentions": ["repository:checkout-web", "team:payments", "team:checkout"],
         "source": SOURCE},
        {"type": "episode", "key": "episode:3", "occurred_at": c.ago(1.75),
         "text": "Alex Kim paged for Payments Service: card authorisation errors, still open",
         "mentions": ["person:alex-kim", "service:payments"], "source": SOURCE},
    ]  # fmt: skip


# (days ago opened, days to merge or None, status, actor, title) for repository:payments-api
_STORY_PRS = (
    (118.3, 1.2, "merged", "person:alex-kim", "Add capture retry with backoff"),
    (104.6, 0.8, "merged", "person:alex-kim", "Expose settlement lag metric"),
    (97.2, 1.5, "merged", "person:sam-lee", "Switch refunds to ledger-core client"),
    (88.4, 1.1, "merged", "person:alex-kim", "Fix double capture on timeout"),
    (76.7, 0.9, "merged", "person:sam-lee", "Remove legacy-billing adapter"),
    (69.1, 2.0, "merged", "person:alex-kim", "Batch settlement postings"),
    (61.5, 1.3, "merged", "person:sam-lee", "Harden webhook signature checks"),
    (52.2, 1.0, "merged", "person:alex-kim", "Add authorisation latency histogram"),
    (44.8, 1.6, "merged", "person:sam-lee", "Upgrade card gateway SDK"),
    (37.3, 1.2, "merged", "person:alex-kim", "Paginate refund listing"),
    (33.6, 2.0, "closed", "person:sam-lee", "Experiment: async capture"),
    (27.4, 5.5, "merged", "person:alex-kim", "Idempotency keys for capture (part 1)"),
    (19.2, 6.2, "merged", "person:sam-lee", "Ledger-core v2 client behind a flag"),
    (12.5, None, "open", "person:alex-kim", "Idempotency keys for capture (part 2)"),
    (6.3, None, "open", "person:sam-lee", "Reduce settlement lock contention"),
)


def _src(kind: str, n: int, subject: str, start: str, **fields: Any) -> Record:
    return {"type": "source_record", "key": f"{kind}:{n}", "record_kind": kind,
            "subject": subject, "start": start, "source": SOURCE, **fields}  # fmt: skip


def _story_source_records(c: _Clock) -> list[Record]:
    out: list[Record] = []
    n = 0
    for opened, days, status, actor, title in _STORY_PRS:
        n += 1
        fields: Record = {"actor": actor, "status": status, "title": title}
        if days is not None:
            fields["end"] = c.ago(opened - days)
        out.append(_src("pull_request", n, "repository:payments-api", c.ago(opened), **fields))
    out.append(_src("pull_request", n + 1, "repository:checkout-web", c.ago(9.4),
                    end=c.ago(8.7), actor="person:alex-romero", status="merged",
                    title="Show saved cards on the payment step"))  # fmt: skip
    out.append(_src("pull_request", n + 2, "repository:ledger-core", c.ago(15.1),
                    end=c.ago(14.2), actor="person:sam-lee", status="merged",
                    title="Publish v2 client artefact"))  # fmt: skip
    q4r, api = "project:q4-reliability", "repository:payments-api"
    out += [
        _src("work_item", 1, q4r, c.ago(52.4), due=c.day_ago(10), actor="person:alex-kim",
             status="in_progress", title="Add idempotency keys to payment capture retries"),
        _src("work_item", 2, api, c.ago(63.2), due=c.day_ago(21), actor="person:sam-lee",
             status="open", title="Migrate payments-api to the ledger-core v2 client"),
        _src("work_item", 3, q4r, c.ago(41.6), due=c.day_ago(3),
             actor="person:priya-natarajan", status="open",
             title="Write the runbook for settlement backlog alerts"),
        _src("work_item", 4, q4r, c.ago(58.5), due=c.day_ago(30), end=c.ago(27.8),
             actor="person:alex-kim", status="done",
             title="Load test the card authorisation path"),
        _src("work_item", 5, api, c.ago(35.1), due=c.day_ago(14), actor="person:alex-kim",
             status="in_progress", title="Remove dead code left by the legacy-billing cutover"),
        _src("incident", 1, "service:payments", c.ago(12.6), end=c.ago(12.45),
             actor="person:priya-natarajan", severity="sev2", status="resolved",
             title="Payment capture latency above SLO"),
        _src("incident", 2, "service:payments", c.ago(7.3), end=c.ago(7.1),
             actor="person:priya-natarajan", severity="sev3", status="resolved",
             title="Settlement job stuck on a ledger-core lock"),
        _src("incident", 3, "service:payments", c.ago(1.8), actor="person:alex-kim",
             severity="sev2", status="open", title="Elevated 5xx on card authorisation"),
        _src("deploy", 1, "service:payments", c.ago(6.1), environment="production",
             status="rolled_back", actor="person:alex-kim", title="payments-api v4.18.0"),
        _src("deploy", 2, "service:payments", c.ago(5.9), environment="production",
             status="success", actor="person:alex-kim", title="payments-api v4.18.1"),
        _src("deploy", 3, "service:checkout", c.ago(3.2), environment="staging",
             status="success", actor="person:alex-romero", title="checkout-web v2.7.0"),
        _src("metric_rollup", 1, api, c.day_ago(2), end=c.day_ago(1), metric="commits",
             value=3),
        _src("metric_rollup", 2, api, c.day_ago(2), end=c.day_ago(1), metric="lines_changed",
             value=140),
    ]  # fmt: skip
    return out


# Per-kind numbering continues after the story's records.
_STORY_COUNTS = {"pull_request": len(_STORY_PRS) + 2, "work_item": 5, "incident": 3,
                 "deploy": 3, "metric_rollup": 2, "episode": 3}  # fmt: skip


# --- the bulk organisation ---------------------------------------------------------------


def _split(total: int) -> list[int]:
    """Subjects per kind: every kind at least once when total >= 6."""
    counts = [0] * 6
    if total < 6:
        for kind in _SMALL_ORDER[:total]:
            counts[kind] = 1
        return counts
    counts = [max(1, int(total * w)) for w in _KIND_WEIGHTS]
    counts[PERSON] += total - sum(counts)
    while counts[PERSON] < 1:  # only for tiny totals, where the minimums overshoot
        biggest = max(range(6), key=lambda k: counts[k] if k != PERSON else -1)
        counts[biggest] -= 1
        counts[PERSON] += 1
    return counts


def _interleave(counts: list[int]) -> Iterator[tuple[int, int]]:
    """(kind, index) for every bulk subject, kinds mixed in proportion."""
    done = [0] * len(counts)
    kinds = [k for k in range(len(counts)) if counts[k]]
    for _ in range(sum(counts)):
        best = min(
            (k for k in kinds if done[k] < counts[k]), key=lambda k: (done[k] + 0.5) / counts[k]
        )
        yield best, done[best]
        done[best] += 1


class _Demo:
    def __init__(self, records: int, seed: int, anchor: datetime) -> None:
        self.c = _Clock(anchor)
        self.seed = seed
        self.rng = random.Random(seed)
        self.salts = [_mix(seed * 16 + kind) for kind in range(6)]
        self.story = (
            _story_subjects(self.c)
            + _story_relationships(self.c)
            + _story_episodes(self.c)
            + _story_source_records(self.c)
        )
        bulk = max(0, records - len(self.story))
        n_sub = max(round(bulk * 0.08), min(6, bulk // 4))
        self.n_rel = round(bulk * 0.20)
        self.n_ep = round(bulk * 0.12)
        self.n_src = bulk - n_sub - self.n_rel - self.n_ep
        self.counts = _split(n_sub)
        n = self.counts
        self.teams = _Pool(_STORY_TEAMS, n[TEAM], self._team)
        self.people = _Pool(_STORY_PEOPLE, n[PERSON], self._person)
        self.repos = _Pool(_STORY_REPOS, n[REPO], self._repo)
        self.services = _Pool(_STORY_SERVICES, n[SERVICE], self._service)
        self.projects = _Pool(_STORY_PROJECTS, n[PROJECT], self._project)
        self.busy_repos = _Pool(_QUIET_REPOS, n[REPO], self._repo)
        self.busy_services = _Pool(_QUIET_SERVICES, n[SERVICE], self._service)
        self.busy_projects = _Pool([], n[PROJECT], self._project)

    def stream(self) -> Iterator[Record]:
        yield from self.story
        yield from self._subjects()
        yield from islice(chain(self._relationships(), self._padding()), self.n_rel)
        yield from self._episodes()
        yield from self._source_records()

    # -- subjects --------------------------------------------------------------------

    def _trait(self, kind: int, i: int) -> int:
        return _mix(self.salts[kind] + i)

    def _since(self, h: int) -> int:
        """Days before the anchor's day that the subject came into being."""
        return 30 + h % 1_400

    def _retired(self, h: int, since: int) -> int | None:
        """Days before the anchor's day that the subject retired, for about 2%."""
        if (h >> 12) % 50:
            return None
        return 1 + (h >> 24) % (since - 1)

    def _team(self, i: int) -> tuple[str, str]:
        slug, name = _team_name(i)
        return f"team:{slug}", name

    def _person(self, i: int) -> tuple[str, str]:
        slug, name, _ = _person_name(i)
        return f"person:{slug}", name

    def _repo(self, i: int) -> tuple[str, str]:
        slug = _repo_slug(i)
        return f"repository:{slug}", slug

    def _service(self, i: int) -> tuple[str, str]:
        slug = _service_slug(i)
        return f"service:{slug}", _service_name(slug)

    def _project(self, i: int) -> tuple[str, str]:
        slug, name = _project_parts(i)
        return f"project:{slug}", name

    def _module(self, j: int) -> tuple[str, str]:
        # Module j sits in repository j mod |repos|; j div |repos| numbers its directory.
        d, repo = divmod(j, self.repos.size)
        name = f"{self.repos.get(repo)[1]}/{_dir_name(d)}"
        return f"module:{name}", name

    def _subjects(self) -> Iterator[Record]:
        make = (self._team_record, self._person_record, self._repo_record,
                self._service_record, self._project_record, self._module_record)  # fmt: skip
        for kind, i in _interleave(self.counts):
            yield make[kind](i, self._trait(kind, i))

    def _window(self, record: Record, h: int) -> Record:
        since = self._since(h)
        record["valid_from"] = self.c.day_ago(since)
        retired = self._retired(h, since)
        if retired is not None:
            record["valid_to"] = self.c.day_ago(retired)
        return record

    def _team_record(self, i: int, h: int) -> Record:
        slug, name = _team_name(i)
        record = _subject(f"team:{slug}", name, aliases=[name.removeprefix("Team ")],
                          description=f"{name} builds and runs a slice of the product.",
                          attributes={"on_call": f"{slug}-oncall",
                                      "cost_center": f"CC-{2000 + i}"})  # fmt: skip
        if h & 1:
            record["valid_from"] = self.c.day_ago(self._since(h))
        return record

    def _person_record(self, i: int, h: int) -> Record:
        slug, name, first = _person_name(i)
        record = _subject(
            f"person:{slug}", name,
            attributes={"email": f"{slug.replace('-', '.')}@example.com",
                        "role": _ROLES[(h >> 8) % len(_ROLES)],
                        "location": _LOCATIONS[(h >> 16) % len(_LOCATIONS)]},
        )  # fmt: skip
        if (h >> 4) % 3 == 0:
            record["aliases"] = [first]
        record["valid_from"] = self.c.day_ago(self._since(h))
        return record

    def _repo_record(self, i: int, h: int) -> Record:
        domain, role, tier = _repo_parts(i)
        slug = _repo_slug(i)
        language = _LANGUAGES[(h >> 8) % len(_LANGUAGES)]
        record = _subject(
            f"repository:{slug}", slug,
            description=f"{_ROLE_TEXT[role]} for the {domain.replace('-', ' ')} domain, "
                        f"written in {language.capitalize()}.",
            attributes={"language": language, "tier": 1 + (h >> 16) % 3,
                        "default_branch": "main" if (h >> 20) % 5 else "master"},
        )  # fmt: skip
        if slug.count("-") >= 2 + (1 if tier else 0):
            record["aliases"] = [_acronym(f"{domain}-{role}")]
        if (h >> 32) % 33 == 0:
            old = f"{domain.replace('-', '')}_{role}" + (f"_{tier + 1}" if tier else "")
            record["previous_names"] = [old]
        return self._window(record, h)

    def _service_record(self, i: int, h: int) -> Record:
        slug = _service_slug(i)
        name = _service_name(slug)
        record = _subject(
            f"service:{slug}", name,
            description=f"{name} runs the {slug.split('-')[0]} capability in production.",
            attributes={"tier": 1 + (h >> 16) % 3, "runtime": _RUNTIMES[(h >> 8) % 4],
                        "on_call": f"{slug}-oncall"},
        )  # fmt: skip
        aliases = [f"{slug.removesuffix('-service')}-svc"]
        if len(name.split()) >= 3:
            aliases.append(_acronym(name.replace(" ", "-")))
        record["aliases"] = aliases
        return self._window(record, h)

    def _project_record(self, i: int, h: int) -> Record:
        slug, name = _project_parts(i)
        record = _subject(
            f"project:{slug}", name, description=f"{name}: a cross-team initiative.",
            attributes={"status": ("planned", "active", "active", "done")[(h >> 8) % 4]},
        )  # fmt: skip
        if (h >> 4) % 3 == 0:
            record["aliases"] = [_acronym(name.replace(" ", "-"))]
        if h & 1:
            record["valid_from"] = self.c.day_ago(self._since(h))
        return record

    def _module_record(self, i: int, h: int) -> Record:
        key, name = self._module(i)
        path = name.split("/", 1)[1]
        return _subject(key, name, description=f"The {path} package of {name.split('/')[0]}.",
                        attributes={"path": f"src/{path}"})  # fmt: skip

    # -- relationships ---------------------------------------------------------------

    def _relationships(self) -> Iterator[Record]:
        """Structural edges per bulk subject, plus fan-out edges that keep the total on target.

        Each edge has a bulk subject at one end and is unique by construction, so no two
        share (relation, from, to, valid_from) and no explicit id is needed.
        """
        n_sub = sum(self.counts)
        emitted = 0
        for pos, (kind, i) in enumerate(_interleave(self.counts)):
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
            return [_rel("OWNS", first, key, f"{label}:{slug}@{start[:10]}", valid_from=start,
                         **end)]  # fmt: skip
        switch = self.c.day_ago(last + 1 + int(self.rng.random() * (since - last - 30)))
        second = self._other_team(first)[0]
        return [
            _rel("OWNS", first, key, f"{label}:{slug}@{start[:10]}", valid_from=start,
                 valid_to=switch),
            _rel("OWNS", second, key, f"{label}:{slug}@{switch[:10]}", valid_from=switch,
                 **end),
        ]  # fmt: skip

    def _other_team(self, team: str) -> tuple[str, str]:
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
                return [_rel("MEMBER_OF", key, team, f"hr:{slug}@{start[:10]}",
                             valid_from=start)]  # fmt: skip
            switch = self.c.day_ago(1 + int(rng.random() * (since - 30)))
            team2 = self._other_team(team)[0]
            return [
                _rel("MEMBER_OF", key, team, f"hr:{slug}@{start[:10]}", valid_from=start,
                     valid_to=switch),
                _rel("MEMBER_OF", key, team2, f"hr:{team2.split(':', 1)[1]}@{switch[:10]}",
                     valid_from=switch),
            ]  # fmt: skip
        if kind == REPO:
            key, slug = self._repo(i)
            edges = self._owner_edges(key, slug, h, "codeowners")
            if (h >> 44) % 5 < 3:
                project = self.projects.pick(rng)[0]
                edges.append(_rel("PART_OF", key, project, f"tracker:{project[8:]}"))
            return edges
        if kind == SERVICE:
            key = self._service(i)[0]
            return self._owner_edges(key, key[8:], h, "service-catalog")
        if kind == MODULE:
            key, name = self._module(i)
            repo = self.repos.get(i % self.repos.size)[0]
            return [_rel("PART_OF", key, repo, f"tree:{name}")]
        if kind == TEAM:
            key = self._team(i)[0]
            lead = self.people.pick(rng)[0]
            return [_rel("LEADS", lead, key, f"hr:{key[5:]}")]
        key = self._project(i)[0]
        lead = self.people.pick(rng)[0]
        return [_rel("LEADS", lead, key, f"tracker:{key[8:]}")]

    def _fan_out(self, kind: int, i: int, room: int) -> list[Record]:
        rng = self.rng
        if kind == PERSON:
            key = self._person(i)[0]
            picks = rng.sample(range(self.repos.size), min(room, 8, self.repos.size))
            out = []
            for p in picks:
                repo, name = self.repos.get(p)
                out.append(_rel("CONTRIBUTES_TO", key, repo, f"git:{name}"))
            return out
        if kind in (REPO, SERVICE):
            pool = self.repos if kind == REPO else self.services
            idx = pool.n_story + i
            key = pool.get(idx)[0]
            evidence = "manifest" if kind == REPO else "tracing"
            # Only earlier subjects as targets: the dependency graph has no cycles.
            picks = rng.sample(range(idx), min(room, 6 if kind == REPO else 4, idx))
            return [
                _rel("DEPENDS_ON", key, pool.get(p)[0], f"{evidence}:{key.split(':', 1)[1]}")
                for p in picks
            ]
        return []

    def _padding(self) -> Iterator[Record]:
        """Contribution periods for tiny organisations: each round has its own start time."""
        for rnd in count(1):
            start = self.c.at(self.c.lo + rnd * 60)
            for p in range(self.people.size):
                person = self.people.get(p)[0]
                repo, name = self.repos.pick(self.rng)
                yield _rel("CONTRIBUTES_TO", person, repo, f"git:{name}@{start[:10]}",
                           valid_from=start)  # fmt: skip

    # -- episodes ----------------------------------------------------------------------

    def _episodes(self) -> Iterator[Record]:
        rng, c = self.rng, self.c
        first = _STORY_COUNTS["episode"] + 1
        for n in range(first, first + self.n_ep):
            shape = int(rng.random() * 8)
            if shape == 0:
                repo = self.repos.pick(rng)
                text = f"Deploy of {repo[1]} to production rolled back after error spike"
                mentions = [repo[0]]
            elif shape == 1:
                person, team = self.people.pick(rng), self.teams.pick(rng)
                other = self._other_team(team[0])
                text = f"{person[1]} moved from {other[1]} to {team[1]}"
                mentions = [person[0], other[0], team[0]]
            elif shape == 2:
                team, service = self.teams.pick(rng), self.services.pick(rng)
                text = f"{team[1]} took over on-call for {service[1]}"
                mentions = [team[0], service[0]]
            elif shape == 3:
                service, repo = self.services.pick(rng), self.repos.pick(rng)
                text = f"Postmortem: {service[1]} outage traced to a config change in {repo[1]}"
                mentions = [service[0], repo[0]]
            elif shape == 4:
                person, repo = self.people.pick(rng), self.repos.pick(rng)
                text = f"{person[1]} proposed splitting {repo[1]} into smaller modules"
                mentions = [person[0], repo[0]]
            elif shape == 5:
                a, b = self.services.pick(rng), self.services.pick(rng)
                text = f"Architecture review approved {a[1]} calling {b[1]} synchronously"
                mentions = [a[0]] if a[0] == b[0] else [a[0], b[0]]
            elif shape == 6:
                project, team = self.projects.pick(rng), self.teams.pick(rng)
                text = f"{project[1]} kickoff: {team[1]} committed to the first milestone"
                mentions = [project[0], team[0]]
            else:
                repo = self.repos.pick(rng)
                text = f"Dependency upgrade in {repo[1]} broke the build for two days"
                mentions = [repo[0]]
            yield {"type": "episode", "key": f"episode:{n}",
                   "occurred_at": c.at(c.rand(rng, c.lo, c.hi)), "text": text,
                   "mentions": mentions, "source": SOURCE}  # fmt: skip

    # -- source records ------------------------------------------------------------------

    def _source_records(self) -> Iterator[Record]:
        rng, c = self.rng, self.c
        numbers = {kind: n + 1 for kind, n in _STORY_COUNTS.items()}
        lo, hi = c.lo, c.hi
        day = _DAY
        for _ in range(self.n_src):
            u = rng.random()
            if u < 0.40:
                kind = "pull_request"
                repo, _name = self.busy_repos.pick(rng)
                start = c.rand(rng, lo, hi)
                record = _src(kind, numbers[kind], repo, c.at(start),
                              actor=self.people.pick(rng)[0],
                              title=_PR_TITLES[int(rng.random() * len(_PR_TITLES))])  # fmt: skip
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
                if self.busy_projects.size and rng.random() < 0.4:
                    subject = self.busy_projects.pick(rng)[0]
                else:
                    subject = self.busy_repos.pick(rng)[0]
                start = c.rand(rng, lo, hi - 60 * day)
                due = start + 7 * day + int(rng.random() * 53 * day)
                record = _src(
                    kind,
                    numbers[kind],
                    subject,
                    c.at(start),
                    due=c.at(due),
                    actor=self.people.pick(rng)[0],
                    title=_WORK_TITLES[int(rng.random() * len(_WORK_TITLES))],
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
                service, name = self.busy_services.pick(rng)
                start = c.rand(rng, lo, hi)
                v = rng.random()
                severity = "sev1" if v < 0.05 else "sev2" if v < 0.20 else (
                    "sev3" if v < 0.60 else "sev4")  # fmt: skip
                symptom = _SYMPTOMS[int(rng.random() * len(_SYMPTOMS))]
                record = _src(
                    kind,
                    numbers[kind],
                    service,
                    c.at(start),
                    severity=severity,
                    actor=self.people.pick(rng)[0],
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
                service, name = self.busy_services.pick(rng)
                v = rng.random()
                status = "success" if v < 0.90 else "failed" if v < 0.96 else "rolled_back"
                version = (
                    f"v{1 + int(rng.random() * 9)}.{int(rng.random() * 40)}"
                    f".{int(rng.random() * 20)}"
                )
                record = _src(kind, numbers[kind], service, c.at(c.rand(rng, lo, hi)),
                              environment="production" if rng.random() < 0.6 else "staging",
                              status=status, title=f"{service[8:]} {version}")  # fmt: skip
            else:
                kind = "metric_rollup"
                repo = self.busy_repos.pick(rng)[0]
                back = 1 + int(rng.random() * (SPAN_DAYS - 1))
                if rng.random() < 0.5:
                    metric, value = "commits", int(rng.random() * 30)
                else:
                    metric, value = "lines_changed", int(rng.random() * rng.random() * 4_000)
                record = _src(kind, numbers[kind], repo, c.day_ago(back),
                              end=c.day_ago(back - 1), metric=metric, value=value)  # fmt: skip
            numbers[kind] += 1
            yield record


def generate(
    records: int, seed: int = 7, anchor: datetime = DEFAULT_ANCHOR
) -> Iterator[dict[str, Any]]:
    """Exactly `records` projection records of a demo organisation, in load order.

    Deterministic in (records, seed, anchor); streaming, so memory stays flat at any size.
    The story (see the module docstring) comes first and is complete from about 75 records;
    every bulk feature is present from 100.
    """
    if records < 0:
        raise ValueError("records must not be negative")
    demo = _Demo(records, seed, anchor)
    return islice(demo.stream(), records)
