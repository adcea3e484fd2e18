"""The number of commits under the other names users give it ("commit volume", "volume of
commits", "commit throughput", "commit output", "commit rate": rows of
engine/reading/vocabulary.FACT_VOCABULARY) is the commits git counts (author time,
--no-merges): an independent check (t36) had "requests commit volume mid-2025 to now" ended on
"volume" not understood, and "commit throughput" was read as pull-request throughput, which a
git history does not record. A span wider than one answer covers still asks again, and says
how "mid-2025" was read (the start of the year's middle third, 1 May). On requests' and
click's real histories (../shared/data), in memory, asked on 2026-09-01T12:00:00Z.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import pytest

from engine.domain.contract import Outcome
from tests import shared_history
from tests.shared_history import commits
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("requests", "click")

requests_clone, requests, click_clone, click = shared_history.each("requests", "click")
histories = shared_history.histories("requests", "click")
ask = partial(answer, now=CLOCK)


def on(year: int, month: int) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


CASES = [
    ("requests", "requests commit volume in 2025", (on(2025, 1), on(2026, 1))),
    ("click", "volume of commits to click in q2 2026", (on(2026, 4), on(2026, 7))),
    ("requests", "requests commit throughput in mid-2025", (on(2025, 5), on(2025, 9))),
    ("click", "click commit output last month", (on(2026, 8), on(2026, 9))),
    ("click", "click commit rate this year", (on(2026, 1), CLOCK)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window"), CASES)
async def test_commit_volume_is_the_number_of_commits(
    histories: dict, history: str, question: str, window: tuple[datetime, datetime]
) -> None:  # fmt: skip
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    label = result.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == window
    counted = commits(clone, *window)
    assert f"{counted} commit(s) to {history} from" in (result.direct_judgment or ""), (
        result.direct_judgment
    )
    assert not any("throughput" in n or "not understood" in n for n in result.limitations)


@pytest.mark.parametrize("history", ["requests", "click"])
async def test_volume_since_mid_2025_asks_again_saying_how_mid_was_read(
    histories: dict, history: str
) -> None:
    """488 days: wider than the 400 one answer covers; the prompt says mid-2025 starts on
    1 May (the year's thirds)."""
    graph, _ = histories[history]
    result = await ask(graph, f"{history} commit volume mid-2025 to now")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.limitations
    prompt = result.clarification_prompt or ""
    assert "asks for 488 days (2025-05-01T00:00:00Z to 2026-09-01T12:00:00Z)" in prompt, prompt
    assert "mid: May to August" in prompt, prompt
    assert f'"{history} commit volume in the last 400 days"' in prompt, prompt
