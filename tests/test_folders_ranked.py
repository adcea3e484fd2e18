"""Folders ranked by their commits ("most active folders last 90 days", "which directories
changed most in 2024?"): the modules that are no file, at any depth, each counting what lies
inside it (engine.reading.ranking `folders`, engine.resolving.rankable). "Folders" was a
filler word: the question named no subject and click's answer ranked the organisation's
PEOPLE without a word (z37b click 15), or ended with no subject named. Figures are git's
(`git log --no-merges --full-history -- <folder>` by author time), on the real histories."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
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
histories = shared_history.histories("click", "werkzeug")

ask = partial(answer, now=CLOCK)
LAST_90 = (CLOCK - timedelta(days=90), CLOCK)
Y2024 = (datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC))
Y2025 = (datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))


@pytest.mark.parametrize(
    ("history", "question", "window", "top"),
    [
        ("click", "most active folders last 90 days", LAST_90,
         [("tests", "tests"), ("click", "src/click"), ("docs", "docs")]),
        ("click", "which directories changed most in 2025?", Y2025,
         [("docs", "docs"), ("click", "src/click"), ("tests", "tests")]),
        ("werkzeug", "which folders had the most commits in 2024?", Y2024,
         [("werkzeug", "src/werkzeug"), ("tests", "tests"), (".github", ".github")]),
        ("werkzeug", "which folder changed most in 2025", Y2025,
         [("werkzeug", "src/werkzeug"), ("tests", "tests")]),
    ],
)  # fmt: skip
async def test_folders_are_ranked_by_git_s_counts(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    top: list[tuple[str, str]],
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = result.direct_judgment or ""
    assert said.startswith("Ranked by commits"), said
    assert "Most active" not in said
    for place, (name, path) in enumerate(top, 1):
        assert f"{place}. {name} ({commits(clone, *window, path)} commit(s))" in said, said
    assert any("Every folder" in limit for limit in result.limitations)
    ranked = set(result.subject_keys)
    assert not any(k.endswith((".py", ".md", ".rst", ".toml", ".txt")) for k in ranked), ranked


async def test_packages_inside_the_code_are_folders_too(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    """2024: datastructures 14, debug 11, sansio 8, routing 7 commits (z37a werkzeug 5)."""
    result = await ask(werkzeug, "top 20 directories by commits in 2024")
    said = result.direct_judgment or ""
    for name in ("datastructures", "debug", "sansio", "routing"):
        counted = commits(werkzeug_clone, *Y2024, f"src/werkzeug/{name}")
        assert f"werkzeug.{name} ({counted} commit(s))" in said, said
