"""Where a reading depends on a convention, the answer says which, once, in plain words: the
temporal label's note, and the one limitation that says what the answer covers (issue 32:
the corpus, tests/data/time_phrases.tsv, states each convention once in its header; the
answer states the one it used). On the demo organisation, in memory, at 2026-11-20T12:00."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine.domain.contract import Outcome
from engine.investigation.investigate import InvestigationRequest
from engine.ports import OrgGraph
from engine.reading.time.phrases import read_time
from tests.test_investigate import NOW, demo, investigator, memory  # noqa: F401 (fixtures)


@pytest.mark.parametrize(
    ("phrase", "said"),
    [
        # which 7 days: the calendar's week, not the 7 days back
        ("last week", "Monday-to-Sunday week before this one"),
        ("this week", "Monday-to-Sunday week under way"),
        ("over the past week", "back from now, not as whole calendar weeks"),
        ("in the past month", "back from now, not as whole calendar months"),
        ("in the last 3 months", "back from now, not as whole calendar months"),
        ("in the last couple of weeks", '"a couple" is 2'),
        ("this quarter", "calendar quarter"),
        ("last quarter", "calendar quarter"),
        # inclusive ends
        ("between September and October", "both ends included, the last one whole"),
        ("from September to October", "both ends included, the last one whole"),
        ("September-October", "both ends included, the last one whole"),
        ("between May 3 and 10", "both ends included, the last one whole"),
        # an edge after "since" is an instant; half a month is days 1-15
        ("since the end of September", "the end of a period as the instant it ends"),
        ("the first half of last month", "days 1-15"),
        # a month named without a year: the most recent begun, said when it is last year's
        ("in December", "most recent one begun (December 2025)"),
        ("since December", "most recent one begun (December 2025)"),
        # a two-digit year and a misspelt month: read, and said how
        ("in summer '25", "latest such year not after now (\"'25\": 2025)"),
        ("in Febuary 2026", '"febuary" as February'),
        # which days "mid" names, in a range and after "since" as alone (an independent check
        # had "from mid-March to mid-April 2025" said only as both ends included)
        ("from mid-March to mid-April 2026", "mid: days 11-20"),
        ("between mid-May and mid-June 2026", "mid: days 11-20"),
        ("since mid-June", "mid: days 11-20"),
        ("in mid-March 2026", "mid: days 11-20"),
        ("in the middle of March 2026", "mid: days 11-20"),
        ("since mid-2026", "mid: May to August"),
        # which holiday, and how its day is computed
        ("since Easter", "Western (Gregorian) Easter Sunday"),
        ("on Thanksgiving 2025", "the United States' (the fourth Thursday of November)"),
        ("since last Labor Day", "the first Monday of September"),
        ("after Memorial Day 2026", "the last Monday of May"),
        ("on Boxing Day 2025", "Boxing Day as 26 December"),
        # a third and a week of a year by their ordinals
        ("in the last third of 2025", "September to December"),
        ("in the ninth week of 2026", "the year's days 57-63, not a Monday-to-Sunday week"),
        # stated before these rows, kept
        ("lately", "the last 90 days"),
        ("last summer", "meteorological"),
    ],
)
async def test_the_convention_a_reading_used_is_said_once(
    demo: OrgGraph,  # noqa: F811
    phrase: str,
    said: str,
) -> None:
    question = f"how many commits to payments-api {phrase}?"
    result, _ = await investigator(demo).investigate("me", InvestigationRequest(question))
    assert result.outcome is Outcome.ANSWERED, (question, result.limitations)
    label = result.temporal_label
    assert label is not None and label.note is not None and said in label.note, label
    stated = [n for n in result.limitations if said in n]
    assert len(stated) == 1, result.limitations


def test_until_says_its_end_is_left_out() -> None:
    """ "until October" stops where October starts ("through October" and "from June to
    October" include it): asked for more than 400 days, it is asked again, so the reading
    itself is checked."""
    now = datetime(2026, 11, 18, 10, 30, tzinfo=UTC)
    match = read_time("until October", now).match
    assert match is not None and match.note is not None
    assert "up to the start of October, which is not included" in match.note


@pytest.mark.parametrize("phrase", ["in September", "this month", "in the last 30 days", "in 2025"])
async def test_a_reading_no_convention_changes_says_none(
    demo: OrgGraph,  # noqa: F811
    phrase: str,
) -> None:
    """A month of this year, the calendar's month and year, a count of days: no note."""
    question = f"how many commits to payments-api {phrase}?"
    result, _ = await investigator(demo).investigate("me", InvestigationRequest(question))
    label = result.temporal_label
    assert label is not None and label.note is None, label
    assert NOW.year == 2026
