"""Each person's own first change is not the window's first change: "who made their first
commit to requests this year?" and "which people committed for the first time in 2026?" ask
for the people new in the window (not computed: engine.reading.wordrules NEWCOMERS_NOTE),
and were answered with the window's first commit and its author ("The first change to
requests recorded here was made at 2026-01-30 ... by Nate Prewitt"), another question. "Who
made the first commit ..." and "when did X commit for the first time" are still the first
change, as git gives it. On werkzeug's and requests' real histories (../shared/data), in
memory, asked on 2026-09-01T12:00:00Z."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from engine.reading.wordrules import NEWCOMERS_ASK, NEWCOMERS_NOTE
from tests import shared_history
from tests.test_periods_compared import ask

pytestmark = shared_history.present("werkzeug", "requests", "attrs")

(werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone, attrs) = shared_history.each(
    "werkzeug", "requests", "attrs"
)
histories = shared_history.histories("werkzeug", "requests", "attrs")


def first_in(clone: Path, start: datetime, author: str = "") -> str:
    """The short hash of the earliest commit (author time, no merges) from `start` on."""
    by = [f"--author={author}"] if author else []
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=%at %H",
         *by],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    stamped = [(int(at), h) for at, h in (line.split() for line in out.splitlines())]
    return min((at, h) for at, h in stamped if at >= start.timestamp())[1][:7]


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ("requests", "who made their first commit to requests this year"),
        ("requests", "which people committed for the first time in 2026?"),
        ("werkzeug", "Who made their first contribution to werkzeug in 2025?"),
    ],
)
async def test_each_ones_own_first_is_newcomers_not_the_first_change(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    graph = histories[history][0]
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert any(NEWCOMERS_NOTE in note for note in result.limitations), result.limitations


async def test_the_first_commit_of_a_window_is_still_the_first_change(
    werkzeug: OrgGraph, werkzeug_clone: Path, requests: OrgGraph, requests_clone: Path
) -> None:
    result = await ask(requests, "who made the first commit to requests this year")
    assert result.outcome is Outcome.ANSWERED
    year = datetime(2026, 1, 1, tzinfo=UTC)
    assert f"({first_in(requests_clone, year)})" in (result.direct_judgment or "")
    result = await ask(werkzeug, "when did David Lord commit for the first time")
    assert result.outcome is Outcome.ANSWERED
    first = first_in(werkzeug_clone, datetime(1970, 1, 1, tzinfo=UTC), "davidism@gmail.com")
    assert f"({first})" in (result.direct_judgment or ""), result.direct_judgment


def people_in(clone: Path, start: datetime, end: datetime) -> int:
    """People with a commit (no merges) in [start, end) by author time, as the import groups
    identities: after the .mailmap, one address and one full name (case aside) are one."""
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=%at\t%aN\t%aE"],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    joined: dict[str, str] = {}

    def root(key: str) -> str:
        while joined.setdefault(key, key) != key:
            key = joined[key]
        return key

    for line in out.splitlines():
        at, name, email = line.split("\t")
        if start.timestamp() <= int(at) < end.timestamp():
            joined[root("n:" + name.casefold())] = root("e:" + email.casefold())
    return len({root(key) for key in joined})


# z41b B-w7, B-r7, B-a12: clear newcomers questions ended on the note alone, no way forward.
# The nearest questions answered are offered, and asked they give git's figures.
@pytest.mark.parametrize(
    ("history", "question", "offered", "start", "end"),
    [
        ("werkzeug", "how many new contributors this year?",
         "who committed to werkzeug this year?", datetime(2026, 1, 1, tzinfo=UTC),
         datetime(2026, 9, 1, 12, tzinfo=UTC)),
        ("requests", "how many new contributors did we get in H1 2026?",
         "who committed to requests in H1 2026?", datetime(2026, 1, 1, tzinfo=UTC),
         datetime(2026, 7, 1, tzinfo=UTC)),
        ("attrs", "who are the new contributors in 2026 and when did they first commit?",
         "who committed to attrs in 2026?", datetime(2026, 1, 1, tzinfo=UTC),
         datetime(2026, 9, 1, 12, tzinfo=UTC)),
    ],
)  # fmt: skip
async def test_newcomers_not_computed_offer_what_is_answered(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, offered: str,
    start: datetime, end: datetime,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    note = next(n for n in result.limitations if NEWCOMERS_NOTE in n)
    assert NEWCOMERS_ASK in note, note
    assert '"who committed to X in <the period>?"' in note
    assert '"when did <person> first commit?"' in note
    answered = await ask(graph, offered)
    assert answered.outcome is Outcome.ANSWERED, answered.limitations
    people = people_in(clone, start, end)
    assert f"({people} people in all)" in (answered.direct_judgment or ""), (
        people, answered.direct_judgment,
    )
