"""A word taken for a person by a near spelling is asked back, never answered for
(engine/resolving/actors.acted, engine/resolving/firsttypos.ordinary_person). On main 9ed6fed
werkzeug "json commits in 2025" answered "0 commit(s) by Jason" (the file devcontainer.json
passed over as making no commits) and requests the same with "jason" (jjmaldonis: "json" is
"jason" a letter short): another question each. A person's own handle, or a word of one, is
still theirs ("dependabot"). Figures are git's (`git log --no-merges --full-history`, author
time)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, year
from tests.test_investigate import answer
from tests.test_people_words import CLOCK

HISTORIES = ("werkzeug", "requests")

pytestmark = shared_history.present(*HISTORIES)

(werkzeug_clone, werkzeug, requests_clone, requests) = shared_history.each(*HISTORIES)
histories = shared_history.histories(*HISTORIES)

ask = partial(answer, now=CLOCK)

NEAR = [  # (history, question, the person it was taken for)
    ("werkzeug", "json commits in 2025", "Jason"),
    ("werkzeug", "how many commits did json make in 2023", "Jason"),
    ("werkzeug", "what did json change in 2024", "Jason"),
    ("requests", "json commits in 2025", "jason"),
    ("requests", "what did json change in 2024", "jason"),
]


@pytest.mark.parametrize(("history", "question", "person"), NEAR)
async def test_a_word_near_a_name_is_asked_back(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, person: str
) -> None:
    """Fails on main 9ed6fed: ANSWERED for the person ("0 commit(s) by Jason")."""
    graph, _ = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (
        result.outcome, result.direct_judgment, result.limitations,
    )  # fmt: skip
    assert '"json"' in (result.clarification_prompt or ""), result.clarification_prompt
    assert not (result.direct_judgment or "")


GUARDS = [  # (history, question, author as git log names them, year): a handle as written
    ("werkzeug", "how many commits did dependabot make in 2024", "dependabot", 2024),
    ("requests", "how many commits did dependabot make in 2023", "dependabot", 2023),
    ("requests", "kennethreitz commits 2013", "Kenneth Reitz", 2013),
]


@pytest.mark.parametrize(("history", "question", "author", "y"), GUARDS)
async def test_a_handle_as_written_is_still_the_person(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, author: str, y: int
) -> None:
    """Guard: passes before and after."""
    graph, clone = histories[history]
    expected = commits(clone, *year(y), author=author)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) by "), (
        result.direct_judgment, expected,
    )  # fmt: skip
