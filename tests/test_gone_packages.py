"""A package, module or file the head has no more, asked when it was removed and by whom. On the real histories (../shared/data); the
truth is git's own (`git log --no-merges --full-history --diff-filter=D|A`), never the answer.

- werkzeug "when was the contrib package removed, and by whom" was answered for
  examples/contrib (z39a A9: src/werkzeug/contrib was no deletion, its files' last touch
  being a branch merged after, 54939182); now the shipped package src/werkzeug/contrib, the
  others of the name said beside it. Deletions are git's status D (graph/git/log.py reads
  `--summary`): werkzeug's setup.cfg was "deleted" by d92bd89 (a later change on a branch),
  git says 132eaef; src/werkzeug/contrib/sessions.py had no deletion at all.
- requests "when was the async module removed" (z39a A6) and its likes on click and attrs
  are held as they are answered now: the file's last path, whatever the default window.
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


def git_says(clone: Path, *args: str) -> tuple[str, str, str]:
    """(abbreviated hash, author, author day in UTC) of the one commit `git log` gives."""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--abbrev=7",
        "--date=format-local:%Y-%m-%d", "--format=%h|%an|%ad", *args,
    )  # fmt: skip
    sha, who, day = out.strip().splitlines()[0].split("|")
    return sha, who, day


@pytest.mark.parametrize(
    ("history", "question", "path"),
    [
        ("werkzeug", "when was the contrib package removed, and by whom", "src/werkzeug/contrib"),
        ("werkzeug", "who got rid of contrib?", "src/werkzeug/contrib"),
        ("werkzeug", "who deleted setup.cfg, and when?", "setup.cfg"),
        ("werkzeug", "who deleted src/werkzeug/contrib/sessions.py?",
         "src/werkzeug/contrib/sessions.py"),
        ("requests", "when was the async module removed", "requests/async.py"),
        ("click", "when was the _bashcomplete module removed, and by whom?",
         "src/click/_bashcomplete.py"),
        ("attrs", "when was the _dunders module removed, and who did it", "attr/_dunders.py"),
    ],
)  # fmt: skip
async def test_a_removed_path_is_the_commit_git_says_deleted_it(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str
) -> None:
    """The newest commit git gives status D for the path (for a folder, for its files), with
    no window: a life question names none, so none is defaulted."""
    graph, clone = histories[history]
    assert not shared_history.git(clone, "ls-files", "--", path).strip()  # gone at the head
    sha, who, day = git_says(clone, "-M", "--diff-filter=D", "-1", "--", path)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{path} was deleted at {day}"), judgment
    assert f"({sha})" in judgment and f"by {who}" in judgment, judgment
    assert not any("No time was named" in n for n in result.limitations)


async def test_the_shipped_package_of_a_name_is_chosen_and_the_others_said(
    werkzeug: OrgGraph,
) -> None:
    result = await ask(werkzeug, "when was the contrib package removed, and by whom")
    said = " ".join(result.limitations)
    assert '"contrib" names src/werkzeug/contrib' in said
    assert "tests/contrib" in said and "examples/contrib" in said  # deleted too, said
