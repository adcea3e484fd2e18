"""Engine and resolver rules the audit found implemented but untested (issue 20): the
two-candidate gate at its boundaries, the similarity floor, the fixed fallback prompt,
terminal outcomes composed without a synthesizer or a fact read and persisted, id-strings
that name no subject, an ambiguous id prefix, and two identical names in the recent ring."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from engine.answering.synthesis import DeterministicSynthesizer
from engine.domain import gates
from engine.domain.contract import Axis, Outcome, TimeContext, Versions
from engine.domain.embedding import HashingEmbedder
from engine.domain.models import StoredSubject, SubjectKind
from engine.investigation.investigate import InvestigationRequest, Investigator
from engine.memory import MemoryStore
from engine.ports import OrgGraph
from engine.providers import default_providers
from engine.resolving import outcomes
from engine.resolving.candidates import rank
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import (
    Ambiguous,
    Candidate,
    Match,
    NotFound,
    Resolved,
    Resolver,
    Stage,
    decide,
)
from engine.resolving.ring import ReferenceRing, RingEntry
from tests.conftest import new_org
from tests.helpers import load, rel, subject

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
SIGNER = ReceiptSigner(b"k" * 32)
VERSIONS = Versions(projection="v1", embedder="local/char-ngram-v1#128@t3:f200")


def candidate(key: str, score: float) -> Candidate:
    stored = StoredSubject(key=key, id=key, kind=SubjectKind.SERVICE, name=key)
    return Candidate(stored, score, lexical_rank=1, how=Match.SEARCH, every_token=True)


# --- the gates at their boundaries ----------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "second", "commits"),
    [
        (gates.TOP_COMMIT, gates.TOP_COMMIT - gates.TOP_LEAD, True),  # both bars exactly met
        (gates.TOP_COMMIT, gates.TOP_COMMIT - gates.TOP_LEAD + 0.0001, False),  # lead short
        (gates.TOP_COMMIT - 0.0001, gates.TOP_COMMIT - 0.0001 - 0.2, False),  # top short
        (0.95, 0.70, True),
    ],
)
def test_two_candidates_commit_only_at_088_with_a_012_lead(
    top: float, second: float, commits: bool
) -> None:
    assert (gates.TOP_COMMIT, gates.TOP_LEAD) == (0.88, 0.12)
    outcome = decide([candidate("service:a", top), candidate("service:b", second)], 5)
    assert isinstance(outcome, Resolved if commits else Ambiguous), (top, second, outcome)
    if commits:
        assert isinstance(outcome, Resolved) and outcome.subject.key == "service:a"


@pytest.mark.parametrize(("score", "commits"), [(0.72, True), (0.7199, False)])
def test_a_lone_candidate_commits_at_072(score: float, commits: bool) -> None:
    outcome = decide([candidate("service:a", score)], 5)
    assert isinstance(outcome, Resolved if commits else Ambiguous)


# --- the similarity floor (tau) -------------------------------------------------------------


async def resolver_over(records: list[dict[str, Any]], embedder: Any = None) -> Resolver:
    store = MemoryStore(embedder=embedder)
    org = new_org()
    assert (await load(store.org(org), records)).ok
    return Resolver(store.org(org), ReferenceRing(), org)


async def test_the_similarity_floor_excludes_a_hit_below_it() -> None:
    resolver = await resolver_over(
        [subject("service:ledger", "ledger"), subject("team:core", "Core")], HashingEmbedder(128)
    )
    reference = "ledgr reconciliation nightly batch"
    graph: Any = resolver.directory
    every = await graph.search_similar(reference, [], 5, 0.0)
    assert every  # a k-NN query always finds something
    below = [(s.key, sim) for s, sim in every if sim < gates.SIMILARITY_FLOOR]
    assert below, every  # the nearest subject is below tau
    floored = await graph.search_similar(reference, [], 5, gates.SIMILARITY_FLOOR)
    assert {s.key for s, _ in floored}.isdisjoint(k for k, _ in below)
    outcome = await resolver.resolve("me", "zzqx reconciliation nightly batch")
    assert isinstance(outcome, NotFound)  # honest no-match, not a confident wrong subject


# --- id-strings and prefixes ----------------------------------------------------------------


async def test_an_id_string_that_names_no_subject_is_not_found() -> None:
    resolver = await resolver_over([
        subject("team:core", "Core"), subject("service:api", "api"),
        rel("OWNS", "team:core", "service:api", id="own-1"),
    ])  # fmt: skip
    graph: Any = resolver.directory
    edge = (await graph.relationships_of(["team:core"]))["team:core"][0]
    for reference in (
        "00000000-0000-4000-8000-000000000000",  # a well-formed id of nothing
        edge.relationship.rel_id,  # a relationship's id, not a subject's
        "service:absent",  # a key of nothing
    ):
        outcome = await resolver.resolve("me", reference)
        assert isinstance(outcome, NotFound), (reference, outcome)


class TwoShareAPrefix:
    """The directory with two subjects behind one id prefix: uuid5 ids that share nine
    characters cannot be made on purpose, so this one directory read is stood in for."""

    def __init__(self, graph: OrgGraph, subjects: Sequence[StoredSubject]) -> None:
        self._graph = graph
        self._subjects = list(subjects)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._graph, name)

    async def subjects_by_id_prefix(
        self, prefix: str, limit: int = 10
    ) -> tuple[list[StoredSubject], int]:
        return self._subjects[:limit], len(self._subjects)


async def test_an_ambiguous_id_prefix_is_ambiguous_never_a_pick() -> None:
    resolver = await resolver_over([subject("service:a", "A"), subject("service:b", "B")])
    graph: Any = resolver.directory
    found = await graph.subjects_by_keys(["service:a", "service:b"])
    shared = Resolver(TwoShareAPrefix(graph, list(found.values())), ReferenceRing(), "x")  # type: ignore[arg-type]
    outcome = await shared.resolve("me", found["service:a"].id[:9])
    assert isinstance(outcome, Ambiguous) and outcome.stage is Stage.ID
    assert {c.subject.key for c in outcome.candidates} == {"service:a", "service:b"}


async def test_two_identical_exact_names_in_the_ring_stay_ambiguous() -> None:
    resolver = await resolver_over([subject("service:a", "Gateway"), subject("service:b", "Gateway")])
    graph: Any = resolver.directory
    found = await graph.subjects_by_keys(["service:a", "service:b"])
    # Admitted as a resolution admits them, with their folded forms ("gateway" among them):
    # an entry without forms matches nothing, and the test could not fail.
    resolver.admit("me", found["service:a"])
    outcome = await resolver.resolve("me", "gateway")
    assert isinstance(outcome, Resolved) and outcome.stage is Stage.RING  # the control: one
    resolver.admit("me", found["service:b"])
    outcome = await resolver.resolve("me", "gateway")
    assert isinstance(outcome, Ambiguous)
    assert {c.subject.key for c in outcome.candidates} == {"service:a", "service:b"}
    assert all(isinstance(e, RingEntry) and e.forms for e in resolver.ring.snapshot(resolver.org_id, "me"))


async def test_a_search_tie_between_two_recent_subjects_still_asks() -> None:
    """"checkoutt" is one typo from "checkout" and from "checkouts" (0.92 each, a genuine
    tie). One of them referenced recently breaks it; both referenced recently do not, and
    neither is chosen for the other."""
    resolver = await resolver_over(
        [subject("service:checkout", "checkout"), subject("service:checkouts", "checkouts")]
    )
    found = await resolver.directory.subjects_by_keys(["service:checkout", "service:checkouts"])
    assert isinstance(await resolver.resolve("me", "checkoutt"), Ambiguous)
    resolver.admit("me", found["service:checkouts"])
    outcome = await resolver.resolve("me", "checkoutt")
    assert isinstance(outcome, Resolved) and outcome.stage is Stage.RING  # the control: one
    assert outcome.subject.key == "service:checkouts"
    resolver.admit("me", found["service:checkout"])
    outcome = await resolver.resolve("me", "checkoutt")
    assert isinstance(outcome, Ambiguous)
    assert {c.subject.key for c in outcome.candidates} == {"service:checkout", "service:checkouts"}


async def test_a_recent_subject_renamed_since_no_longer_breaks_a_tie_of_its_old_name() -> None:
    """The ring remembers "Gateway" for service:x; x is renamed "Portal" since. Asked for
    "gateway" (two other Gateways), the ring's entry no longer decides: the answer is which
    of the two, never the Portal."""
    resolver = await resolver_over([
        subject("service:x", "Gateway"), subject("service:y", "Gateway"),
        subject("service:z", "Gateway"),
    ])  # fmt: skip
    found = await resolver.directory.subjects_by_keys(["service:x"])
    resolver.admit("me", found["service:x"])
    outcome = await resolver.resolve("me", "gateway")
    assert isinstance(outcome, Resolved) and outcome.subject.key == "service:x"  # the control
    assert (await load(resolver.directory, [subject("service:x", "Portal")])).ok
    outcome = await resolver.resolve("me", "gateway")
    assert isinstance(outcome, Ambiguous)
    assert {c.subject.key for c in outcome.candidates} == {"service:y", "service:z"}


async def test_a_recent_service_breaks_its_tie_with_a_same_named_repository() -> None:
    """A repository and a service both named "gateway" are no repository-and-its-packages tie
    (which a rule decides for the repository, so no memory may): the service referenced
    recently is the one meant."""
    resolver = await resolver_over(
        [subject("repository:gateway", "gateway"), subject("service:gateway", "gateway")]
    )
    assert isinstance(await resolver.resolve("me", "gateway"), Ambiguous)
    found = await resolver.directory.subjects_by_keys(["service:gateway"])
    resolver.admit("me", found["service:gateway"])
    outcome = await resolver.resolve("me", "gateway")
    assert isinstance(outcome, Resolved) and outcome.stage is Stage.RING
    assert outcome.subject.key == "service:gateway"


async def test_two_files_written_as_the_reference_stay_ambiguous() -> None:
    """"utils.py" is written so by a module of click and one of werkzeug: a file name as one
    subject writes it decides only when one does; two ask which."""
    resolver = await resolver_over([
        subject("module:click/src/click/utils.py", "utils.py"),
        subject("module:werkzeug/src/werkzeug/utils.py", "utils.py"),
    ])  # fmt: skip
    outcome = await resolver.resolve("me", "utils.py")
    assert isinstance(outcome, Ambiguous) and len(outcome.candidates) == 2


def test_a_stronger_match_ranks_above_a_better_fused_rank() -> None:
    """Fusion only orders equals: the store ranking a partial match first ("checkout history
    archive") does not put it above a one-typo match ("checkouts", 0.92) of "checkoutt"."""
    partial = StoredSubject(key="service:h", id="h", kind=SubjectKind.SERVICE,
                            name="checkout history archive")  # fmt: skip
    typo = StoredSubject(key="service:c", id="c", kind=SubjectKind.SERVICE, name="checkouts")
    ranked = rank("checkoutt", [(partial, 9.0), (typo, 3.0)], None)
    assert [c.subject.key for c in ranked] == ["service:c", "service:h"]
    assert ranked[0].score > ranked[1].score


# --- terminal outcomes ----------------------------------------------------------------------


def test_a_clarification_without_a_backend_prompt_gets_the_fixed_one() -> None:
    frame = outcomes.Frame(
        result_id="r", org_id="o", actor="me", question="q", created_at=NOW,
        time_context=TimeContext(axis=Axis.CURRENT), interpretation={}, versions=VERSIONS,
        label=None,
    )  # fmt: skip
    result = outcomes.clarification(frame, "payments", [], SIGNER, None)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED  # never silently downgraded
    assert result.clarification_prompt == outcomes.FALLBACK_PROMPT


class Watching(DeterministicSynthesizer):
    calls = 0

    async def synthesize(self, *args: Any, **kwargs: Any) -> Any:
        Watching.calls += 1
        return await super().synthesize(*args, **kwargs)


@pytest.mark.parametrize(
    ("question", "outcome"),
    [
        ("how is Gateway doing?", Outcome.CLARIFICATION_REQUIRED),
        ("why is zzqxwv behind?", Outcome.NO_MATCH),
        ("how is service:a doing?", Outcome.ANSWERED),  # the control: these are watched
    ],
)
async def test_terminal_results_call_no_synthesizer_read_no_fact_and_are_saved(
    question: str, outcome: Outcome
) -> None:
    store = MemoryStore(embedder=HashingEmbedder(128))
    org = new_org()
    graph = store.org(org)
    records = [subject("service:a", "Gateway"), subject("service:b", "Gateway")]
    records.append({"type": "source_record", "key": "incident:1", "record_kind": "incident",
                    "subject": "service:a", "start": "2026-11-18", "status": "open"})  # fmt: skip
    assert (await load(graph, records)).ok
    read: list[str] = []
    providers = default_providers()
    for provider in providers:
        original = provider.read

        async def counted(*args: Any, _read: Any = original, **kwargs: Any) -> Any:
            read.append("fact read")
            return await _read(*args, **kwargs)

        object.__setattr__(provider, "read", counted)
    Watching.calls = 0
    engine = Investigator(
        graph, Resolver(graph, ReferenceRing(), org), providers, Watching(), SIGNER, VERSIONS,
        now=lambda: NOW,
    )  # fmt: skip
    result, _ = await engine.investigate("me", InvestigationRequest(question))
    assert result.outcome is outcome
    terminal = outcome is not Outcome.ANSWERED
    assert (Watching.calls == 0 and read == []) is terminal, (Watching.calls, read)
    stored = (await graph.results.by_ids([result.id]))[result.id]
    assert json.loads(stored)["outcome"] == outcome.value
