"""Time phrases and question shapes independent checks (issue 32) read wrong, asked through
`investigate` on the real histories (../shared/data), in memory:

- a subject's whole history ("over its entire history", "in the history of click", "since
  inception") was answered over the default year ("No time was named") or ended on "its"
  as a pronoun: it is everything before now, as "ever" is, wider than one answer may cover
  (the 400-day clarification);
- the months of a period asked which of ("which month of 2025 had the most commits", "the
  busiest month of last year") ended on "which month of 2025" or "month of last year" not
  understood as a time: the months of that period are ranked, each one's commits git's;
- a two-digit year after a comparing word ("commits in '24 vs '25") ended on "25" naming no
  subject: the two years are compared, each one's commits git's;
- a holiday's weekend ("over Easter weekend 2025", "Labor Day weekend") was not understood:
  it is the long weekend the holiday makes (engine/reading/time/holidays.WEEKEND), said;
- words opening a question that ask nothing ("Judging by commits,", "Quick question:",
  "Rank the people ...") ended it as a name ("\"Judging\" names no subject"), and "List the
  top contributors in 2025" answered the organisation's health: the question after them is
  answered as asked without them (engine/reading/openers.py);
- periods counted or ranked in other shapes: "how many active days did click have in 2025"
  was answered with its people, "how many distinct days saw commits last month" and "month
  with the most commits in 2025" with the window's commits, unsaid: the periods counted
  end, said; months (and weeks) ranked are answered, other periods ranked end, said;
  "commits by month in 2025" was answered with the year's total: a breakdown of commits by
  month or week is answered (tests/test_periods_broken_down.py), others end, said, as "per
  day" does;
- quarters ranked ("which quarter of 2025 had the most commits", "the busiest quarter last
  year") ended, "a ranking of periods ... is not computed", or on "quarter of 2025" not
  understood: each quarter's commits are ranked as months are, git's counts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, monthly, on
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "attrs")

(click_clone, click, attrs_clone, attrs) = shared_history.each("click", "attrs")

ask = partial(answer, now=CLOCK)


graphs = shared_history.graphs("click", "attrs")
clones = shared_history.clones("click", "attrs")


WHOLE_HISTORY = [
    ("click", "how many commits to click over its entire history?", "over its entire history"),
    ("attrs", "who made the most commits in the history of attrs", "in the history"),
    ("click", "how many commits since inception", "since inception"),
    ("attrs", "commits to attrs across the whole history", "across the whole history"),
    ("attrs", "who has contributed to attrs since day one?", "since day one"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "phrase"), WHOLE_HISTORY)
async def test_a_whole_history_is_everything_before_now_never_the_default_year(
    graphs: dict[str, OrgGraph], history: str, question: str, phrase: str
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (result.outcome, result.limitations)
    assert result.clarification_prompt is not None
    # The whole history of what it names, from its first recorded change (wholehistory.py)
    assert f'"{phrase}" asks about the whole history of ' in result.clarification_prompt
    assert "400 days" in result.clarification_prompt


MONTHS_OF = [
    ("click", "which month of 2025 had the most commits?", 2025),
    ("click", "month with the most commits in 2025", 2025),
    ("attrs", "in which month were the most commits made in 2025?", 2025),
    ("attrs", "what was the busiest month of last year in attrs", 2025),
    ("attrs", "Which month of 2026 has been the busiest?", 2026),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "year"), MONTHS_OF)
async def test_the_months_of_a_period_asked_which_of_are_ranked(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    year: int,
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    end = min(CLOCK, on(year + 1, 1))
    months = [on(year, m) for m in range(1, 13) if on(year, m) < end]
    said = result.direct_judgment or ""
    assert (
        f"ranked by commits, the most first (equal counts in calendar order): "
        f"{monthly(clones[history], months, end)}; " in said
    ), said


TWO_DIGIT_YEARS = [
    ("click", "commits in '24 vs '25", 2024, 2025),
    ("attrs", "more commits to attrs in '25 or '24?", 2024, 2025),
    ("attrs", "commits in 2025 compared to '24", 2024, 2025),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "earlier", "later"), TWO_DIGIT_YEARS)
async def test_two_digit_years_compared_are_both_read(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    earlier: int,
    later: int,
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    clone = clones[history]
    one = commits(clone, on(earlier, 1), on(earlier + 1, 1))
    two = commits(clone, on(later, 1), on(later + 1, 1))
    said = result.direct_judgment or ""
    assert f" in {two} commit(s) from {later}-01-01T00:00:00Z to {later + 1}-01-01" in said, said
    assert f" in {one} commit(s) from {earlier}-01-01T00:00:00Z to {earlier + 1}-01-01" in said



WEEKENDS = [
    ("click", "how many commits to click over Thanksgiving weekend 2024?",
     on(2024, 11, 28), on(2024, 12, 2), "Thanksgiving weekend as"),
    ("click", "how many commits over Easter weekend 2025", on(2025, 4, 18), on(2025, 4, 22),
     "Easter weekend as Good Friday to Easter Monday"),
    ("attrs", "how many commits on Memorial Day weekend 2024", on(2024, 5, 25),
     on(2024, 5, 28), "Memorial Day weekend as the Saturday to Memorial Day"),
    ("attrs", "commits during Labor Day weekend 2025", on(2025, 8, 30), on(2025, 9, 2),
     "Labor Day weekend as the Saturday to Labor Day"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end", "said"), WEEKENDS)
async def test_a_holidays_weekend_is_the_long_weekend_it_makes(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    said: str,
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    counted = commits(clones[history], start, end)
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{counted} commit(s) to "), judgment
    assert f"from {start:%Y-%m-%d}T00:00:00Z to {end:%Y-%m-%d}T00:00:00Z" in judgment
    assert any(said in note for note in result.limitations), result.limitations


OPENED = [
    ("click", "Rank the people by lines changed in 2025", "who changed the most lines in 2025"),
    ("attrs", "List the top contributors in 2025", "who are the top contributors in 2025"),
    ("attrs", "Judging by commits, who was most active in 2025?", "who was most active in 2025?"),
    ("click", "Quick question: how many commits in 2025?", "how many commits in 2025?"),
    ("click", "According to git, how many commits to click in 2025?",
     "how many commits to click in 2025?"),
    ("attrs", "Hey, name the top 3 contributors in 2025", "the top 3 contributors in 2025"),
    ("click", "Show me who changed termui.py in 2025", "who changed termui.py in 2025"),
    ("attrs", "List everyone who committed in Q1 2026", "who committed in Q1 2026"),
    # Later readings read the question after the opening words ("which month ..." was no
    # longer first: the organisation's health was answered).
    ("click", "Looking at commits, which month was busiest in 2026?",
     "which month was busiest in 2026?"),
    ("attrs", "Quick question: when did attrs last change?", "when did attrs last change?"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "plain"), OPENED)
async def test_words_opening_a_question_ask_nothing(
    graphs: dict[str, OrgGraph], history: str, question: str, plain: str
) -> None:
    opened = await ask(graphs[history], question)
    asked = await ask(graphs[history], plain)
    assert opened.outcome is asked.outcome is Outcome.ANSWERED, opened.limitations
    assert opened.direct_judgment == asked.direct_judgment


@pytest.mark.parametrize(
    ("history", "question", "named"),
    [
        ("click", "Based on the outage, who changed click the most in 2025?", "Based"),
    ],
)
async def test_an_opener_before_anything_else_still_ends_the_question(
    graphs: dict[str, OrgGraph], history: str, question: str, named: str
) -> None:
    """The control: "Based on" frames no measure: it is named, never answered as another
    question. ("Rank the modules by commits in 2025" was one too, "Rank" named: it is the
    ranking "which modules changed the most in 2025?" gives, engine/reading/rankwords.py.)"""
    result = await ask(graphs[history], question)
    assert result.outcome is not Outcome.ANSWERED
    assert any(f'"{named}"' in note for note in result.limitations), result.limitations


async def test_rank_before_what_is_ranked_is_the_ranking(graphs: dict[str, OrgGraph]) -> None:
    """ "Rank the modules by commits in 2025" ended on "Rank" as an opener asking nothing:
    it asks what "which modules changed the most in 2025?" asks, answered the same."""
    ranked = await ask(graphs["attrs"], "Rank the modules by commits in 2025")
    most = await ask(graphs["attrs"], "which modules changed the most in 2025?")
    assert ranked.outcome is most.outcome is Outcome.ANSWERED, ranked.limitations
    assert ranked.direct_judgment == most.direct_judgment


OTHER_PERIODS = [
    ("attrs", "how many distinct days saw commits last month", "many distinct days"),
    ("click", "how many active days did click have in 2025", "many active days"),
    ("attrs", "number of days with commits in 2025", "number of days"),
    ("click", "the day with the most commits in 2025", "day with the most"),
    # A breakdown "by" a period, as "per" one ("lines by month in 2025" was the year's total);
    # commits by month or week are answered (tests/test_periods_broken_down.py)
    ("click", "lines changed by month in 2025", "by month"),
    ("attrs", "commits to attrs broken down by day in 2025", "by day"),
    ("click", "how active was click each month this year", "each month"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "named"), OTHER_PERIODS)
async def test_periods_counted_or_ranked_other_than_months_end_said(
    graphs: dict[str, OrgGraph], history: str, question: str, named: str
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.NO_MATCH, (result.outcome, result.direct_judgment)
    assert any(note.startswith(f'"{named}": ') for note in result.limitations), result.limitations


@pytest.mark.parametrize("history", ["click", "attrs"])
async def test_the_very_beginning_of_a_period_is_its_start(
    graphs: dict[str, OrgGraph], clones: dict[str, Path], history: str
) -> None:
    """ "since the very beginning of 2026" ended on "since the very" not understood."""
    result = await ask(graphs[history], "how many commits since the very beginning of 2026")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    counted = commits(clones[history], on(2026, 1), CLOCK)
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{counted} commit(s) to "), judgment
    assert "from 2026-01-01T00:00:00Z to 2026-09-01T12:00:00Z" in judgment


SHORT_MONTHS = [
    ("click", "how many commits in Sept. 2025", on(2025, 9), on(2025, 10)),
    ("attrs", "how many commits from Oct. 2025 to Jan. 2026", on(2025, 10), on(2026, 2)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end"), SHORT_MONTHS)
async def test_a_month_written_short_keeps_its_full_stop(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
) -> None:
    """ "in Sept. 2025" was "in Sept" and "2025", two times named, and ended."""
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{commits(clones[history], start, end)} commit(s) to "), judgment


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ("click", "how many commits in the last mon"),
        ("attrs", "how many commits to attrs last mon"),
    ],
)
async def test_mon_after_a_counting_word_is_named_never_read_as_monday(
    graphs: dict[str, OrgGraph], history: str, question: str
) -> None:
    """ "the last mon" may be a month: it was read as last Monday, unsaid."""
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.NO_MATCH, (result.outcome, result.direct_judgment)
    assert any("mon" in note for note in result.limitations), result.limitations


QUARTERS = [
    ("click", "which quarter of 2025 had the most commits?"),
    ("attrs", "what was the busiest quarter last year"),
    ("attrs", "quarter with the most commits in 2025"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question"), QUARTERS)
async def test_quarters_ranked_are_each_quarters_commits(
    graphs: dict[str, OrgGraph], clones: dict[str, Path], history: str, question: str
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    bounds = [on(2025, 1), on(2025, 4), on(2025, 7), on(2025, 10), on(2026, 1)]
    counts = [
        (f"2025-Q{q + 1}", commits(clones[history], bounds[q], bounds[q + 1])) for q in range(4)
    ]
    order = sorted(counts, key=lambda c: -c[1])  # stable: equal counts in calendar order
    ranked = "; ".join(f"{label}: {n} commit(s)" for label, n in order)
    said = result.direct_judgment or ""
    assert "calendar quarters (UTC) from 2025-01-01T00:00:00Z to 2026-01-01T00:00:00Z" in said
    assert f"(equal counts in calendar order): {ranked}; " in said, said


async def test_a_quarter_asked_without_a_ranking_is_still_named(
    graphs: dict[str, OrgGraph],
) -> None:
    """The control: "which quarter did click change" is no ranking, never its trend."""
    result = await ask(graphs["click"], "which quarter did click change")
    assert result.outcome is Outcome.NO_MATCH
    assert any('"quarter did click"' in note for note in result.limitations)
