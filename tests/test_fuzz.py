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
from sources.demo import generate
from tests.conftest import new_org
from tests.fuzz_cases import Case, Fuzzer, cases
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
