"""A module named with its repository at the question's end is that repository's module:
"when was shell completion last changed in click" and "when was sessions.py last modified in
requests" read the module and the repository as two subjects and listed both one's changes,
newest first, so the repository's newest change (another file's) was given as the module's
last change, unsaid; "who changed the testing module most in click in 2025" ranked the
people of both. Git's last change to the file answers (engine/reading/scopes `_ENDING_IN`).
A person with a repository stays the person's part of it. On click's and requests' real
histories (../shared/data), in memory, asked on 2026-09-01T12:00:00Z."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits
from tests.test_periods_compared import ask

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "requests")

(click_clone, click, requests_clone, requests) = shared_history.each("click", "requests")
histories = shared_history.histories("click", "requests")


def last_subject(clone: Path, path: str) -> str:
    """The subject line of the newest commit (no merges) touching `path`, as git gives it."""
    return subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "-1", "--format=%s",
         "--", path],
        capture_output=True, check=True, text=True,
    ).stdout.strip()  # fmt: skip


@pytest.mark.parametrize(
    ("history", "question", "path"),
    [
        ("click", "when was shell completion last changed in click", "src/click/shell_completion.py"),
        ("requests", "when was sessions.py last modified in requests", "src/requests/sessions.py"),
    ],
)
async def test_a_module_named_with_its_repository_last_is_the_one_answered(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = result.direct_judgment or ""  # the one last change (engine/questions/newest.py)
    assert f': "{last_subject(clone, path)}" (' in said, said
    assert len(result.subject_keys) == 1, result.subject_keys


async def test_people_ranked_for_a_module_with_its_repository_are_the_modules(
    click: OrgGraph,
) -> None:
    result = await ask(click, "who changed the testing module most in click in 2025")
    assert result.outcome is Outcome.ANSWERED
    assert (result.direct_judgment or "").startswith("Most active on click.testing from ")


async def test_a_person_with_a_repository_is_their_part_of_it(
    click: OrgGraph, click_clone: Path
) -> None:
    result = await ask(click, "how many commits did kevin deldycke make in click this year")
    year = commits(click_clone, datetime(2026, 1, 1, tzinfo=UTC), CLOCK, author="Kevin Deldycke")
    said = result.direct_judgment or ""
    assert said.startswith(f"{year} commit(s) to click by Kevin Deldycke"), said
