"""A question is answered about what it names, whole, or not at all (issue 32, unseen-question
checks of session 36 on the four real histories, clock 2026-09-01T12:00Z): "modules of
requests" are its Python modules, not .github or pyproject.toml; a word beside a name is a
part of what it names ("the werkzeug debugger": werkzeug.debug) or the question ends naming
it ("attrs src"), never answered for the rest; a module named with its package's name is the
package's ("werkzeug sansio"); a count of files is never a count of commits ("how many test
files changed"). Each figure is `git log --no-merges --full-history` (author time) on
../shared/data's bundles.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, git, lines
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
LAST_12_MONTHS = (datetime(2025, 9, 1, 12, tzinfo=UTC), CLOCK)

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone,
 attrs) = shared_history.each("click", "werkzeug", "requests", "attrs")  # fmt: skip
histories = shared_history.histories("click", "werkzeug", "requests", "attrs")

ask = partial(answer, now=CLOCK)
Histories = dict[str, tuple[OrgGraph, Path]]


def python_modules(clone: Path, package: str) -> list[str]:
    """The paths of a package's Python modules and subpackages at the head (an __init__.py
    stands for its package)."""
    listed = git(clone, "ls-files", package).split()
    files = [p for p in listed if p.endswith(".py") and not p.endswith("/__init__.py")]
    subpackages = [
        p.removesuffix("/__init__.py") for p in listed
        if p.endswith("/__init__.py") and p != f"{package}/__init__.py"
    ]  # fmt: skip
    return files + subpackages


@pytest.mark.parametrize(
    ("name", "question", "package"),
    [("requests", "Which modules of requests changed most in the last 12 months?",
      "src/requests"),
     ("werkzeug", "which modules of werkzeug changed the most in the last 12 months?",
      "src/werkzeug")],
)  # fmt: skip
async def test_the_modules_of_a_repository_are_its_python_modules(
    histories: Histories, name: str, question: str, package: str
) -> None:
    """It ranked the repository's top-level paths (.github, .github/workflows,
    pyproject.toml, .github/workflows/publish.yml beside requests.models): "modules of
    requests" are its Python modules (models 12, sessions 9, utils 9 by git)."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    counts = {
        f"module:{name}/{path}": n
        for path in python_modules(clone, package)
        if (n := commits(clone, *LAST_12_MONTHS, path))
    }
    expected = sorted(counts, key=lambda k: (-counts[k], k))[:10]
    assert result.subject_keys == tuple(expected)
    claims = {c.subject_key: c.value["commits"] for c in result.claimed_facts}
    assert all(claims[k] == counts[k] for k in expected)
    assert any(n.startswith(f"The modules of {name} are the Python modules")
               for n in result.limitations)  # fmt: skip


def on(year: int, month: int, day: int = 1) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


ENDED = [
    ("attrs", "lines added in attrs src last qtr", "attrs src", "src"),
    ("requests", "how many commits to requests src in 2025", "requests src", "src"),
    ("werkzeug", "how many commits to werkzeug frobnicator in 2025", "werkzeug frobnicator",
     "frobnicator"),
    # a module named with its repository, a word beside it ("scope": engine.reading.scopes)
    ("attrs", "how many changelog.d entries added in attrs since march", "changelog.d entries",
     "entries"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "question", "phrase", "unused"), ENDED)
async def test_a_word_beside_a_name_naming_no_part_of_it_ends_the_question(
    histories: Histories, name: str, question: str, phrase: str, unused: str
) -> None:
    """It was answered for the whole repository (or the whole folder), '"attrs src" names
    no subject: only "attrs" matched ... "src" was not used' beside it: an answer about
    something not asked (14 commits to changelog.d for 13 entries added)."""
    graph, _ = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.limitations
    assert not result.direct_judgment and not result.claimed_facts
    assert any(
        n.startswith(f'"{phrase}" names no subject known here') and f'"{unused}" names no part'
        in n for n in result.limitations
    ), result.limitations  # fmt: skip


PARTS = [
    ("werkzeug", "what changed in the werkzeug debugger this year", "src/werkzeug/debug",
     "debugger", (on(2026, 1), CLOCK)),
    ("werkzeug", "how many commits to the werkzeug router in 2025", "src/werkzeug/routing",
     "router", (on(2025, 1), on(2026, 1))),
    ("requests", "how many commits to the requests adapter in 2025", "src/requests/adapters.py",
     "adapter", (on(2025, 1), on(2026, 1))),
    # misspelt (as a module named with its repository is read: engine.resolving.within)
    ("click", "how many commits to the click parsr in 2025", "src/click/parser.py", "parsr",
     (on(2025, 1), on(2026, 1))),
    ("werkzeug", "how many commits to werkzeug routng in 2025", "src/werkzeug/routing",
     "routng", (on(2025, 1), on(2026, 1))),
]  # fmt: skip


@pytest.mark.parametrize(("name", "question", "path", "word", "window"), PARTS)
async def test_a_noun_naming_what_a_module_is_reads_as_that_module_of_the_repository(
    histories: Histories,
    name: str,
    question: str,
    path: str,
    word: str,
    window: tuple[datetime, datetime],
) -> None:
    """"the werkzeug debugger" was answered for all of werkzeug (79 changes this year),
    "debugger" said unused: it is werkzeug.debug (a form of its name, as "the debugger"
    alone reads), inside the repository named, said."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{name}/{path}",)
    figure = next(iter(result.claimed_facts)).value
    assert figure.get("commits", figure.get("changes")) == commits(clone, *window, path)
    assert any(f'"{word}" names it inside {name}' in n for n in result.limitations)
    assert not any("not used" in n for n in result.limitations)


@pytest.mark.parametrize("name", ["click", "requests"])
async def test_the_development_of_a_repository_is_the_repository(
    histories: Histories, name: str
) -> None:
    """"how active was click development in 2025" ended ('"development" names no part of
    it'): the development of a project is the project, its commits counted as git does."""
    graph, clone = histories[name]
    result = await ask(graph, f"how many commits were there in {name} development in 2025")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"repository:{name}",)
    figure = next(c for c in result.claimed_facts if c.subject_key == f"repository:{name}")
    assert figure.value["commits"] == commits(clone, on(2025, 1), on(2026, 1))


DEVELOPMENT = "person:development@domain51.com"  # Travis Swicegood on werkzeug


@pytest.mark.parametrize(
    "question",
    ["how many commits did development author Feb-Apr 2015?",
     "how many commits did development make from February to April 2015?",
     "commits by development in Feb-Apr 2015"],
)  # fmt: skip
async def test_an_ordinary_word_naming_who_acted_is_that_person(
    histories: Histories, question: str
) -> None:
    """"development" is a filler beside a name (db30acf), and was passed over where the
    question names who acted: werkzeug "how many commits did development author Feb-Apr
    2015?" was answered "89 commit(s) to the whole organisation" (bench/generalise.py seed
    31), where development@domain51.com (Travis Swicegood) made 7, as git counts them. Now
    the word after "did" before a verb of authoring, or after "by", is a name: his 7."""
    graph, clone = histories["werkzeug"]
    expected = commits(clone, on(2015, 2), on(2015, 5), author="development@domain51.com")
    assert expected == 7
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (DEVELOPMENT,)
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) by Travis Swicegood")


@pytest.mark.parametrize("name", ["requests", "click"])
async def test_an_ordinary_word_naming_who_acted_and_no_one_is_no_match(
    histories: Histories, name: str
) -> None:
    """Where no one is named "development", "how many commits did development author in
    2015?" was answered with everyone's commits (the whole organisation's, another
    question); now a no match naming the word."""
    graph, _ = histories[name]
    result = await ask(graph, "how many commits did development author in 2015?")
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert result.subject_keys == ()
    assert any(n.startswith('"development" names no one known here') for n in result.limitations)


@pytest.mark.parametrize(
    ("name", "question"),
    [("werkzeug", "how many commits did different people make in 2015?"),
     ("werkzeug", "how many commits were there in werkzeug development in 2015?"),
     ("requests", "how many commits has code received in 2015?")],
)  # fmt: skip
async def test_an_ordinary_word_not_naming_who_acted_stays_a_word(
    histories: Histories, name: str, question: str
) -> None:
    """Guards: a filler not in the place of who acted ("different people", "werkzeug
    development", "has code received") is no name: the repository's commits, as git counts
    them."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    figure = next(c for c in result.claimed_facts if c.value.get("commits") is not None)
    assert figure.value["commits"] == commits(clone, on(2015, 1), on(2016, 1))


def most_commits(clone: Path, since: str, until: str) -> str:
    """The name with the most commits (no merges) in [since, until), as git shortlog -sn
    groups them."""
    shortlog = git(clone, "shortlog", "-sn", "--no-merges", "HEAD", f"--since={since}",
                   f"--until={until}")  # fmt: skip
    return shortlog.splitlines()[0].split("\t", 1)[1]


RANKING_WORDS = ["top", "biggest", "leading", "main"]


@pytest.mark.parametrize("name", ["click", "requests"])
@pytest.mark.parametrize("word", RANKING_WORDS)
async def test_a_ranking_word_after_a_name_is_no_part_of_it(
    histories: Histories, name: str, word: str
) -> None:
    """"requests top contributors in 2025" ended ('"requests top" names no subject'), and
    before that was a status of requests ("top" unused): a word that ranks is the
    question's, the people it opens with are asked for, ranked by commits, the first as
    git shortlog counts them."""
    graph, clone = histories[name]
    result = await ask(graph, f"{name} {word} contributors in 2025")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"repository:{name}",)
    assert not any("names no subject" in n for n in result.limitations)
    first = most_commits(clone, "2025-01-01T00:00:00Z", "2026-01-01T00:00:00Z")
    judged = result.direct_judgment or ""
    assert "ranked by commits: " in judged, judged
    assert judged.split("ranked by commits: ", 1)[1].startswith(first), judged


@pytest.mark.parametrize("name", ["click", "attrs"])
@pytest.mark.parametrize("asked", ["latest {} commit?", "last {} commit, who and when?"])
async def test_the_last_commit_with_the_name_between_is_the_last_change(
    histories: Histories, name: str, asked: str
) -> None:
    """"latest werkzeug commit?" was a count over the whole history (asked again for 400
    days) and "last werkzeug commit, who and when?" its people: the name between the last
    word and the change word, they ask for the last change: the newest commit as git log
    gives it (one change, said as the last change since 9a26d7f; it was listed newest
    first)."""
    graph, clone = histories[name]
    result = await ask(graph, asked.format(name))
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt
    day, subject = newest_commit(clone)
    said = result.direct_judgment or ""
    assert said.startswith(f"The last change to {name} "), said
    assert f"made at {day}T" in said and f': "{subject}" (' in said, said


def newest_commit(clone: Path) -> tuple[str, str]:
    """The day and subject of the commit (no merges) with the latest author time."""
    out = git(clone, "log", "--no-merges", "--format=%at %s", "HEAD")
    at, subject = max((line.split(" ", 1) for line in out.splitlines()), key=lambda x: int(x[0]))
    return datetime.fromtimestamp(int(at), UTC).date().isoformat(), subject.strip()


@pytest.mark.parametrize(
    ("name", "question", "path", "window"),
    [("werkzeug", "how many lines did people add and delete in the sansio pkg in 2025",
      "src/werkzeug/sansio", (on(2025, 1), on(2026, 1))),
     ("click", "how many lines did people add and remove in click's termui pkg in 2025",
      "src/click/termui.py", (on(2025, 1), on(2026, 1)))],
)  # fmt: skip
async def test_the_verbs_of_line_sides_and_pkg_are_read(
    histories: Histories, name: str, question: str, path: str, window: tuple[datetime, datetime]
) -> None:
    """"How many lines did David Lord add and delete in 2024?" ended ('"delete" was not
    understood'), "lines added/removed in werkzeug's sansio pkg" on "pkg": the verbs of the
    sides of changed lines are read with "lines", "pkg" is a package's kind word."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.limitations, result.clarification_prompt)
    added, removed = lines(clone, *window, path)
    assert f"(+{added} -{removed})" in (result.direct_judgment or ""), result.direct_judgment


SHIPPED = [
    ("werkzeug", "werkzeug sansio changes over the past yr", "src/werkzeug/sansio",
     "tests/sansio", LAST_12_MONTHS),
    ("werkzeug", "how many commits to werkzeug's sansio in 2025", "src/werkzeug/sansio",
     "tests/sansio", (on(2025, 1), on(2026, 1))),
    ("click", "how many commits to click's termui in 2025", "src/click/termui.py",
     "examples/termui", (on(2025, 1), on(2026, 1))),
]  # fmt: skip


@pytest.mark.parametrize(("name", "question", "path", "other", "window"), SHIPPED)
async def test_a_module_named_with_its_package_is_the_packages_module(
    histories: Histories,
    name: str,
    question: str,
    path: str,
    other: str,
    window: tuple[datetime, datetime],
) -> None:
    """"werkzeug sansio" asked between tests/sansio and werkzeug.sansio, "click's termui"
    between examples/termui and click.termui: named with its package's name, the module is
    the package's; the test package or example beside it is said, offered with a receipt."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{name}/{path}",)
    figure = next(iter(result.claimed_facts)).value
    assert figure.get("commits", figure.get("changes")) == commits(clone, *window, path)
    assert any(f"also names {other}" in n and "the code the repository ships" in n
               for n in result.limitations)  # fmt: skip
    assert [c.subject_key for c in result.candidates] == [f"module:{name}/{other}"]


async def test_two_modules_of_the_shipped_code_still_ask_which(histories: Histories) -> None:
    """"attrs validators": src/attr/validators.py and src/attrs/validators.py are both
    shipped code (the rule above does not choose between them)."""
    graph, _ = histories["attrs"]
    result = await ask(graph, "attrs validators changes in 2025")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert {c.subject_key for c in result.candidates} == {
        "module:attrs/src/attr/validators.py", "module:attrs/src/attrs/validators.py",
    }  # fmt: skip


FILES_COUNTED = [
    ("requests", "how many test files changed in requests in may", "many test files"),
    ("attrs", "how many test files changed in attrs in 2025", "many test files"),
    ("attrs", "the number of python files changed in attrs in 2025", "number of python files"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "question", "phrase"), FILES_COUNTED)
async def test_a_count_of_files_is_never_answered_with_commits(
    histories: Histories, name: str, question: str, phrase: str
) -> None:
    """"how many test files changed in requests in may" answered "5 commit(s) to tests" (4
    files changed, in 5 commits): "test files" was read as the folder tests, and the count
    of files as its commits. A count of files is not computed: the question ends naming it,
    as "how many files" does."""
    graph, _ = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.limitations
    assert not result.direct_judgment and not result.claimed_facts
    assert any(n.startswith(f'"{phrase}": a count of the files or modules changed is not '
                            "computed") for n in result.limitations), result.limitations  # fmt: skip
