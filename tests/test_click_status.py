"""Status questions about a git history ("how is core.py doing?", "is X still maintained?"):
click holds commits only, no incident, deploy, pull request or work item. The answers say which
window they read when the question named none, and never judge health from commits as if it
had been checked. Expected numbers come from `git log` (tests/test_click_history.py)."""

from __future__ import annotations

from datetime import timedelta

from engine.contract import Outcome
from engine.ports import OrgGraph
from tests.test_click_history import CLOCK, Commit, ask, between, click, clone

__all__ = ["click", "clone"]  # the module's fixtures: one import of the history here


def touching(commits: list[Commit], path: str) -> list[Commit]:
    return [c for c in commits if path in c.paths]


async def test_a_status_question_says_its_window_and_that_health_is_not_judged(
    click: tuple[OrgGraph, list[Commit]],
) -> None:
    """It said "No canonical fact shows click.core behind or under strain in this window"
    over a 30-day window it never named, and five "No X records are retained" notes."""
    graph, commits = click
    start = CLOCK - timedelta(days=30)
    window = "2026-08-02T00:00:00Z to 2026-09-01T00:00:00Z"
    for question, path in (
        ("how is core.py doing?", "src/click/core.py"),
        ("is the testing module healthy?", "src/click/testing.py"),
        ("how is click doing?", ""),  # the repository: 6 commits
    ):
        result = await ask(graph, question)
        assert result.outcome is Outcome.ANSWERED, question
        assert result.temporal_label.effective_from == start
        assert f"No time was named: the answer covers {window}." in result.limitations
        judgment = result.direct_judgment or ""
        assert "behind or under strain" not in judgment
        assert judgment.startswith("The health of click")
        assert "no incident, deploy, pull-request or work-item facts were found" in judgment
        changed = [c for c in between(commits, start, CLOCK) if any(
            p.startswith(path) for p in c.paths)]  # fmt: skip
        # core.py and testing.py: none in August 2026.
        assert ("only its changes were read" in judgment) == bool(changed), question
        # The reads that found nothing, in one note (the repository's pull requests,
        # incidents and work items too).
        empty = [n for n in result.limitations if "records are retained" in n]
        assert len(empty) == 1, question
        assert ("activity" in empty[0]) == (not changed), question
