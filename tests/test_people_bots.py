"""Bots asked about as a kind of author, on the shared real histories (../shared/data), each
figure git's (`git log --no-merges --full-history`, author time; a bot's name ends with
"[bot]" or its last word is "Bot", engine.domain.bots): "how many bot commits in attrs in
2025" asked which of dependabot[bot], pre-commit-ci[bot] and Step Security Bot was meant, "bot"
read as a name; git counts the bots' 13 commits (7 and 6). Now the bots' commits in all and
each, the bots counted ("how many bots committed"), or listed ("which bots committed")."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer
from tests.test_rankings_asked import is_bot

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
HISTORIES = ("click", "requests", "attrs")

pytestmark = shared_history.present(*HISTORIES)

(
    click_clone, click, requests_clone, requests, attrs_clone, attrs
) = shared_history.each(*HISTORIES)  # fmt: skip
histories = shared_history.histories(*HISTORIES)

ask = partial(answer, now=CLOCK)


def bots(clone: Path, year: int) -> Counter[str]:
    """Each bot's commits of the year, by its name, as git counts them."""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--format=%at\t%aN"
    )  # fmt: skip
    start, end = datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)
    found: Counter[str] = Counter()
    for line in out.splitlines():
        at, name = line.split("\t", 1)
        if is_bot(name) and start <= datetime.fromtimestamp(int(at), UTC) < end:
            found[name] += 1
    return found


def each(found: Counter[str]) -> str:
    return ", ".join(f"{n} ({c} commit(s))" for n, c in sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))


CASES = [
    ("attrs", 2025, "how many bot commits in attrs in 2025"),
    ("requests", 2025, "how many commits did bots make to requests in 2025?"),
    ("click", 2025, "how many commits by bots to click in 2025?"),
]


@pytest.mark.parametrize(("history", "year", "question"), CASES)
async def test_bot_commits_are_the_bots_commits_each_named(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, year: int, question: str
) -> None:
    graph, clone = histories[history]
    found = bots(clone, year)
    assert found, "the year has bot commits"
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{sum(found.values())} commit(s) by bots to {history} "), judgment
    assert judgment.endswith(f": {each(found)}."), judgment


@pytest.mark.parametrize("history", HISTORIES)
@pytest.mark.parametrize(
    "question", ["how many bots committed to {} in 2025?", "which bots committed to {} in 2025?"]
)
async def test_the_bots_are_counted_and_listed(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    graph, clone = histories[history]
    found = bots(clone, 2025)
    result = await ask(graph, question.format(history))
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{len(found)} bot(s) changed {history} "), judgment
    assert judgment.endswith(f": {each(found)}."), judgment
