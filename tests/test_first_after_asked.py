"""The first change to a file named before the change word, after a date (time39): "first
termui.py change after xmas" (z38b c15) ended: "a first or earliest that is not of a change is
not computed", though it is one: the file's name, one token of several words ("termui py"),
was not skipped between "first" and "change" as a one-word name is ("the first click commit").
Now the first change after the date, as "first change to termui.py after xmas" was answered.
Asked through `investigate` on the real histories at 2026-09-01T12:00 UTC; the commit against
`git log --no-merges --full-history` by author time.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import changes, stamp
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "requests", "attrs")

pytestmark = shared_history.present(*NAMES)

(click_clone, click, requests_clone, requests, attrs_clone, attrs) = shared_history.each(*NAMES)
histories = shared_history.histories(*NAMES)

ask = partial(answer, now=CLOCK)

CASES = [
    # after Christmas Day 2025 (said): a09c1c6, doiken, 2026-03-10
    ("click", "first termui.py change after xmas", "src/click/termui.py",
     datetime(2025, 12, 26, tzinfo=UTC)),
    # after Easter Sunday 2026 (5 April)
    ("requests", "first adapters.py change after easter", "src/requests/adapters.py",
     datetime(2026, 4, 6, tzinfo=UTC)),
    ("attrs", "the first _make.py commit after new year 2026", "src/attr/_make.py",
     datetime(2026, 1, 2, tzinfo=UTC)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "path", "after"), CASES)
async def test_the_first_change_of_a_file_named_first_after_a_date(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    path: str,
    after: datetime,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    at, sha, name = next(c for c in changes(clone, path) if c[0] >= after.timestamp())
    judgment = result.direct_judgment or ""
    assert f"was made at {stamp(at)}" in judgment and f"({sha[:7]}) by {name}" in judgment, (
        judgment
    )
