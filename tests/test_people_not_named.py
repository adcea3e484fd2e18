"""Words that name no person, on the shared real histories (../shared/data): the mail host of
an address and a number word (engine/resolving/notnames.py). Each was asked back as a choice
of people: "Which Python module changed most often?" offered requests' Benjamin Peterson and
Christian Heimes (benjamin@python.org, christian@python.org) and werkzeug's Georg Brandl
(georg@python.org); "only ever made one commit" offered requests' Kevin Kirsche
(kevin.kirsche@one.verizon.com). Now no person is offered or counted for them; a person's own
part of an address still names them."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
HISTORIES = ("werkzeug", "requests")

pytestmark = shared_history.present(*HISTORIES)

werkzeug_clone, werkzeug, requests_clone, requests = shared_history.each(*HISTORIES)
histories = shared_history.histories(*HISTORIES)

ask = partial(answer, now=CLOCK)

NOT_NAMES = [
    ("werkzeug", "Which Python module changed most often in 2025?"),
    ("requests", "Which Python module changed most often in 2026?"),
    ("requests", "how many requests contributors only ever made one commit"),
    ("werkzeug", "how many werkzeug contributors made only one commit in 2025"),
]


@pytest.mark.parametrize(("history", "question"), NOT_NAMES)
async def test_a_mail_host_or_a_number_word_names_no_person(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, question)
    assert not any(c.subject_key.startswith("person:") for c in result.candidates), (
        result.clarification_prompt
    )
    assert not any(k.startswith("person:") for k in result.subject_keys), result.subject_keys
    assert result.outcome is not Outcome.ANSWERED or "one" not in question, result.direct_judgment


OWN = [  # the local part of a person's address, typed: that person still
    ("werkzeug", "georg", "Georg Brandl"),
    ("requests", "kevin.kirsche", "Kevin Kirsche"),
]


@pytest.mark.parametrize(("history", "said", "name"), OWN)
async def test_the_own_part_of_an_address_still_names_its_person(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, said: str, name: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, f"How many commits did {said} make in 2012?")
    named = [c.name for c in result.candidates] + [result.direct_judgment or ""]
    assert any(name in n for n in named), (result.outcome, result.clarification_prompt)
