"""Answer reuse: every dimension of the key, and the recheck of every evidence reference."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from engine.contract import Outcome, Versions
from engine.investigate import InvestigationRequest, Investigator
from engine.ports import OrgGraph
from engine.providers import default_providers
from engine.receipts import ReceiptSigner
from engine.resolution import Resolver
from engine.ring import ReferenceRing
from engine.synthesis import DeterministicSynthesizer
from graph.falkor import FalkorStore
from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
SIGNER = ReceiptSigner(b"k" * 32)
VERSIONS = Versions(projection="v1", embedder="local/char-ngram-v1#128@t2:f200")
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
