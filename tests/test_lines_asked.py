"""Lines named without a question word are counted, and a subject's size is not the lines
changed. "lines added vs removed in attrs in q2" and "lines changed in X this year" were a
health ("The health of attrs is not judged ...") or a trend; now the churn count (+added
-removed), equal to git's --numstat. "How many lines of code are in attrs?" was answered with
the lines changed over the default year (21,993), another question: a subject's size is not
recorded, said, and the question ends (engine/reading/wordrules `size`). On attrs' and
werkzeug's real histories (../shared/data), in memory, asked on 2026-09-01T12:00:00Z."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import churn, on
from tests.test_periods_compared import ask

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("werkzeug", "attrs")

(werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each("werkzeug", "attrs")
histories = shared_history.histories("werkzeug", "attrs")


CASES = [
    ("attrs", "lines added vs removed in attrs in q2", (on(2026, 4), on(2026, 7)), ()),
    ("attrs", "lines added and removed in _make.py this year", (on(2026, 1), CLOCK),
     ("src/attr/_make.py",)),
    ("werkzeug", "lines changed in the routing package in 2025", (on(2025, 1), on(2026, 1)),
     ("src/werkzeug/routing",)),
    # time42: "+/-" was dropped unread (all edge characters) and the question read as a
    # status: "The question names no subject, ..." or the health of the subject named.
    ("attrs", "lines +/- for attrs in q2", (on(2026, 4), on(2026, 7)), ()),
    ("werkzeug", "werkzeug lines +/- in 2025", (on(2025, 1), on(2026, 1)), ()),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "paths"), CASES)
async def test_lines_named_are_counted(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    paths: tuple[str, ...],
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = result.direct_judgment or ""
    assert f": {churn(clone, *window, *paths)} line(s) changed (+" in said, said
    assert "health" not in said


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ("attrs", "how many lines of code are in attrs"),
        ("attrs", "lines of code in attrs"),
        ("werkzeug", "what's the werkzeug codebase's size in loc?"),
    ],
)
async def test_a_size_is_not_the_lines_changed(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    result = await ask(histories[history][0], question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert any("the size of a subject" in note for note in result.limitations)
