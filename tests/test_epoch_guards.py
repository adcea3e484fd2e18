"""Epoch rules an audit found unguarded (issue 35): a plain ingest after a flip (and after a
rollback) lands in the serving epoch, the deleter never claims the serving epoch whatever its
row says, and the drain bound is derived from the pointer TTL plus the request time limit."""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from engine.ports import EpochState, GraphStore, SubjectQuery
from gateway.cli.ingest import target_graph
from gateway.settings import Settings
from gateway.stores import epoch_timings
from graph.cypher.epochs import FLIP, SERVING, STATUS
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, serve
from tests.helpers import load, subject
from tests.test_epochs_e2e import fabric

OLD = [subject("repository:api", "api")]
NEW = [subject("repository:api", "api v2")]
LATE = [subject("service:late", "Late")]
HOUR_NS = 3_600 * 1_000_000_000


async def keys(graph: Any) -> set[str]:
    return {s.key for s in (await graph.find_subjects(SubjectQuery(), first=100)).items}


def plain(org: str) -> argparse.Namespace:
    """`fabric ingest FILE --org ORG`: neither --new-epoch nor --epoch."""
    return argparse.Namespace(org=org, new_epoch=False, epoch=None)


async def flipped(store: GraphStore, org: str) -> int:
    assert (await load(store.org(org), OLD, source="s")).ok
    build = (await store.epochs(org).begin_build()).id
    assert (await load(store.org(org, build), NEW, source="s")).ok
    await store.epochs(org).flip(build)
    return build


async def test_a_plain_ingest_after_a_flip_lands_in_the_new_serving_epoch(
    store: GraphStore, org: str
) -> None:
    build = await flipped(store, org)
    target = await target_graph(store, plain(org))
    assert target.epoch == build
    assert (await load(target, LATE, source="late")).ok
    assert "service:late" in await keys(await store.serving(org))
    assert "service:late" not in await keys(store.org(org, 0))  # the replaced epoch untouched


async def test_after_a_rollback_a_plain_ingest_resumes_in_the_restored_epoch(
    store: GraphStore, org: str
) -> None:
    await flipped(store, org)
    before = await store.org(org).checkpoint("s")
    restored = await store.epochs(org).rollback()
    assert restored.id == 0 and restored.state is EpochState.SERVING
    target = await target_graph(store, plain(org))
    assert target.epoch == 0
    # The restored epoch's checkpoint is the one it had: a resumed load continues from it.
    assert await target.checkpoint("s") == before is not None
    assert (await load(target, LATE, source="late")).ok
    assert "service:late" in await keys(await store.serving(org))
    # A new build after the rollback takes a new id, never the abandoned one.
    again = (await store.epochs(org).begin_build()).id
    assert again == 2


FORGE = """
MATCH (e:Epoch {org_id: $org, key: $epoch})
SET e.state = 'retired', e.retired_ns = 0, e.reason = 'grace_expired'
"""


async def test_the_deleter_never_claims_the_serving_epoch_whatever_its_row_says(
    cypher_store: Any,
) -> None:
    """A serving epoch whose row reads retired (a retire racing a rollback) is still served:
    the claim checks the lifecycle's pointer itself (`l.active <> e.key`)."""
    org = new_org()
    await cypher_store.bootstrap(org)
    build = await flipped(cypher_store, org)
    home = cypher_store.org(org)
    await home.results_executor.run(FORGE, {"org": org, "epoch": build}, write=True, control=True)
    found = await home.results_executor.run(SERVING, {"org": org}, control=True)
    assert int(found[0][0]) == build
    swept = await cypher_store.epochs(org).sweep(10_000 * HOUR_NS + cypher_store.epochs(org).clock())
    assert build not in swept
    assert await keys(cypher_store.org(org, build)) == {"repository:api"}
    await cypher_store.drop_org(org)


async def test_the_flip_statement_refuses_an_expected_epoch_that_no_longer_serves(
    cypher_store: Any,
) -> None:
    """FLIP is a compare-and-swap on the serving pointer as well as the build: sent with an
    expected epoch read before an earlier flip (0, retired since), it changes nothing. Without
    `l.active = $expected` it served the build and put retired epoch 0 back in grace, a
    rollback target whose data may be deleted. (CypherEpochs reads both pointers at once, so
    the statement's own guard is what holds for any caller.)"""
    org = new_org()
    await cypher_store.bootstrap(org)
    first = await flipped(cypher_store, org)
    epochs = cypher_store.epochs(org)
    await epochs.end_grace()
    build = (await epochs.begin_build()).id
    home = cypher_store.org(org)
    stale = {"org": org, "now": epochs.clock(), "target": build, "expected": 0, "grace_ns": HOUR_NS}
    assert await home.results_executor.run(FLIP, stale, write=True, control=True) == []
    status = await home.results_executor.run(STATUS, {"org": org}, control=True)
    assert (int(status[0][0]), status[0][1], int(status[0][2])) == (first, "building", build)
    states = {e.id: e.state for e in await epochs.all()}
    assert states == {0: EpochState.RETIRED, first: EpochState.SERVING, build: EpochState.BUILDING}
    await cypher_store.drop_org(org)


def test_the_drain_bound_is_the_pointer_ttl_plus_the_request_time_limit() -> None:
    low = Settings(epoch_drain_s=0.0, epoch_pointer_ttl_s=5.0, request_timeout_s=15.0)
    assert epoch_timings(low).drain_s == 20.0
    high = Settings(epoch_drain_s=300.0, epoch_pointer_ttl_s=5.0, request_timeout_s=15.0)
    assert epoch_timings(high).drain_s == 300.0


# --- lifecycle telemetry: /metrics after a flip and a rollback ------------------------------


def sample(text: str, name: str, **labels: str) -> float | None:
    """The value of one Prometheus sample, or None when it is not exported."""
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith(f"{name}{{") and line.split("}")[0][len(name) + 1 :] == want:
            return float(line.rsplit(" ", 1)[1])
    return None


async def test_metrics_show_transitions_and_the_serving_epoch_after_a_flip_and_a_rollback(
    gateway: Gateway,
) -> None:
    org = new_org()
    admin = await gateway.token(org, "operator", frozenset({"admin"}))
    metrics_url = gateway.url.rsplit("/", 1)[0] + "/metrics"

    async def run(query: str) -> dict[str, Any]:
        body: dict[str, Any] = (await gateway.query(admin, query)).json()
        return body

    async def scraped() -> str:
        return (await gateway.client.get(metrics_url)).text

    before = await scraped()
    ok = {"flip": sample(before, "fabric_epoch_transitions_total", kind="flip", outcome="ok") or 0}
    assert (await run("mutation { beginEpoch { id } }"))["data"]["beginEpoch"]["id"] == 1
    assert (await load(gateway.store.org(org, 1), [], source="s")).ok  # an empty file's load
    assert (await run("mutation { flipEpoch(epoch: 1) { id } }"))["data"]["flipEpoch"]["id"] == 1
    text = await scraped()
    assert sample(text, "fabric_epoch_transitions_total", kind="flip", outcome="ok") == ok["flip"] + 1
    assert sample(text, "fabric_epoch_serving", org=org) == 1
    assert (await run("mutation { rollbackEpoch { id } }"))["data"]["rollbackEpoch"]["id"] == 0
    refused = await run("mutation { rollbackEpoch { id } }")  # nothing in grace any more
    assert refused["errors"][0]["extensions"]["code"] == "EPOCH_CONFLICT"
    text = await scraped()
    assert sample(text, "fabric_epoch_transitions_total", kind="rollback", outcome="ok") is not None
    assert (sample(text, "fabric_epoch_transitions_total", kind="rollback", outcome="conflict")
            or 0) >= 1  # fmt: skip
    assert sample(text, "fabric_epoch_serving", org=org) == 0
    await gateway.store.drop_org(org)


async def _until(scrape: Any, holds: Any) -> str:
    """Scrape /metrics until `holds(text)` (the look runs every 50 ms); the last text."""
    for _ in range(1_500):
        text: str = await scrape()
        if holds(text):
            return text
        await asyncio.sleep(0.02)
    raise AssertionError(f"/metrics never showed it:\n{text}")


async def test_metrics_show_a_build_and_a_grace_past_their_bound_until_flip_and_rollback(
    falkor: FalkorStore,
) -> None:
    """A build begun two hours ago, an hour past its one-hour bound, shows on /metrics until
    it is flipped; the epoch it replaced, in grace since then (bound: an hour), shows until it
    is rolled back through GraphQL (the record allows a day, the store's own grace)."""
    async for gateway in serve(
        falkor, epoch_sweep_interval_s=0, epoch_watch_interval_s=0.05,
        epoch_build_bound_s=3_600, epoch_grace_s=3_600,
    ):  # fmt: skip
        await _past_bound(gateway, falkor)


async def _past_bound(gateway: Gateway, falkor: FalkorStore) -> None:
    org = new_org()
    admin = await gateway.token(org, "operator", frozenset({"admin"}))
    metrics_url = gateway.url.rsplit("/", 1)[0] + "/metrics"

    async def scrape() -> str:
        return (await gateway.client.get(metrics_url)).text

    def over(text: str, state: str) -> float | None:
        return sample(text, "fabric_epoch_over_bound_seconds", org=org, state=state)

    control = falkor.epochs(org)
    control.clock = lambda: time.time_ns() - 2 * HOUR_NS  # type: ignore[attr-defined]
    build = (await control.begin_build()).id
    assert (await load(falkor.org(org, build), [], source="s")).ok  # an empty file's load
    text = await _until(scrape, lambda t: over(t, "building") is not None)
    assert (over(text, "building") or 0) >= 3_599 and over(text, "grace") is None
    assert (sample(text, "fabric_epochs_over_bound", state="building") or 0) >= 1
    await control.flip(build)  # two hours ago too: epoch 0 has been in grace since then
    text = await _until(scrape, lambda t: over(t, "building") is None)
    assert (over(text, "grace") or 0) >= 3_599
    assert (sample(text, "fabric_epochs_over_bound", state="grace") or 0) >= 1
    rolled = (await gateway.query(admin, "mutation { rollbackEpoch { id } }")).json()
    assert rolled == {"data": {"rollbackEpoch": {"id": 0}}}
    text = await _until(scrape, lambda t: over(t, "grace") is None)
    assert over(text, "building") is None
    assert sample(text, "fabric_epoch_transitions_total", kind="rollback", outcome="ok")
    await falkor.drop_org(org)


async def test_metrics_count_the_transitions_the_command_line_made(
    falkor: FalkorStore, falkor_server: EmbeddedServer
) -> None:
    """`fabric epochs flip`, `rollback` and `retire` run in processes of their own, whose
    counters nobody scrapes: the gateway's /metrics counts them from the lifecycle record."""
    async for gateway in serve(
        falkor, epoch_sweep_interval_s=0, epoch_watch_interval_s=0.05, epoch_build_bound_s=0,
    ):  # fmt: skip
        await _command_line(gateway, falkor, falkor_server.url)


async def _command_line(gateway: Gateway, falkor: FalkorStore, url: str) -> None:
    org = new_org()
    await gateway.token(org, "operator", frozenset({"admin"}))  # a key: the look visits it
    metrics_url = gateway.url.rsplit("/", 1)[0] + "/metrics"

    async def scrape() -> str:
        return (await gateway.client.get(metrics_url)).text

    def building(text: str) -> float | None:
        return sample(text, "fabric_epoch_over_bound_seconds", org=org, state="building")

    def counts(text: str) -> dict[str, float]:
        kinds = ("begin", "flip", "rollback", "retire")
        return {k: sample(text, "fabric_epoch_recorded_transitions", kind=k) or 0 for k in kinds}

    await falkor.epochs(org).begin_build()
    assert (await load(falkor.org(org, 1), [], source="s")).ok  # an empty file's load
    # Past its bound (0 s) once a look has seen the build: every organisation is counted.
    before = counts(await _until(scrape, lambda t: building(t) is not None))
    for args in (("flip", "--epoch", "1"), ("rollback",)):
        code, out = await fabric(url, "epochs", *args, "--org", org)
        assert code == 0, out
    await falkor.epochs(org).begin_build()
    assert (await load(falkor.org(org, 2), [], source="s")).ok
    for args in (("flip", "--epoch", "2"), ("retire",)):
        code, out = await fabric(url, "epochs", *args, "--org", org)
        assert code == 0, out
    want = {"begin": 1, "flip": 2, "rollback": 1, "retire": 1}
    after = await _until(
        scrape, lambda t: {k: counts(t)[k] - before[k] for k in want} == want
    )
    assert building(after) is None
    await falkor.drop_org(org)
