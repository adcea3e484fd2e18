"""A deleted folder named with a word for a folder after it ("the contrib folder", "the
packages directory"), asked when or by whom it was deleted. On the real histories
(../shared/data); the truth is git's own (`git log --no-merges --full-history
--diff-filter=D -1 -- PATH`), never the answer.

werkzeug "when was the contrib folder deleted, and by whom?" ended "\"contrib folder\" names
no one known here" (the two words read by position as one name, then as a person: z40b
B-W10's neighbour); requests "when was the packages folder deleted" "\"folder\" names no
subject" ("packages", a kind word, left out of the name: gone40). Now a folder word after a
name makes the name a reference of a folder (engine/reading/kindwords.before_kind_words),
and of several deleted folders of a name the one holding the others is the one asked
(requests/packages, not requests/packages/urllib3/packages inside it).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from engine.reading.interpreter import interpret
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
    PATH (for a folder, the last of its files)."""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--abbrev=7", "--diff-filter=D", "-1",
        "--date=format-local:%Y-%m-%d", "--format=%h|%an|%ad", "--", path,
    )  # fmt: skip
    sha, who, day = out.strip().splitlines()[0].split("|")
    return sha, who, day


@pytest.mark.parametrize(
    ("history", "question", "path"),
    [
        ("werkzeug", "when was the contrib folder deleted, and by whom?", "src/werkzeug/contrib"),
        ("werkzeug", "who removed the contrib directory, and when?", "src/werkzeug/contrib"),
        ("requests", "when was the packages folder deleted", "requests/packages"),
        ("requests", "who deleted the packages directory?", "requests/packages"),
        ("click", "when was the _themes folder deleted?", "docs/_themes"),
    ],
)  # fmt: skip
async def test_a_deleted_folder_named_with_a_folder_word_is_its_deletion(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str
) -> None:
    graph, clone = histories[history]
    assert not shared_history.git(clone, "ls-files", "--", path).strip()  # gone at the head
    sha, who, day = git_says(clone, path)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{path} was deleted at {day}"), judgment
    assert f"({sha})" in judgment and f"by {who}" in judgment, judgment


async def test_a_folder_of_the_head_named_with_a_folder_word_is_counted_as_git(
    click: OrgGraph, click_clone: Path
) -> None:
    """Guard: "the tests folder" is click's tests/, counted as `git log -- tests` counts it
    (it was so before: the rule adds nothing where the name was read)."""
    start, end = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    expected = shared_history.commits(click_clone, start, end, "tests")
    result = await ask(click, "how many commits touched the tests folder in 2025?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to tests "), (
        result.direct_judgment
    )


def test_a_folder_word_is_no_name_of_its_own_nor_part_of_a_persons() -> None:
    """Guards: "which folder ...?" names nothing; "Dir Lord" stays a person's name."""
    assert interpret("which folder changed most in 2025?", CLOCK).references == ()
    assert interpret("what did Dir Lord change in the folder?", CLOCK).references == (
        "Dir Lord",
    )
