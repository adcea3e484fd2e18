"""A data source: a deterministic synthetic organisation, as projection records (NDJSON v1).

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

The modules, in the order they are used: clock.py (time without the wall clock), names.py
(names from an index), story.py (the fixed story), organisation.py (the bulk organisation's
sizes, identities and random stream), subjects.py and relationships.py (its subjects and
relationships), activity.py (its episodes and source records). The other data source, the
git import, stays under graph/git/ for now.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from itertools import chain, islice
from typing import Any

from sources.demo.activity import episodes, source_records
from sources.demo.clock import DEFAULT_ANCHOR, SOURCE, SPAN_DAYS
from sources.demo.organisation import Organisation
from sources.demo.relationships import padding, relationships
from sources.demo.subjects import subjects

__all__ = ["DEFAULT_ANCHOR", "SOURCE", "SPAN_DAYS", "generate"]


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
    org = Organisation(records, seed, anchor)
    # One random stream, drawn in this order: the order is part of the output's identity.
    stream = chain(
        org.story,
        subjects(org),
        islice(chain(relationships(org), padding(org)), org.n_rel),
        episodes(org),
        source_records(org),
    )
    return islice(stream, records)
