"""The churn of a subject whose commits in the window changed no line as git counts them (a
move: attrs typing_tests/mypy.py, moved from typing-examples/ on 2026-08-03; werkzeug's
LICENSE.rst renamed LICENSE.txt on 2024-04-08; click's empty tests/test_utils/__init__.py), on the real histories (../shared/data),
against `git log --no-merges --full-history --numstat` (author time):

"what was the churn of typing_tests/mypy.py?" (a status: the last 30 days, said) claimed no
fact and gave no lines at all ("The health of typing_tests.mypy is not judged ..."), the
churn asked never given (bench/generalise seed 31: wrong_disclosed, "no lines figure in the
answer"): a churn of 0 lines had no driver (engine/answering/signals._churn). Now its lines,
0 (+0 -0), and its commits are said and claimed.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.domain.contract import Outcome
from tests import shared_history
from tests.shared_history import commits, lines
from tests.test_investigate import answer

pytestmark = shared_history.present("click", "werkzeug", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each(
    "click", "werkzeug", "attrs"
)
histories = shared_history.histories("click", "werkzeug", "attrs")

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

# (history, question, its paths before and after the move as git is asked (a path alone
# hides the move from git's rename detection: all its lines added), the clock)
CASES = [
    ("attrs", "what was the churn of typing_tests/mypy.py?",
     ("typing_tests/mypy.py", "typing-examples/mypy.py"), CLOCK),
    ("click", "What was the churn of tests/test_utils/__init__.py?",
     ("tests/test_utils/__init__.py", "tests/test_utils_2/__init__.py"),
     datetime(2026, 7, 20, 12, tzinfo=UTC)),
    ("werkzeug", "what was the churn of LICENSE.txt?", ("LICENSE.txt", "LICENSE.rst"),
     datetime(2024, 4, 20, 12, tzinfo=UTC)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "paths", "now"), CASES)
async def test_a_churn_of_no_line_is_said(
    histories: dict[str, tuple[object, object]],
    history: str,
    question: str,
    paths: tuple[str, str],
    now: datetime,
) -> None:
    graph, clone = histories[history]
    result = await answer(graph, question, now=now)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    start = now - timedelta(days=30)  # a status naming no time: the last 30 days, said
    label = result.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == (start, now)
    counted = commits(clone, start, now, *paths)  # type: ignore[arg-type]
    assert counted > 0 and lines(clone, start, now, *paths) == (0, 0)  # type: ignore[arg-type]
    said = result.direct_judgment or ""
    assert f"changed 0 line(s) (+0 -0) in {counted} commit(s)" in said, said
    churn = [f for f in result.claimed_facts if f.kind.value == "churn"]
    assert [f.value["lines_changed"] for f in churn] == [0], result.claimed_facts
