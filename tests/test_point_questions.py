"""The first or the last change of something is one change: it needs no window (issue 32).
Checkers asking as users do (z36b) had "first ever click commit - who and when" end on
'"first ever" was not understood as a time', "when was the first commit ever made to X?" and
"what was the first commit of all time in X?" asked again "in the last 400 days", and "latest
attrs commit?", "last werkzeug commit, who and when?", "when was the last commit to X?"
answered with a year of changes newest first ("266 change(s) to click from 2025-09-01 ...",
"No time was named: the answer covers ..."). Now each names the one change, its second and
its author, at any age ("ever", "of all time" said as no window needed); "the latest changes"
(a list) keep the default window; a time named bounds the search. On the real histories
(../shared/data), in memory; each truth from `git log --no-merges --full-history` (author
time)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import changes, stamp
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug", "attrs")

click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs = shared_history.each(
    "click", "werkzeug", "attrs"
)
ask = partial(answer, now=CLOCK)
histories = shared_history.histories("click", "werkzeug", "attrs")


FIRSTS = [
    ("click", "first ever click commit - who and when", "click", "ever"),
    ("click", "what was the first commit of all time in click?", "click", "of all time"),
    ("werkzeug", "when was the first commit ever made to werkzeug?", "werkzeug", "ever"),
    ("werkzeug", "the very first werkzeug commit", "werkzeug", None),
    ("attrs", "the first ever attrs commit?", "attrs", "ever"),
]


@pytest.mark.parametrize(("history", "question", "scope", "phrase"), FIRSTS)
async def test_the_first_change_ever_is_one_change_at_any_age(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    scope: str,
    phrase: str | None,
) -> None:
    graph, clone = histories[history]
    at, sha, name = changes(clone, until=CLOCK)[0]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    assert (result.direct_judgment or "").startswith(
        f"The first change to {scope} recorded here was made at {stamp(at)}: "
    ), result.direct_judgment
    assert f"({sha[:7]}) by {name}." in (result.direct_judgment or "")
    if phrase is not None:
        said = f'"{phrase}": the first change is one change, searched for over the whole history'
        assert any(n.startswith(said) for n in result.limitations), result.limitations


LASTS = [
    ("click", "latest click commit?", "click", ()),
    ("click", "when was the last commit to src/click/testing.py", "click.testing",
     ("src/click/testing.py",)),
    ("werkzeug", "last werkzeug commit, who and when?", "werkzeug", ()),
    ("werkzeug", "when was the last commit ever to werkzeug?", "werkzeug", ()),
    ("attrs", "latest attrs commit?", "attrs", ()),
    ("attrs", "who made the most recent commit to attrs?", "attrs", ()),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "scope", "paths"), LASTS)
async def test_the_last_change_is_one_change_with_no_window(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    scope: str,
    paths: tuple[str, ...],
) -> None:
    graph, clone = histories[history]
    at, sha, name = changes(clone, *paths, until=CLOCK)[-1]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    assert (result.direct_judgment or "") == (
        f"The last change to {scope} recorded here was made at {stamp(at)}: "
        f'"{_title(clone, sha)}" ({sha[:7]}) by {name}.'
    )
    assert not any(n.startswith("No time was named") for n in result.limitations)
    label = result.temporal_label
    assert label is not None and label.effective_from == datetime.fromtimestamp(at, UTC)


def _title(clone: Path, sha: str) -> str:
    return shared_history.git(clone, "log", "-1", "--format=%s", sha).strip()


@pytest.mark.parametrize("history", ["click", "attrs"])
async def test_the_latest_changes_are_still_a_list_over_the_default_year(
    histories: dict[str, tuple[OrgGraph, Path]], history: str
) -> None:
    """A list asked for ("the latest changes") is not the one last change."""
    graph, clone = histories[history]
    result = await ask(graph, f"what are the latest changes to {history}?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    year = [c for c in changes(clone, until=CLOCK) if c[0] >= datetime(2025, 9, 1, 12, tzinfo=UTC).timestamp()]
    assert (result.direct_judgment or "").startswith(f"{len(year)} change(s) to {history} ")
    assert "No time was named: the answer covers 2025-09-01T12:00:00Z to 2026-09-01T12:00:00Z." in (
        result.limitations
    )


@pytest.mark.parametrize("history", ["click", "werkzeug"])
async def test_a_time_named_bounds_the_last_change(
    histories: dict[str, tuple[OrgGraph, Path]], history: str
) -> None:
    graph, clone = histories[history]
    end = datetime(2025, 1, 1, tzinfo=UTC)
    at, sha, _ = changes(clone, until=end)[-1]
    result = await ask(graph, f"when was the last commit to {history} in 2024?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(
        f"The last change to {history} recorded here was made at {stamp(at)}: "
    ), judgment
    assert f"({sha[:7]}) by " in judgment
