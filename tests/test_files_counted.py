"""A count of files or modules is not the commits: "how many files changed in click in
2026?" was answered "193 commit(s) to click", "how many different files did Kevin Deldycke
touch this year" "92 commit(s) by Kevin Deldycke", figures of another unit, unsaid. A count
of files is not computed (engine/reading/wordrules `files counted`): said, the question
ends. A count of commits to files named stays a count. On click's and werkzeug's real
histories (../shared/data), in memory, asked on 2026-09-01T12:00:00Z."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, on
from tests.test_periods_compared import ask

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug")

(click_clone, click, werkzeug_clone, werkzeug) = shared_history.each("click", "werkzeug")
histories = shared_history.histories("click", "werkzeug")


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ("click", "how many files changed in click in 2026"),
        ("click", "how many different files did kevin deldycke touch this year"),
        ("werkzeug", "How many modules did David Lord change in 2025?"),
        ("werkzeug", "number of files touched by david lord in march 2026"),
    ],
)
async def test_a_count_of_files_is_said_not_computed(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    result = await ask(histories[history][0], question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert any("a count of the files or modules" in n for n in result.limitations)


async def test_commits_to_files_named_are_counted(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    result = await ask(werkzeug, "how many commits touched files in src/werkzeug/debug in 2025")
    assert result.outcome is Outcome.ANSWERED
    counted = commits(werkzeug_clone, on(2025, 1), on(2026, 1), "src/werkzeug/debug")
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to ")
