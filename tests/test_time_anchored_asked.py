"""A year written after a time phrase naming none binds to it (time38): "Was there any
activity over the Easter weekend in 2008?" was read as Easter 2026 and the year 2008, two
times named, and refused; "the first week of March in 2021", "the end of May in 2025" were
the same in 2026 with "in 2021" said unused; "spring in 2021" was answered over all of 2021,
"spring" unsaid; "the summer months of 2019" was not understood. Each is asked through
`investigate` on the real histories (../shared/data), in memory, at 2026-09-01T12:00 UTC, and
answered over its window with git's count of it (`git log --no-merges --full-history`). A
phrase counted from now, which a year cannot place ("last week in 2025"), is named, whole.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, on
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "werkzeug", "requests", "attrs")

pytestmark = shared_history.present(*NAMES)

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone,
 attrs) = shared_history.each(*NAMES)  # fmt: skip

ask = partial(answer, now=CLOCK)


graphs = shared_history.graphs(*NAMES)
clones = shared_history.clones(*NAMES)


ANCHORED = [
    # Easter 2008 was 23 March: Good Friday to Easter Monday.
    ("werkzeug", "how many commits over the Easter weekend in 2008?",
     on(2008, 3, 21), on(2008, 3, 25)),
    ("werkzeug", "how many commits to werkzeug during Easter weekend in 2011?",
     on(2011, 4, 22), on(2011, 4, 26)),
    ("requests", "how many commits over Thanksgiving weekend in 2015?",
     on(2015, 11, 26), on(2015, 11, 30)),
    ("click", "how many commits in the first week of March in 2021?",
     on(2021, 3, 1), on(2021, 3, 8)),
    ("attrs", "how many commits at the end of May in 2025?", on(2025, 5, 21), on(2025, 6, 1)),
    ("attrs", "how many commits in the second half of March in 2024?",
     on(2024, 3, 16), on(2024, 4, 1)),
    ("attrs", "how many commits to attrs in spring in 2021?", on(2021, 3, 1), on(2021, 6, 1)),
    ("werkzeug", "how many commits in the summer months of 2019?",
     on(2019, 6, 1), on(2019, 9, 1)),
    # a part of a period before "in <year>": it ended on "first" as a word not computed
    ("click", "how many commits in the first half in 2024?", on(2024, 1, 1), on(2024, 7, 1)),
    ("attrs", "how many commits during the last two weeks of December in 2022?",
     on(2022, 12, 18), on(2023, 1, 1)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end"), ANCHORED)
async def test_a_year_after_a_phrase_is_its_year(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{commits(clones[history], start, end)} commit(s) "), judgment
    assert f"from {start:%Y-%m-%dT%H}:00:00Z to {end:%Y-%m-%dT%H}:00:00Z" in judgment, judgment


async def test_the_easter_weekend_is_said_as_read(werkzeug: OrgGraph) -> None:
    result = await ask(werkzeug, "Was there any activity over the Easter weekend in 2008?")
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    assert any("Good Friday to Easter Monday" in note for note in result.limitations), (
        result.limitations
    )


@pytest.mark.parametrize(
    ("history", "question", "named"),
    [
        ("click", "how many commits last week in 2025?", "last week in 2025"),
        ("attrs", "how many commits in the past 3 months in 2024?", "the past 3 months in 2024"),
    ],
)
async def test_a_time_counted_from_now_takes_no_year(
    graphs: dict[str, OrgGraph], history: str, question: str, named: str
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.NO_MATCH, (result.outcome, result.limitations)
    assert any(named in note for note in result.limitations), result.limitations
