"""Two periods in one sentence and time phrases that were not read at all (time41, issue 32;
checker z40a/z40b): attrs "How many commits did Hynek make this half compared with last
half?" was answered as if no time was named ("this half" and "last half" were no time; A-T02,
the worst class); click "compare the last six weeks with the six weeks before that" took "six"
for a subject and ended on "before" (A-C07); attrs "Compare July and August: commits and lines"
ended on "July and August" not understood (A-T07); "changes since 8.1" was said "not understood
as a time" without why, and "after version 8.1.3" answered as if no time was named (B-C03).
Asked through `investigate` on the real histories (../shared/data), in memory, at
2026-09-01T12:00 UTC: each figure is `git log --no-merges --full-history` by author time.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, compared_as_git, on
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
H1, H2 = (on(2026, 1), on(2026, 7)), (on(2026, 7), CLOCK)

# (history, question, the period answered, the period beside it, author)
COMPARED: list[tuple[str, str, Span, Span, str]] = [
    # halves of the calendar year (the one under way, the one before)
    ("attrs", "How many commits did Hynek make this half compared with last half?", H2, H1,
     "Hynek"),
    ("click", "commits this half vs the previous half", H2, H1, ""),
    ("requests", "commits in the first half vs the second half of 2025",
     (on(2025, 7), on(2026, 1)), (on(2025, 1), on(2025, 7)), ""),
    ("werkzeug", "commits in the second half of last year compared with the first half",
     (on(2025, 7), on(2026, 1)), (on(2025, 1), on(2025, 7)), ""),
    # N units right before the first period
    ("click", "compare the last six weeks with the six weeks before that - how many commits "
     "in each?", (CLOCK - timedelta(weeks=6), CLOCK),
     (CLOCK - timedelta(weeks=12), CLOCK - timedelta(weeks=6)), ""),
    ("requests", "commits in the last 90 days vs the prior 90 days",
     (CLOCK - timedelta(days=90), CLOCK),
     (CLOCK - timedelta(days=180), CLOCK - timedelta(days=90)), ""),
    ("attrs", "how many commits in the last two months and the two months before that?",
     (on(2026, 7, 1, 12), CLOCK), (on(2026, 5, 1, 12), on(2026, 7, 1, 12)), ""),
    ("werkzeug", "commits in the last fortnight vs the fortnight before that",
     (CLOCK - timedelta(weeks=2), CLOCK), (CLOCK - timedelta(weeks=4), CLOCK - timedelta(weeks=2)),
     ""),
    ("requests", "How did March stack up against April in commits?", (on(2026, 4), on(2026, 5)),
     (on(2026, 3), on(2026, 4)), ""),
    # a unit written singular with no count is one (the plural is not: below)
    ("click", "commits in the last 30 days vs the day before", (CLOCK - timedelta(days=30), CLOCK),
     (CLOCK - timedelta(days=31), CLOCK - timedelta(days=30)), ""),
    ("attrs", "commits in the last two weeks vs the previous fortnight",
     (CLOCK - timedelta(weeks=2), CLOCK), (CLOCK - timedelta(weeks=4), CLOCK - timedelta(weeks=2)),
     ""),
    # a span back from now against the year before it, never the calendar year 2024
    ("requests", "commits in the past year compared with the year before that",
     (on(2025, 9, 1, 12), CLOCK), (on(2024, 9, 1, 12), on(2025, 9, 1, 12)), ""),
    # "compare <month> and <month>"
    ("attrs", "Compare July and August: commits and lines added/removed",
     (on(2026, 8), on(2026, 9)), (on(2026, 7), on(2026, 8)), ""),
    ("click", "compare May and June commits", (on(2026, 6), on(2026, 7)),
     (on(2026, 5), on(2026, 6)), ""),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "later", "earlier", "author"), COMPARED)
async def test_both_periods_are_counted_as_git_counts_them(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    later: Span,
    earlier: Span,
    author: str,
) -> None:
    result = await ask(graphs[history], question)
    if not author:
        compared_as_git(result, clones[history], later, earlier)
        return
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = result.direct_judgment or ""
    for start, end in (later, earlier):
        n = commits(clones[history], start, end, author=author)
        assert f" {n} commit(s) from {start:%Y-%m-%dT%H:%M:%SZ} to {end:%Y-%m-%dT%H:%M:%SZ}" in said


# Units written plural with no count (r41 F1): how many is not said, so the second period is
# named not understood, never answered as one unit ("the days before" was one day, "the years
# before" 2024 alone). (history, question, the phrase, the first period, the one unit taken)
UNCOUNTED: list[tuple[str, str, str, Span, Span]] = [
    ("requests", "commits in the last 30 days vs the days before", "the days before",
     (CLOCK - timedelta(days=30), CLOCK), (CLOCK - timedelta(days=31), CLOCK - timedelta(days=30))),
    ("requests", "commits in the last 30 days vs the previous days", "the previous days",
     (CLOCK - timedelta(days=30), CLOCK), (CLOCK - timedelta(days=31), CLOCK - timedelta(days=30))),
    ("requests", "How many commits in the first half of 2024 vs the years before?",
     "the years before", (on(2024, 1), on(2024, 7)), (on(2023, 1), on(2024, 1))),
    ("click", "commits in the last two months vs the months before", "the months before",
     (on(2026, 7, 1, 12), CLOCK), (on(2026, 6, 1, 12), on(2026, 7, 1, 12))),
    ("click", "how many commits in 2025 compared with the years before?", "the years before",
     (on(2025, 1), on(2026, 1)), (on(2024, 1), on(2025, 1))),
    ("werkzeug", "how many commits in 2025 compared with the years before?", "the years before",
     (on(2025, 1), on(2026, 1)), (on(2024, 1), on(2025, 1))),
    ("werkzeug", "commits in the last two weeks vs the weeks before", "the weeks before",
     (CLOCK - timedelta(weeks=2), CLOCK), (CLOCK - timedelta(weeks=3), CLOCK - timedelta(weeks=2))),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "phrase", "first", "one"), UNCOUNTED)
async def test_plural_units_with_no_count_are_named_never_one_unit(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    phrase: str,
    first: Span,
    one: Span,
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    said = " ".join(result.limitations)
    start, end = (f"{t:%Y-%m-%dT%H:%M:%SZ}" for t in first)
    assert f'({start} to {end}) is compared with "{phrase}", which says no count' in said, said
    # the one unit answered before is never said: git counts more before the first period
    assert f"{one[0]:%Y-%m-%dT%H:%M:%SZ}" not in said + (result.direct_judgment or ""), said
    assert commits(clones[history], datetime(1970, 1, 1, tzinfo=UTC), first[0]) > commits(
        clones[history], *one
    )


# One period a half names alone (history, question, window).
ALONE: list[tuple[str, str, Span]] = [
    ("attrs", "how many commits in the first half?", H1),
    ("werkzeug", "how many commits this half?", H2),
    ("click", "commits first half in 2025", (on(2025, 1), on(2025, 7))),
    ("requests", "commits in the last half of 2025", (on(2025, 7), on(2026, 1))),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window"), ALONE)
async def test_a_half_alone_is_a_half_of_the_calendar_year(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    window: Span,
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    label = result.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == window
    n = commits(clones[history], *window)
    said = result.direct_judgment or ""
    assert f"{n} commit(s)" in said or f"({n} commit(s)" in said or n == 0, said


@pytest.mark.parametrize(
    ("history", "question", "window"),
    [
        # neighbours that must keep their own reading
        ("click", "commits in the last half hour", (CLOCK - timedelta(minutes=30), CLOCK)),
        ("attrs", "commits in the first half of May", (on(2026, 5), on(2026, 5, 16))),
        ("werkzeug", "commits in the last six weeks", (CLOCK - timedelta(weeks=6), CLOCK)),
        ("requests", "commits in H1 2026", H1),
    ],
)
async def test_neighbours_keep_their_reading(
    graphs: dict[str, OrgGraph], history: str, question: str, window: Span
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    label = result.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == window


@pytest.mark.parametrize(
    ("history", "question", "phrase"),
    [
        ("click", "how many commits last half year?", "last half year"),
        ("attrs", "commits in the next half", "next half"),
    ],
)
async def test_a_half_no_row_reads_is_named(
    graphs: dict[str, OrgGraph], history: str, question: str, phrase: str
) -> None:
    """A calendar half or six months back? Never the default window, unsaid."""
    result = await ask(graphs[history], question)
    assert result.outcome is not Outcome.ANSWERED, result.direct_judgment
    said = " ".join(result.limitations) + (result.clarification_prompt or "")
    assert phrase in said, said


@pytest.mark.parametrize(
    ("history", "question", "phrase"),
    [
        ("click", "changes since 8.1", "since 8.1"),
        ("requests", "what changed since v2.32.9", "since v2.32.9"),
        ("attrs", "what changed since 25.4", "since 25.4"),
        ("werkzeug", "what changed between the last two releases", "between the last two "
         "releases"),
        ("click", "commits after version 8.1.3", "after version 8.1.3"),
    ],
)  # fmt: skip
async def test_a_version_is_named_with_why_it_is_not_placed_in_time(
    graphs: dict[str, OrgGraph], history: str, question: str, phrase: str
) -> None:
    """The git import records no tags or releases: a version no release commit marks exactly
    (tests/test_releases_placed.py places those that one does) is not placed in time, and
    no other window is answered (click "commits after version 8.1.3" answered the default)."""
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    said = " ".join(result.limitations)
    assert f'"{phrase}" names a release, and releases (tags) are not recorded here' in said, said
