"""Business words that name a ranking of files by themselves (issue 32; z39a A3, A4, A10),
on the real histories (../shared/data), each figure against `git log --no-merges
--full-history` (author time in UTC):

"hotspots", "hot spots", "the biggest hotspots", "the biggest areas of change", "the full
ranking of files", "all of them" ended a clear question on a word "not understood" ("top
hotspots not understood"; "biggest: ranking changes by their size is not computed"). They are
rows of engine/reading/rankwords.py: the files changed most, ranked by their commits in the
window, what each word was read as said beside ("biggest": by commits, not by size), and the
whole ranking when it is asked for, not the first ten.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from tests import shared_history
from tests.shared_history import git, lines
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
H1_2026 = (datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC))
Y2025 = (datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))
Y2026 = (datetime(2026, 1, 1, tzinfo=UTC), CLOCK)
MAY_2026 = (datetime(2026, 5, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC))

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")
(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone, attrs) = (
    shared_history.each("click", "werkzeug", "requests", "attrs")
)
histories = shared_history.histories("click", "werkzeug", "requests", "attrs")
ask = partial(answer, now=CLOCK)
_RANKED = re.compile(r"\d+\. (\S+) \((\d+) commit\(s\)\)")


def ranked_files(clone: Path, under: str, window: tuple[datetime, datetime]) -> Counter[str]:
    """Commits per file under `under` in [start, end) by author time, files the head has,
    as `git log --no-merges --full-history --name-only -- under` lists them."""
    out = git(clone, "log", "--no-merges", "--full-history", "--format=@%at", "--name-only",
              "--", under)  # fmt: skip
    head = set(git(clone, "ls-files", "--", under).split())
    counted: Counter[str] = Counter()
    inside = False
    for line in out.splitlines():
        if line.startswith("@"):
            inside = window[0] <= datetime.fromtimestamp(int(line[1:]), UTC) < window[1]
        elif inside and line.strip() in head:
            counted[line.strip()] += 1
    return counted


def shown(path: str) -> str:
    """How a ranking names a file: a Python module by its dotted name, any other by path."""
    if path.endswith(".py") and not path.endswith("__init__.py"):
        return path.removeprefix("src/").removesuffix(".py").replace("/", ".")
    return path


# (history, question, directory, window, how many are ranked (None: all), the words said)
CASES = [
    ("requests", "What were the hotspots in src/requests in the first half of 2026?",
     "src/requests", H1_2026, 10, ['"hotspots": read as the files changed most']),
    ("requests", "Which files were the biggest hotspots under src/requests during H1 2026?",
     "src/requests", H1_2026, 10, ['"biggest": ranked by the number of commits']),
    ("attrs", "What were the main hotspots in the src/attr package during the first half of "
     "2026?", "src/attr", H1_2026, 10, ['"hotspots"']),
    ("attrs", "biggest areas of change in src/attr in 2025", "src/attr", Y2025, 10,
     ['"biggest": ranked by the number of commits']),
    ("click", "top 3 hotspots in src/click in H1 2026", "src/click", H1_2026, 3, ['"hotspots"']),
    ("click", "complete ranking of the files under src/click in May 2026", "src/click",
     MAY_2026, None, []),
    ("werkzeug", "hot spots of src/werkzeug/debug in 2025", "src/werkzeug/debug", Y2025, None,
     ['"hot spots"']),
    ("requests", "Give me the full ranking of files in src/requests in 2026, all of them",
     "src/requests", Y2026, None, []),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "under", "window", "size", "said"), CASES)
async def test_business_words_rank_the_files_by_commits(
    histories: dict[str, tuple[object, object]],
    history: str,
    question: str,
    under: str,
    window: tuple[datetime, datetime],
    size: int | None,
    said: list[str],
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.interpretation.get("intent") == "ranked"
    judged = result.direct_judgment or ""
    assert judged.startswith("Ranked by commits"), judged
    truth = ranked_files(clone, under, window)  # type: ignore[arg-type]
    got = [(name, int(n)) for name, n in _RANKED.findall(judged)]
    wanted = len(truth) if size is None else min(size, len(truth))
    assert len(got) == wanted, (got, truth)
    by_name = {shown(path): n for path, n in truth.items()}
    assert all(by_name.get(name) == n for name, n in got), (got, truth)
    assert got[0][1] == max(truth.values())
    for words in said:
        assert any(words in note for note in result.limitations), result.limitations


async def test_the_biggest_hotspots_by_lines_are_ranked_by_lines(
    histories: dict[str, tuple[object, object]],
) -> None:
    """ "by lines" ranks the hotspots by the lines changed, and the notes say so (they said
    "ranked by commits" beside a ranking by lines)."""
    graph, clone = histories["click"]
    q2 = (datetime(2026, 4, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC))
    result = await ask(graph, "biggest hotspots by lines in src/click in Q2 2026")  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judged = result.direct_judgment or ""
    added, removed = lines(clone, *q2, "src/click/core.py")  # type: ignore[arg-type]
    assert judged.startswith("Ranked by lines changed"), judged
    assert f"1. click.core ({added + removed} line(s) changed" in judged, judged
    assert any("ranked by the lines changed in the window" in n for n in result.limitations)
    assert not any("by the number of commits" in n for n in result.limitations)
