"""A folder or file asked deleted that was moved, named as the path it moved from. On the real
histories (../shared/data); the truth is git's own (`git log --no-merges --full-history
--diff-filter=D -- PATH`: a move out of PATH is a deletion there), never the answer.

click "when was the click folder removed" (review40) was answered for docs/_themes/click,
a theme folder deleted in 2018 whose path only ends with "click", where click/ itself moved
to src/click on 2020-03-06 (079f91a). attrs "when was the attr folder deleted?"
said "src/attr was never deleted", the move of attr/ a side note. Now the path written, as
a whole, is the module's own earlier path, and its move out is the answer.
"""

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

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone,
 attrs) = shared_history.each("click", "werkzeug", "requests", "attrs")  # fmt: skip
histories = shared_history.histories("click", "werkzeug", "requests", "attrs")

ask = partial(answer, now=CLOCK)


def git_says(clone: Path, path: str) -> tuple[str, str, str]:
    """(abbreviated hash, author, author day in UTC) of the newest commit git says deleted
    PATH, looking at PATH alone (a move out of it is its deletion there)."""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--abbrev=7", "--diff-filter=D", "-1",
        "--date=format-local:%Y-%m-%d", "--format=%h|%an|%ad", "--", path,
    )  # fmt: skip
    sha, who, day = out.strip().splitlines()[0].split("|")
    return sha, who, day


@pytest.mark.parametrize(
    ("history", "question", "path", "now"),
    [
        ("click", "when was the click folder removed", "click", "src/click"),
        ("click", "who deleted the click directory?", "click", "src/click"),
        ("werkzeug", "who deleted the werkzeug folder, and when?", "werkzeug", "src/werkzeug"),
        ("attrs", "when was the attr folder deleted?", "attr", "src/attr"),
        ("requests", "when was the requests directory deleted?", "requests", "src/requests"),
        ("attrs", "who removed the attr dir, and when?", "attr", "src/attr"),
    ],
)  # fmt: skip
async def test_a_path_moved_away_is_said_moved_with_the_commit_git_gives(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str, now: str
) -> None:
    """Answered with the move out of the path written, never a deleted path that only ends
    with its name, nor "never deleted" of the module it became."""
    graph, clone = histories[history]
    assert not shared_history.git(clone, "ls-files", "--", path).strip()  # not at the head
    sha, who, day = git_says(clone, path)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{path} was not deleted: it moved to {now}, at {day}"), judgment
    assert f"({sha})" in judgment and f"by {who}" in judgment, judgment


@pytest.mark.parametrize(
    ("history", "question", "path"),
    [
        ("requests", "who deleted tests/integration/test_requests.py?",
         "tests/integration/test_requests.py"),
        ("click", "when was docs/_themes/click removed?", "docs/_themes/click"),
    ],
)  # fmt: skip
async def test_a_deleted_path_written_whole_is_still_its_deletion(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str
) -> None:
    """Guard: the deleted path written as a whole is the deletion, as before."""
    graph, clone = histories[history]
    sha, who, day = git_says(clone, path)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{path} was deleted at {day}"), judgment
    assert f"({sha})" in judgment and f"by {who}" in judgment, judgment


async def test_a_file_of_the_head_named_by_its_name_is_never_deleted(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """Guard: attrs "_make.py" is src/attr/_make.py (from attr/_make.py), which the head has:
    never deleted, not the move out of attr/_make.py."""
    graph, clone = histories["attrs"]
    assert shared_history.git(clone, "ls-files", "--", "src/attr/_make.py").strip()
    result = await ask(graph, "when was _make.py deleted?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert "src/attr/_make.py was never deleted" in (result.direct_judgment or "")
