"""Questions asking two things at once (issue 32), on the real histories (../shared/data), in
memory, each figure against git's (`git log --no-merges --full-history`, author time):

- the driver of a top-five ranking named a sixth person chosen for his lines ("Veritia (4
  commit(s))") while two with more commits (10 and 9) were not named: the driver names the
  first five by commits (engine/answering/signals.py).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer
from tests.test_rankings_asked import authors

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
YEAR_BACK = datetime(2025, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each(
    "click", "werkzeug", "attrs"
)

ask = partial(answer, now=CLOCK)


@pytest.fixture(scope="module")
def histories(
    click: OrgGraph,
    click_clone: Path,
    werkzeug: OrgGraph,
    werkzeug_clone: Path,
    attrs: OrgGraph,
    attrs_clone: Path,
) -> dict[str, tuple[OrgGraph, Path]]:
    return {
        "click": (click, click_clone),
        "werkzeug": (werkzeug, werkzeug_clone),
        "attrs": (attrs, attrs_clone),
    }


TOP_FIVE = [
    ("click", "five most active contributors over the last 12 months"),
    ("werkzeug", "who were the 5 busiest committers in the past 12 months?"),
    ("attrs", "the five most active committers in the last year"),
]


@pytest.mark.parametrize(("history", "question"), TOP_FIVE)
async def test_the_driver_of_a_ranking_names_the_first_five_by_commits(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    """It named a sixth chosen for his lines: click's "Veritia (4 commit(s))" after David Lord
    (11), with jorenham (10) and Jaron Rosenau (9) unnamed."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = next(d.statement for d in result.drivers if "changes came from" in d.statement)
    named = [int(n) for n in re.findall(r"\((\d+) commit\(s\)\)", said.split("came from")[1])]
    gits = sorted(authors(clone, YEAR_BACK, CLOCK).values(), reverse=True)
    assert named == gits[:5]
