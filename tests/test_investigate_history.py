"""Investigations over a git history made in the test (fixed dates), one test per example of
issue 14's "Why": time phrases, exact to the instant, the subject asked about, shared names,
names holding question words, headlines that answer, half-open windows."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.domain.facts import Grain
from engine.investigation.investigate import InvestigationRequest, Investigator
from engine.ports import OrgGraph
from engine.providers import Window
from engine.providers.base import prior, within
from engine.resolving.ring import ReferenceRing
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, import_git
from graph.projection import Projector
from tests import gitrepo
from tests.conftest import new_org
from tests.test_investigate import investigator

AS_OF = datetime(2024, 12, 13, 12, 0, tzinfo=UTC)
CLOCK = datetime(2025, 1, 10, 9, 0, tzinfo=UTC)
KIM = ("Alex Kim", "kim@corp.example")
CHEN = ("Alex Chen", "chen@corp.example")
ALEX = ("Alex", "alex@corp.example")
SAM = ("Sam Lee", "sam@corp.example")


def history(path: Path) -> gitrepo.Repo:
    """Two packages (httpx/, routing/), three Alexes, commits on both sides of AS_OF."""
    repo = gitrepo.Repo(path, now=AS_OF)
    steps = [
        (SAM, 400, "routing/core.py", 10),  # 2023-11-09
        (ALEX, 330, "httpx/client.py", 4),  # 2024-01-18
        (KIM, 320, "httpx/client.py", 6),
        (CHEN, 300, "routing/core.py", 8),
        (KIM, 200, "httpx/client.py", 12),
        (SAM, 70, "httpx/models.py", 20),  # 2024-10-04: Q4
        (KIM, 60, "httpx/client.py", 5),  # 2024-10-14
        (CHEN, 40, "routing/core.py", 3),  # 2024-11-03
        (SAM, 10, "httpx/models.py", 2),  # 2024-12-03
        (KIM, 0.1, "httpx/client.py", 1),  # 2024-12-13 09:36, before AS_OF
        (CHEN, -0.446, "httpx/client.py", 7),  # 2024-12-13 22:43, after AS_OF
        (KIM, -0.465, "routing/core.py", 9),  # 2024-12-13 23:10, after AS_OF
    ]
    for n, (who, days, path_, count) in enumerate(steps):
        repo.lines(path_, count, f"c{n}")
        repo.commit(who, days, f"change {n}")
    return repo


@pytest.fixture(scope="module")
async def graph(
    falkor: FalkorStore, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[OrgGraph]:
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    path = tmp_path_factory.mktemp("history") / "shop"
    history(path)
    await import_git(graph, GitImport(path))
    service = {
        "type": "subject", "key": "service:shipping-store", "kind": "service",
        "name": "Shipping Store Service",
    }  # fmt: skip
    project = {"type": "subject", "key": "project:httpx", "kind": "project", "name": "httpx"}
    assert (await Projector(graph, source="t").run([json.dumps(service), json.dumps(project)])).ok
    yield graph
    await falkor.drop_org(org)


def engine(graph: OrgGraph, ring: ReferenceRing | None = None) -> Investigator:
    return investigator(graph, now=CLOCK, ring=ring)


async def ask(graph: OrgGraph, question: str, **time: datetime) -> object:
    result, _ = await engine(graph).investigate("me", InvestigationRequest(question, **time))
    return result


async def test_time_phrases_are_read_relative_to_as_of(graph: OrgGraph) -> None:
    result = await ask(
        graph, "how many commits to the httpx module in the last 3 months?", as_of=AS_OF
    )
    assert result.time_context.start == datetime(2024, 9, 13, 12, tzinfo=UTC)  # not 30 days
    assert result.time_context.end == AS_OF
    result = await ask(graph, "how many commits to shop in 2024?")
    assert (result.time_context.start, result.time_context.end) == (
        datetime(2024, 1, 1, tzinfo=UTC),
        datetime(2025, 1, 1, tzinfo=UTC),
    )
    # git log --since 2024-01-01 --until 2025-01-01: 11 commits (the first one is 2023).
    assert result.direct_judgment.startswith("11 commit(s) to shop")


async def test_a_range_too_wide_asks_again_naming_the_phrase(graph: OrgGraph) -> None:
    result = await ask(graph, "how many commits to shop since 2020?")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert result.clarification_prompt.startswith('"since 2020" asks for')
    assert '"how many commits to shop in the last 400 days?"' in result.clarification_prompt
    assert [c.subject_key for c in result.candidates] == ["repository:shop"]


async def test_a_time_phrase_not_understood_is_named_never_replaced(graph: OrgGraph) -> None:
    # It was answered for the default window (from 2023-12-14T12:00:00Z), said beside it.
    result = await ask(graph, "who changed the httpx module since the outage?", as_of=AS_OF)
    assert result.outcome is Outcome.NO_MATCH, result.limitations
    assert any(n.startswith('"since the outage" was not understood') and "no other window" in n
               for n in result.limitations), result.limitations  # fmt: skip


async def test_nothing_after_as_of_is_counted(graph: OrgGraph) -> None:
    # git log --until "2024-12-13 12:00Z" --since 2024-12-01: Sam on 12-03 and Kim at 09:36
    # (Chen 22:43 and Kim 23:10 come after asOf). The day of asOf is cut: it is read from the
    # day's commit records, exact to the instant (grain instant, nothing left out to say).
    result = await ask(graph, "how many commits to shop this month?", as_of=AS_OF)
    assert result.direct_judgment.startswith("2 commit(s) to shop")
    assert result.temporal_label.grain is Grain.INSTANT
    assert not any("partial day" in n for n in result.limitations)
    # Lines too, since commit records say how many were added (b6f029d): git log --numstat
    # over the same span counts +2 (12-03) and +1 (12-13 09:36), -0; the whole-day rollups
    # alone gave +2 with the cut day left out and said.
    result = await ask(graph, "what changed in shop this month?", as_of=AS_OF)
    assert result.direct_judgment.startswith("2 change(s) to shop")
    assert "Lines changed: +3 -0." in result.direct_judgment, result.direct_judgment
    assert result.temporal_label.grain is Grain.INSTANT
    assert not any("partial day" in n for n in result.limitations), result.limitations


async def test_the_subject_named_is_answered_with_its_people(graph: OrgGraph) -> None:
    result = await ask(graph, "Which engineers changed the httpx module in Q4 2024?", as_of=AS_OF)
    assert result.subject_keys == ("module:shop/httpx",)
    # git log --since 2024-10-01 --until 2024-12-13 -- httpx/: Sam 2 (10-04, 12-03), Kim 2
    # (10-14, 12-13 09:36, the last on the partial day so not counted): Sam 2, Kim 1.
    assert "ranked by commits: Sam Lee (2 commit(s)" in result.direct_judgment
    assert "Alex Chen" not in result.direct_judgment  # Chen touched routing, and httpx after asOf


async def test_a_shared_first_name_lists_the_others(graph: OrgGraph) -> None:
    """ "Alex" is one person's whole name (1 commit in 2024) and the first name of Alex Kim
    (5) and Alex Chen (3), both active that year: it answered Alex's 1 and listed the others;
    now it asks, each with their commits in the window, the most active namesake first."""
    result = await ask(graph, "what did Alex change in 2024?")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert [c.subject_key for c in result.candidates] == [
        "person:alex@corp.example",
        "person:kim@corp.example",
        "person:chen@corp.example",
    ]
    assert "Alex Kim (person:kim@corp.example): 5 commits" in (result.clarification_prompt or "")
    assert all(c.receipt for c in result.candidates)


async def test_a_name_with_question_words_is_found(graph: OrgGraph) -> None:
    result = await ask(graph, "how is Shipping Store Service doing?")
    assert result.subject_keys == ("service:shipping-store",)


async def test_no_subject_is_organisation_wide_and_says_so(graph: OrgGraph) -> None:
    result = await ask(graph, "who are the most active contributors in 2024?")
    assert result.subject_keys == ("repository:shop",)
    assert "the whole organisation" in result.direct_judgment
    assert any("No subject was named" in n for n in result.limitations)
    # git shortlog -sn --since 2024-01-01 --until 2025-01-01: Kim 5, Sam 2, Chen 3, Alex 1.
    assert "ranked by commits: Alex Kim (5 commit(s)" in result.direct_judgment


def test_windows_meeting_at_a_boundary_count_a_record_once() -> None:
    march = Window(datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC), True)
    merged = datetime(2026, 3, 1, tzinfo=UTC)
    assert within(merged, march) and not within(merged, prior(march))
    assert not within(march.end, march)
    assert within(march.end - timedelta(microseconds=1), march)


async def test_earlier_questions_only_settle_what_a_follow_up_carries(graph: OrgGraph) -> None:
    """A new question naming its own tie asks which in a session as a fresh actor is asked
    (it was settled "from your recent references": engine.resolving.kinded); a follow-up
    naming no subject ("and in 2024?") carries the previous question's name, which the
    recent reference settles, said."""
    ring = ReferenceRing()
    fresh = await ask(graph, "how is httpx doing?")  # a module and a project: a genuine tie
    assert fresh.outcome is Outcome.CLARIFICATION_REQUIRED
    same = engine(graph, ring)
    first, _ = await same.investigate(
        "me", InvestigationRequest("how many commits to the httpx module in 2024?")
    )
    assert first.subject_keys == ("module:shop/httpx",)
    # An unrelated question is not pulled towards the recent reference...
    # (in 2024: naming no time, a count asks about shop's whole history: engine/resolving/
    # wholehistory.py)
    other, _ = await same.investigate(
        "me", InvestigationRequest("how many commits to shop in 2024?")
    )
    assert other.subject_keys == ("repository:shop",)
    # ...a new question naming the tie asks which...
    tied, _ = await same.investigate("me", InvestigationRequest("how is httpx doing?"))
    assert tied.outcome is Outcome.CLARIFICATION_REQUIRED, tied.direct_judgment
    # ...and a follow-up carrying it is settled by the recent reference, saying so.
    followed, _ = await same.investigate("me", InvestigationRequest("and in 2024?"))
    assert followed.subject_keys == ("module:shop/httpx",), followed.limitations
    assert any("chosen from your recent references" in n for n in followed.limitations)
    # The judgment says so too, not only a limitation (one may be displaced past the cap).
    assert '"httpx" read as httpx: chosen from your recent references.' in (
        followed.direct_judgment or ""
    )


async def test_a_who_question_naming_no_time_reads_a_year_and_says_so(graph: OrgGraph) -> None:
    """Whom to ask for a review is a matter of now: the default year, said ("who knows X
    best?" asks about X's whole history: engine/resolving/wholehistory.KNOWING)."""
    result = await ask(graph, "who should review changes to the routing module?", as_of=AS_OF)
    assert result.subject_keys == ("module:shop/routing",)
    assert result.temporal_label.effective_from == AS_OF - timedelta(days=365)
    assert any(n.startswith("No time was named: the answer covers") for n in result.limitations)
    # git log --since 2023-12-14T12:00Z --until asOf -- routing/: Chen 2024-02-17 and
    # 2024-11-03 (Kim's 23:10 commit is after asOf).
    assert "ranked by commits: Alex Chen (2 commit(s)" in result.direct_judgment


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Sam's 2024 commits (2) are to httpx/models.py; his routing commit is of 2023-11-09.
        ("how many commits did Sam Lee make to the routing module in 2024?", 0),
        ("how many commits did Sam Lee make to the routing module in 2023?", 1),
        ("how many commits did Alex Chen make to the routing module in 2024?", 2),
    ],
)
async def test_a_persons_commits_to_a_module_are_those_both_made(
    graph: OrgGraph, question: str, expected: int
) -> None:
    """Facts are each subject's own: Sam Lee's commits added to routing's would answer
    neither; his part of routing is routing's commits that he authored."""
    result, _ = await engine(graph).investigate("me", InvestigationRequest(question))
    assert result.outcome is Outcome.ANSWERED and result.subject_keys == ("module:shop/routing",)
    name = question.split(" did ")[1].split(" make")[0]
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to routing by {name} ")


async def test_a_person_named_with_a_module_about_anything_else_asks_which_one(
    graph: OrgGraph,
) -> None:
    """A status of one person's part of a module is not computed: never the two added up."""
    asked = InvestigationRequest("how is Sam Lee doing on the routing module?")
    result, _ = await engine(graph).investigate("me", asked)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    keys = [c.subject_key for c in result.candidates]
    assert keys == ["person:sam@corp.example", "module:shop/routing"]
    asked = InvestigationRequest("how is Sam Lee doing on routing?", allow_clarification=False)
    refused, _ = await engine(graph).investigate("me", asked)
    assert refused.outcome is Outcome.NO_MATCH
    assert "Sam Lee" in refused.limitations[0] and "routing" in refused.limitations[0]
