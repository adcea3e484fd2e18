"""Two named periods compared are answered (engine/reading/twoperiods.py,
engine/questions/compared.py): the later period is the window answered, the earlier the one
compared with, and the judgment gives each one's commits and changed lines, equal to git's
(author time, --no-merges --full-history; a renamed file followed), with their rates per day.
Independent checks found these the largest family of questions not understood: each was
ended with "a comparison is computed only for how much something changes against the time
since that period", or "are two periods compared ... ask about each period in turn", or read
"aug" as the time since August. A comparison no answer computes (a period not begun, one
wider than 400 days, two overlapping) stays ended, with its reason. On werkzeug's, requests'
and attrs' real histories (../shared/data), in memory, asked on 2026-09-01T12:00:00Z."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import churn, commits, monthly, on, stamp
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("werkzeug", "requests", "attrs")

(werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone, attrs) = shared_history.each(
    "werkzeug", "requests", "attrs"
)

histories = shared_history.histories("werkzeug", "requests", "attrs")
ask = partial(answer, now=CLOCK)
NATE = "nate.prewitt@gmail.com"


# history, question, the later period (answered), the earlier one (compared with), the
# paths asked about, the author asked about
CASES = [
    ("werkzeug", "q4 '25 vs q1 '26 commits", (on(2026, 1), on(2026, 4)),
     (on(2025, 10), on(2026, 1)), (), ""),
    # the first half of 2025: its year is the first period's ("the first" was said a first
    # change not computed, "more active ... than" a comparison of subjects)
    ("werkzeug", "Was werkzeug more active in the second half of 2025 than the first half?",
     (on(2025, 7), on(2026, 1)), (on(2025, 1), on(2025, 7)), (), ""),
    # a person; "may" before "vs" is the month ("may" was a name, June compared with now)
    ("requests", "nate's commits may vs june", (on(2026, 6), on(2026, 7)),
     (on(2026, 5), on(2026, 6)), (), NATE),
    ("requests", "How many commits were there in May 2026 versus June 2026?",
     (on(2026, 6), on(2026, 7)), (on(2026, 5), on(2026, 6)), (), ""),
    # "jul" was no time and "aug" was read as the time since August
    ("attrs", "compare jul vs aug activity", (on(2026, 8), on(2026, 9)),
     (on(2026, 7), on(2026, 8)), (), ""),
    # the later named first; "or" between periods after "more"
    ("attrs", "were there more commits to _make.py in q2 or q1", (on(2026, 4), on(2026, 7)),
     (on(2026, 1), on(2026, 4)), ("src/attr/_make.py",), ""),
    # not contiguous: "last summer" beside "this summer" is the one before it (read alone on
    # 1 September it is the summer just ended, this one)
    ("attrs", "was pyproject.toml busier this summer or last summer",
     (on(2026, 6), on(2026, 9)), (on(2025, 6), on(2025, 9)), ("pyproject.toml",), ""),
    ("werkzeug", "was serving.py busier in 2024 or 2025", (on(2025, 1), on(2026, 1)),
     (on(2024, 1), on(2025, 1)), ("src/werkzeug/serving.py",), ""),
    # t36: "compare ... with" a period, and "the same time last year" (the first period's span
    # a year before: year to date against the same days of 2025) ended on "two times named",
    # offering "Compare the number of attrs commits in March 2026 with?"
    ("attrs", "Compare the number of attrs commits in March 2026 with March 2025.",
     (on(2026, 3), on(2026, 4)), (on(2025, 3), on(2025, 4)), (), ""),
    ("werkzeug", "compare werkzeug commits in q2 2026 with q2 2025", (on(2026, 4), on(2026, 7)),
     (on(2025, 4), on(2025, 7)), (), ""),
    ("attrs", "attrs commits this yr vs same time last yr", (on(2026, 1), CLOCK),
     (on(2025, 1), datetime(2025, 9, 1, 12, tzinfo=UTC)), (), ""),
    ("requests", "requests commits in july compared to the same month last year",
     (on(2026, 7), on(2026, 8)), (on(2025, 7), on(2025, 8)), (), ""),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "later", "earlier", "paths", "author"), CASES)
async def test_two_named_periods_are_answered_with_each_ones_figures(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    later: tuple[datetime, datetime],
    earlier: tuple[datetime, datetime],
    paths: tuple[str, ...],
    author: str,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    label = result.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == later
    said = result.direct_judgment or ""
    figures = [
        (churn(clone, *period, *paths, author=author), commits(clone, *period, *paths,
                                                                author=author))
        for period in (later, earlier)
    ]  # fmt: skip
    assert figures[0] != figures[1]  # the two periods differ, so swapping them would fail
    assert (
        f"changed {figures[0][0]} line(s) in {figures[0][1]} commit(s) from {stamp(later[0])} "
        f"to {stamp(later[1])}, against {figures[1][0]} line(s) in {figures[1][1]} commit(s) "
        f"from {stamp(earlier[0])} to {stamp(earlier[1])}."
    ) in said, said
    assert " a day: " in said or "commits a day." in said  # then by how many in all (time39)
    assert not any("not used" in n or "was not." in n for n in result.limitations)


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("how many commits in 2026 vs 2027", "one of them has not begun"),
        ("how many commits since 2020 vs 2019", "one of them is wider than the 400 days"),
        ("how many commits in 2025 vs h2 2025", "they overlap"),
    ],
)
async def test_a_comparison_no_answer_computes_ends_with_its_reason(
    attrs: OrgGraph, question: str, reason: str
) -> None:
    result = await ask(attrs, question)
    assert result.outcome is Outcome.NO_MATCH and not result.direct_judgment
    assert any("are two periods compared, and " + reason in n for n in result.limitations)


async def test_people_over_two_periods_still_end_naming_both(attrs: OrgGraph) -> None:
    """The control: a list of people over two periods is not compared ("who changed
    _make.py in q2 vs q1" names each period's people: tests/test_compared_people.py)."""
    result = await ask(attrs, "list the contributors of _make.py in q2 vs q1")
    assert result.outcome is Outcome.NO_MATCH
    assert any("are two periods compared" in n for n in result.limitations)


RANKED = [
    ("werkzeug", "Which month in 2026 had the most commits in werkzeug?", 2026, ()),
    ("requests", "busiest month this yr", 2026, ()),
    ("attrs", "what was the most active month for _make.py in 2025", 2025,
     ("src/attr/_make.py",)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "year", "paths"), RANKED)
async def test_months_ranked_by_commits_are_each_months_count(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    year: int,
    paths: tuple[str, ...],
) -> None:
    """It ended: "a ranking of periods (the busiest week, month or day) is not computed"."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    end = min(CLOCK, on(year + 1, 1))
    months = [on(year, m) for m in range(1, 13) if on(year, m) < end]
    said = result.direct_judgment or ""
    assert f"ranked by commits, the most first (equal counts in calendar order): " \
        f"{monthly(clone, months, end, *paths)}; the busiest was " in said, said
    assert not any("records of" in n for n in result.limitations)


async def test_days_ranked_still_end(attrs: OrgGraph) -> None:
    """The control: months, quarters and weeks are ranked (weeks:
    tests/test_periods_broken_down.py), days are not."""
    result = await ask(attrs, "which day had the most commits in 2025")
    assert result.outcome is Outcome.NO_MATCH
    assert any("a ranking of periods" in n for n in result.limitations)


@pytest.mark.parametrize(
    ("history", "question", "periods"),
    [
        ("attrs", "Compare who changed attrs in March 2026 with March 2025.",
         ((on(2026, 3), on(2026, 4)), (on(2025, 3), on(2025, 4)))),
        ("werkzeug", "who changed werkzeug this yr vs same time last yr",
         ((on(2026, 1), CLOCK), (on(2025, 1), datetime(2025, 9, 1, 12, tzinfo=UTC)))),
    ],
)  # fmt: skip
async def test_people_over_two_periods_name_each_periods_people(
    attrs: OrgGraph, werkzeug: OrgGraph, history: str, question: str,
    periods: tuple[tuple[datetime, datetime], ...],
) -> None:  # fmt: skip
    """"who" over two periods names each period's people, each period dated as read (t36:
    "same time last yr" was read as all of last year); they ended, "ask about each period
    in turn" (z42 b-click-07). Their commits as git counts them: tests/test_compared_people.py."""
    graph = {"attrs": attrs, "werkzeug": werkzeug}[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = result.direct_judgment or ""
    for start, end in periods:
        assert f"Who changed {history} from {stamp(start)} to {stamp(end)}: " in said, said
