"""The sides of changed lines written right before a file's name are the measure asked, never
a word of the name (issue 32; z39b B5), on the real histories (../shared/data), each figure
against `git log --no-merges --full-history --numstat` (author time in UTC):

click "lines added/removed core.py may 2026" ended: '"removed core.py" names no subject known
here: only "core.py" matched ... and "removed" names no part of it' (git: +524 -274). The run
of words around a name (engine.reading.runs) now leaves the sides of lines out.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import pytest

from engine.domain.contract import Outcome
from tests import shared_history
from tests.shared_history import lines
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")
(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone, attrs) = (
    shared_history.each("click", "werkzeug", "requests", "attrs")
)
histories = shared_history.histories("click", "werkzeug", "requests", "attrs")
ask = partial(answer, now=CLOCK)

CASES = [
    ("click", "lines added/removed core.py may 2026", "src/click/core.py",
     (datetime(2026, 5, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC))),
    ("requests", "lines added and removed sessions.py 2026", "src/requests/sessions.py",
     (datetime(2026, 1, 1, tzinfo=UTC), CLOCK)),
    ("attrs", "lines inserted/deleted _make.py H1 2026", "src/attr/_make.py",
     (datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC))),
    ("werkzeug", "how many lines were removed serving.py in 2025?", "src/werkzeug/serving.py",
     (datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "path", "window"), CASES)
async def test_line_sides_before_a_name_are_the_measure(
    histories: dict[str, tuple[object, object]],
    history: str,
    question: str,
    path: str,
    window: tuple[datetime, datetime],
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    added, removed = lines(clone, *window, path)  # type: ignore[arg-type]
    assert added + removed > 0
    said = result.direct_judgment or ""
    assert f"{added + removed} line(s) changed (+{added} -{removed})" in said, said
