"""Canonical facts: the closed vocabulary the investigation engine reads and claims.

A canonical fact is a typed value about one subject over a time window, computed by a fact
provider from canonical source records (or evidence-backed relationships). The graph may ask
for facts; it never mints them. Every fact names the evidence it was computed from.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.domain.evidence import EvidenceSelector


class FactKind(enum.StrEnum):
    """What a fact measures. Closed: interpretation may only ever name one of these."""

    THROUGHPUT = "throughput"  # pull requests merged in the window
    CYCLE_TIME = "cycle_time"  # median hours from opened to merged, of those merged
    OPEN_PULL_REQUESTS = "open_pull_requests"
    INCIDENT_COUNT = "incident_count"  # incidents started in the window
    OPEN_INCIDENTS = "open_incidents"  # unresolved at the window's end
    TIME_TO_RESOLVE = "time_to_resolve"  # median hours from start to resolution
    WORK_ITEMS_OVERDUE = "work_items_overdue"  # due before the window's end, not completed
    WORK_ITEMS_COMPLETED = "work_items_completed"
    DEPLOY_FREQUENCY = "deploy_frequency"  # production deploys in the window
    FAILED_DEPLOYS = "failed_deploys"
    OWNERSHIP = "ownership"  # who owned the subject at the effective time
    COMMIT_ACTIVITY = "commit_activity"  # daily commit rollups summed over the window
    SERVICE_PROFILE = "service_profile"  # tier and on-call as recorded now (no history)
    CHURN = "churn"  # lines added and removed in the window, against the window before
    ACTIVE_CONTRIBUTORS = "active_contributors"  # who changed it in the window, most first
    BUS_FACTOR = "bus_factor"  # fewest people who made half of the window's changes
    CHANGES = "changes"  # the changes themselves (commits, merged pull requests), newest first


class Grain(enum.StrEnum):
    """The precision a provider answered at. Coarser ranks higher."""

    INSTANT = "instant"
    DAY = "day"
    WEEK = "week"

    @property
    def rank(self) -> int:
        return _GRAIN_RANK[self]

    @staticmethod
    def coarsest(grains: list[Grain]) -> Grain | None:
        return max(grains, key=lambda g: g.rank) if grains else None


# The facts that can show a subject behind or under strain: delivery, incidents, work items
# and deploys. Commits, churn, contributors and ownership say how much something changed and
# who changed it, not whether it is healthy (engine/questions/status.py says so when only they
# exist).
HEALTH_KINDS = frozenset(
    {
        FactKind.THROUGHPUT,
        FactKind.CYCLE_TIME,
        FactKind.OPEN_PULL_REQUESTS,
        FactKind.INCIDENT_COUNT,
        FactKind.OPEN_INCIDENTS,
        FactKind.TIME_TO_RESOLVE,
        FactKind.WORK_ITEMS_OVERDUE,
        FactKind.WORK_ITEMS_COMPLETED,
        FactKind.DEPLOY_FREQUENCY,
        FactKind.FAILED_DEPLOYS,
    }
)

_GRAIN_RANK = {Grain.INSTANT: 0, Grain.DAY: 1, Grain.WEEK: 2}


class HistoryTier(enum.StrEnum):
    """How a provider can answer for the past.

    ROLLUP: pre-aggregated periods (a day's rollup) bound the answer.
    INTERVAL: derived from immutable interval columns (opened/merged, started/resolved).
    NONE: no recorded history; for a past time the provider is not applicable.
    """

    ROLLUP = "rollup"
    INTERVAL = "interval"
    NONE = "none"


class ProviderState(enum.StrEnum):
    AVAILABLE = "available"
    NO_DATA = "no_data"  # a bounded read found no rows: "nothing retained then", not "zero"
    NOT_APPLICABLE = "not_applicable"  # no history for the requested (past) time
    FAILED = "failed"


class Fact(BaseModel):
    """One canonical fact. `value` is a flat JSON object whose exact content a claimed fact
    must reproduce (deep equality) for a driver to cite it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(description="Stable: provider, kind, subject and window.")
    kind: FactKind
    subject_key: str
    value: dict[str, Any]
    window_start: datetime
    window_end: datetime
    grain: Grain
    provider: str
    evidence: tuple[str, ...] = Field(description="Keys of the source records or relationships.")
    evidence_total: int = Field(default=0, description="How many records back it (all of them).")
    evidence_selector: EvidenceSelector | None = Field(
        default=None, description="Reads every record back (see engine/domain/evidence.py)."
    )
    # One person's part of the subject (engine/resolving/together.py): the fact counts the
    # subject's records whose actor is that person (`others`: anyone else); its id names both.
    actor_key: str | None = Field(
        default=None, description="Whose part of the subject it counts; None: everyone's."
    )
    others: bool = Field(default=False, description="Everyone's part but `actor_key`'s.")


def fact_id(provider: str, kind: FactKind, subject_key: str, start: datetime, end: datetime) -> str:
    return f"{provider}:{kind.value}:{subject_key}:{start.isoformat()}/{end.isoformat()}"
