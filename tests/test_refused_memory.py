"""A question refused for its time references nothing (issue 31, class 5): the actor's recent
references are the subjects of runs that went on to read, so a later genuine tie is not settled
by a subject no answer was ever about. On attrs, exceptions.py is two files (src/attr/ and
src/attrs/); bench/generalise.py --seed 31 in session mode asked about src/attr/exceptions.py
over a window wider than allowed, then "who changed exceptions.py in the first half of 2024?",
and got attr.exceptions "from your recent references". Cloned from ../shared/data and imported
into the in-memory store."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.investigation.investigate import InvestigationRequest
from engine.ports import OrgGraph
from engine.resolving.ring import ReferenceRing
from tests import shared_history
from tests.test_investigate import investigator

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
LATER = "who changed exceptions.py in the first half of 2024?"
OFFERED = ["module:attrs/src/attr/exceptions.py", "module:attrs/src/attrs/exceptions.py"]

pytestmark = shared_history.present("attrs")


@pytest.fixture(scope="module")
async def attrs(tmp_path_factory: pytest.TempPathFactory) -> OrgGraph:
    return await shared_history.shared_import("attrs", tmp_path_factory)


async def ask(graph: OrgGraph, ring: ReferenceRing, question: str) -> InvestigationResult:
    result, _ = await investigator(graph, now=CLOCK, ring=ring).investigate(
        "me", InvestigationRequest(question)
    )
    return result


async def test_exceptions_py_alone_asks_which_file(attrs: OrgGraph) -> None:
    result = await ask(attrs, ReferenceRing(), LATER)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result
    offered = sorted(c.subject_key for c in result.candidates)
    assert offered == OFFERED, offered


async def test_a_question_refused_for_its_time_is_no_recent_reference(attrs: OrgGraph) -> None:
    ring = ReferenceRing()
    wide = await ask(attrs, ring, "who changed src/attr/exceptions.py from 2000 to 2026?")
    assert wide.outcome is Outcome.CLARIFICATION_REQUIRED and not wide.subject_keys, wide
    later = await ask(attrs, ring, LATER)
    assert later.outcome is Outcome.CLARIFICATION_REQUIRED, later.direct_judgment
    assert ring.snapshot(attrs.org_id, "me") == []


async def test_an_answered_question_settles_only_a_follow_up(attrs: OrgGraph) -> None:
    """A new question naming the tie asks which after an answered one too (it was settled
    "from your recent references": engine.resolving.kinded); a follow-up carrying the name
    ("and in 2016?") is settled by it, said."""
    ring = ReferenceRing()
    first = await ask(attrs, ring, "who changed src/attr/exceptions.py in 2016?")
    assert first.outcome is Outcome.ANSWERED, first
    later = await ask(attrs, ring, LATER)
    assert later.outcome is Outcome.CLARIFICATION_REQUIRED, later.direct_judgment
    followed = await ask(attrs, ring, "and in 2016?")
    assert followed.outcome is Outcome.ANSWERED, followed.limitations
    assert followed.subject_keys == first.subject_keys
    assert "recent references" in (followed.direct_judgment or "")
