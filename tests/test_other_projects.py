"""Another project named, one the organisation does not hold (issue 32, refs42): a word that
is also a word of a fact phrase ("requests" of "pull requests") named nothing and was dropped
unsaid. On click, "compare requests with click" was answered about click alone, and "how many
commits to requests in 2024?" for the whole organisation; on attrs the second was answered
for .github/PULL_REQUEST_TEMPLATE.md (one word of its three). Now the word ends the question,
named; where the organisation holds it (requests itself), it is answered as before. On the
real histories (../shared/data), each figure as `git log --no-merges --full-history` (author
time) gives it.
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
Y2024 = (datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC))

pytestmark = shared_history.present("click", "requests", "attrs")

(click_clone, click, requests_clone, requests, attrs_clone, attrs) = shared_history.each(
    "click", "requests", "attrs"
)
histories = shared_history.histories("click", "requests", "attrs")
Histories = dict[str, tuple[OrgGraph, Path]]

ask = partial(answer, now=CLOCK)

NOT_HELD = [  # (history, question): "requests" is no project, module or person there
    ("click", "compare requests with click"),
    ("attrs", "compare requests with attrs"),
    ("click", "how many commits to requests in 2024?"),
    ("attrs", "how many commits to requests in 2024?"),
    ("click", "commits to requests and click in 2024"),
    ("attrs", "who owns the requests package?"),
]


@pytest.mark.parametrize(("history", "question"), NOT_HELD)
async def test_a_project_not_held_ends_the_question_named(
    histories: Histories, history: str, question: str
) -> None:
    """Fails on 20b18ad: click answered about click alone ("compare"), or 104 commits to the
    whole organisation; attrs answered for .github/PULL_REQUEST_TEMPLATE.md."""
    graph, _ = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, (result.outcome, result.direct_judgment)
    assert result.subject_keys == ()
    assert any('"requests"' in n for n in result.limitations), result.limitations


async def test_the_project_held_is_answered_as_before(histories: Histories) -> None:
    """Guard: on requests the word names the repository, answered with git's count (passes
    before and after)."""
    graph, clone = histories["requests"]
    result = await ask(graph, "how many commits to requests in 2024?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == ("repository:requests",)
    expected = shared_history.commits(clone, *Y2024)
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to requests ")


@pytest.mark.parametrize(
    ("history", "path"),
    [("attrs", ".github/PULL_REQUEST_TEMPLATE.md"), ("click", ".github/pull_request_template.md")],
)
async def test_the_template_named_by_its_words_is_still_that_file(
    histories: Histories, history: str, path: str
) -> None:
    """Guard: "the pull request template" holds more than one word of the file's name, and
    is that file, with git's count (passes before and after)."""
    graph, clone = histories[history]
    result = await ask(graph, "how many commits to the pull request template in 2024?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{history}/{path}",)
    expected = shared_history.commits(clone, *Y2024, path)
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to {path} ")
