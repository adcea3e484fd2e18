"""Function words are never part of a name: "who else changes the same files as Pieter
Eendebak?" (attrs) ended on '"as Pieter Eendebak" names no subject known here: ... "as" names
no part of it' (z40a A-C03, A-W08, A-R07, A-T06 on all four histories), and without "as",
on '"else" was not understood'. "as" and "else" are stop words (engine/reading/vocabulary):
the person is read, and what is not computed about them (who works on the same files) is
said with a way forward, never another question answered: the question ends (NO_MATCH)."""

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

pytestmark = shared_history.present("werkzeug", "attrs")
(werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each("werkzeug", "attrs")
histories = shared_history.histories("werkzeug", "attrs")
ask = partial(answer, now=CLOCK)


@pytest.mark.parametrize(
    ("history", "question", "person"),
    [
        ("attrs", "who else changes the same files as Pieter Eendebak?", "Pieter Eendebak"),
        ("werkzeug", "who else changes the same files as Rebecca Chen?", "Rebecca Chen"),
        ("attrs", "who works on the same code as Tin Tvrtković?", "Tin Tvrtković"),
    ],
)
async def test_as_and_else_are_no_part_of_a_name(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, person: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, question)
    said = " ".join(result.limitations)
    assert '"as ' not in said and '"else"' not in said, said
    assert person in result.interpretation.get("references", []), result.interpretation
    # Who else changes the same files (co-changers) is not computed: the question ends,
    # saying so (engine/reading/sizerows.co_changers); it was ANSWERED with a judgment saying
    # it, another outcome than what was given (people41).
    assert result.outcome is Outcome.NO_MATCH, (result.outcome, result.direct_judgment)
    assert "(their co-changers) is not computed here" in said, said
    assert 'Ask "which files did <person> change most in <period>?"' in said, said
