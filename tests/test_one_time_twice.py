"""A later time phrase naming the very time the first one names is used, not ignored: "how
many commits to payments-api in 2026 and checkout-web in 2026?" answered both for 2026 and said 'Only the first time phrase is used: "in 2026" was not.'
beside it, a false statement (engine/resolving/questiontime.py). On the demo organisation as
tests/test_demo_answers.py loads it. Another time said later ends the question, naming both.
"""

from __future__ import annotations

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests.test_demo_answers import ask, demo  # noqa: F401  (the fixture)

UNUSED = "Only the first time phrase is used"


async def test_the_same_time_said_twice_is_used_for_each_subject(demo: OrgGraph) -> None:  # noqa: F811
    result = await ask(demo, "how many commits to payments-api in 2026 and checkout-web in 2026?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert not [n for n in result.limitations if n.startswith(UNUSED)], result.limitations
    alone = await ask(demo, "how many commits to payments-api and checkout-web in 2026?")
    assert result.direct_judgment == alone.direct_judgment


async def test_another_time_said_later_ends_the_question_naming_both(demo: OrgGraph) -> None:  # noqa: F811
    """It was answered for 2026, 'Only the first time phrase is used: "in 2025" was not.'
    beside it: 2025's figures were asked as much (engine.reading.uncompared.two_times)."""
    result = await ask(demo, "how many incidents hit payments-api in 2026 in 2025?")
    assert result.outcome is Outcome.NO_MATCH and not result.direct_judgment
    assert not [n for n in result.limitations if n.startswith(UNUSED)], result.limitations
    assert any('"in 2026" (' in n and '"in 2025" (' in n and "are two times named" in n
               for n in result.limitations), result.limitations  # fmt: skip
