"""Periods joined into one window by a word saying so (time38): "top 5 committers across 2013
and 2014 combined" was read as two times named and refused, asking about each in turn; "how
many commits in Jan and Feb 2024 combined?" ended on "combined" not understood; "Q1 and Q2
2025 together" was answered over this year's Q1 with "Q2 2025" unsaid. Asked through
`investigate` on the real histories (../shared/data), in memory, at 2026-09-01T12:00 UTC:
periods that follow one another are one window, answered with git's count of it; wider than
400 days, the seed rule asks again naming the joined span; with a gap between ("Jan and
March 2024 combined") they are no one window: a union, each window answered (time39).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, on
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "werkzeug", "requests", "attrs")

pytestmark = shared_history.present(*NAMES)

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone,
 attrs) = shared_history.each(*NAMES)  # fmt: skip

ask = partial(answer, now=CLOCK)


graphs = shared_history.graphs(*NAMES)
clones = shared_history.clones(*NAMES)


JOINED = [
    ("attrs", "how many commits in Jan and Feb 2024 combined?", on(2024, 1, 1), on(2024, 3, 1)),
    ("requests", "how many commits in Nov and Dec 2013 in total?",
     on(2013, 11, 1), on(2014, 1, 1)),
    ("click", "how many commits to click in Q1 and Q2 2025 together?",
     on(2025, 1, 1), on(2025, 7, 1)),
    ("werkzeug", "how many commits across June, July and August 2025 taken together?",
     on(2025, 6, 1), on(2025, 9, 1)),
    ("attrs", "how many commits in Dec 2023 and Jan 2024 combined?",
     on(2023, 12, 1), on(2024, 2, 1)),
    # a year on the last alone: the earlier ends where it starts (Dec 2023 was read as Dec
    # 2024, after January, and not understood); no year at all: the latest such span begun
    ("werkzeug", "how many commits in Dec and Jan 2024 together?",
     on(2023, 12, 1), on(2024, 2, 1)),
    ("attrs", "how many commits in July and August combined?", on(2026, 7, 1), on(2026, 9, 1)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end"), JOINED)
async def test_periods_joined_are_one_window(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{commits(clones[history], start, end)} commit(s) "), judgment
    assert f"from {start:%Y-%m-%dT%H}:00:00Z to {end:%Y-%m-%dT%H}:00:00Z" in judgment, judgment
    assert any("is read as one window" in note for note in result.limitations), result.limitations


@pytest.mark.parametrize("history", ["requests", "werkzeug"])
async def test_two_years_joined_are_refused_by_the_seed_rule(
    graphs: dict[str, OrgGraph], history: str
) -> None:
    result = await ask(graphs[history], "top 5 committers across 2013 and 2014 combined")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (result.outcome, result.limitations)
    prompt = result.clarification_prompt or ""
    assert "asks for 730 days (2013-01-01T00:00:00Z to 2015-01-01T00:00:00Z)" in prompt, prompt


@pytest.mark.parametrize(
    ("history", "question", "named"),
    [
        ("attrs", "how many commits in Jan and March 2024 combined?", "Jan and March 2024"),
        ("click", "who committed most in Q1 and Q3 2025 together?", "Q1 and Q3 2025"),
        # no joining word: "in A and B" read both as one span, the gap counted (attrs: 60
        # commits over January to March 2024, February's included)
        ("attrs", "how many commits in Jan and March 2024?", "in Jan and March 2024"),
        ("werkzeug", "who committed in May and July 2025?", "in May and July 2025"),
    ],
)
async def test_periods_with_a_gap_are_no_one_window(
    graphs: dict[str, OrgGraph], history: str, question: str, named: str
) -> None:
    """Never one window over the gap: since time39 a union of windows, each answered and
    the figures added (tests/test_time_unions_asked.py), the windows named."""
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    said = next(t for t in result.limitations if "windows with a gap between them" in t)
    assert named in said, said
    assert result.temporal_label is not None
    assert not any("is read as one window" in t for t in result.limitations)
