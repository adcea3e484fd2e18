"""Time phrasings no test had seen (time37's 120, written with their readings before the
reader saw them), asked through `investigate` on the real histories (../shared/data), in
memory, at 2026-09-01T12:00 UTC. Each was not understood, or read as another window:

- "towards the end of October": "towards" was taken for part of the subject ("click
  towards" names no subject) and nothing was answered: it is the end of October (its last
  third), as "the end of October" is;
- "early last spring", "late last summer": a third of a season counted from now was not
  understood ("early" was left over);
- "the first part of 2024", "the latter part of last year": not understood; they are the
  first and last thirds, as early and late are;
- "the year leading up to March 2025": "up to March 2025" was read (everything before it),
  "the year leading" left over: it is the year ending where March starts;
- "two Fridays ago", "two summers ago": not understood; counted back from "last Friday",
  "last summer";
- "03/2025", "2025/03" alone: "2025" was said not understood; they are March 2025;
- a second batch: "mid-to-late 2024" (answered over late 2024, "mid-to-" unsaid), "early and
  mid 2025" (over mid 2025), "Sep 2025 to date" (ended on "date"), "2 weekends ago", "last
  calendar year" (not understood); "early or mid 2025" (answered over mid 2025) and "from
  13/2025 to April 2026" (offered 2025 to April 2026) are named, nothing answered;
- a third: "since two Fridays ago", "from mid-to-late August until now", "the latter part of
  the summer", "04/2025-06/2025" (not understood);
- a fourth: "excluding 2025", "apart from Q3", "excluding last year" (answered over the period
  left out) are named; "over a year ago" (answered over the year that began then) is
  everything before then, "under a month ago" everything since; "on or after 2025-10-01"
  (asked again as "after" it, from the 2nd) is from the 1st.

Each is answered over its window, with git's count of it.
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

pytestmark = shared_history.present("click", "attrs")

(click_clone, click, attrs_clone, attrs) = shared_history.each("click", "attrs")

ask = partial(answer, now=CLOCK)


graphs = shared_history.graphs("click", "attrs")
clones = shared_history.clones("click", "attrs")



UNSEEN = [
    ("click", "how many commits to click towards the end of October?",
     on(2025, 10, 21), on(2025, 11, 1)),
    ("attrs", "how many commits towards the end of last year?", on(2025, 12, 1), on(2026, 1, 1)),
    ("attrs", "how many commits early last spring?", on(2026, 3, 1), on(2026, 4, 1)),
    ("click", "how many commits late last summer?", on(2026, 8, 1), on(2026, 9, 1)),
    ("click", "how many commits in the first part of 2024?", on(2024, 1, 1), on(2024, 5, 1)),
    ("attrs", "how many commits to attrs in the latter part of last year?",
     on(2025, 9, 1), on(2026, 1, 1)),
    ("click", "how many commits in the year leading up to March 2025?",
     on(2024, 3, 1), on(2025, 3, 1)),
    ("attrs", "how many commits two summers ago?", on(2025, 6, 1), on(2025, 9, 1)),
    ("click", "how many commits the Friday before last?", on(2026, 8, 21), on(2026, 8, 22)),
    ("click", "how many commits to click 03/2025", on(2025, 3, 1), on(2025, 4, 1)),
    ("attrs", "how many commits 2025/03?", on(2025, 3, 1), on(2025, 4, 1)),
    # A second batch: two parts joined were answered over the last alone, the first unsaid.
    ("click", "how many commits to click mid-to-late 2024?", on(2024, 5, 1), on(2025, 1, 1)),
    ("attrs", "how many commits in early and mid 2025?", on(2025, 1, 1), on(2025, 9, 1)),
    ("attrs", "how many commits Sep 2025 to date?", on(2025, 9, 1), CLOCK),
    ("click", "how many commits 2 weekends ago?", on(2026, 8, 22), on(2026, 8, 24)),
    ("attrs", "how many commits last calendar year?", on(2025, 1, 1), on(2026, 1, 1)),
    # A third: those as values a composition reads, and more of the same rows.
    ("click", "how many commits since two Fridays ago?", on(2026, 8, 21), CLOCK),
    ("attrs", "how many commits from mid-to-late August until now?", on(2026, 8, 11), CLOCK),
    ("click", "how many commits in the latter part of the summer?", on(2026, 8, 1),
     on(2026, 9, 1)),
    ("attrs", "how many commits 04/2025-06/2025?", on(2025, 4, 1), on(2025, 7, 1)),
    # A fourth: "under a month ago" is everything since then.
    ("click", "how many commits to click under a month ago?", datetime(2026, 8, 1, 12, tzinfo=UTC),
     CLOCK),
    ("attrs", "how many commits on or after 2025-10-01?", on(2025, 10, 1), CLOCK),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end"), UNSEEN)
async def test_an_unseen_phrasing_is_answered_over_the_window_it_means(
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


# Read as another window before, silently: "early or mid 2025" as mid 2025; "from 13/2025 to
# April 2026" offered 2025 to April 2026 ("13/" unsaid). Now named, nothing answered.
NOT_READ = [
    ("click", "how many commits early or mid 2025?", "early or mid 2025"),
    ("attrs", "how many commits from 13/2025 to April 2026?", "13/2025"),
    ("click", "who made the most commits from 13/2025 to April 2026?", "13/2025"),
    # ... "excluding 2025", "apart from Q3": answered over 2025 and Q3, the word unsaid.
    ("attrs", "how many commits excluding 2025?", "excluding 2025"),
    ("click", "how many commits to click apart from Q3?", "apart from Q3"),
    ("attrs", "who made the most commits to attrs excluding last year?", "excluding last year"),
]  # fmt: skip


async def test_over_a_year_ago_is_everything_before_then(click: OrgGraph) -> None:
    """ "over a year ago" was answered over the year that began a year ago, "over" unsaid."""
    result = await ask(click, "how many commits to click over a year ago?")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (result.outcome, result.limitations)
    assert '"over a year ago" asks for everything before 2025-09-01T12:00:00Z' in (
        result.clarification_prompt or ""
    ), result.clarification_prompt


@pytest.mark.parametrize(("history", "question", "named"), NOT_READ)
async def test_a_phrase_read_in_part_is_named_never_answered(
    graphs: dict[str, OrgGraph], history: str, question: str, named: str
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.NO_MATCH, (result.outcome, result.limitations)
    assert any(named in note for note in result.limitations), result.limitations
