"""Who knows something is a question about its whole history; who should review a change to it
is one about now (engine/resolving/wholehistory.py: KNOWING, ABOUT_NOW; issue 32). Checkers
(z37b) had "who knows parser.py best" answered over the default year: four people with one
commit each, where git gives David Lord 20 and Armin Ronacher 19 over the module's history,
and "apart from hynek who knows _make.py" five people with one commit each, Tin Tvrtković
(23) gone. Now a history that fits in 400 days is ranked whole and said so; a longer one is
asked again with the seed rule (at most 400 days, the last 400 offered), never a year shown as
who knows it best. A reviewer stays someone working on it now (the default year, said). On
the real histories (../shared/data), in memory; each truth from `git log --no-merges
--full-history` (author time)."""

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

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "requests", "attrs")

pytestmark = shared_history.present(*NAMES)

click_clone, click, requests_clone, requests, attrs_clone, attrs = shared_history.each(*NAMES)
ask = partial(answer, now=CLOCK)
histories = shared_history.histories(*NAMES)


def authors(clone: Path, *paths: str, since: str = "") -> list[str]:
    """Each commit's author (no merges, oldest first) to PATHS, from `since` when given."""
    args = ["--full-history"] + ([f"--since={since}"] if since else [])
    out = shared_history.git(
        clone, "log", "--no-merges", *args, "--reverse", "--format=%at %aN", "--", *paths
    )
    return [line for line in out.splitlines() if line]


def iso(line: str) -> str:
    return datetime.fromtimestamp(int(line.split(" ", 1)[0]), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


PARSER = ("click/_optparse.py", "click/parser.py", "src/click/parser.py")
MAKE = ("attr/_make.py", "src/attr/_make.py")
OTHERS = "attr._make (people other than Hynek Schlawack)"  # from their first change


@pytest.mark.parametrize(
    ("history", "question", "paths", "scope"),
    [  # each module's paths over its history (the import follows moves and renames)
        ("click", "who knows parser.py best", PARSER, "click.parser"),
        ("click", "who is the expert on parser.py?", PARSER, "click.parser"),
        ("attrs", "apart from hynek who knows _make.py", MAKE, OTHERS),
        ("attrs", "who has the most expertise in _make.py?", MAKE, "attr._make"),
    ],
)
async def test_who_knows_a_long_history_is_asked_again_never_a_year(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    paths: tuple[str, ...],
    scope: str,
) -> None:
    graph, clone = histories[history]
    rows = authors(clone, *paths)
    since = iso(next(r for r in rows if scope != OTHERS or "Hynek" not in r))
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.direct_judgment
    prompt = result.clarification_prompt or ""
    assert f"the whole history of {scope}, which runs from {since}" in prompt, prompt
    assert "more than the 400 days one answer may cover" in prompt, prompt
    assert "in the last 400 days" in prompt, prompt


@pytest.mark.parametrize(
    "question", ["who knows _types.py best", "who is the expert on src/requests/_types.py?"]
)
async def test_who_knows_a_history_that_fits_ranks_all_of_it(
    histories: dict[str, tuple[OrgGraph, Path]], question: str
) -> None:
    graph, clone = histories["requests"]
    rows = authors(clone, "src/requests/_types.py")
    ranked = Counter(line.split(" ", 1)[1] for line in rows).most_common()
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    said = result.direct_judgment or ""
    assert said.startswith(f"Most active on requests._types from {iso(rows[0])} to "), said
    (top, n), *_ = ranked
    assert f"ranked by commits: {top} ({n} commit(s)" in said, said
    assert all(f"{name} ({n} commit(s)" in said for name, n in ranked), said
    whole = "No time was named: the answer covers the whole history of requests._types"
    assert any(n.startswith(whole) for n in result.limitations), result.limitations


async def test_a_reviewer_is_someone_working_on_it_now(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """ "who should review a change to core.py" asks who works on it these days: the default
    year, said (Kevin Deldycke 24 of click's core.py commits in it), not its whole history,
    where Armin Ronacher (last commit 2018) ranks first."""
    graph, clone = histories["click"]
    rows = authors(clone, "src/click/core.py", since="2025-09-01T12:00:00Z")
    (top, n), *_ = Counter(line.split(" ", 1)[1] for line in rows).most_common()
    result = await ask(graph, "who should review a change to core.py")
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    said = result.direct_judgment or ""
    assert said.startswith("Most active on click.core from 2025-09-01T12:00:00Z to "), said
    assert f"ranked by commits: {top} ({n} commit(s)" in said, said
