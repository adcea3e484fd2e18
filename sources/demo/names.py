"""Demo names from an index: name pools, index shuffles and the pool that puts the story's
subjects before the bulk ones, so subject keys are computed, never stored."""

from __future__ import annotations

import random
from collections.abc import Callable
from math import gcd

M64 = (1 << 64) - 1

TEAM, PERSON, REPO, SERVICE, PROJECT, MODULE = range(6)
KIND_WEIGHTS = (0.06, 0.40, 0.22, 0.12, 0.05, 0.15)
SMALL_ORDER = (REPO, PERSON, TEAM, SERVICE, PROJECT, MODULE)

# --- name pools ------------------------------------------------------------------------

TEAM_WORDS = (
    "Aurora", "Borealis", "Comet", "Delta", "Ember", "Falcon", "Glacier", "Harbor", "Ion",
    "Juniper", "Kestrel", "Lumen", "Meridian", "Nebula", "Onyx", "Pioneer", "Quasar", "Raven",
    "Summit", "Tundra", "Umbra", "Vertex", "Willow", "Zenith", "Atlas", "Beacon", "Cobalt",
    "Drift", "Echo", "Fjord", "Granite", "Helix", "Indigo", "Jade", "Kite", "Lynx", "Mosaic",
    "Nova", "Orbit", "Prism",
)  # fmt: skip
FIRST = (
    "Alex", "Sam", "Chris", "Alexandra", "Samantha", "Christina", "Jordan", "Taylor", "Morgan",
    "Priya", "Wei", "Fatima", "Lukas", "Sofia", "Mateo", "Aisha", "Kenji", "Olga", "Diego",
    "Hannah", "Omar", "Ines", "Ravi", "Noah", "Mia", "Elena", "Tomasz", "Yuki", "Amara",
    "Jonas", "Leila", "Marco", "Nadia",
)  # fmt: skip
LAST = (
    "Chen", "Garcia", "Muller", "Patel", "Nguyen", "Silva", "Johansson", "Kowalski", "Haddad",
    "Tanaka", "Okonkwo", "Rossi", "Novak", "Fischer", "Singh", "Moreau", "Costa", "Ivanova",
    "Park", "Schmidt", "Ahmed", "Dubois", "Reyes", "Larsen", "Yilmaz", "Sato", "Mendes",
    "Brennan", "Hughes", "Lindqvist", "Petrov", "Alvarez", "Bianchi", "Cohen", "Dias",
    "Eriksen", "Fontaine", "Gallagher", "Horvat", "Ito", "Jensen", "Kaur", "Lopez", "Martins",
    "Nakamura", "Oliveira", "Popescu", "Quinn", "Ramos", "Sorensen", "Torres", "Usman",
    "Vargas", "Walsh", "Xu", "Yamamoto", "Zhang", "Abbasi", "Becker", "Carvalho", "Doyle",
)  # fmt: skip
INITIALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOCATIONS = ("Berlin", "Lisbon", "London", "Toronto", "Singapore", "Austin", "Warsaw", "Remote")
ROLES = (
    "Software Engineer", "Senior Engineer", "Staff Engineer", "Engineering Manager",
    "Site Reliability Engineer", "Product Manager", "Data Engineer", "QA Engineer",
)  # fmt: skip
DOMAINS = (
    "inventory", "fraud", "customer-identity", "order", "search", "pricing", "catalog",
    "shipping", "notification", "order-history", "risk-model", "user-profile", "billing",
    "reporting", "analytics", "recommendation", "loyalty", "tax", "refund", "audit", "session",
    "media", "geo", "warehouse", "supplier", "promo", "review", "feature-flag", "price-rule",
    "merchant-onboarding",
)  # fmt: skip
REPO_ROLES = (
    "sync", "scoring", "service", "api", "worker", "gateway", "engine", "store", "pipeline",
    "portal", "adapter", "indexer", "scheduler", "exporter", "web", "sdk", "jobs",
)  # fmt: skip
ROLE_TEXT = {
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
SERVICE_ROLES = (
    "service", "gateway", "router", "broker", "scoring", "sync", "engine", "scheduler", "store",
    "notifier", "resolver",
)  # fmt: skip
LANGUAGES = ("go", "python", "java", "typescript", "kotlin", "rust", "scala", "ruby")
RUNTIMES = ("kubernetes", "lambda", "ecs", "nomad")
THEMES = (
    ("search-relevance", "Search Relevance"), ("billing-accuracy", "Billing Accuracy"),
    ("onboarding", "Onboarding"), ("mobile-checkout", "Mobile Checkout"),
    ("data-retention", "Data Retention"), ("observability", "Observability"),
    ("cost-reduction", "Cost Reduction"), ("api-versioning", "API Versioning"),
    ("sso", "SSO"), ("accessibility", "Accessibility"), ("latency", "Latency"),
    ("disaster-recovery", "Disaster Recovery"), ("pci-compliance", "PCI Compliance"),
    ("localisation", "Localisation"), ("partner-api", "Partner API"),
)  # fmt: skip
PROJECT_NOUNS = (
    "revamp", "migration", "hardening", "cleanup", "launch", "rewrite", "rollout", "audit",
)  # fmt: skip
DIRS = (
    "api", "core", "db", "workers", "client", "config", "auth", "events", "cli", "internal",
    "handlers", "models", "jobs", "web", "proto", "migrations",
)  # fmt: skip
PR_TITLES = tuple(
    f"{verb} {thing}"
    for verb in ("Fix", "Add", "Refactor", "Remove", "Speed up", "Document", "Test")
    for thing in (
        "retry logic", "pagination", "config loading", "metrics export", "auth middleware",
        "schema migration", "cache invalidation", "error handling", "feature flag checks",
        "batch job", "rate limiting", "logging noise",
    )
)  # fmt: skip
WORK_TITLES = tuple(
    f"{verb} {thing}"
    for verb in ("Investigate", "Implement", "Design", "Roll out", "Deprecate", "Upgrade")
    for thing in (
        "alerting thresholds", "dependency versions", "the on-call runbook", "SLO dashboards",
        "data export", "access reviews", "load tests", "the public API", "backfill job",
    )
)  # fmt: skip
SYMPTOMS = (
    "elevated error rate", "latency above SLO", "pods crash-looping", "queue backlog growing",
    "stale cache served", "certificate expired", "database connections exhausted",
    "degraded after deploy",
)  # fmt: skip


def stride(n: int) -> int:
    """A step coprime with n, so i -> i*step mod n visits every slot once (a shuffle)."""
    step = int(n * 0.6180339887) | 1
    while gcd(step, n) != 1:
        step += 2
    return step


PEOPLE_COMBOS = len(FIRST) * len(LAST)
PEOPLE_STEP = stride(PEOPLE_COMBOS)
REPO_COMBOS = len(DOMAINS) * len(REPO_ROLES)
REPO_STEP = stride(REPO_COMBOS)
SERVICE_COMBOS = len(DOMAINS) * len(SERVICE_ROLES)
SERVICE_STEP = stride(SERVICE_COMBOS)
PROJECT_COMBOS = len(THEMES) * len(PROJECT_NOUNS)
PROJECT_STEP = stride(PROJECT_COMBOS)


def mix(x: int) -> int:
    """splitmix64 finaliser: a well-spread 64-bit hash of an integer."""
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def title_case(slug: str) -> str:
    return " ".join(word.capitalize() for word in slug.split("-"))


def acronym(slug: str) -> str:
    return "".join(word[0] for word in slug.split("-")).upper()


# --- bulk names from an index ------------------------------------------------------------


def team_name(i: int) -> tuple[str, str]:
    tier, j = divmod(i, len(TEAM_WORDS))
    word = TEAM_WORDS[(j * 7) % len(TEAM_WORDS)]
    if tier == 0:
        return word.lower(), f"Team {word}"
    return f"{word.lower()}-{tier + 1}", f"Team {word} {tier + 1}"


def person_name(i: int) -> tuple[str, str, str]:
    """(slug, full name, first name)."""
    tier, r = divmod(i, PEOPLE_COMBOS)
    j = (r * PEOPLE_STEP) % PEOPLE_COMBOS
    first = FIRST[j % len(FIRST)]
    last = LAST[j // len(FIRST)]
    if tier == 0:
        return f"{first}-{last}".lower(), f"{first} {last}", first
    extra, t = divmod(tier - 1, len(INITIALS))
    initial = INITIALS[t]
    slug = f"{first}-{initial}-{last}".lower() + (f"-{extra + 1}" if extra else "")
    return slug, f"{first} {initial}. {last}", first


def repo_parts(i: int) -> tuple[str, str, int]:
    tier, r = divmod(i, REPO_COMBOS)
    j = (r * REPO_STEP) % REPO_COMBOS
    return DOMAINS[j % len(DOMAINS)], REPO_ROLES[j // len(DOMAINS)], tier


def repo_slug(i: int) -> str:
    domain, role, tier = repo_parts(i)
    return f"{domain}-{role}" + (f"-{tier + 1}" if tier else "")


def service_slug(i: int) -> str:
    tier, r = divmod(i, SERVICE_COMBOS)
    j = (r * SERVICE_STEP + 11) % SERVICE_COMBOS
    slug = f"{DOMAINS[j % len(DOMAINS)]}-{SERVICE_ROLES[j // len(DOMAINS)]}"
    return slug + (f"-{tier + 1}" if tier else "")


def service_name(slug: str) -> str:
    name = title_case(slug)
    return name if slug.split("-")[-1] == "service" else f"{name} Service"


def project_parts(i: int) -> tuple[str, str]:
    tier, r = divmod(i, PROJECT_COMBOS)
    j = (r * PROJECT_STEP) % PROJECT_COMBOS
    theme, label = THEMES[j % len(THEMES)]
    noun = PROJECT_NOUNS[j // len(THEMES)]
    if tier == 0:
        return f"{theme}-{noun}", f"{label} {noun.capitalize()}"
    return f"{theme}-{noun}-{tier + 1}", f"{label} {noun.capitalize()} {tier + 1}"


def dir_name(d: int) -> str:
    tier, j = divmod(d, len(DIRS))
    return DIRS[j] + (f"-{tier + 1}" if tier else "")


class Pool:
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
