"""Who else changed the files a person changed (co-changers) is not computed: the question
ends naming it, with the questions that are (engine/reading/sizerows.co_changers). On main
9ed6fed "who else changes the same files as Rebecca Chen?" (werkzeug) was ANSWERED with a
judgment saying who a person works with is not computed: another outcome than what was given
(an answer the checker reads as answered). Guards: who questions without "the same X as"
are answered as before, their figures git's (`git log --no-merges --full-history`)."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, year
from tests.test_investigate import answer
from tests.test_people_words import CLOCK

HISTORIES = ("click", "werkzeug", "requests", "attrs")

pytestmark = shared_history.present(*HISTORIES)

(
    click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone, attrs
) = shared_history.each(*HISTORIES)  # fmt: skip
histories = shared_history.histories(*HISTORIES)

ask = partial(answer, now=CLOCK)

ASKED = [  # (history, question, the words said)
    ("werkzeug", "who else changes the same files as Rebecca Chen?", "same files"),
    ("werkzeug", "which people touched the same modules as David Lord in 2025?", "same modules"),
    ("attrs", "who else edits the same files as Pieter Eendebak in 2025", "same files"),
    ("click", "who works on the same code as Kevin Deldycke this year?", "same code"),
    ("requests", "who else has worked on the same files as Nate Prewitt?", "same files"),
]


@pytest.mark.parametrize(("history", "question", "words"), ASKED)
async def test_co_changers_end_said_not_computed(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, words: str
) -> None:
    """Fails on main 9ed6fed: ANSWERED ("who a person is or works with is not computed")."""
    graph, _ = histories[history]
    result = await ask(graph, question)
    said = " ".join(result.limitations)
    assert result.outcome is Outcome.NO_MATCH, (result.outcome, result.direct_judgment, said)
    assert f'"{words}": who else changed the files a person changed' in said, said
    assert "which files did <person> change most" in said, said


GUARDS = [  # (history, question, year): "else" or "as" without "the same X as"
    ("werkzeug", "who else committed to werkzeug in 2025?", 2025),
    ("attrs", "who contributed to attrs in 2024 as well?", 2024),
]


@pytest.mark.parametrize(("history", "question", "y"), GUARDS)
async def test_who_without_the_same_things_is_answered(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, y: int
) -> None:
    """Guard: everyone who committed, their commits adding up to git's."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    judged = result.direct_judgment or ""
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    listed = [int(n) for n in re.findall(r"\((\d+) commit\(s\), \d+ line", judged)]
    assert sum(listed) == commits(clone, *year(y)), judged
