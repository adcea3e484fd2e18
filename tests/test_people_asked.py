"""People and what is computed about them, asked as nobody here phrased it before (issue 32,
the independent checks of session 34): "when did X start contributing" is X's first change,
never a word not understood; ... On the real histories (../shared/data), in memory; each
truth from `git log --no-merges --full-history` (author time; people as `git shortlog` groups
them)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer
from tests.test_look_back import authored

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "requests", "werkzeug", "attrs")

click_clone, click, requests_clone, requests, werkzeug_clone, werkzeug, attrs_clone, attrs = (
    shared_history.each("click", "requests", "werkzeug", "attrs")
)
ask = partial(answer, now=CLOCK)


@pytest.fixture(scope="module")
def histories(request: pytest.FixtureRequest) -> dict[str, tuple[OrgGraph, Path]]:
    names = ("click", "requests", "werkzeug", "attrs")
    return {n: (request.getfixturevalue(n), request.getfixturevalue(f"{n}_clone")) for n in names}


# A start word with a verb of doing in a "when" question: the first change. Before, "start"
# and "begin" were not understood, and "hynek first" / "hynek start" were read as one name.
STARTED = [
    ("attrs", "when did Hynek Schlawack start contributing", "Hynek Schlawack"),
    ("attrs", "when did hynek first contribute", "Hynek Schlawack"),
    ("werkzeug", "When did David Lord start contributing?", "David Lord"),
    ("werkzeug", "when did davidism begin committing to werkzeug", "David Lord"),
    ("click", "When did Armin Ronacher start committing to click?", "Armin Ronacher"),
    ("requests", "when did Nate Prewitt start to contribute", "Nate Prewitt"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "author"), STARTED)
async def test_when_a_person_started_is_their_first_change(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, author: str
) -> None:
    graph, clone = histories[history]
    at, sha = authored(clone, author)[0]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.direct_judgment is not None
    assert "first change" in result.direct_judgment and author in result.direct_judgment
    assert sha[:7] in result.direct_judgment
    assert at.strftime("%Y-%m-%dT%H:%M:%SZ") in result.direct_judgment
