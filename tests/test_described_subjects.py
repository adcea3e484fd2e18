"""Subjects named by what they are and told apart by when: "the debugger" (werkzeug's debug
package), "the router" (routing), "the test suite" (tests/), "the dev server" (serving.py),
two names side by side naming two modules, and a module chosen for a past window that existed
in it
(engine/resolving/wordforms.py, engine/resolving/existence.py). On werkzeug's and attrs'
histories (cloned from ../shared/data, imported once for this module), each figure from
`git log --no-merges --full-history` (author time, UTC)."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from engine.resolving.wordforms import described, forms
from tests import shared_history
from tests.test_investigate import answer

pytestmark = shared_history.present("werkzeug", "attrs", "click")

DEBUG = "module:werkzeug/src/werkzeug/debug"
ROUTING = "module:werkzeug/src/werkzeug/routing"
TESTS = "module:werkzeug/tests"
OLD_CONVERTERS = "module:attrs/src/attr/converters.py"
NEW_CONVERTERS = "module:attrs/src/attrs/converters.py"


@pytest.mark.parametrize(
    ("word", "name"),
    [("debugger", "debug"), ("router", "routing"), ("converter", "converters"),
     ("libraries", "library"), ("adapter", "adapters")],
)  # fmt: skip
def test_a_word_form_reaches_the_name(word: str, name: str) -> None:
    assert name in forms(word)


def test_short_words_and_paths_have_no_forms() -> None:
    assert forms("cli") == [] and forms("core.py") == [] and forms("a/b") == []


@pytest.mark.parametrize(
    ("phrase", "name"),
    [("the test suite", "tests"), ("unit tests", "tests"), ("documentation", "docs")],
)  # fmt: skip
def test_a_description_names_a_directory(phrase: str, name: str) -> None:
    assert described(phrase) == name


def test_the_ci_is_no_description_of_all_of_github() -> None:
    """ "the CI" was .github whole (its issue templates and CONTRIBUTING.md too): it is its
    workflows' folder or file now (engine.resolving.descriptions, tests/test_described_files)."""
    assert described("the CI") is None and described("GitHub workflows") is None


werkzeug_clone, werkzeug = shared_history.fixtures(
    "werkzeug", "werkzeug", clone_as="werkzeug_clone"
)


attrs_clone, attrs = shared_history.fixtures("attrs", "attrs", clone_as="attrs_clone")


def authors(clone: Path, start: datetime, end: datetime, *paths: str) -> dict[str, int]:
    """Commits per author name in [start, end), as git counts them for `paths`."""
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=%at %an",
         "--", *paths],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    counts: dict[str, int] = {}
    for line in out.splitlines():
        at, name = line.split(" ", 1)
        if start <= datetime.fromtimestamp(int(at), UTC) < end:
            counts[name] = counts.get(name, 0) + 1
    return counts


def ranked(counts: dict[str, int]) -> str:
    top = max(counts, key=lambda n: counts[n])
    return f"{top} ({counts[top]} commit(s)"


MAY_2026 = datetime(2026, 5, 10, 12, tzinfo=UTC)
Y2024 = (datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC))


async def test_the_debugger_is_the_debug_package(werkzeug: OrgGraph, werkzeug_clone: Path) -> None:
    """w32's #14: "debugger" named no subject (no match). Now werkzeug.debug, said, with
    git's figures for src/werkzeug/debug over the last 90 days."""
    result = await answer(werkzeug, "who's been committing to the debugger lately", now=MAY_2026)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (DEBUG,)
    assert any('"debugger"' in n and "debug" in n for n in result.limitations)
    start = datetime(2026, 2, 9, 12, tzinfo=UTC)
    counts = authors(werkzeug_clone, start, MAY_2026, "src/werkzeug/debug")
    assert ranked(counts) in (result.direct_judgment or "")


@pytest.mark.parametrize(
    ("question", "key", "paths"),
    [
        ("who changed the router in 2024?", ROUTING, ("src/werkzeug/routing",)),
        ("who worked on the test suite in 2024?", TESTS, ("tests",)),
        ("who changed the debugger in 2024?", DEBUG, ("src/werkzeug/debug",)),
    ],
)
async def test_a_module_named_by_what_it_is(
    werkzeug: OrgGraph, werkzeug_clone: Path, question: str, key: str, paths: tuple[str, ...]
) -> None:
    """"the router" named nothing; "the test suite" was answered for werkzeug.test (the
    test client, src/werkzeug/test.py) with "suite" said unused."""
    result = await answer(werkzeug, question, now=MAY_2026)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (key,)
    assert ranked(authors(werkzeug_clone, *Y2024, *paths)) in (result.direct_judgment or "")


async def test_a_module_that_did_not_exist_yet_is_said(werkzeug: OrgGraph) -> None:
    """The debug package's first commit is in 2007: in 2005 it did not exist, and the answer
    says so rather than that "debugger" names nothing or that no one changed it."""
    result = await answer(werkzeug, "who changed the debugger in 2005?", now=MAY_2026)
    assert result.outcome is Outcome.NO_MATCH
    assert any("did not exist yet" in n and DEBUG in n for n in result.limitations)


async def test_a_word_naming_nothing_is_still_said(werkzeug: OrgGraph) -> None:
    result = await answer(werkzeug, "who changed the flibber in 2024?", now=MAY_2026)
    assert result.outcome is Outcome.NO_MATCH
    assert any('"flibber"' in n for n in result.limitations)


JAN_2024 = datetime(2024, 1, 1, 12, tzinfo=UTC)


async def test_a_file_name_two_modules_have_asks_whenever(attrs: OrgGraph) -> None:
    """The exact name asks which, in 2019 too; the label of the module made later says it
    had no commit before the window ends."""
    result = await answer(attrs, "who changed the converters in 2019?", now=JAN_2024)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert "0 in all before 2020-01-01" in (result.clarification_prompt or "")


async def test_a_loose_name_of_a_module_not_made_yet_asks(attrs: OrgGraph) -> None:
    """v32's a1: "attrs converters" (read as attrs.converters, made in 2021) was answered
    "No one changed attrs.converters" for 2019, while attr.converters had a commit then."""
    result = await answer(attrs, "who worked on attrs converters in '19?", now=JAN_2024)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.direct_judgment
    assert OLD_CONVERTERS in {c.subject_key for c in result.candidates}


async def test_both_modules_existing_still_ask(attrs: OrgGraph) -> None:
    asked = "who changed the converters in 2024?"
    result = await answer(attrs, asked, now=datetime(2026, 5, 10, tzinfo=UTC))
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert {OLD_CONVERTERS, NEW_CONVERTERS} <= {c.subject_key for c in result.candidates}


@pytest.mark.parametrize(
    ("question", "key", "path"),
    [
        ("who changed the dev server in 2025?", "module:werkzeug/src/werkzeug/serving.py",
         "src/werkzeug/serving.py"),
        ("who changed the debugging code in 2024?", DEBUG, "src/werkzeug/debug"),
    ],
)  # fmt: skip
async def test_a_phrase_in_lower_case_is_read_word_by_word(
    werkzeug: OrgGraph, werkzeug_clone: Path, question: str, key: str, path: str
) -> None:
    """x32's w6: "the dev server" named nothing; its word "server" is a form of serving."""
    result = await answer(werkzeug, question, now=MAY_2026)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (key,)
    year = (datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))
    window = year if "2025" in question else Y2024
    assert ranked(authors(werkzeug_clone, *window, path)) in (result.direct_judgment or "")


@pytest.fixture(scope="module")
async def click(tmp_path_factory: pytest.TempPathFactory) -> OrgGraph:
    return await shared_history.shared_import("click", tmp_path_factory)


async def test_two_names_side_by_side_naming_two_modules_ask(click: OrgGraph) -> None:
    """x32's c6: "the testing helpers" was answered for click.testing and click.termui
    (whose file was helpers.py until 2014) together. One phrase: which one is asked."""
    result = await answer(click, "who touched the testing helpers over christmas 2023", now=MAY_2026)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.limitations
    offered = {c.subject_key for c in result.candidates}
    assert offered == {"module:click/src/click/testing.py", "module:click/src/click/termui.py"}


async def test_a_verb_before_module_names_it(attrs: OrgGraph, attrs_clone: Path) -> None:
    """ "the make module" is attr._make: it was answered for the whole organisation
    ("No subject was named"), Hynek Schlawack's 167 commits of 2024 the repository's."""
    result = await answer(attrs, "who refactored the make module in 2024", now=MAY_2026)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == ("module:attrs/src/attr/_make.py",)
    counts = authors(attrs_clone, *Y2024, "src/attr/_make.py")
    assert ranked(counts) in (result.direct_judgment or "")


# --- the question's verb and its ranking words, on click's and werkzeug's histories --------


@pytest.mark.parametrize(
    ("history", "question", "word"),
    [("click", "who flibbered core.py last month", "flibbered"),
     ("werkzeug", "who has been zonking the routing package in 2025", "zonking"),
     ("click", "how many developers blorped parser.py in 2025", "blorped")],
)  # fmt: skip
async def test_a_word_where_the_verb_is_due_ends_the_question(
    click: OrgGraph, werkzeug: OrgGraph, history: str, question: str, word: str
) -> None:
    """It was answered as who changed the module, the word said unused: another question."""
    result = await answer(click if history == "click" else werkzeug, question, now=MAY_2026)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert any(n.startswith(f'"{word}": not understood') for n in result.limitations)


@pytest.mark.parametrize(
    ("history", "question", "plain"),
    [("click", "top 3 files in 2025", "which 3 files changed the most in 2025"),
     ("werkzeug", "top modules in 2024", "which modules changed the most in 2024")],
)  # fmt: skip
async def test_top_files_are_the_busiest(
    click: OrgGraph, werkzeug: OrgGraph, history: str, question: str, plain: str
) -> None:
    """ "top files last quarter" was a no match ("top" not understood)."""
    graph = click if history == "click" else werkzeug
    asked = await answer(graph, question, now=MAY_2026)
    expected = await answer(graph, plain, now=MAY_2026)
    assert asked.outcome is Outcome.ANSWERED, asked.limitations
    assert (asked.subject_keys, asked.direct_judgment) == (
        expected.subject_keys, expected.direct_judgment
    )


async def test_a_ranking_by_lines_is_not_answered_by_commits(werkzeug: OrgGraph) -> None:
    """It was ranked by commits, "not by lines changed" said (or refused as a size); then
    it ended, "not computed". Now ranked by lines (issue 32; figures against git's numstat:
    tests/test_rankings_asked.py)."""
    result = await answer(werkzeug, "which modules saw the heaviest churn in 2024", now=MAY_2026)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert (result.direct_judgment or "").startswith("Ranked by lines changed (added and ")


# --- a bare word naming only a module beside the code (examples, tests) ---------------------


@pytest.mark.parametrize(
    ("history", "question", "key"),
    [("click", "who touched the CLI in 2024", "module:click/examples/complex/complex/cli.py"),
     ("attrs", "who changed utils in 2024", "module:attrs/tests/utils.py")],
)  # fmt: skip
async def test_a_word_naming_only_a_module_beside_the_code_asks(
    click: OrgGraph, attrs: OrgGraph, history: str, question: str, key: str
) -> None:
    """ "who touched the CLI" in click was answered for examples/complex/complex/cli.py
    (its alias "cli"): an example, chosen silently for the word."""
    result = await answer(click if history == "click" else attrs, question, now=MAY_2026)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.direct_judgment
    assert [c.subject_key for c in result.candidates] == [key]
    assert "a module of the " in (result.clarification_prompt or "")


@pytest.mark.parametrize(
    ("history", "question", "key"),
    [("click", "who touched examples/complex/complex/cli.py in 2024",
      "module:click/examples/complex/complex/cli.py"),
     ("attrs", "who changed the tests in 2024", "module:attrs/tests")],
)  # fmt: skip
async def test_a_module_beside_the_code_named_as_such_is_answered(
    click: OrgGraph, attrs: OrgGraph, history: str, question: str, key: str
) -> None:
    result = await answer(click if history == "click" else attrs, question, now=MAY_2026)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (key,)


@pytest.mark.parametrize(
    ("history", "question", "plain", "outcome"),
    [("werkzeug", "whats changed in the routing package in 2024",
      "what changed in the routing package in 2024", Outcome.ANSWERED),
     ("attrs", "whats new in _funcs.py in 2024", "what changed in _funcs.py in 2024",
      Outcome.ANSWERED),
     ("werkzeug", "frobnicate the routing package in 2024", None, Outcome.NO_MATCH),
     ("attrs", "zorp attrs", None, Outcome.NO_MATCH),
     # two periods compared were answered for the first alone, then ended: now answered
     # (tests/test_periods_compared.py)
     ("werkzeug", "were there more commits in may 2024 than in april 2024", None,
      Outcome.ANSWERED)],
)  # fmt: skip
async def test_the_question_word_as_typed_and_a_command_no_row_reads(
    werkzeug: OrgGraph, attrs: OrgGraph, history: str, question: str, plain: str | None,
    outcome: Outcome,
) -> None:
    """ "whats changed in X" was answered with X's health, "blorp werkzeug quantum" with
    werkzeug's ("blorp" said unused), two periods compared for the first alone."""
    graph = werkzeug if history == "werkzeug" else attrs
    asked = await answer(graph, question, now=MAY_2026)
    assert asked.outcome is outcome, asked.limitations
    if plain is not None:
        expected = await answer(graph, plain, now=MAY_2026)
        assert asked.direct_judgment == expected.direct_judgment


@pytest.mark.parametrize(
    ("history", "question", "path", "said"),
    [("click", "when did examples/naval/naval.py last change", "examples/naval/naval.py",
      "2020-04-20"),
     ("attrs", "how many commits to tests/test_make.py in 2025?", "tests/test_make.py",
      "7 commit(s) to tests/test_make.py ")],
)  # fmt: skip
async def test_a_file_inside_a_module_is_answered_for_the_file(
    click: OrgGraph, attrs: OrgGraph, history: str, question: str, path: str, said: str
) -> None:
    """c32b: naval.py's last change was answered with examples/naval's (2025-05-10, a
    commit to its pyproject.toml); y32: test_make.py's commits with the whole tests
    directory's (18). Then both were said not tracked (no match); now every file of the head
    is a subject: naval.py's last change is git's (b444e63, 2020-04-19 22:22 -0700: 04-20
    UTC), test_make.py's 2025 count git's 7 (`git log --follow --no-merges -- PATH`)."""
    result = await answer(click if history == "click" else attrs, question, now=MAY_2026)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{history}/{path}",)
    assert said in (result.direct_judgment or ""), result.direct_judgment


async def test_a_clarification_offers_the_code_shipped_before_the_examples(
    werkzeug: OrgGraph,
) -> None:
    """c32a #32: "utils.py" offered five examples/*/utils.py (the first five by key of eight)
    and not src/werkzeug/utils.py."""
    result = await answer(werkzeug, "who touched utils.py in june 2025", now=MAY_2026)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.limitations
    offered = [c.subject_key for c in result.candidates]
    assert set(offered[:2]) == {
        "module:werkzeug/src/werkzeug/utils.py", "module:werkzeug/src/werkzeug/sansio/utils.py"
    }
