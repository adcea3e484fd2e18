"""Which way something moved is answered (engine/reading/intents._direction,
engine/reading/asked.direction): "did commits to X go up in 2026?", "has X's activity dropped
since March?", "is X getting more or fewer commits this year?" compare the time read with the
period as long just before it, through both periods' commits and lines
(engine/questions/compared.py), equal to git's (author time, --no-merges --full-history).
They were answered with one window's total ("did ... commit" read as a count) or its health
("The health of X is not judged"), the direction asked never given, or ended on "go" or
"fewer" not understood. On werkzeug's, requests' and attrs' real histories
(../shared/data), in memory, asked on 2026-09-01T12:00:00Z."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from engine.reading.vocabulary import Intent
from tests import shared_history
from tests.shared_history import compared_as_git, on
from tests.test_periods_compared import ask

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("werkzeug", "requests", "attrs")

(werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone, attrs) = shared_history.each(
    "werkzeug", "requests", "attrs"
)
histories = shared_history.histories("werkzeug", "requests", "attrs")


def before(start: datetime, end: datetime) -> tuple[datetime, datetime]:
    return start - (end - start), start


# history, question, the window read, the paths asked about; the earlier period is the one
# as long just before it
CASES = [
    ("werkzeug", "did commits to werkzeug increase in 2026?", (on(2026, 1), CLOCK), ()),
    ("werkzeug", "did commit activity go up or down after april 2026",
     (on(2026, 5), CLOCK), ()),
    ("werkzeug", "has activity on the debug package dropped since march",
     (on(2026, 3), CLOCK), ("src/werkzeug/debug",)),
    ("requests", "is requests getting more or fewer commits this year?",
     (on(2026, 1), CLOCK), ()),
    ("attrs", "has _make.py's activity gone down lately?",
     (CLOCK - timedelta(days=90), CLOCK), ("src/attr/_make.py",)),
    ("attrs", "what's the commit trend for attrs in 2026", (on(2026, 1), CLOCK), ()),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "paths"), CASES)
async def test_which_way_is_the_window_against_the_one_before(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    paths: tuple[str, ...],
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.interpretation["intent"] == Intent.TREND
    compared_as_git(result, clone, window, before(*window), *paths)
    said = result.direct_judgment or ""
    assert " a day against " in said and "health" not in said, said


# Not a direction: a season's "fall" is a time, "dropped" beside what was dropped asks who
# changed it (not read here), a count stays a count.
async def test_a_season_and_a_count_are_no_direction(werkzeug: OrgGraph) -> None:
    fall = await ask(werkzeug, "how many commits to werkzeug in the fall of 2025")
    assert fall.interpretation["intent"] == Intent.COUNT
    assert fall.outcome is Outcome.ANSWERED
    dropped = await ask(werkzeug, "who dropped python 3.8 support")
    assert dropped.interpretation["intent"] != Intent.TREND
    assert dropped.outcome is not Outcome.ANSWERED
