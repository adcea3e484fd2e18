"""A deletion asked yes or no ("was X deleted?", "is X gone?", "has X been removed?"), with or
without its when and who after it ("? when and by who"). On the real histories
(../shared/data); the truth is git's own (`git log --no-merges --full-history --diff-filter=D
-- PATH`), never the answer.

click "was tests/test_utils.py deleted? when and by who" (z42, b-click-04) was answered as the
health of tests/test_utils ("a former name of test_utils") over the last 30 days, the
"when and by who" said not answered, and the deletion (2026-07-08, 47cc96f, Edward G) never
said: with no question word the deletion was not read, and the question mark split the when
and who off as a second question. Now the yes-or-no form asks the deletion as "when" does, and
question words alone after it are its own.
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

pytestmark = shared_history.present("click", "werkzeug", "requests")

(click_clone, click, werkzeug_clone, werkzeug, requests_clone,
 requests) = shared_history.each("click", "werkzeug", "requests")  # fmt: skip
histories = shared_history.histories("click", "werkzeug", "requests")

ask = partial(answer, now=CLOCK)


def git_says(clone: Path, path: str) -> tuple[str, str, str]:
    """(abbreviated hash, author, author day in UTC) of the newest commit git says deleted
    PATH."""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--abbrev=7", "--diff-filter=D", "-1",
        "--date=format-local:%Y-%m-%d", "--format=%h|%an|%ad", "--", path,
    )  # fmt: skip
    sha, who, day = out.strip().splitlines()[0].split("|")
    return sha, who, day


@pytest.mark.parametrize(
    ("history", "question", "path"),
    [
        ("click", "was tests/test_utils.py deleted? when and by who", "tests/test_utils.py"),
        ("click", "is tests/test_utils.py gone?", "tests/test_utils.py"),
        ("werkzeug", "was src/werkzeug/useragents.py deleted?", "src/werkzeug/useragents.py"),
        ("werkzeug", "is tox.ini gone?", "tox.ini"),
        ("requests", "was pytest.ini deleted? when and by whom", "pytest.ini"),
        ("requests", "was pytest.ini removed?", "pytest.ini"),
    ],
)  # fmt: skip
async def test_a_deletion_asked_yes_or_no_is_its_commit(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str
) -> None:
    """Said deleted, with the commit git gives (when, who), the when and who never said not
    answered, never a health or a former name of another module."""
    graph, clone = histories[history]
    assert not shared_history.git(clone, "ls-files", "--", path).strip()  # not at the head
    sha, who, day = git_says(clone, path)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{path} was deleted at {day}"), judgment
    assert f"({sha})" in judgment and f"by {who}" in judgment, judgment
    said = " ".join(result.limitations)
    assert "former name" not in said and "Only the first question" not in said, said


@pytest.mark.parametrize(
    ("history", "question", "path"),
    [
        ("click", "was src/click/core.py deleted?", "src/click/core.py"),
        ("werkzeug", "is src/werkzeug/serving.py gone?", "src/werkzeug/serving.py"),
    ],
)  # fmt: skip
async def test_a_file_the_head_has_asked_deleted_is_never_said_deleted(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str
) -> None:
    """Guard: a file still present asked "was X deleted?" is said never deleted."""
    graph, clone = histories[history]
    assert shared_history.git(clone, "ls-files", "--", path).strip()  # at the head
    result = await ask(graph, question)
    judgment = result.direct_judgment or ""
    assert f"{path} was never deleted" in judgment, (judgment, result.limitations)
    assert "was deleted at" not in judgment, judgment


async def test_a_path_moved_away_asked_deleted_is_said_moved(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """Guard: click/core.py moved to src/click/core.py (git's rename): said moved, with the
    move's commit, never deleted."""
    graph, clone = histories["click"]
    moved = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--abbrev=7", "--diff-filter=D",
        "-1", "--format=%h", "--", "click/core.py",
    ).strip()  # fmt: skip
    result = await ask(graph, "was click/core.py deleted?")
    judgment = result.direct_judgment or ""
    assert judgment.startswith("click/core.py was not deleted: it moved to src/click/core.py")
    assert f"({moved})" in judgment, judgment


@pytest.mark.parametrize(
    "question",
    ["is src/werkzeug/serving.py healthy?", "where did src/werkzeug/useragents.py go?"],
)
async def test_neighbours_are_not_read_as_a_deletion_asked(
    histories: dict[str, tuple[OrgGraph, Path]], question: str
) -> None:
    """Guard: a health asked yes or no is no deletion asked; "where did X go?" is read as
    before (the deleted file said deleted, nothing answered of it)."""
    result = await ask(histories["werkzeug"][0], question)
    assert "was deleted at" not in (result.direct_judgment or ""), result.direct_judgment
    if question.startswith("where"):
        assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
