"""A follow-up by ellipsis in a session ("and in 2026?", "and last month?", "what about
parser.py?") after a full question is that question with the fragment's part in its place
(engine/reading/followups.py), said, and answered with git's count (author time,
--no-merges): read alone, "and in 2026?" named no subject and was answered for the whole
organisation, "what about parser.py?" over the default year (t36). A question saying its own
parts is never changed by the one before; a fragment with no question before it is asked as
written. One actor's recent questions are theirs alone (the ring of engine/resolving/ring.py).
On click's and werkzeug's real histories (../shared/data), in memory, at 2026-09-01T12:00Z.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.resolving.ring import ReferenceRing
from tests import shared_history
from tests.shared_history import commits
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug")

click_clone, click, werkzeug_clone, werkzeug = shared_history.each("click", "werkzeug")
histories = shared_history.histories("click", "werkzeug")
ask = partial(answer, now=CLOCK)


def on(year: int, month: int) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


def window(result: InvestigationResult) -> tuple[datetime | None, datetime | None]:
    label = result.temporal_label
    assert label is not None, result.limitations
    return label.effective_from, label.effective_to


# history, the full question, the follow-up, the question it is answered as, its window,
# the paths counted
SESSIONS = [
    ("click", "how many commits to core.py in 2025?", "and in 2026?",
     "how many commits to core.py in 2026?", (on(2026, 1), CLOCK), "src/click/core.py"),
    ("werkzeug", "how many commits to routing in 2025?", "and last month?",
     "how many commits to routing last month?", (on(2026, 8), on(2026, 9)),
     "src/werkzeug/routing"),
    ("click", "how many commits to core.py in 2025?", "what about parser.py?",
     "how many commits to parser.py in 2025?", (on(2025, 1), on(2026, 1)), "src/click/parser.py"),
    ("werkzeug", "how many commits to serving.py since spring?", "and what about test_serving.py?",
     "how many commits to test_serving.py since spring?", (on(2026, 3), CLOCK),
     "tests/test_serving.py"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "first", "then", "asked", "span", "path"), SESSIONS)
async def test_a_follow_up_carries_the_previous_questions_other_parts(
    histories: dict, history: str, first: str, then: str, asked: str,
    span: tuple[datetime, datetime], path: str,
) -> None:  # fmt: skip
    graph, clone = histories[history]
    ring = ReferenceRing()
    assert (await ask(graph, first, ring=ring)).outcome is Outcome.ANSWERED
    result = await ask(graph, then, ring=ring)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert window(result) == span
    assert any(f'answered as "{asked}"' in n for n in result.limitations), result.limitations
    counted = commits(clone, *span, path)
    assert f"{counted} commit(s) to " in (result.direct_judgment or ""), result.direct_judgment
    plain = await ask(graph, asked)  # the same as asking it in full
    assert result.direct_judgment == plain.direct_judgment


@pytest.mark.parametrize("history", ["click", "werkzeug"])
async def test_a_question_saying_its_own_parts_is_never_changed(
    histories: dict, history: str
) -> None:
    """After "... in 2025?", a full question naming no time is answered over the default
    window, as asked alone, and names no follow-up."""
    graph, _ = histories[history]
    ring = ReferenceRing()
    await ask(graph, f"how many commits to {history} in 2025?", ring=ring)
    result = await ask(graph, f"who changed {history} most?", ring=ring)
    alone = await ask(graph, f"who changed {history} most?")
    assert window(result) == window(alone)
    assert result.direct_judgment == alone.direct_judgment
    assert not any("follows the previous question" in n for n in result.limitations)


async def test_a_fragment_with_no_question_before_it_is_asked_as_written(histories: dict) -> None:
    """Another actor's questions (another ring) are no previous question."""
    graph, _ = histories["click"]
    await ask(graph, "how many commits to core.py in 2025?", ring=ReferenceRing())
    result = await ask(graph, "and in 2026?", ring=ReferenceRing())
    assert not any("follows the previous question" in n for n in result.limitations)
    assert "core.py" not in (result.direct_judgment or "")
