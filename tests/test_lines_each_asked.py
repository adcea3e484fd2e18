"""Commits and lines asked together of folders and files (issue 32), on the real histories
(../shared/data), each figure against git's (`git log --no-merges --full-history --numstat`,
author time):

- "Over the last six months, how many commits touched src/attr compared with src/attrs, and
  how many lines were added and removed in each?" gave the commits and dropped the lines
  without a word: a question opening with its time was never split into its parts
  (engine/reading/clauses), and a later count of several subjects was not asked
  (engine/reading/parts).
- "How many commits and how many lines changed in src/attr versus src/attrs in 2025?" was
  split after "How many commits", a first part with neither subject nor time (the whole
  history asked again under the 400-day rule).
- A count of several subjects with lines asked said only the commits (engine/questions/count).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import pytest

from engine.domain.contract import Outcome
from tests import shared_history
from tests.shared_history import commits, lines, on, year
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
SIX_MONTHS = (datetime(2026, 3, 1, 12, tzinfo=UTC), CLOCK)

pytestmark = shared_history.present("click", "werkzeug", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each(
    "click", "werkzeug", "attrs"
)
histories = shared_history.histories("click", "werkzeug", "attrs")

ask = partial(answer, now=CLOCK)

# (history, question, the paths of each subject as git is asked, the window)
CASES = [
    ("attrs", "Over the last six months, how many commits touched src/attr compared with "
     "src/attrs, and how many lines were added and removed in each?",
     ["src/attr", "src/attrs"], SIX_MONTHS),
    ("attrs", "In 2025, how many commits went into src/attr and src/attrs, and how many lines "
     "were added and removed in each of them?", ["src/attr", "src/attrs"], year(2025)),
    ("attrs", "How many commits and how many lines changed in src/attr versus src/attrs in "
     "2025?", ["src/attr", "src/attrs"], year(2025)),
    ("werkzeug", "how many commits touched src/werkzeug/sansio vs src/werkzeug/debug in 2024, "
     "and how many lines were added and removed in each?",
     ["src/werkzeug/sansio", "src/werkzeug/debug"], year(2024)),
    ("werkzeug", "During 2023, how many commits changed src/werkzeug/debug, and how many lines "
     "were added and removed?", ["src/werkzeug/debug"], year(2023)),
    ("click", "In the first half of 2025, how many commits touched src/click/core.py, and how "
     "many lines changed?", ["src/click/core.py"], (on(2025), on(2025, 7))),
    ("click", "how many commits and how many lines went into src/click/parser.py in 2024?",
     ["src/click/parser.py"], year(2024)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "paths", "window"), CASES)
async def test_commits_and_lines_are_both_answered(
    histories: dict[str, tuple[object, object]],
    history: str,
    question: str,
    paths: list[str],
    window: tuple[datetime, datetime],
) -> None:
    """Each subject's commits and its lines added and removed, as git counts them."""
    graph, clone = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    label = result.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == window
    said = result.direct_judgment or ""
    for path in paths:
        counted = commits(clone, *window, path)  # type: ignore[arg-type]
        added, removed = lines(clone, *window, path)  # type: ignore[arg-type]
        assert f"{counted} commit(s)" in said or f"{counted} to " in said, (path, counted, said)
        assert f"(+{added} -{removed})" in said, (path, added, removed, said)
    assert not any("not answered" in n or "was not;" in n for n in result.limitations)
