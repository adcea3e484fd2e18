"""Periods named together with a gap between them (time39): "how many commits in January and
April 2026?", "src/attr/validators.py +/- lines march and august", "Q1 and Q3 2025 combined"
were refused, the phrase "not understood as a time" (8edee2d: before it, "in Jan and March
2024" was answered over January to April, February counted). The question is clear: the two
periods, not the time between. Now each window is asked as a question of its own and the
answers joined, led by the sum over the windows (commits and lines added, people merged where
every window counts them). Asked through `investigate` on the real histories (../shared/data)
at 2026-09-01T12:00 UTC; each figure against `git log --no-merges --full-history` by author
time. Wider together than 400 days ("in 2023 and 2025": 730 days) stays refused by the seed
rule, which bounds the days one answer reads, not the span over the gap.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, lines
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "werkzeug", "attrs")

pytestmark = shared_history.present(*NAMES)

(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each(*NAMES)
histories = shared_history.histories(*NAMES)

ask = partial(answer, now=CLOCK)


def month(year: int, m: int) -> tuple[datetime, datetime]:
    end = datetime(year + m // 12, m % 12 + 1, 1, tzinfo=UTC)
    return datetime(year, m, 1, tzinfo=UTC), end


def quarter(year: int, q: int) -> tuple[datetime, datetime]:
    start, _ = month(year, 3 * q - 2)
    return start, month(year, 3 * q)[1]


COUNTED = [
    ("attrs", "how many commits in January and April 2026?", [month(2026, 1), month(2026, 4)]),
    ("click", "how many commits were made in Q1 and Q3 2025 combined?",
     [quarter(2025, 1), quarter(2025, 3)]),
    # no year: the latest such months begun; a list of three, with and without a joining word
    ("werkzeug", "commits in jan and may", [month(2026, 1), month(2026, 5)]),
    ("click", "how many commits in jan, march and may 2026?",
     [month(2026, 1), month(2026, 3), month(2026, 5)]),
    ("werkzeug", "how many commits in March, May and July 2026 together?",
     [month(2026, 3), month(2026, 5), month(2026, 7)]),
    # "in A and B" was answered over A to B, the gap counted (8edee2d), then refused
    ("attrs", "how many commits in Jan and March 2024?", [month(2024, 1), month(2024, 3)]),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "windows"), COUNTED)
async def test_commits_over_windows_with_a_gap_are_added(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    windows: list[tuple[datetime, datetime]],
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    judgment = result.direct_judgment or ""
    total = sum(commits(clone, start, end) for start, end in windows)
    assert f"(the time between not counted): {total} commit(s)" in judgment, judgment
    for start, end in windows:  # each window's own answer, over that window alone
        count = commits(clone, start, end)
        assert f"{count} commit(s) to the whole organisation from {start:%Y-%m-%d}T00:00:00Z" \
            f" to {end:%Y-%m-%d}T00:00:00Z" in judgment, judgment  # fmt: skip
    assert any("windows with a gap between them" in t for t in result.limitations)


async def test_count_and_who_over_two_months_combined(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """The checker's attrs question (z38a A15): 41 commits, Hynek Schlawack 31."""
    graph, clone = histories["attrs"]
    question = "How many commits did attrs receive in March and July 2026 combined, and who made them?"  # fmt: skip
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    judgment = result.direct_judgment or ""
    windows = [month(2026, 3), month(2026, 7)]
    total = sum(commits(clone, s, e) for s, e in windows)
    hynek = sum(commits(clone, s, e, author="hs@ox.cx") for s, e in windows)
    assert f"together (the time between not counted): {total} commit(s);" in judgment, judgment
    assert f"Hynek Schlawack ({hynek} commit(s))" in judgment.split(". March 2026:")[0], judgment


@pytest.mark.parametrize(
    ("history", "question", "path", "windows"),
    [
        ("attrs", "src/attr/validators.py +/- lines march and august", "src/attr/validators.py",
         [month(2026, 3), month(2026, 8)]),
        # a window with no change to the file: its lines are none, the sum the other's
        ("attrs", "how many lines were added and removed in src/attr/_make.py in May and "
         "August 2025?", "src/attr/_make.py", [month(2025, 5), month(2025, 8)]),
        ("click", "lines added and removed in src/click/core.py in Feb and June 2026",
         "src/click/core.py", [month(2026, 2), month(2026, 6)]),
    ],
)  # fmt: skip
async def test_lines_over_windows_with_a_gap_are_added(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    path: str,
    windows: list[tuple[datetime, datetime]],
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    added = sum(lines(clone, s, e, path)[0] for s, e in windows)
    removed = sum(lines(clone, s, e, path)[1] for s, e in windows)
    said = f"{added + removed} line(s) changed (+{added} -{removed})"
    assert said in (result.direct_judgment or "").split(". ")[0], result.direct_judgment


async def test_people_over_windows_are_merged_where_every_window_counts_them(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """click, February and June 2026: each window names all its people, so everyone is
    merged, each person's commits added over both."""
    graph, clone = histories["click"]
    result = await ask(graph, "who committed to click in February and June 2026?")
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    windows = [month(2026, 2), month(2026, 6)]
    kevin = sum(commits(clone, s, e, author="Kevin Deldycke") for s, e in windows)
    head = (result.direct_judgment or "").split(". February 2026:")[0]
    assert f"people: Kevin Deldycke ({kevin} commit(s))" in head, head


@pytest.mark.parametrize("history", ["attrs", "werkzeug"])
async def test_windows_wider_together_than_400_days_stay_refused(
    histories: dict[str, tuple[OrgGraph, Path]], history: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, "how many commits in 2023 and 2025?")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (result.outcome, result.limitations)


SEVERAL = [  # (history, question, windows, the subjects' paths)
    ("attrs", "how many commits to src/attr and src/attrs in March and July 2026?",
     [(datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC)),
      (datetime(2026, 7, 1, tzinfo=UTC), datetime(2026, 8, 1, tzinfo=UTC))],
     ("src/attr", "src/attrs")),
    ("click", "how many commits to src/click and tests in Q1 and Q3 2025?",
     [(datetime(2025, 1, 1, tzinfo=UTC), datetime(2025, 4, 1, tzinfo=UTC)),
      (datetime(2025, 7, 1, tzinfo=UTC), datetime(2025, 10, 1, tzinfo=UTC))],
     ("src/click", "tests")),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "windows", "paths"), SEVERAL)
async def test_several_subjects_over_windows_are_not_added_into_one_total(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    windows: list[tuple[datetime, datetime]],
    paths: tuple[str, str],
) -> None:
    """Each subject's commits in each window, never one sum over subjects and windows: a
    commit touching both would count twice (the reviewer of 74e55c4 found the sum)."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    judgment = result.direct_judgment or ""
    assert "each answered below" in judgment and "together" not in judgment, judgment
    for start, end in windows:
        for path in paths:
            name = path.rsplit("/", 1)[-1]
            assert f"{commits(clone, start, end, path)} to {name}" in judgment, judgment
