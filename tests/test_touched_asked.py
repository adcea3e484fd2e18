"""What a person's changes touched, asked after a first question, is the files they changed:
requests "How many commits did dependabot make over the summer and what did they touch?" was
answered with the changes' titles ("Bump ruff-pre-commit ...", z40a R05), the files asked not
given. Now the later part is written as "which files did X change most ...?" (a row of
engine/reading/laterparts.py), the files ranked by the person's commits, as git counts them.
Guards: "what did they change?" is still the changes; after a count of a place's commits, "what
did they touch?" is said not answered, never another question."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import on
from tests.test_investigate import answer

CLOCK = on(2026, 9, 1, 12)

pytestmark = shared_history.present("requests", "attrs")
(requests_clone, requests, attrs_clone, attrs) = shared_history.each("requests", "attrs")
histories = shared_history.histories("requests", "attrs")
ask = partial(answer, now=CLOCK)


def _files(clone: Path, start: datetime, end: datetime, author: str) -> list[tuple[str, int]]:
    """The files `author`'s commits in [start, end) touched, with their commits, most first,
    as git log --no-merges --full-history --name-only counts them."""
    out = shared_history.git(clone, "log", "--no-merges", "--full-history", "--format=@%at",
                             "--name-only", f"--author={author}")  # fmt: skip
    counts: Counter[str] = Counter()
    inside = False
    for line in out.splitlines():
        if line.startswith("@"):
            inside = start <= datetime.fromtimestamp(int(line[1:]), UTC) < end
        elif inside and line.strip():
            counts[line.strip()] += 1
    return counts.most_common()


@pytest.mark.parametrize(
    ("history", "question", "author", "name", "start", "end"),
    [
        ("requests", "How many commits did dependabot make over the summer and what did they "
         "touch?", "dependabot", "dependabot[bot]", on(2026, 6), on(2026, 9)),
        ("attrs", "how many commits did Hynek Schlawack make in March 2026 and what has he been "
         "touching?", "Hynek", "Hynek Schlawack", on(2026, 3), on(2026, 4)),
    ],
)  # fmt: skip
async def test_what_they_touched_is_the_files_ranked_by_their_commits(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    author: str,
    name: str,
    start: datetime,
    end: datetime,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = " ".join(result.limitations)
    assert 'answered as "which files did' in said and "change most" in said, said
    judgment = result.direct_judgment or ""
    files = _files(clone, start, end, author)
    top, most = files[0]
    assert most > files[1][1]  # one file touched most
    assert f"1. {top} by {name} ({most} commit(s))" in judgment, judgment
    assert "newest first" not in judgment  # not the changes' titles


@pytest.mark.parametrize(
    ("history", "question", "part"),
    [
        ("attrs", "How many commits touched src/attr in 2025, and what did they touch?",
         "what did they touch?"),
        ("requests", "How many commits touched src/requests in 2025, and what did they touch?",
         "what did they touch?"),
    ],
)  # fmt: skip
async def test_after_a_places_count_what_they_touched_stays_not_answered(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, part: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, question)
    said = " ".join(result.limitations)
    assert f'Only the first question is answered: "{part}" was not' in said, said


async def test_what_they_changed_is_still_the_changes(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    graph, clone = histories["requests"]
    question = "How many commits did dependabot make over the summer and what did they change?"
    result = await ask(graph, question)
    commits = shared_history.commits(clone, on(2026, 6), on(2026, 9), author="dependabot")
    judgment = result.direct_judgment or ""
    assert f"{commits} change(s) by dependabot[bot]" in judgment and "newest first" in judgment
