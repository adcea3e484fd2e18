"""A Python file that became a package of its name is one module over time
(graph/git/modules.py, `Modules._learn_packages`): werkzeug's src/werkzeug/routing.py became
the package src/werkzeug/routing/ in 2022 and datastructures.py datastructures/ in 2023;
click's tests/test_utils.py became tests/test_utils/ in 2026. Before, a question about
routing in 2021 answered "0 commit(s) to werkzeug.routing ... it did not exist yet in the
window" (the file had 15 commits that year), and the file's path named nothing. Figures are
git's: `git log --no-merges --full-history -- <file> <package>` by author time, on the real
histories (../shared/data)."""

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
ROUTING = ("src/werkzeug/routing.py", "src/werkzeug/routing", "werkzeug/routing.py")
DATASTRUCTURES = (
    "src/werkzeug/datastructures.py", "src/werkzeug/datastructures", "werkzeug/datastructures.py"
)  # fmt: skip

pytestmark = shared_history.present("werkzeug", "click")

werkzeug_clone, werkzeug, click_clone, click = shared_history.each("werkzeug", "click")

ask = partial(answer, now=CLOCK)


def year(y: int) -> tuple[datetime, datetime]:
    return datetime(y, 1, 1, tzinfo=UTC), datetime(y + 1, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "key", "paths", "in_year"),
    [
        ("routing changes in 2021, how many?", "src/werkzeug/routing", ROUTING, 2021),
        ("how many commits did the routing module get in 2018", "src/werkzeug/routing", ROUTING, 2018),
        ("number of commits to datastructures during 2020", "src/werkzeug/datastructures",
         DATASTRUCTURES, 2020),
    ],
)  # fmt: skip
async def test_a_package_counts_the_file_it_was(
    werkzeug: OrgGraph, werkzeug_clone: Path, question: str, key: str, paths: tuple[str, ...],
    in_year: int,
) -> None:  # fmt: skip
    """It said 0, "it did not exist yet in the window"."""
    result = await ask(werkzeug, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:werkzeug/{key}",)
    counted = commits(werkzeug_clone, *year(in_year), *paths)
    assert counted > 0
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to "), counted
    assert not any("did not exist" in limit for limit in result.limitations)


async def test_who_changed_the_package_counts_the_file_s_authors(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    """2021's routing work was all in routing.py: David Lord first (6 of 15, by git)."""
    result = await ask(werkzeug, "who worked on werkzeug routing in 2021?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    lord = commits(werkzeug_clone, *year(2021), *ROUTING, author="davidism@gmail.com")
    assert lord == 6
    assert f"David Lord ({lord} commit(s)" in (result.direct_judgment or "")


async def test_the_file_s_path_names_the_package_it_became(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    """"werkzeug/routing.py" named no file of the head: no match. Now a former name."""
    result = await ask(werkzeug, "how many commits touched werkzeug/routing.py in 2019?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == ("module:werkzeug/src/werkzeug/routing",)
    counted = commits(werkzeug_clone, *year(2019), *ROUTING)
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to ")
    assert any("former name" in limit for limit in result.limitations)


async def test_a_test_file_that_became_a_test_package(click: OrgGraph, click_clone: Path) -> None:
    """click's tests/test_utils.py became tests/test_utils/ (with tests/test_utils_2/) in
    July 2026: 2025's 9 commits were the file's. The answer names both earlier paths (it
    named tests/test_utils_2 alone, where git finds none of them)."""
    result = await ask(click, "how many commits to tests/test_utils in 2025?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == ("module:click/tests/test_utils",)
    counted = commits(click_clone, *year(2025), "tests/test_utils.py")
    assert counted == commits(click_clone, *year(2025), "tests/test_utils", "tests/test_utils.py",
                              "tests/test_utils_2") > 0  # fmt: skip
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to ")
    moved = [limit for limit in result.limitations if "before that it was" in limit]
    assert moved and "tests/test_utils.py" in moved[0] and "tests/test_utils_2" in moved[0]
