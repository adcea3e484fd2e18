"""A folder described beside its repository's name is that repository's folder: "the werkzeug
test suite", "werkzeug's test suite", "the test suite of click", "attrs unit tests", "click's
documentation" (engine.reading.references.by_descriptions reads the description as one
reference, a scope with the repository: engine.resolving.within). Before, "werkzeug test" was
a known name (werkzeug.test, the test client) and "suite" said unused, "werkzeug's test
suite" was werkzeug.test unsaid, "the test suite of click" counted the repository beside
tests, "click test suite" the whole repository ("test suite" said unused). On the shared
histories, each count `git log --no-merges --full-history -- PATH`'s by author time. And
"the routing tests", "the sansio tests": the tests of what the first word names, its folder or
test module in the test suite (engine.resolving.within.tests_of); they asked between the
module and the whole test suite, or between the package and the test package of one name."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer

pytestmark = shared_history.present("werkzeug", "click", "attrs")

werkzeug_clone, werkzeug, click_clone, click, attrs_clone, attrs = shared_history.each(
    "werkzeug", "click", "attrs"
)
CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
Y2025 = (datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))


histories = shared_history.histories("werkzeug", "click", "attrs")


@pytest.mark.parametrize(
    ("history", "question", "folder"),
    [
        ("werkzeug", "how many commits to the werkzeug test suite in 2025?", "tests"),
        ("werkzeug", "how many commits did werkzeug's test suite get in 2025?", "tests"),
        ("werkzeug", "how many commits touched the test suite of werkzeug in 2025?", "tests"),
        ("werkzeug", "how many commits to werkzeug unit tests in 2025", "tests"),
        ("click", "how many commits to the click test suite in 2025?", "tests"),
        ("click", "how many commits touched the test suite of click in 2025?", "tests"),
        ("click", "how many commits to click's documentation in 2025?", "docs"),
        ("attrs", "how many commits to the attrs test suite in 2025?", "tests"),
        ("attrs", "how many commits to attrs unit tests in 2025", "tests"),
    ],
)
async def test_a_folder_described_beside_its_repository_is_its_folder(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, folder: str
) -> None:
    graph, clone = histories[history]
    result = await answer(graph, question, now=CLOCK)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{history}/{folder}",)
    commits = shared_history.commits(clone, *Y2025, folder)
    assert (result.direct_judgment or "").startswith(f"{commits} commit(s) to {folder} ")
    assert any("describes the folder" in n for n in result.limitations), result.limitations


async def test_a_description_is_never_a_known_name_inside_it(werkzeug: OrgGraph) -> None:
    """ "which test files changed the most" ranked nothing: "test" was werkzeug.test (no file
    in it had a commit); the test files are ranked, tests/test_debug.py first (3 in 2025)."""
    result = await answer(werkzeug, "which test files changed the most in 2025?", now=CLOCK)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert "1. tests/test_debug.py (3 commit(s))" in (result.direct_judgment or "")


@pytest.mark.parametrize(
    ("history", "question", "path"),
    [
        ("werkzeug", "how many commits touched the routing tests in 2025?",
         "tests/test_routing.py"),
        ("werkzeug", "how many commits touched the sansio tests in 2025?", "tests/sansio"),
        ("click", "how many commits touched the termui tests in 2025?", "tests/test_termui.py"),
        ("attrs", "how many commits touched the validators tests in 2025?",
         "tests/test_validators.py"),
    ],
)  # fmt: skip
async def test_the_tests_of_a_module_are_its_test_module_or_folder(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str
) -> None:
    graph, clone = histories[history]
    result = await answer(graph, question, now=CLOCK)
    assert result.outcome is Outcome.ANSWERED, (result.limitations, result.clarification_prompt)
    assert result.subject_keys == (f"module:{history}/{path}",)
    commits = shared_history.commits(clone, *Y2025, path)
    assert commits > 0
    assert (result.direct_judgment or "").startswith(f"{commits} commit(s) to ")
    assert any("was read as the tests of" in n for n in result.limitations), result.limitations
