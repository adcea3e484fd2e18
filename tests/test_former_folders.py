"""A folder named by the path it had before a move (engine/resolving/formerfolders.py):
click "commits to click/ dir 2019" said "45 commit(s) to click" with no scope (z39b B10), where
`git log -- click/` lists 37 (the other 8, authored in 2019 on src/click, landed after the
2020 move). The answer follows the package across the move and now says so with both
figures; "commits under werkzeug/ in 2018" was the whole repository (152), not the folder.
A window wholly after the move counts the folder as it is now and says the earlier path had
none (werkzeug/ 2024: 52 at src/werkzeug, said as werkzeug/'s before).
Truth from git on the real histories (../shared/data): each failed before."""

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

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone,
 attrs) = shared_history.each("click", "werkzeug", "requests", "attrs")  # fmt: skip
histories = shared_history.histories("click", "werkzeug", "requests", "attrs")

ask = partial(answer, now=CLOCK)


@pytest.mark.parametrize(
    ("history", "question", "before", "now", "year"),
    [
        ("click", "commits to click/ dir 2019", "click", "src/click", 2019),
        ("click", "number of commits under click/ during 2018", "click", "src/click", 2018),
        ("click", "how many commits touched the click folder in 2020?", "click", "src/click",
         2020),
        ("werkzeug", "commits under werkzeug/ in 2018", "werkzeug", "src/werkzeug", 2018),
        ("werkzeug", "how many commits to the werkzeug/ folder in 2019?", "werkzeug",
         "src/werkzeug", 2019),
        ("requests", "how many commits touched the requests/ directory in 2023", "requests",
         "src/requests", 2023),
        ("requests", "commits to requests/ dir 2022", "requests", "src/requests", 2022),
        ("attrs", "commits to the attr/ folder in 2015", "attr", "src/attr", 2015),
        # wholly after the move: the folder as it is now is counted, and the earlier path's
        # none said (review r40: werkzeug/ 2024 gave src/werkzeug's 52 unsaid; git: 0)
        ("werkzeug", "commits under werkzeug/ in 2024", "werkzeug", "src/werkzeug", 2024),
        ("requests", "commits to requests/ in 2024", "requests", "src/requests", 2024),
        ("click", "commits to click/ in 2022", "click", "src/click", 2022),
        ("click", "commits to the click folder in 2024", "click", "src/click", 2024),
    ],
)  # fmt: skip
async def test_a_folder_named_by_its_path_before_a_move_says_both_figures(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    before: str,
    now: str,
    year: int,
) -> None:
    graph, clone = histories[history]
    start, end = datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)
    both = shared_history.commits(clone, start, end, f"{before}/", now)
    old = shared_history.commits(clone, start, end, f"{before}/")
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED
    assert result.direct_judgment is not None
    assert re.match(rf"{both} commit\(s\) to ", result.direct_judgment), result.direct_judgment
    said = " ".join(result.limitations)
    assert f"{both} commit(s) from " in said, said
    assert f"{old} of them touched {before}/ itself" in said, said
    assert f"`git log -- {before}/`" in said


async def test_a_folder_by_its_present_path_says_no_move(click: OrgGraph) -> None:
    """src/click, the folder's path now, is no earlier path: nothing more is said."""
    result = await ask(click, "commits to src/click in 2024")
    assert result.outcome is Outcome.ANSWERED
    assert not any("the folder click had until" in n for n in result.limitations)
