"""Answer reuse: every dimension of the key, and the recheck of every evidence reference."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from engine.answering.synthesis import DeterministicSynthesizer
from engine.domain.contract import Outcome, Versions
from engine.investigation.investigate import InvestigationRequest, Investigator
from engine.ports import OrgGraph
from engine.providers import default_providers
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Resolver
from engine.resolving.ring import ReferenceRing
from graph.falkor import FalkorStore
from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
SIGNER = ReceiptSigner(b"k" * 32)
VERSIONS = Versions(projection="v1", embedder="local/char-ngram-v1#128@t3:f200")
QUESTION = InvestigationRequest("why is payments-api behind?")
HOUR = timedelta(hours=1)


def investigator(
    graph: OrgGraph, versions: Versions = VERSIONS, reuse: timedelta | None = HOUR
) -> Investigator:
    return Investigator(
        graph, Resolver(graph, ReferenceRing(), graph.org_id), default_providers(),
        DeterministicSynthesizer(), SIGNER, versions, now=lambda: NOW, reuse_max_age=reuse,
    )  # fmt: skip


@pytest.fixture(scope="module")
async def two_epochs(falkor: FalkorStore) -> tuple[OrgGraph, OrgGraph]:
    """The same demo data in epoch 0 (serving) and in epoch 1 (flipped to)."""
    org = new_org()
    await falkor.bootstrap(org)
    records = [json.dumps(r) for r in generate(400)]
    assert (await Projector(falkor.org(org), source="demo").run(records)).ok
    build = await falkor.epochs(org).begin_build()
    assert (await Projector(falkor.org(org, build.id), source="demo").run(records)).ok
    await falkor.epochs(org).flip(build.id)
    return falkor.org(org), falkor.org(org, build.id)


async def test_a_result_records_its_epoch_and_reuse_never_crosses_epochs(
    two_epochs: tuple[OrgGraph, OrgGraph],
) -> None:
    old, new = two_epochs
    first, reused = await investigator(old).investigate("me", QUESTION)
    assert not reused and first.outcome is Outcome.ANSWERED and first.versions.epoch == 0
    again, reused = await investigator(old).investigate("me", QUESTION)
    assert reused and again.id == first.id  # the same epoch: a hit
    other, reused = await investigator(new).investigate("me", QUESTION)
    assert not reused and other.versions.epoch == new.epoch == 1
    assert other.drivers == first.drivers  # the same data, answered again, not reused


# --- every key dimension, and the recheck of every evidence reference ------------------------

DAY = timedelta(days=1)


def story() -> list[dict[str, object]]:
    """A repository whose ownership moved (an explicit-id relationship) and an episode that
    reports an outage: both become evidence of the answer's drivers."""
    at = (NOW - 5 * DAY).isoformat()
    return [
        {"type": "subject", "key": "repository:api", "kind": "repository", "name": "api"},
        {"type": "subject", "key": "team:old", "kind": "team", "name": "Old"},
        {"type": "subject", "key": "team:new", "kind": "team", "name": "New"},
        {"type": "relationship", "relation": "OWNS", "from": "team:new", "to": "repository:api",
         "id": "handover-1", "valid_from": at},
        {"type": "episode", "key": "episode:outage", "occurred_at": (NOW - 2 * DAY).isoformat(),
         "text": "api outage, on-call paged", "mentions": ["repository:api"]},
        {"type": "source_record", "key": "pull_request:1", "record_kind": "pull_request",
         "subject": "repository:api", "start": (NOW - 3 * DAY).isoformat(),
         "end": (NOW - 2 * DAY).isoformat(), "status": "merged"},
    ]  # fmt: skip


@pytest.fixture
async def api(falkor: FalkorStore) -> OrgGraph:
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    assert (await Projector(graph, source="story").run(json.dumps(r) for r in story())).ok
    return graph


ASK = InvestigationRequest("why is api behind?")


async def test_reuse_is_off_by_default(api: OrgGraph) -> None:
    first, _ = await investigator(api, reuse=None).investigate("me", ASK)
    again, reused = await investigator(api, reuse=None).investigate("me", ASK)
    assert not reused and again.id != first.id


@pytest.mark.parametrize(
    "change",
    [
        {"contract": "v0"},
        {"projection": "v2"},
        {"embedder": "other/model#128"},
        {"model": "some-model"},
        {"retrieval_policy": "rp:other-gates"},
    ],
    ids=lambda c: next(iter(c)),
)
async def test_each_version_dimension_of_the_key_misses(
    api: OrgGraph, change: dict[str, str]
) -> None:
    first, _ = await investigator(api).investigate("me", ASK)
    hit, reused = await investigator(api).investigate("me", ASK)
    assert reused and hit.id == first.id  # the control: nothing changed, a hit
    other = VERSIONS.model_copy(update=change)
    missed, reused = await investigator(api, other).investigate("me", ASK)
    assert not reused and missed.id != first.id


async def test_question_org_and_time_axis_are_dimensions(
    api: OrgGraph, falkor: FalkorStore
) -> None:
    first, _ = await investigator(api).investigate("me", ASK)
    same, reused = await investigator(api).investigate("me", InvestigationRequest("Why is API behind?"))
    assert reused and same.id == first.id  # normalised: case and punctuation aside
    other_question = InvestigationRequest("why is api slow?")
    assert not (await investigator(api).investigate("me", other_question))[1]
    as_of = InvestigationRequest("why is api behind?", as_of=NOW - DAY)
    assert not (await investigator(api).investigate("me", as_of))[1]
    twin = falkor.org(new_org())
    assert (await Projector(twin, source="story").run(json.dumps(r) for r in story())).ok
    assert not (await investigator(twin).investigate("me", ASK))[1]


async def retract(graph: OrgGraph, target: str, key: str) -> None:
    """Retract without moving the projection's change marker (as a concurrent writer might):
    reuse must notice through its own recheck."""
    marker = await graph.results.projection_epoch()
    line = json.dumps({"type": "tombstone", "target": target, "key": key})
    assert (await Projector(graph, source="story").run([line])).ok
    assert marker is not None
    await graph.results.touch_projection_epoch(marker)


@pytest.mark.parametrize(
    ("target", "key", "kind"),
    [("episode", "episode:outage", "episode"), ("relationship", "handover-1", "relationship")],
)
async def test_reuse_rechecks_episodes_and_explicit_id_relationships(
    api: OrgGraph, target: str, key: str, kind: str
) -> None:
    first, _ = await investigator(api).investigate("me", ASK)
    cited = {(r.kind.value, r.ref) for d in first.drivers for r in d.evidence}
    assert (kind, key) in cited  # the answer rests on it
    hit, reused = await investigator(api).investigate("me", ASK)
    assert reused and hit.id == first.id
    await retract(api, target, key)
    again, reused = await investigator(api).investigate("me", ASK)
    assert not reused and again.id != first.id


@pytest.mark.parametrize("gate", ["TOP_COMMIT", "TOP_LEAD", "SIMILARITY_FLOOR", "MIN_SEARCH_DEPTH"])
def test_the_retrieval_policy_version_follows_every_gate(
    gate: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.domain import gates

    before = gates.retrieval_policy_version()
    assert Versions(projection="v1", embedder="e").retrieval_policy == before
    monkeypatch.setattr(gates, gate, getattr(gates, gate) + 1)
    assert gates.retrieval_policy_version() != before
