"""A bare word naming one module of the code a repository ships and others beside it only (its
examples, tests, docs) is the shipped one, said, the others offered with receipts
(engine.resolving.aside.shipped_first): independent checks (c32a, z32a c06, w02) had "did the
termui module change between May 1 and May 15 2026?" (click) ask between examples/termui and
src/click/termui.py, and "the sansio package" (werkzeug) between src/werkzeug/sansio and
tests/sansio, though nothing in either question places the word among the examples or tests.
Two shipped modules of the name still ask which; a word naming only an example's module still
asks whether it is meant; a word placing it ("the termui example") is the example. Each answer
is checked against git's count. On click's and werkzeug's real histories (../shared/data)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug")

click_clone, click, werkzeug_clone, werkzeug = shared_history.each("click", "werkzeug")

ask = partial(answer, now=CLOCK)


MAY = (datetime(2026, 5, 1, tzinfo=UTC), datetime(2026, 5, 16, tzinfo=UTC))
THIS_YEAR = (datetime(2026, 1, 1, tzinfo=UTC), CLOCK)

CASES = [
    ("click", "how many commits to the termui module between May 1 and May 15 2026?",
     "src/click/termui.py", "examples/termui", MAY),
    ("click", "how many commits to termui between May 1 and May 15 2026?",
     "src/click/termui.py", "examples/termui", MAY),
    ("werkzeug", "how many commits to the sansio package this year",
     "src/werkzeug/sansio", "tests/sansio", THIS_YEAR),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "shipped", "other", "window"), CASES)
async def test_a_word_naming_shipped_code_and_an_example_is_the_shipped_code_said(
    click: OrgGraph,
    click_clone: Path,
    werkzeug: OrgGraph,
    werkzeug_clone: Path,
    history: str,
    question: str,
    shipped: str,
    other: str,
    window: tuple[datetime, datetime],
) -> None:
    """It asked which of the two modules was meant."""
    graph, clone = (click, click_clone) if history == "click" else (werkzeug, werkzeug_clone)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.clarification_prompt)
    assert result.subject_keys == (f"module:{history}/{shipped}",)
    counted = commits(clone, *window, shipped)
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to "), (
        result.direct_judgment
    )
    note = next(n for n in result.limitations if "the code the repository ships" in n)
    assert f"also names {other} " in note and f"({shipped})" in note
    assert f"module:{history}/{other}" in {c.subject_key for c in result.candidates}
    assert not any("was read as the package" in n for n in result.limitations)


async def test_two_shipped_modules_of_a_name_still_ask(werkzeug: OrgGraph) -> None:
    """ "utils.py": src/werkzeug/utils.py and src/werkzeug/sansio/utils.py (and examples')."""
    result = await ask(werkzeug, "who touched utils.py in 2025")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    offered = {c.subject_key for c in result.candidates}
    assert {"module:werkzeug/src/werkzeug/utils.py",
            "module:werkzeug/src/werkzeug/sansio/utils.py"} <= offered  # fmt: skip


async def test_a_word_naming_only_an_example_still_asks(click: OrgGraph) -> None:
    """ "the CLI" of click names only examples/complex's cli.py."""
    result = await ask(click, "who touched the CLI in 2024")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert [c.subject_key for c in result.candidates] == [
        "module:click/examples/complex/complex/cli.py"
    ]


async def test_a_word_placing_it_among_the_examples_is_the_example(
    click: OrgGraph, click_clone: Path
) -> None:
    result = await ask(click, "how many commits to the termui example in 2021")
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == ("module:click/examples/termui",)
    start, end = datetime(2021, 1, 1, tzinfo=UTC), datetime(2022, 1, 1, tzinfo=UTC)
    counted = commits(click_clone, start, end, "examples/termui")
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to ")
