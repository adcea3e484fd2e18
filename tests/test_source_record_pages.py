"""`sourceRecords(kinds:, window:, first:)` over real HTTP on FalkorDB answers what it answered
when it read every record of the window and kept the first `first` in Python: the old rule,
restated here from the port's full read (`source_records_of`, oldest first, then by key), is
the reference each case is compared with, so paging in the database changes no answer."""

from __future__ import annotations

from typing import Any

import pytest

from engine.domain.models import SourceRecordKind
from engine.ports import TimeSpan
from resolvers.args import DEFAULT_PAGE
from tests.gateway_fixture import Gateway
from tests.helpers import subject
from tests.test_graph_contract import at
from tests.test_graph_contract_details import record, span
from tests.test_reads import _org, data

SUBJECTS = ["repository:a", "repository:b", "service:c"]
KINDS = ["incident", "deploy", "pull_request"]


def _story() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [subject(k) for k in SUBJECTS]
    for i in range(70):
        owner = SUBJECTS[i % 3]
        # Every third record shares its start with the one before it: ties broken by key.
        day = 1 + (i // 2) % 28
        end = f"2026-01-{day + 2:02d}" if i % 5 else None
        rows.append(record(f"r:{i:03d}", owner, f"2026-01-{day:02d}T10:00:00Z", end,
                           kind=KINDS[(i // 3) % 3]))  # fmt: skip
    return rows


CASES: list[tuple[str | None, tuple[str, str] | None, int | None]] = [
    (None, None, None),
    (None, None, 7),
    ("INCIDENT", None, 3),
    ("DEPLOY", ("2026-01-05", "2026-01-12"), 2),
    (None, ("2026-01-10", "2026-01-20"), 0),
    (None, ("2026-01-03", "2026-01-27"), 5),
    ("PULL_REQUEST", ("2026-01-01", "2026-01-31"), 100),
]


@pytest.mark.parametrize(("kind", "window", "first"), CASES)
async def test_source_records_answer_as_the_old_slice_did(
    gateway: Gateway, kind: str | None, window: tuple[str, str] | None, first: int | None
) -> None:
    org, token = await _org(gateway, _story())
    args = []
    if kind:
        args.append(f"kinds: [{kind}]")
    if window:
        args.append(f'window: {{from: "{window[0]}T00:00:00Z", to: "{window[1]}T23:59:59Z"}}')
    else:
        args.append('window: {from: "2025-12-20T00:00:00Z", to: "2026-02-01T00:00:00Z"}')
    if first is not None:
        args.append(f"first: {first}")
    fields = " ".join(
        f'{k.split(":")[0]}{i}: subject(key: "{k}") {{ sourceRecords({", ".join(args)}) '
        "{ id key recordKind start end } }"
        for i, k in enumerate(SUBJECTS)
    )
    found = data(await gateway.query(token, "{ " + fields + " }"))

    graph = gateway.store.org(org)
    kinds = [SourceRecordKind(kind.lower())] if kind else []
    when = (
        span(f"{window[0]}T00:00:00", f"{window[1]}T23:59:59")
        if window
        else TimeSpan(at("2025-12-20").start_ns, at("2026-02-01").start_ns)
    )
    everything = await graph.source_records_of(SUBJECTS, kinds=kinds, span=when)
    limit = DEFAULT_PAGE if first is None else first
    for i, key in enumerate(SUBJECTS):
        got = [r["key"] for r in found[f"{key.split(':')[0]}{i}"]["sourceRecords"]]
        expected = [r.key for r in everything[key][:limit]]
        assert got == expected
        # Every subject has more in the window than the page (or the page is empty by asking).
        assert len(got) == min(limit, len(everything[key])) and (limit == 0 or got)


class _Reads:
    """The real FalkorDB organisation graph, counting the source records each read returns."""

    def __init__(self, graph: Any) -> None:
        self.graph, self.paged, self.full = graph, 0, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.graph, name)

    async def source_record_pages(self, requests: Any) -> Any:
        pages = await self.graph.source_record_pages(requests)
        self.paged += sum(len(p) for p in pages)
        return pages

    async def source_records_of(self, *args: Any, **kwargs: Any) -> Any:
        found = await self.graph.source_records_of(*args, **kwargs)
        self.full += sum(len(v) for v in found.values())
        return found


@pytest.mark.parametrize("first", [0, 3, None])
async def test_the_field_reads_what_the_cost_limiter_charges(
    gateway: Gateway, first: int | None
) -> None:
    import graphql

    from engine.domain.principal import Principal
    from gateway.limits import estimate_cost
    from resolvers.context import RequestContext
    from resolvers.schema import build_schema

    org, _ = await _org(gateway, _story())
    reads = _Reads(gateway.store.org(org))
    context = RequestContext(principal=Principal(org, "reader", frozenset({"read"})), graph=reads)
    window = 'window: {from: "2025-12-20T00:00:00Z", to: "2026-02-01T00:00:00Z"}'

    def query(n: int | None) -> str:
        size = "" if n is None else f", first: {n}"
        return f'{{ subject(key: "repository:a") {{ sourceRecords({window}{size}) {{ key }} }} }}'

    schema = build_schema()
    result = await schema.execute(query(first), context_value=context)
    assert not result.errors and result.data is not None
    returned = len(result.data["subject"]["sourceRecords"])
    assert reads.full == 0  # no read of the whole window
    assert reads.paged == returned == min(DEFAULT_PAGE if first is None else first, 24)

    def cost(n: int | None) -> int:
        return estimate_cost(schema._schema, graphql.parse(query(n)), None, None)

    # The charge grows by one record's cost per record the field may read, and no more.
    per_record = cost(1) - cost(0)
    assert per_record > 0
    assert cost(first) - cost(0) == per_record * (DEFAULT_PAGE if first is None else first)
