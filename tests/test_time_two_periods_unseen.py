"""Time phrases not read, on phrasings nobody had written (time41, issue 32; checker z40a/z40b
grades them BAD): "How did February compare with March this year?" ended on "February compare
with" not understood (the verb "compare" in the present was no comparing word before a month);
"docs/ commits 2026-05-01..2026-05-31 by author" and "2026-05-01/2026-05-31" were two single
days, refused as two times; "What has Jaron been up to this year?" was read "up to this year",
everything before 2026 ("been up to" is an idiom: been doing). Asked through `investigate` on
the real histories (../shared/data), in memory, at 2026-09-01T12:00 UTC: each figure is `git
log --no-merges --full-history` by author time.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, compared_as_git, on, stamp
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "werkzeug", "attrs", "requests")

pytestmark = shared_history.present(*NAMES)

(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs, requests_clone,
 requests) = shared_history.each(*NAMES)  # fmt: skip
graphs = shared_history.graphs(*NAMES)
clones = shared_history.clones(*NAMES)

ask = partial(answer, now=CLOCK)

Span = tuple[datetime, datetime]

# "<month> compare(s) with|to <month>": the later answered, the earlier beside, each said by
# its own words (history, question, later, earlier, the earlier's words as said).
COMPARE_VERB: list[tuple[str, str, Span, Span, str]] = [
    ("werkzeug", "How did February compare with March this year in number of commits?",
     (on(2026, 3), on(2026, 4)), (on(2026, 2), on(2026, 3)), "February"),
    ("click", "how does May compare to April for commits?",
     (on(2026, 5), on(2026, 6)), (on(2026, 4), on(2026, 5)), "April"),
    ("attrs", "how did June compare with July in commits?",
     (on(2026, 7), on(2026, 8)), (on(2026, 6), on(2026, 7)), "June"),
    ("requests", "how did january compare against february in commits?",
     (on(2026, 2), on(2026, 3)), (on(2026, 1), on(2026, 2)), "january"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "later", "earlier", "said"), COMPARE_VERB)
async def test_a_month_before_compare_is_the_first_period(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    later: Span,
    earlier: Span,
    said: str,
) -> None:
    result = await ask(graphs[history], question)
    compared_as_git(result, clones[history], later, earlier)
    assert any(f'with "{said}" ({stamp(earlier[0])}' in x for x in result.limitations), (
        result.limitations
    )


# Two ISO dates as an interval, both days whole (history, question, window, path).
INTERVALS: list[tuple[str, str, Span, tuple[str, ...]]] = [
    ("click", "docs/ commits 2026-05-01..2026-05-31", (on(2026, 5), on(2026, 6)), ("docs",)),
    ("werkzeug", "commits 2026-02-01/2026-02-28", (on(2026, 2), on(2026, 3)), ()),
    ("attrs", "how many commits 2026-07-01...2026-07-31?", (on(2026, 7), on(2026, 8)), ()),
    ("requests", "commits from 2026-05-01..2026-05-15", (on(2026, 5), on(2026, 5, 16)), ()),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "paths"), INTERVALS)
async def test_two_iso_dates_joined_by_dots_or_a_slash_are_one_range(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    window: Span,
    paths: tuple[str, ...],
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    n = commits(clones[history], *window, *paths)
    assert f"{n} commit(s)" in (result.direct_judgment or ""), result.direct_judgment
    label = result.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == window


async def test_docs_by_author_over_an_interval_ranks_as_git(
    graphs: dict[str, OrgGraph], clones: dict[str, Path]
) -> None:
    """click z40b B-C08: 19 commits to docs/ in May 2026, Kevin Deldycke 10 (git)."""
    result = await ask(graphs["click"], "docs/ commits 2026-05-01..2026-05-31, by author")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    window = (on(2026, 5), on(2026, 6))
    kevin = commits(clones["click"], *window, "docs", author="kevin@deldycke.com")
    assert f"Kevin Deldycke ({kevin} commit(s)" in (result.direct_judgment or "")


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ("click", "commits 2026-05-31..2026-05-01"),  # ends before it starts
        ("werkzeug", "commits on 2026-02-01 and on 2026-02-28"),  # two days, not a range
        ("attrs", "commits 2026-07-01, 2026-07-31"),
    ],
)
async def test_two_iso_dates_otherwise_are_no_range(
    graphs: dict[str, OrgGraph], history: str, question: str
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is not Outcome.ANSWERED, result.direct_judgment


# "been up to" is been doing: the time is what follows (history, question, window, author).
UP_TO: list[tuple[str, str, Span, str]] = [
    ("werkzeug", "What has David Lord been up to this year?", (on(2026, 1), CLOCK),
     "davidism@gmail.com"),
    ("click", "what has Kevin Deldycke been up to since March?", (on(2026, 3), CLOCK),
     "Kevin Deldycke"),
    ("attrs", "What was Hynek Schlawack up to in Q2 2026?", (on(2026, 4), on(2026, 7)),
     "Hynek"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "author"), UP_TO)
async def test_been_up_to_is_no_bound(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    window: Span,
    author: str,
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    n = commits(clones[history], *window, author=author)
    said = result.direct_judgment or ""
    assert f"{n} change(s) by " in said or f" in {n} commit(s) in the window" in said, said
    label = result.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == window


@pytest.mark.parametrize(
    ("history", "question"),
    [("click", "how many commits up to 2025?"), ("attrs", "commits up to this year")],
)
async def test_up_to_a_time_is_still_before_it(
    graphs: dict[str, OrgGraph], history: str, question: str
) -> None:
    """Everything before the year: wider than 400 days, asked again (never this year)."""
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.outcome
    assert "up to" in (result.clarification_prompt or "") and "is read up to the start of" in (
        result.clarification_prompt or ""
    )
