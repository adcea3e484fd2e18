"""How busy a subject was is answered with its activity, said first: "How busy was werkzeug in
June?" opened "The health of werkzeug is not judged: no incident, deploy ... facts were found"
and never said it had no commit; "how active is requests lately?" gave its commits only after
that health sentence (z40b W06, R05: a health headline over an activity question). "how
lively was werkzeug in May 2026?" ended on "lively" not understood. Now the judgment is the
window's commits, days, authors and lines (engine/questions/activity.py), or that it had no
commit and when its last change was. Guards: a health question keeps its health framing, a
person's activity its own answer. Figures from git (tests/shared_history)."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import on, stamp
from tests.test_investigate import answer

CLOCK = on(2026, 9, 1, 12)

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")
(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone, attrs) = (
    shared_history.each("click", "werkzeug", "requests", "attrs")
)
histories = shared_history.histories("click", "werkzeug", "requests", "attrs")
ask = partial(answer, now=CLOCK)


@pytest.mark.parametrize(
    ("history", "question", "name", "paths", "start", "end"),
    [
        ("requests", "How active is requests lately?", "requests", (), on(2026, 6, 3, 12),
         CLOCK),
        ("werkzeug", "how lively was werkzeug in May 2026?", "werkzeug", (), on(2026, 5),
         on(2026, 6)),
        ("attrs", "How busy was attrs in July 2026?", "attrs", (), on(2026, 7), on(2026, 8)),
        # "going on", "happening": how busy (a health with a bus factor lead before)
        ("requests", "What has been going on in src/requests lately?", "requests",
         ("src/requests",), on(2026, 6, 3, 12), CLOCK),
        ("requests", "how much has been happening in requests since May?", "requests", (),
         on(2026, 5), CLOCK),
        ("attrs", "How busy was src/attr/_make.py this year?", "attr._make",
         ("src/attr/_make.py",), on(2026), CLOCK),
    ],
)  # fmt: skip
async def test_how_busy_is_said_with_the_windows_commits_and_lines(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    name: str,
    paths: tuple[str, ...],
    start: datetime,
    end: datetime,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    commits = shared_history.commits(clone, start, end, *paths)
    added, removed = shared_history.lines(clone, start, end, *paths)
    assert judgment.startswith(f"{name} had {commits} commit(s) on "), judgment
    assert f"changing +{added} -{removed} line(s) from {stamp(start)} to {stamp(end)}." in (
        judgment
    )
    assert "health" not in judgment


@pytest.mark.parametrize(
    "question", ["How busy was werkzeug in June?", "how quiet was werkzeug in June 2026?"]
)
async def test_a_window_with_no_commit_says_so_and_the_last_change_before(
    histories: dict[str, tuple[OrgGraph, Path]], question: str
) -> None:
    graph, clone = histories["werkzeug"]
    start, end = on(2026, 6), on(2026, 7)
    assert shared_history.commits(clone, start, end) == 0
    last = max(r for r in shared_history.changes(clone, until=start))
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(
        f"No commit to werkzeug was recorded from {stamp(start)} to {stamp(end)}."
    ), judgment
    assert f"last change before it was on {stamp(last[0])[:10]}" in judgment
    assert last[1][:7] in judgment


@pytest.mark.parametrize(
    ("history", "question"),
    [
        # no kind of activity asked: a health question, its framing kept
        ("werkzeug", "how is werkzeug doing?"),
        ("attrs", "how healthy was attrs in 2025?"),
    ],
)
async def test_a_health_question_keeps_its_framing(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, question)
    assert (result.direct_judgment or "").startswith(f"The health of {history} is not judged")


async def test_a_persons_activity_is_their_own_answer(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """A person's status is their lines and commits, as before (not "X had N commits")."""
    graph, clone = histories["attrs"]
    result = await ask(graph, "how active has Hynek Schlawack been lately?")
    judgment = result.direct_judgment or ""
    commits = shared_history.commits(clone, on(2026, 6, 3, 12), CLOCK, author="Hynek")
    assert judgment.startswith("Hynek Schlawack: Hynek Schlawack changed "), judgment
    assert f"in {commits} commit(s) in the window" in judgment


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        # a change list asked ("what's happening with X?" lists the changes, as before; no
        # time named: the last year)
        ("what's happening with requests?", on(2025, 9, 1, 12), CLOCK),
        ("what happened in requests in May 2026?", on(2026, 5), on(2026, 6)),
    ],
)
async def test_what_is_happening_with_is_still_the_changes(
    histories: dict[str, tuple[OrgGraph, Path]], question: str, start: datetime, end: datetime
) -> None:
    graph, clone = histories["requests"]
    result = await ask(graph, question)
    commits = shared_history.commits(clone, start, end)
    assert (result.direct_judgment or "").startswith(f"{commits} change(s) to requests"), (
        result.direct_judgment
    )


LAST_90 = on(2026, 6, 3, 12)


@pytest.mark.parametrize(
    ("history", "question", "paths", "start"),
    [
        # r41 F2: "quiet" in a who or which question asks for the people no longer active;
        # it was answered with the active ones (requests: dependabot[bot] 12 ...) or the
        # window's activity (click: "193 commit(s) by 39 author(s)")
        ("requests", "Who has gone quiet in requests in the last 90 days?", (), LAST_90),
        ("click", "Which contributors have been quiet in click this year?", (), on(2026)),
        ("click", "who has been quiet in click since April?", (), on(2026, 4)),
        ("werkzeug", "which contributors have been quiet this year?", (), on(2026)),
        ("werkzeug", "which authors went quiet in werkzeug in the last 90 days?", (), LAST_90),
        ("attrs", "which contributors have been quiet in attrs this year?", (), on(2026)),
        ("attrs", "who has been quiet on src/attr/_make.py since March?",
         ("src/attr/_make.py",), on(2026, 3)),
    ],
)  # fmt: skip
async def test_who_went_quiet_is_said_not_computed_never_the_active_people(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    paths: tuple[str, ...],
    start: datetime,
) -> None:
    graph, clone = histories[history]
    active = Counter(
        name for at, _, name in shared_history.changes(clone, *paths) if at >= start.timestamp()
    )
    commits = shared_history.commits(clone, start, CLOCK, *paths)
    assert commits == sum(active.values())
    result = await ask(graph, question)
    assert result.outcome is not Outcome.ANSWERED, result.direct_judgment
    assert any(s.startswith('"quiet": ') for s in result.limitations), result.limitations
    judgment = result.direct_judgment or ""
    for name, n in active.items():  # the active people, the opposite of what is asked
        assert f"{name} ({n}" not in judgment, judgment
    assert f"{commits} commit(s)" not in judgment, judgment
    assert "No commit to" not in judgment, judgment


@pytest.mark.parametrize(
    ("history", "question", "start"),
    [
        # how quiet a subject was is still how busy it was (5d171c3's reading)
        ("attrs", "how quiet was attrs this year?", on(2026)),
        ("click", "How quiet has click been since April?", on(2026, 4)),
    ],
)
async def test_how_quiet_a_subject_was_is_still_its_activity(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, start: datetime
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    commits = shared_history.commits(clone, start, CLOCK)
    assert (result.direct_judgment or "").startswith(f"{history} had {commits} commit(s) on "), (
        result.direct_judgment
    )


async def test_who_was_most_active_still_names_the_active_people(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """The same window, asked for the active: they are given, with git's commits."""
    graph, clone = histories["requests"]
    active = Counter(
        name for at, _, name in shared_history.changes(clone) if at >= LAST_90.timestamp()
    )
    (top, n), (_, second) = active.most_common(2)
    assert n > second
    result = await ask(graph, "Who was most active in requests in the last 90 days?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert f"{top} ({n}" in (result.direct_judgment or ""), result.direct_judgment
