"""A year after a period inside a comparison binds to it (time39; bench/generalise seed 57):
"click commits in March in 2020 versus in Apr 2014" read this year's March ("versus" after
"in 2020" kept the year from binding), and "werkzeug commits in Q2 2026 versus the second
quarter in 2014" read this year's second quarter beside "in 2014" (only the first phrase took a
year after it): both refused as two or three times named. Now each period is the one its year
places (engine/reading/time/anchored.py, engine/reading/time/phrases.py), compared. Asked
through `investigate` on the real histories at 2026-09-01T12:00 UTC, counts against git.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import compared_as_git, on
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "werkzeug", "requests")

pytestmark = shared_history.present(*NAMES)

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests) = shared_history.each(
    *NAMES
)
histories = shared_history.histories(*NAMES)

ask = partial(answer, now=CLOCK)


CASES = [
    ("click", "click commits in March in 2020 versus in Apr 2014", (on(2020, 3), on(2020, 4)),
     (on(2014, 4), on(2014, 5))),
    ("werkzeug", "werkzeug commits in Q2 2026 versus the second quarter in 2014",
     (on(2026, 4), on(2026, 7)), (on(2014, 4), on(2014, 7))),
    ("requests", "were there more commits to requests in the first half of 2024 than H2 in 2015?",
     (on(2024, 1), on(2024, 7)), (on(2015, 7), on(2016, 1))),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "later", "earlier"), CASES)
async def test_a_year_after_a_compared_period_is_its_year(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    later: tuple[datetime, datetime],
    earlier: tuple[datetime, datetime],
) -> None:
    graph, clone = histories[history]
    compared_as_git(await ask(graph, question), clone, later, earlier)
