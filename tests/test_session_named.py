"""In a session, the actor's recent references settle only what a follow-up carries from the
previous question ("and in 2024?"), never a name a new question writes itself (engine/
resolving/kinded.py, issue 32). On attrs "converters.py" is two files (src/attr/ and
src/attrs/), on werkzeug "request.py" two (src/werkzeug/wrappers/ and src/werkzeug/sansio/):
after a question naming one by its path, a new question naming the bare file was answered
for it "chosen from your recent references" where a fresh actor is asked which (the wider
generalise bench counted these wrong in session mode). Now both actors are asked which; the
follow-up naming no subject is the previous question's subject, said. On the real histories
(../shared/data), in memory; each figure from `git log --no-merges --full-history`."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.investigation.investigate import InvestigationRequest
from engine.ports import OrgGraph
from engine.resolving.ring import ReferenceRing
from tests import shared_history
from tests.test_investigate import investigator

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("werkzeug", "attrs")

pytestmark = shared_history.present(*NAMES)

werkzeug_clone, werkzeug, attrs_clone, attrs = shared_history.each(*NAMES)
histories = shared_history.histories(*NAMES)


async def session(graph: OrgGraph, *questions: str) -> list[InvestigationResult]:
    """The questions asked in turn by one actor, sharing their recent references."""
    ring, out = ReferenceRing(), []
    for question in questions:
        result, _ = await investigator(graph, now=CLOCK, ring=ring).investigate(
            "me", InvestigationRequest(question)
        )
        out.append(result)
    return out


def year(n: int) -> tuple[datetime, datetime]:
    return datetime(n, 1, 1, tzinfo=UTC), datetime(n + 1, 1, 1, tzinfo=UTC)


# (history, the question naming one file by its path, the new question naming the bare
# file, the follow-up naming no subject, the path, the two files offered, the follow-up's year)
CASES = [
    (
        "attrs",
        "how many commits to src/attrs/converters.py in 2022?",
        "how many commits to converters.py in 2025?",
        "and in 2024?",
        "src/attrs/converters.py",
        {"module:attrs/src/attr/converters.py", "module:attrs/src/attrs/converters.py"},
        2024,
    ),
    (
        "attrs",
        "what changed in src/attr/validators.py in 2023?",
        "how many commits to validators.py in 2021?",
        "and in 2022?",
        "src/attr/validators.py",
        {"module:attrs/src/attr/validators.py", "module:attrs/src/attrs/validators.py"},
        2022,
    ),
    (
        "werkzeug",
        "how many commits to src/werkzeug/wrappers/request.py in 2024?",
        "how many commits to request.py in 2024?",
        "and in 2023?",
        "src/werkzeug/wrappers/request.py",
        {
            "module:werkzeug/src/werkzeug/wrappers/request.py",
            "module:werkzeug/src/werkzeug/sansio/request.py",
        },
        2023,
    ),
]


@pytest.mark.parametrize(("history", "named", "bare", "follow", "path", "offered", "then"), CASES)
async def test_a_new_question_naming_a_shared_file_asks_which_in_a_session_too(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    named: str,
    bare: str,
    follow: str,
    path: str,
    offered: set[str],
    then: int,
) -> None:
    graph, clone = histories[history]
    first, second, third = await session(graph, named, bare, follow)
    assert first.outcome is Outcome.ANSWERED, first.limitations
    assert second.outcome is Outcome.CLARIFICATION_REQUIRED, second.direct_judgment
    assert {c.subject_key for c in second.candidates} >= offered, second.candidates
    # "and in 2024?" carries the bare name of the question before it: the subject the
    # actor's recent reference (the path named first) settles, said.
    count = shared_history.commits(clone, *year(then), path)
    assert third.outcome is Outcome.ANSWERED, third.clarification_prompt or third.limitations
    said = third.direct_judgment or ""
    assert said.startswith(f"{count} commit(s) to "), said
    assert "chosen from your recent references" in said, said
    assert third.subject_keys == first.subject_keys


async def test_a_fresh_actor_and_a_session_read_a_named_file_alike(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """Who changed werkzeug's wrappers/request.py in 2023 (git: David Lord 12, pgjones 1),
    asked by its path after the bare name was offered as two files: the path answers."""
    graph, clone = histories["werkzeug"]
    path = "src/werkzeug/wrappers/request.py"
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--format=%aN",
        "--since=2023-01-01T00:00:00Z", "--until=2024-01-01T00:00:00Z", "--", path,
    )  # fmt: skip
    (top, n), *_ = Counter(out.splitlines()).most_common()
    bare, named = await session(
        graph, "who changed request.py in 2023?", f"who changed {path} in 2023?"
    )
    assert bare.outcome is Outcome.CLARIFICATION_REQUIRED, bare.direct_judgment
    assert named.outcome is Outcome.ANSWERED, named.limitations
    assert f"ranked by commits: {top} ({n} commit(s)" in (named.direct_judgment or "")
