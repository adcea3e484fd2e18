"""The fixed demo story (see sources/demo/__init__.py): the same subjects, edges, episodes
and source records for every seed, dated relative to the anchor."""

from __future__ import annotations

from typing import Any

from sources.demo.clock import SOURCE, Clock

Record = dict[str, Any]

# --- the story ----------------------------------------------------------------------------


def subject(key: str, name: str, **fields: Any) -> Record:
    return {"type": "subject", "key": key, "kind": key.split(":", 1)[0], "name": name,
            "source": SOURCE, **fields}  # fmt: skip


def rel(relation: str, src: str, dst: str, evidence: str, **window: str) -> Record:
    return {"type": "relationship", "relation": relation, "from": src, "to": dst,
            "evidence": evidence, "source": SOURCE, **window}  # fmt: skip


STORY_TEAMS = [("team:payments", "Payments"), ("team:platform", "Platform"),
                ("team:sre", "Site Reliability Engineering"),
                ("team:checkout", "Checkout Squad")]  # fmt: skip
STORY_PEOPLE = [("person:alex-kim", "Alex Kim"), ("person:alex-romero", "Alex Romero"),
                 ("person:sam-lee", "Sam Lee"), ("person:priya-natarajan", "Priya Natarajan"),
                 ("person:jordan-okafor", "Jordan Okafor")]  # fmt: skip
# Active story repositories (legacy-billing is retired and takes no new edges or activity).
STORY_REPOS = [("repository:payments-api", "payments-api"),
                ("repository:checkout-web", "checkout-web"),
                ("repository:ledger-core", "ledger-core")]  # fmt: skip
STORY_SERVICES = [("service:payments", "Payments Service"),
                   ("service:checkout", "Checkout Service")]  # fmt: skip
STORY_PROJECTS = [("project:q4-reliability", "Q4 Reliability")]
# Bulk activity stays off the story's "behind" subjects.
QUIET_REPOS = STORY_REPOS[1:]
QUIET_SERVICES = STORY_SERVICES[1:]


def story_subjects(c: Clock) -> list[Record]:
    d = c.story
    return [
        subject("team:payments", "Payments", aliases=["Payments Team"], valid_from=d(2024, 1, 1),
                 description="Owns card payments: authorisation, capture, refunds, settlement.",
                 attributes={"on_call": "payments-oncall", "cost_center": "CC-1001"}),
        subject("team:platform", "Platform", valid_from=d(2023, 6, 1),
                 description="Shared infrastructure, CI and developer tooling.",
                 attributes={"on_call": "platform-oncall", "cost_center": "CC-1002"}),
        subject("team:sre", "Site Reliability Engineering", aliases=["SRE"],
                 valid_from=d(2023, 9, 1),
                 description="Runs production, incident response and the SLO programme.",
                 attributes={"on_call": "sre-oncall", "cost_center": "CC-1003"}),
        subject("team:checkout", "Checkout Squad", valid_from=d(2026, 2, 1),
                 description="Formed from Payments to own the checkout journey end to end.",
                 attributes={"on_call": "checkout-oncall", "cost_center": "CC-1004"}),
        subject("person:alex-kim", "Alex Kim", aliases=["Alex"], valid_from=d(2024, 3, 1),
                 attributes={"email": "alex.kim@example.com", "role": "Staff Engineer",
                             "location": "Berlin"}),
        subject("person:alex-romero", "Alex Romero", aliases=["Alex"],
                 valid_from=d(2025, 5, 15),
                 attributes={"email": "alex.romero@example.com", "role": "Senior Engineer",
                             "location": "Lisbon"}),
        subject("person:sam-lee", "Sam Lee", aliases=["Sam"], valid_from=d(2024, 11, 1),
                 attributes={"email": "sam.lee@example.com", "role": "Software Engineer",
                             "location": "Toronto"}),
        subject("person:priya-natarajan", "Priya Natarajan", aliases=["Priya"],
                 valid_from=d(2023, 9, 1),
                 attributes={"email": "priya.natarajan@example.com", "role": "SRE Lead",
                             "location": "London"}),
        subject("person:jordan-okafor", "Jordan Okafor", valid_from=d(2025, 1, 10),
                 attributes={"email": "jordan.okafor@example.com",
                             "role": "Engineering Manager", "location": "London"}),
        subject("repository:payments-api", "payments-api", aliases=["payments", "pay-api"],
                 valid_from=d(2025, 1, 1),
                 description="Payment authorisation, capture and refunds API.",
                 attributes={"language": "go", "tier": 1, "default_branch": "main"}),
        subject("repository:checkout-web", "checkout-web", aliases=["checkout"],
                 previous_names=["shop-frontend"], valid_from=d(2025, 6, 1),
                 description="Web checkout front end; renamed from shop-frontend.",
                 attributes={"language": "typescript", "tier": 1, "default_branch": "main"}),
        subject("repository:ledger-core", "ledger-core", previous_names=["ledger"],
                 valid_from=d(2024, 6, 1),
                 description="Double-entry ledger library and reconciliation jobs.",
                 attributes={"language": "java", "tier": 1, "default_branch": "main"}),
        subject("repository:legacy-billing", "legacy-billing", valid_from=d(2024, 1, 1),
                 valid_to=d(2025, 9, 30),
                 description="Retired billing monolith, replaced by payments-api.",
                 attributes={"language": "php", "tier": 3, "archived": True}),
        subject("service:payments", "Payments Service", aliases=["payments-svc"],
                 valid_from=d(2025, 3, 1),
                 description="Production deployment of payments-api behind the card gateway.",
                 attributes={"tier": 1, "runtime": "kubernetes", "on_call": "sre-oncall"}),
        subject("service:checkout", "Checkout Service", valid_from=d(2025, 6, 1),
                 description="Serves the checkout flow; calls Payments Service.",
                 attributes={"tier": 1, "runtime": "kubernetes",
                             "on_call": "checkout-oncall"}),
        subject("project:q4-reliability", "Q4 Reliability", aliases=["Q4R"],
                 valid_from=d(2026, 9, 15),
                 description="Cut payment incidents and pay down reliability debt before peak.",
                 attributes={"status": "at_risk", "quarter": "Q4"}),
        subject("module:payments-api/settlement", "payments-api/settlement",
                 description="Settlement batching and ledger posting.",
                 attributes={"path": "internal/settlement", "language": "go"}),
    ]  # fmt: skip


def story_relationships(c: Clock) -> list[Record]:
    d = c.story
    return [
        rel("OWNS", "team:payments", "repository:checkout-web",
             "codeowners:checkout-web@2025-06-01", valid_from=d(2025, 6, 1),
             valid_to=d(2026, 2, 15)),
        rel("OWNS", "team:checkout", "repository:checkout-web",
             "codeowners:checkout-web@2026-02-15", valid_from=d(2026, 2, 15)),
        rel("OWNS", "team:payments", "repository:payments-api",
             "codeowners:payments-api@2025-01-01", valid_from=d(2025, 1, 1)),
        rel("OWNS", "team:sre", "service:payments", "service-catalog:payments@2025-03-01",
             valid_from=d(2025, 3, 1)),
        rel("OWNS", "team:platform", "repository:ledger-core",
             "codeowners:ledger-core@2024-06-01", valid_from=d(2024, 6, 1)),
        rel("OWNS", "team:payments", "service:checkout", "service-catalog:checkout@2025-06-01",
             valid_from=d(2025, 6, 1), valid_to=d(2026, 2, 15)),
        rel("OWNS", "team:checkout", "service:checkout", "service-catalog:checkout@2026-02-15",
             valid_from=d(2026, 2, 15)),
        rel("OWNS", "team:payments", "repository:legacy-billing",
             "codeowners:legacy-billing@2024-01-01", valid_from=d(2024, 1, 1),
             valid_to=d(2025, 9, 30)),
        rel("DEPENDS_ON", "repository:payments-api", "repository:ledger-core",
             "manifest:payments-api/go.mod"),
        rel("DEPENDS_ON", "service:checkout", "service:payments", "tracing:checkout->payments"),
        rel("PART_OF", "repository:payments-api", "project:q4-reliability",
             "tracker:q4-reliability", valid_from=d(2026, 9, 15)),
        rel("PART_OF", "module:payments-api/settlement", "repository:payments-api",
             "tree:payments-api/internal/settlement"),
        rel("MEMBER_OF", "person:alex-kim", "team:payments", "hr:payments@2024-03-01",
             valid_from=d(2024, 3, 1)),
        rel("MEMBER_OF", "person:alex-romero", "team:payments", "hr:payments@2025-05-15",
             valid_from=d(2025, 5, 15), valid_to=d(2026, 2, 15)),
        rel("MEMBER_OF", "person:alex-romero", "team:checkout", "hr:checkout@2026-02-15",
             valid_from=d(2026, 2, 15)),
        rel("MEMBER_OF", "person:sam-lee", "team:platform", "hr:platform@2024-11-01",
             valid_from=d(2024, 11, 1), valid_to=d(2026, 4, 1)),
        rel("MEMBER_OF", "person:sam-lee", "team:payments", "hr:payments@2026-04-01",
             valid_from=d(2026, 4, 1)),
        rel("MEMBER_OF", "person:priya-natarajan", "team:sre", "hr:sre@2023-09-01",
             valid_from=d(2023, 9, 1)),
        rel("MEMBER_OF", "person:jordan-okafor", "team:checkout", "hr:checkout@2026-02-01",
             valid_from=d(2026, 2, 1)),
        rel("LEADS", "person:jordan-okafor", "team:checkout", "hr:checkout@2026-02-01",
             valid_from=d(2026, 2, 1)),
        rel("LEADS", "person:priya-natarajan", "project:q4-reliability",
             "tracker:q4-reliability", valid_from=d(2026, 9, 15)),
        rel("CONTRIBUTES_TO", "person:alex-kim", "repository:payments-api", "git:payments-api"),
        rel("CONTRIBUTES_TO", "person:sam-lee", "repository:payments-api", "git:payments-api"),
        rel("CONTRIBUTES_TO", "person:sam-lee", "repository:ledger-core", "git:ledger-core"),
        rel("CONTRIBUTES_TO", "person:alex-romero", "repository:checkout-web",
             "git:checkout-web"),
    ]  # fmt: skip


def story_episodes(c: Clock) -> list[Record]:
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
STORY_PRS = (
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


def src(kind: str, n: int, subject: str, start: str, **fields: Any) -> Record:
    return {"type": "source_record", "key": f"{kind}:{n}", "record_kind": kind,
            "subject": subject, "start": start, "source": SOURCE, **fields}  # fmt: skip


def story_source_records(c: Clock) -> list[Record]:
    out: list[Record] = []
    n = 0
    for opened, days, status, actor, title in STORY_PRS:
        n += 1
        fields: Record = {"actor": actor, "status": status, "title": title}
        if days is not None:
            fields["end"] = c.ago(opened - days)
        out.append(src("pull_request", n, "repository:payments-api", c.ago(opened), **fields))
    out.append(src("pull_request", n + 1, "repository:checkout-web", c.ago(9.4),
                    end=c.ago(8.7), actor="person:alex-romero", status="merged",
                    title="Show saved cards on the payment step"))  # fmt: skip
    out.append(src("pull_request", n + 2, "repository:ledger-core", c.ago(15.1),
                    end=c.ago(14.2), actor="person:sam-lee", status="merged",
                    title="Publish v2 client artefact"))  # fmt: skip
    q4r, api = "project:q4-reliability", "repository:payments-api"
    out += [
        src("work_item", 1, q4r, c.ago(52.4), due=c.day_ago(10), actor="person:alex-kim",
             status="in_progress", title="Add idempotency keys to payment capture retries"),
        src("work_item", 2, api, c.ago(63.2), due=c.day_ago(21), actor="person:sam-lee",
             status="open", title="Migrate payments-api to the ledger-core v2 client"),
        src("work_item", 3, q4r, c.ago(41.6), due=c.day_ago(3),
             actor="person:priya-natarajan", status="open",
             title="Write the runbook for settlement backlog alerts"),
        src("work_item", 4, q4r, c.ago(58.5), due=c.day_ago(30), end=c.ago(27.8),
             actor="person:alex-kim", status="done",
             title="Load test the card authorisation path"),
        src("work_item", 5, api, c.ago(35.1), due=c.day_ago(14), actor="person:alex-kim",
             status="in_progress", title="Remove dead code left by the legacy-billing cutover"),
        src("incident", 1, "service:payments", c.ago(12.6), end=c.ago(12.45),
             actor="person:priya-natarajan", severity="sev2", status="resolved",
             title="Payment capture latency above SLO"),
        src("incident", 2, "service:payments", c.ago(7.3), end=c.ago(7.1),
             actor="person:priya-natarajan", severity="sev3", status="resolved",
             title="Settlement job stuck on a ledger-core lock"),
        src("incident", 3, "service:payments", c.ago(1.8), actor="person:alex-kim",
             severity="sev2", status="open", title="Elevated 5xx on card authorisation"),
        src("deploy", 1, "service:payments", c.ago(6.1), environment="production",
             status="rolled_back", actor="person:alex-kim", title="payments-api v4.18.0"),
        src("deploy", 2, "service:payments", c.ago(5.9), environment="production",
             status="success", actor="person:alex-kim", title="payments-api v4.18.1"),
        src("deploy", 3, "service:checkout", c.ago(3.2), environment="staging",
             status="success", actor="person:alex-romero", title="checkout-web v2.7.0"),
        src("metric_rollup", 1, api, c.day_ago(2), end=c.day_ago(1), metric="commits",
             value=3),
        src("metric_rollup", 2, api, c.day_ago(2), end=c.day_ago(1), metric="lines_changed",
             value=140),
    ]  # fmt: skip
    return out


# Per-kind numbering continues after the story's records.
STORY_COUNTS = {"pull_request": len(STORY_PRS) + 2, "work_item": 5, "incident": 3,
                 "deploy": 3, "metric_rollup": 2, "episode": 3}  # fmt: skip
