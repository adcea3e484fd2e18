"""People and what is computed about them, asked as the unseen-question checks of session 36
asked them (issue 32), each on at least two histories: a count of people says how commit
authors are grouped (requests' 2019 has 39 people here, 40 by `git shortlog -s`, and nothing
said why); "besides A and B" / "other than A or B" / "apart from A, B" is everyone's part but
theirs (it ended: leaving out was computed for one person); "<name> commits" is the person,
never a file of the name (it asked between .github/dependabot.yml and dependabot[bot]); "his"
is the one person named (it ended, not understood); "how much did X do in Y" is X's commits
and lines there (it asked back); "did hynek make in attrs" is no module "hynek" of attrs (it
asked back); "by author" / "per person" / "broken down by contributor" ranks the people (a
person named "author", or the total answered unsaid); net lines are added less removed ("minus"
ended the question, "net" was asked back as people with .net addresses). On the real histories
(../shared/data), in memory; each truth from `git log --no-merges --full-history` (author time;
people as the import joins them: names sharing an address are one person)."""

from __future__ import annotations

import re
import subprocess
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.answering.people import GROUPED
from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import lines
from tests.test_investigate import answer
from tests.test_look_back import authored
from tests.test_rankings_asked import authors

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "requests", "werkzeug", "attrs")

click_clone, click, requests_clone, requests, werkzeug_clone, werkzeug, attrs_clone, attrs = (
    shared_history.each("click", "requests", "werkzeug", "attrs")
)
ask = partial(answer, now=CLOCK)
histories = shared_history.histories("click", "requests", "werkzeug", "attrs")


def on(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=UTC)


def names(clone: Path, start: datetime, end: datetime) -> int:
    """The people `git shortlog -s --no-merges` counts in [start, end) by author time: one
    per name."""
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=%at %aN"],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    rows = [line.split(" ", 1) for line in out.splitlines()]
    return len({n for at, n in rows if start <= datetime.fromtimestamp(int(at), UTC) < end})


# Windows where one person committed under two names from one address: shortlog counts more.
GROUPED_COUNTS = [
    ("requests", "how many people committed to requests in 2019", 2019, "{n} people changed"),
    ("click", "who committed to click in 2020", 2020, "({n} people in all)"),
]


@pytest.mark.parametrize(("history", "question", "year", "said"), GROUPED_COUNTS)
async def test_a_count_of_people_says_how_authors_are_grouped(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, year: int, said: str
) -> None:
    graph, clone = histories[history]
    people = len(authors(clone, on(year), on(year + 1)))
    assert names(clone, on(year), on(year + 1)) > people, "shortlog counts more: else no case"
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert said.format(n=people) in (result.direct_judgment or "")
    assert GROUPED in result.limitations


async def test_a_count_of_commits_says_nothing_of_grouping(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    graph, _ = histories["werkzeug"]
    result = await ask(graph, "how many commits to werkzeug in 2025")
    assert result.outcome is Outcome.ANSWERED
    assert GROUPED not in result.limitations


# (history, question, window, the people left out as the history names them): "besides",
# "other than", "apart from" several people. It ended ("besides Nate Prewitt": leaving a
# subject out is computed only for a person's part) or answered about one of them left out.
SEVERAL_LEFT_OUT = [
    ("requests", "did anyone besides nate and dependabot commit to requests over the summer",
     datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 9, 1, tzinfo=UTC),
     ("Nate Prewitt", "dependabot[bot]")),
    ("attrs", "how many commits to attrs in 2025 other than hynek or dependabot",
     on(2025), on(2026), ("Hynek Schlawack", "dependabot[bot]")),
    ("click", "who committed to click in 2025 apart from David Lord, Kevin Deldycke",
     on(2025), on(2026), ("David Lord", "Kevin Deldycke")),
    ("werkzeug", "how many commits to werkzeug in 2024 besides David Lord and pgjones",
     on(2024), on(2025), ("David Lord", "pgjones")),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end", "out"), SEVERAL_LEFT_OUT)
async def test_besides_several_people_is_everyone_elses_part(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    out: tuple[str, ...],
) -> None:
    graph, clone = histories[history]
    gits = authors(clone, start, end)
    assert all(any(name in names for names in gits) for name in out), "each left out committed"
    rest = {names: c for names, c in gits.items() if not set(out) & names}
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert f"(people other than {out[0]} and {out[1]})" in judgment, judgment
    if judgment.startswith("Most active"):
        assert f"({len(rest)} people in all)" in judgment, judgment
        top = max(rest.values())
        assert f"({top} commit(s)," in judgment
    else:
        assert judgment.startswith(f"{sum(rest.values())} commit(s) to "), judgment
    assert not any(f"{name} (" in judgment.split(":", 1)[-1] for name in out)


SUMMER = (datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 9, 1, tzinfo=UTC))
# (history, question, window, git's paths, the person as git --author finds them)
NAMED_AS_AUTHOR = [
    ("requests", "how many dependabot commits in requests past 6 months",
     (datetime(2026, 3, 1, 12, tzinfo=UTC), CLOCK), (), "dependabot[bot]"),
    ("attrs", "dependabot commits in attrs since jan", (on(2026), CLOCK), (), "dependabot[bot]"),
    ("attrs", "how many of dependabot's commits to attrs in 2025", (on(2025), on(2026)), (),
     "dependabot[bot]"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "paths", "author"), NAMED_AS_AUTHOR)
async def test_a_name_authoring_commits_is_the_person_not_a_file(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    paths: tuple[str, ...],
    author: str,
) -> None:
    """"dependabot commits": .github/dependabot.yml makes no commits, dependabot[bot] does; it
    asked which of the two."""
    graph, clone = histories[history]
    made = shared_history.commits(clone, *window, *paths, author=author.replace("[", "\\["))
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    assert (result.direct_judgment or "").startswith(f"{made} commit(s) to "), result.direct_judgment
    assert "by dependabot[bot]" in (result.direct_judgment or "")
    assert any("makes no commits" in n for n in result.limitations), result.limitations


async def test_a_name_authoring_commits_that_several_people_carry_still_asks(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """click has two dependabots (dependabot[bot] and dependabot-preview[bot]), both committing
    in 2021 (14 and 17): which one is asked, the people offered, the file not. (In 2020 only
    dependabot-preview[bot] did: answered for it, tests/test_people_active.py.)"""
    graph, _ = histories["click"]
    result = await ask(graph, "how many dependabot commits to click in 2021")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.direct_judgment
    offered = [c.subject_key for c in result.candidates]
    assert len(offered) == 2 and all(k.startswith("person:") for k in offered), offered


# (history, question, the person as git --author finds them, their name in the answer)
HIS_FIRST = [
    ("click", "When did davidism make his first commit to click?", "davidism@gmail.com",
     "David Lord"),
    ("attrs", "When did hynek make his first commit to attrs?", "Hynek Schlawack",
     "Hynek Schlawack"),
    ("werkzeug", "When did David Lord make his first commit to werkzeug?", "David Lord",
     "David Lord"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "author", "name"), HIS_FIRST)
async def test_his_is_the_one_person_named(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, author: str,
    name: str,
) -> None:
    """ "his" ended the question, said not understood."""
    graph, clone = histories[history]
    at, sha = authored(clone, author)[0]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert "first change" in judgment and name in judgment and sha[:7] in judgment, judgment
    assert at.strftime("%Y-%m-%dT%H:%M:%SZ") in judgment
    assert any(n.startswith('"his" read as ') for n in result.limitations)


@pytest.mark.parametrize(
    ("history", "question"),
    [("click", "when did click get his first commit?"),
     ("werkzeug", "when did David Lord and pgjones make his first commit to werkzeug?")],
)  # fmt: skip
async def test_his_standing_for_no_one_or_several_ends(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert any(n.startswith('"his" was not understood') for n in result.limitations)


# (history, question, window, the person as git --author finds them, their name)
HOW_MUCH = [
    ("click", "how much did edward g do in click this summer", SUMMER, "Edward G", "Edward G"),
    ("attrs", "how much did Hynek Schlawack do in attrs in 2025", (on(2025), on(2026)),
     "Hynek Schlawack", "Hynek Schlawack"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "author", "name"), HOW_MUCH)
async def test_how_much_a_person_did_is_their_commits_and_lines(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    author: str,
    name: str,
) -> None:
    """It asked back: one person's part was "not computed for what was asked here"."""
    graph, clone = histories[history]
    made = shared_history.commits(clone, *window, author=author)
    added, removed = lines(clone, *window, author=author)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{made} commit(s) to {history} by {name} "), judgment
    assert f"{added + removed} line(s) changed (+{added} -{removed})" in judgment


# (history, question, window): the people ranked by commits, with how many in all
BROKEN_DOWN = [
    ("requests", "requests commits past 90d by author", (datetime(2026, 6, 3, 12, tzinfo=UTC),
                                                         CLOCK)),
    ("attrs", "attrs commits per person in 2025", (on(2025), on(2026))),
    ("click", "commits to click in 2025 broken down by contributor", (on(2025), on(2026))),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window"), BROKEN_DOWN)
async def test_a_breakdown_by_people_ranks_them(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
) -> None:
    """ "by author" was a person named "author" (no match), "per person" the window's total
    answered, unsaid."""
    graph, clone = histories[history]
    gits = authors(clone, *window)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert "ranked by commits" in judgment and f"({len(gits)} people in all)" in judgment
    # everyone, most commits first (five were listed before people41)
    ranked = sorted(gits.values(), reverse=True)
    shown = [int(c) for c in re.findall(r"\((\d+) commit\(s\)", judgment)]
    assert shown == ranked, judgment


# (history, question, window, git's paths, the scope said)
NET = [
    ("attrs", "By how many lines did attrs grow in 2025 (added minus removed)?",
     (on(2025), on(2026)), ()),
    ("click", "what was the net change in lines in click in 2025", (on(2025), on(2026)), ()),
    ("werkzeug", "net lines added to werkzeug in 2024", (on(2024), on(2025)), ()),
    # "click shrink" was a name no subject matched
    ("click", "how many lines did click shrink in 2025", (on(2025), on(2026)), ()),
    ("werkzeug", "how many lines did werkzeug shrink in 2024", (on(2024), on(2025)), ()),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "paths"), NET)
async def test_net_lines_are_added_less_removed(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    paths: tuple[str, ...],
) -> None:
    """ "minus" ended the question, "net" was asked back as people with .net addresses, and
    "grow" answered the lines changed (added and removed together)."""
    graph, clone = histories[history]
    added, removed = lines(clone, *window, *paths)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    said = f"net {added - removed:+d} line(s) (+{added} added, -{removed} removed)"
    assert said in (result.direct_judgment or ""), result.direct_judgment


# (history, question, window, the person as git --author finds them, their name)
ACTED_IN = [
    ("attrs", "how many commits did hynek make in attrs in 2025", (on(2025), on(2026)),
     "Hynek Schlawack", "Hynek Schlawack"),
    ("werkzeug", "how many commits did davidism make in werkzeug in 2024", (on(2024), on(2025)),
     "davidism@gmail.com", "David Lord"),
    ("attrs", "how much did hynek do in attrs in 2025", (on(2025), on(2026)), "Hynek Schlawack",
     "Hynek Schlawack"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "author", "name"), ACTED_IN)
async def test_who_acted_in_a_repository_is_no_module_of_it(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    author: str,
    name: str,
) -> None:
    """ "did hynek make in attrs" was read as a module "hynek" inside attrs, and asked back
    ('attrs has no module "hynek"')."""
    graph, clone = histories[history]
    made = shared_history.commits(clone, *window, author=author)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{made} commit(s) to {history} by {name} "), judgment
