"""What a question asks, read from its words as rules (an independent check's families, each
a row and a list of phrasings here): a question word typed one slip away ("chnages",
"comits", "contibutors": engine/reading/slips.py), "busiest" of people (the most active),
"anything change in X" (its changes, engine/reading/intents.py), and periods ranked ("the
busiest day": not computed, ended, engine/reading/wordrules.py). On werkzeug's and attrs'
real histories (../shared/data), in memory; each figure from `git log --no-merges
--full-history` by author time."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.ports import OrgGraph
from engine.reading.interpreter import interpret
from engine.reading.slips import kind_slip
from engine.reading.vocabulary import Intent
from tests import shared_history
from tests.shared_history import monthly
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("werkzeug", "attrs")

werkzeug_clone, werkzeug, attrs_clone, attrs = shared_history.each("werkzeug", "attrs")

ask = partial(answer, now=CLOCK)


histories = shared_history.histories("werkzeug", "attrs")


def log(clone: Path, start: datetime, end: datetime, *paths: str) -> list[tuple[str, str]]:
    """(author address, subject) of each commit (no merges) in [start, end) by author time."""
    out = shared_history.git(clone, "log", "--no-merges", "--full-history",
                             "--format=%at%x09%aE%x09%s", "--", *paths)  # fmt: skip
    rows = [line.split("\t", 2) for line in out.splitlines()]
    return [
        (email.lower(), subject)
        for at, email, subject in rows
        if start <= datetime.fromtimestamp(int(at), UTC) < end
    ]


def on(year: int, month: int, day: int = 1, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


def said(result: InvestigationResult, start: str) -> bool:
    return any(n.startswith(start) for n in result.limitations)


# --- a question word one slip away --------------------------------------------------------

SLIPS = [
    # (history, question, word as written, read as, the question written right)
    ("werkzeug", "how many contibutors to werkzeug in 2025", "contibutors", "contributors",
     "how many contributors to werkzeug in 2025"),
    ("werkzeug", "how many comits to serving.py in 2025", "comits", "commits",
     "how many commits to serving.py in 2025"),
    ("attrs", "chnages to _make.py last month", "chnages", "changes",
     "changes to _make.py last month"),
    ("attrs", "how many commiters did attrs have in 2025", "commiters", "committers",
     "how many committers did attrs have in 2025"),
    ("attrs", "who are the top contribtors to _make.py in 2025", "contribtors", "contributors",
     "who are the top contributors to _make.py in 2025"),
    # a kind word from five letters, its last letter left out too (engine.reading.slips.
    # kind_slip): "modul" was said unused beside werkzeug.wsgi, and read as a name of its own
    # on attrs ("_make" dropped, a no match)
    ("werkzeug", "how many commits to the wsgi modul in 2025", "modul", "module",
     "how many commits to the wsgi module in 2025"),
    ("werkzeug", "who changed the routing packge in 2025", "packge", "package",
     "who changed the routing package in 2025"),
    ("attrs", "how many commits to the _make modul in 2025", "modul", "module",
     "how many commits to the _make module in 2025"),
    ("attrs", "who touched the _funcs moduel in 2025", "moduel", "module",
     "who touched the _funcs module in 2025"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "written", "word", "plain"), SLIPS)
async def test_a_question_word_one_slip_away_is_read_as_it_and_said(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    written: str,
    word: str,
    plain: str,
) -> None:
    """ "how many contibutors" counted commits ("contibutors" said unused); "chnages to X"
    ended as asking nothing."""
    graph, _ = histories[history]
    asked, right = await ask(graph, question), await ask(graph, plain)
    assert right.outcome is Outcome.ANSWERED, right.limitations
    assert asked.outcome is Outcome.ANSWERED, asked.limitations
    assert asked.direct_judgment == right.direct_judgment
    assert said(asked, f'"{written}": read as "{word}": no word here is spelt so')


async def test_the_people_counted_through_a_slip_are_gits(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    result = await ask(werkzeug, "how many contibutors to werkzeug in 2025")
    people = {email for email, _ in log(werkzeug_clone, on(2025, 1), on(2026, 1))}
    assert f": {len(people)} people changed it." in (result.direct_judgment or "")


@pytest.mark.parametrize(
    "question",
    [
        "who changed the Comits module in 2025",  # capitalised after the first word: a name
        "when was the parser released",  # "released" is a word of its own, not "releases"
        "who is taking care of serving.py",  # the first letter is kept: never "making"
    ],
)
def test_a_real_word_or_a_name_is_never_read_as_a_slip(question: str) -> None:
    understood = interpret(question, CLOCK)
    assert not any("one slip away" in u.note for u in understood.unasked), understood.unasked


@pytest.mark.parametrize(
    "word", ["models", "model", "modes", "persona", "packager", "server", "nodule", "teams"]
)
def test_a_real_word_is_no_slip_of_a_kind_word(word: str) -> None:
    """A kind word is read from a slip of five letters (`kind_slip`), never from a word one
    letter added ("persona", "packager") or another first letter ("nodule")."""
    assert kind_slip(word) is None


# --- "busiest" of people ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("history", "question", "start", "end", "paths"),
    [
        ("attrs", "busiest contributor to attrs YTD", on(2026, 1), CLOCK, ()),
        ("werkzeug", "the busiest developer on the routing package in 2025", on(2025, 1),
         on(2026, 1), ("src/werkzeug/routing",)),
    ],
)  # fmt: skip
async def test_the_busiest_person_is_the_one_with_the_most_commits(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    paths: tuple[str, ...],
) -> None:
    """ "busiest contributor to attrs YTD" was answered with the repository's health,
    "busiest" said not understood."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.interpretation["intent"] == Intent.WHO.value
    counts = Counter(email for email, _ in log(clone, start, end, *paths))
    top, most = counts.most_common(1)[0]
    assert counts.most_common(2)[1][1] < most  # one busiest
    judgment = result.direct_judgment or ""
    assert judgment.startswith("Most active on ") and f"({most} commit(s)" in judgment
    assert not said(result, "Not understood")
    assert top


# --- "anything change in X" ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("history", "question", "start", "end", "path"),
    [
        ("attrs", "last month, anything change in _make.py", on(2026, 8), on(2026, 9),
         "src/attr/_make.py"),
        ("attrs", "anything new in _make.py in july", on(2026, 7), on(2026, 8),
         "src/attr/_make.py"),
        ("werkzeug", "last 3 months, anything in the middleware dir", on(2026, 6, 1, 12), CLOCK,
         "src/werkzeug/middleware"),
        ("werkzeug", "anything happen in serving.py in april", on(2026, 4), on(2026, 5),
         "src/werkzeug/serving.py"),
        ("werkzeug", "any activity on serving.py lately", on(2026, 6, 3, 12), CLOCK,
         "src/werkzeug/serving.py"),
        ("attrs", "any activity in _make.py in august", on(2026, 8), on(2026, 9),
         "src/attr/_make.py"),
    ],
)  # fmt: skip
async def test_anything_in_x_lists_its_changes(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    path: str,
) -> None:
    """They were answered as X's trend or health ("The health of werkzeug.middleware is not
    judged", a bus factor sentence) instead of its changes."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.interpretation["intent"] == Intent.WHAT_CHANGED.value
    changes = log(clone, start, end, path)
    judgment = result.direct_judgment or ""
    if changes:
        assert judgment.startswith(f"{len(changes)} change(s) to "), judgment
        assert all(f'"{subject}"' in judgment for _, subject in changes[:3])
    else:
        assert judgment.startswith("No changes to "), judgment


# --- periods ranked -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("history", "question", "phrase"),
    [
        ("werkzeug", "busiest day in werkzeug this summer", "busiest day"),
        ("attrs", "what was the most active day for attrs in 2025", "most active day"),
        ("attrs", "which month had the most lines changed in _make.py in 2025", "most"),
    ],
)
async def test_a_ranking_of_periods_ends_named(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, phrase: str
) -> None:
    """ "busiest week in requests this summer" ended saying "busiest" asked nothing read;
    "the most active month" was answered with the year's health. Months ranked by commits
    are answered (tests/test_periods_compared.py); by lines they still end."""
    graph, _ = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH and not result.direct_judgment
    assert said(result, f'"{phrase}": a ranking of periods other than months')


@pytest.mark.parametrize(
    ("history", "question", "paths"),
    [
        ("attrs", "what was the most active month for attrs in 2025", ()),
        ("attrs", "which month had the most commits to _make.py in 2025", ("src/attr/_make.py",)),
    ],
)
async def test_months_ranked_by_commits_are_answered(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str,
    paths: tuple[str, ...],
) -> None:
    """Both ended as the two above still do (changed on purpose): each month's commits, as
    git counts them, the most first."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    months = [datetime(2025, m, 1, tzinfo=UTC) for m in range(1, 13)]
    ranked = monthly(clone, months, datetime(2026, 1, 1, tzinfo=UTC), *paths)
    assert f"(equal counts in calendar order): {ranked}; " in (result.direct_judgment or "")


# --- the first and the last change --------------------------------------------------------


def dated(clone: Path, start: datetime, end: datetime, path: str) -> list[tuple[datetime, str]]:
    """(author time, short hash) of each commit (no merges) to `path` in [start, end)."""
    out = shared_history.git(clone, "log", "--no-merges", "--full-history", "--format=%at %h",
                             "--abbrev=7", "--", path)  # fmt: skip
    pairs = map(str.split, out.splitlines())
    rows = [(datetime.fromtimestamp(int(at), UTC), sha) for at, sha in pairs]
    return sorted(r for r in rows if start <= r[0] < end)


@pytest.mark.parametrize(
    ("history", "question", "start", "end", "path"),
    [
        # 7 changes: all listed, the oldest of them is the first
        ("werkzeug", "first and last commit to serving.py in the past year",
         on(2025, 9, 1, 12), CLOCK, "src/werkzeug/serving.py"),
        # 12 changes: more than are listed, the first is read apart (its second)
        ("attrs", "first and last change to _make.py in 2025", on(2025, 1), on(2026, 1),
         "src/attr/_make.py"),
    ],
)  # fmt: skip
async def test_the_first_and_last_change_of_a_window_are_gits(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    path: str,
) -> None:
    """z32a F5: every "first and last change to X in <window>" ended, saying "a first or
    earliest that is not of a change is not computed"."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    commits = dated(clone, start, end, path)
    (first_at, first), (last_at, last) = commits[0], commits[-1]
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{len(commits)} change(s) to "), judgment
    assert f"the first at {first_at:%Y-%m-%dT%H:%M:%SZ}: " in judgment and f"({first})" in judgment
    assert f"the last at {last_at:%Y-%m-%dT%H:%M:%SZ}: " in judgment and f"({last})" in judgment
    assert result.changes_total == len(commits)


async def test_the_first_and_last_change_with_no_time_named_are_each_answered(
    attrs: OrgGraph, attrs_clone: Path
) -> None:
    """It ended: "the first change and the last one asked together with no time named are two
    questions" (engine/reading/parts.py now asks each, at any age)."""
    result = await ask(attrs, "first and last change to _make.py")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert said(result, '"first and last" read as two questions')
    shas = shared_history.git(attrs_clone, "log", "--no-merges", "--full-history",
                              "--follow", "--format=%H", "--", "src/attr/_make.py",
                              ).split()  # fmt: skip
    judgment = result.direct_judgment or ""
    assert judgment.index(f"({shas[-1][:7]})") < judgment.index(f"({shas[0][:7]})")


# --- who owns X, where no ownership is recorded -------------------------------------------


@pytest.mark.parametrize(
    ("history", "question", "start", "end", "path"),
    [
        ("werkzeug", "who owns the routing package", on(2025, 9, 1, 12), CLOCK,
         "src/werkzeug/routing"),
        ("attrs", "who owns _make.py in 2025", on(2025, 1), on(2026, 1), "src/attr/_make.py"),
    ],
)  # fmt: skip
async def test_who_owns_x_with_no_ownership_recorded_gives_who_changed_it(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    path: str,
) -> None:
    """c33b F2: "who owns X" was answered with "No ownership is recorded for X" alone (an
    answer with nothing in it, counted as answered)."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith("No ownership is recorded for "), judgment
    counts = Counter(email for email, _ in log(clone, start, end, path))
    most = counts.most_common(1)[0][1]
    assert f"from {start:%Y-%m-%dT%H:%M:%SZ} to {end:%Y-%m-%dT%H:%M:%SZ}, ranked by commits: " in (
        judgment
    )
    assert judgment.split("ranked by commits: ")[1].split(", ")[0].endswith(f"({most} commit(s)")
    assert said(result, "No ownership is recorded here")


# --- how much, lines added and removed, commits named, driving ----------------------------


def lines(clone: Path, start: datetime, end: datetime, *paths: str, author: str = "") -> str:
    """'+added -removed' as `git log --no-merges --full-history --numstat` counts them."""
    out = shared_history.git(clone, "log", "--no-merges", "--full-history", "--numstat",
                             "--format=@%at %aE", "--", *paths)  # fmt: skip
    added = removed = 0
    inside = False
    for line in out.splitlines():
        if line.startswith("@"):
            at, email = line[1:].split(" ", 1)
            when = datetime.fromtimestamp(int(at), UTC)
            inside = start <= when < end and author in ("", email.lower())
        elif inside and line.strip() and not line.startswith("-"):
            plus, minus, _ = line.split("\t", 2)
            added, removed = added + int(plus), removed + int(minus)
    return f"+{added} -{removed}"


@pytest.mark.parametrize(
    ("history", "question", "start", "end", "paths", "author"),
    [
        ("werkzeug", "How much did David Lord change in werkzeug in the first quarter?",
         on(2026, 1), on(2026, 4), (), "davidism@gmail.com"),
        ("attrs", "how much code was changed in src/attrs in 2025", on(2025, 1), on(2026, 1),
         ("src/attrs",), ""),
        ("attrs", "how many lines were added and removed in _make.py last month", on(2026, 8),
         on(2026, 9), ("src/attr/_make.py",), ""),
        ("werkzeug", "how many lines were added and deleted in serving.py in 2025", on(2025, 1),
         on(2026, 1), ("src/werkzeug/serving.py",), ""),
    ],
)  # fmt: skip
async def test_how_much_changed_is_the_lines_as_git_counts_them(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    paths: tuple[str, ...],
    author: str,
) -> None:
    """c33a K1: "how much did X change" was a trend (a clarification for a person, a bus
    factor sentence for a module), "how much code was changed" the same, and "lines were
    added and removed" ended on "removed" as a name nobody has."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.interpretation["intent"] == Intent.COUNT.value
    assert f"line(s) changed ({lines(clone, start, end, *paths, author=author)})." in (
        result.direct_judgment or ""
    )


@pytest.mark.parametrize(
    ("history", "question", "start", "end", "paths"),
    [
        ("attrs", "attrs commits last Friday", on(2026, 8, 28), on(2026, 8, 29), ()),
        ("werkzeug", "commits to serving.py in 2025", on(2025, 1), on(2026, 1),
         ("src/werkzeug/serving.py",)),
    ],
)  # fmt: skip
async def test_commits_named_with_no_question_word_are_counted(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    paths: tuple[str, ...],
) -> None:
    """They opened with "The health of X is not judged" and never said how many (0 on an
    empty day, c33b)."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    counted = len(log(clone, start, end, *paths))
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to ")


async def test_who_drove_the_changes_is_who_changed_it(attrs: OrgGraph) -> None:
    """c33b F3: "whos been driving changes in click this yr" ended on "driving"."""
    driving = await ask(attrs, "whos been driving changes in attrs this yr")
    plain = await ask(attrs, "who changed attrs this year")
    assert driving.outcome is Outcome.ANSWERED, driving.limitations
    assert driving.direct_judgment == plain.direct_judgment


# --- what a person did --------------------------------------------------------------------


async def test_what_a_person_did_in_a_repository_is_their_changes_there(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    """z32a w12: "what did pgjones do in werkzeug in 2025" was a clarification ("one person's
    part ... is computed for its commits, their lines, its changes ..., not for what was
    asked here"): "what did X do" was read as a status."""
    result = await ask(werkzeug, "what did pgjones do in werkzeug in 2025")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    mine = [s for email, s in log(werkzeug_clone, on(2025, 1), on(2026, 1)) if
            email == "philip.graham.jones@googlemail.com"]  # fmt: skip
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{len(mine)} change(s) to werkzeug by pgjones "), judgment
    assert all(f'"{subject}"' in judgment for subject in mine)


async def test_what_a_person_has_done_is_their_changes(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    """ "What has davidism done in click this year" was a clarification (a person's part of
    a repository "is computed for its commits ... not for what was asked here"): "done" was
    no word of doing, as "do" and "doing" were."""
    result = await ask(werkzeug, "what has pgjones done in werkzeug in 2025")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    mine = [s for email, s in log(werkzeug_clone, on(2025, 1), on(2026, 1)) if
            email == "philip.graham.jones@googlemail.com"]  # fmt: skip
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{len(mine)} change(s) to werkzeug by pgjones "), judgment


async def test_how_active_a_person_was_says_no_record_is_missing(
    attrs: OrgGraph, attrs_clone: Path
) -> None:
    """z32a c03: the person's commits were counted while a limitation said "active" is
    kept for modules and repositories only and "nothing of them is counted"."""
    result = await ask(attrs, "how active was Hynek Schlawack in 2025")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    mine = [s for email, s in log(attrs_clone, on(2025, 1), on(2026, 1)) if
            email == "hs@ox.cx"]  # fmt: skip
    assert f"in {len(mine)} commit(s) in the window" in (result.direct_judgment or "")
    assert not any("nothing of them is counted" in n for n in result.limitations)
