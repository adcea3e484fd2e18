"""Fuzzing the live gateway (a short run; tests/fuzz_long.py runs 10,000+ cases as a script).

Hypothesis generates documents, variables of wrong types and shapes, random bytes, invalid
UTF-8, wrong content types, huge integers and bad ids, cursors, DateTimes and receipts, and
hostile ingest records. Never a 5xx or a masked internal error for any of them; afterwards
the gateway is up, the target organisation's data is unchanged, and everything the ingest
cases stored reads back cleanly. Hypothesis drives a synchronous client in a worker thread
while the session's event loop keeps serving the gateway.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import httpx
from hypothesis import HealthCheck, given, settings

from engine.ports import OrgGraph
from graph.projection import Projector
from resolvers.schema import build_schema
from sources.demo import generate
from tests.conftest import new_org
from tests.fuzz_cases import OPERATIONS, Case, Fuzzer, cases, judge
from tests.fuzz_nulls import defaults, null_cases, nullable_variable_operations
from tests.gateway_fixture import Gateway
from tests.helpers import content_hash

EXAMPLES = 400


async def setup_orgs(gateway: Gateway) -> tuple[str, str, str, str]:
    """(target org, its key, scratch org, its key): the target holds the demo data."""
    target, scratch = new_org(), new_org()
    for org in (target, scratch):
        await gateway.store.bootstrap(org)
    lines = (json.dumps(r) for r in generate(300))
    assert (await Projector(gateway.store.org(target), source="demo").run(lines)).ok
    return target, await gateway.token(target), scratch, await gateway.token(scratch)


def ingest_sink(graph: OrgGraph, loop: asyncio.AbstractEventLoop) -> Callable[[list[bytes]], str | None]:
    """Loads lines with the projector (what `fabric ingest` runs) on the event loop, from the
    fuzzing thread; a loader that raises instead of reporting the bad lines is a failure."""

    def load(lines: list[bytes]) -> str | None:
        run = Projector(graph, source="fuzz").run(lines)
        try:
            asyncio.run_coroutine_threadsafe(run, loop).result(timeout=60)
        except Exception as exc:
            return f"raised-{type(exc).__name__}"
        return None

    return load


def hypothesis_run(fuzzer: Fuzzer, examples: int, stop_on_failure: bool) -> Callable[[], None]:
    # In the test run the cases are the same every time (a failure is reproducible, never
    # flaky); the long run (stop_on_failure=False) explores afresh each time.
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck), derandomize=stop_on_failure)
    @given(case=cases())
    def check(case: Case) -> None:
        verdict = fuzzer.run(case)
        if stop_on_failure:
            assert verdict is None, f"{verdict}: {case!r}"

    return check


async def test_the_gateway_survives_hostile_and_broken_requests(gateway: Gateway) -> None:
    target, target_token, scratch, scratch_token = await setup_orgs(gateway)
    before = await content_hash(gateway.store.org(target))
    sink = ingest_sink(gateway.store.org(scratch), asyncio.get_running_loop())
    with httpx.Client(timeout=30) as client:
        fuzzer = Fuzzer(client, gateway.url, target_token, scratch_token, sink)
        await asyncio.to_thread(hypothesis_run(fuzzer, EXAMPLES, stop_on_failure=True))
        assert await asyncio.to_thread(fuzzer.alive)
        assert await asyncio.to_thread(fuzzer.scratch_unreadable) is None
    assert await content_hash(gateway.store.org(target)) == before
    assert fuzzer.summary()["failures"] == 0
    for org in (target, scratch):
        await gateway.store.drop_org(org)


def test_the_null_cases_cover_every_default_the_schema_declares() -> None:
    """A new argument or input field with a default is fuzzed with null without anyone
    listing it; and the fuzz operations include nullable variables to send null to."""
    schema = build_schema()._schema
    covered = {case.where for case in null_cases(schema)}
    assert covered == defaults(schema)
    assert {"Query.resolveReference(limit)", "Query.search(first)",
            "InvestigateInput.allowClarification"} <= covered
    assert len(nullable_variable_operations(OPERATIONS)) >= 20


async def test_explicit_nulls_are_the_clients_mistake_never_an_internal_error(
    gateway: Gateway,
) -> None:
    """Every argument and input field with a default gets an explicit null through a nullable
    variable: where the place is non-null (`limit: Int! = 5`) the answer is BAD_USER_INPUT
    naming the argument; where it is nullable, null is a value like any other. Every
    nullable variable of the fuzz operations gets null too."""
    target, token, _, _ = await setup_orgs(gateway)
    for case in null_cases(build_schema()._schema):
        response = await gateway.client.post(
            gateway.url, content=case.body(),
            headers={"Authorization": f"Bearer {token}", "content-type": "application/json"})
        assert judge(response) is None, (case.where, response.text)
        errors = response.json().get("errors") or []
        if case.non_null:
            assert [e["extensions"]["code"] for e in errors] == ["BAD_USER_INPUT"], case
            assert "not to be null" in errors[0]["message"], errors
    for query in nullable_variable_operations(OPERATIONS):
        response = await gateway.query(token, query, {"v": None})
        assert judge(response) is None, (query, response.text)
    await gateway.store.drop_org(target)
