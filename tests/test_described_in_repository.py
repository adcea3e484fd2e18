"""A folder described beside its repository's name is that repository's folder: "the werkzeug
test suite", "werkzeug's test suite", "the test suite of click", "attrs unit tests", "click's
documentation" (engine.reading.references.by_descriptions reads the description as one
reference, a scope with the repository: engine.resolving.within). Before, "werkzeug test" was
a known name (werkzeug.test, the test client) and "suite" said unused, "werkzeug's test
suite" was werkzeug.test unsaid, "the test suite of click" counted the repository beside
tests, "click test suite" the whole repository ("test suite" said unused). On the shared
histories, each count `git log --no-merges --full-history -- PATH`'s by author time."""

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


@pytest.fixture(scope="module")
def histories(request: pytest.FixtureRequest) -> dict[str, tuple[OrgGraph, Path]]:
    names = ("werkzeug", "click", "attrs")
    return {n: (request.getfixturevalue(n), request.getfixturevalue(f"{n}_clone")) for n in names}


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
