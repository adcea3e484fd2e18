"""Files and folders named as people name them (issue 32; independent checks of session 33):
a path written from its leading dot (".github/workflows/publish.yaml",
".pre-commit-config.yaml") is that path, not one without the dot; a folder written as a path
that is no subject of its own (".github/workflows") is said, never answered for the module
holding it; "the first version of X" is X's first change, its "version" no name of a dunder
module (requests' __version__.py). On the four real histories (../shared/data), in memory,
each figure as `git log --no-merges --full-history` (author time) gives it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
Y2025 = (datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone,
 attrs) = shared_history.each("click", "werkzeug", "requests", "attrs")  # fmt: skip

ask = partial(answer, now=CLOCK)


Histories = dict[str, tuple[OrgGraph, Path]]


histories = shared_history.histories("click", "werkzeug", "requests", "attrs")


DOTTED = [
    ("werkzeug", ".github/workflows/publish.yaml"),
    ("click", ".github/workflows/tests.yaml"),
    ("requests", ".github/workflows/run-tests.yml"),
    ("attrs", ".pre-commit-config.yaml"),
]


@pytest.mark.parametrize(("name", "path"), DOTTED)
async def test_a_path_written_from_its_leading_dot_is_that_path(
    histories: Histories, name: str, path: str
) -> None:
    """The dot was trimmed as punctuation: "github/workflows/publish.yaml is not tracked by
    itself" (werkzeug), false; now each file's count is git's for 2025."""
    graph, clone = histories[name]
    result = await ask(graph, f"how many commits to {path} in 2025?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{name}/{path}",)
    expected = shared_history.commits(clone, *Y2025, path)
    assert expected > 0
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to {path} ")


async def test_who_touched_a_dotted_path_the_most_ranks_its_people(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    path = ".github/workflows/publish.yaml"
    result = await ask(werkzeug, f"who touched {path} the most last year")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:werkzeug/{path}",)
    expected = shared_history.commits(werkzeug_clone, *Y2025, path)
    assert f"David Lord ({expected} commit(s)" in (result.direct_judgment or "")


@pytest.mark.parametrize("name", ["click", "werkzeug", "requests", "attrs"])
async def test_a_folder_path_is_that_folder_never_its_holder(
    histories: Histories, name: str
) -> None:
    """".github/workflows" was answered for all of .github ("read as a description of
    .github"), a coarser subject: commits to .github/ISSUE_TEMPLATE or CONTRIBUTING.md
    counted as the workflows'. Then it ended, "not tracked by itself"; every directory
    holding a file is a module now (graph/git/tree.module_dirs, `module_layout` 8): its
    changes are git's for the folder (changed on purpose: it asserted the no match)."""
    graph, clone = histories[name]
    result = await ask(graph, "what changed in .github/workflows in 2025?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{name}/.github/workflows",)
    expected = shared_history.commits(clone, *Y2025, ".github/workflows")
    assert (result.direct_judgment or "").startswith(f"{expected} change(s) to .github/workflows")


FIRST = [
    ("requests", "Who wrote the first version of sessions.py?", "src/requests/sessions.py"),
    ("click", "who wrote the first version of termui.py?", "src/click/termui.py"),
    ("werkzeug", "who wrote the first version of serving.py?", "src/werkzeug/serving.py"),
    ("attrs", "who wrote the first version of _make.py?", "src/attr/_make.py"),
]


@pytest.mark.parametrize(("name", "question", "path"), FIRST)
async def test_the_first_version_of_a_file_is_its_first_change(
    histories: Histories, name: str, question: str, path: str
) -> None:
    """requests: "version" was read as src/requests/__version__.py, a second subject, unsaid.
    Now the file's first change alone, git's earliest commit following renames."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{name}/{path}",)
    log = shared_history.git(
        clone, "log", "--follow", "--no-merges", "--full-history", "--format=%h %an", "--", path
    )
    short, author = log.splitlines()[-1].split(" ", 1)
    assert f"({short[:7]}) by {author}" in (result.direct_judgment or "")


async def test_a_dunder_module_is_still_named_with_its_underscores(
    requests: OrgGraph, requests_clone: Path
) -> None:
    path = "src/requests/__version__.py"
    result = await ask(requests, "how many commits to __version__.py in 2025?")
    assert result.subject_keys == (f"module:requests/{path}",)
    expected = shared_history.commits(requests_clone, *Y2025, path)
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to ")


def counted(result_judgment: str | None, expected: int, path: str) -> bool:
    return (result_judgment or "").startswith(f"{expected} commit(s) to {path} ")


Y2026 = (datetime(2026, 1, 1, tzinfo=UTC), CLOCK)

DESCRIBED = [
    ("click", "how many commits touched the readme in 2025?", "README.md", Y2025),
    ("werkzeug", "how many commits touched the README in 2025?", "README.md", Y2025),
    ("requests", "how many commits touched the readme in 2025?", "README.md", Y2025),
    ("click", "how many commits touched the changelog this year?", "CHANGES.md", Y2026),
    ("werkzeug", "how many commits touched the changelog in 2025?", "CHANGES.rst", Y2025),
    ("requests", "how many commits touched the changelog in 2025?", "HISTORY.md", Y2025),
    # "the changelog for 2025": the time reader claims "for 2025", so the file stays (it was
    # read as "the changelog of X", X's changes, and answered for the whole repository)
    ("werkzeug", "how many commits to the changelog for 2025?", "CHANGES.rst", Y2025),
    ("requests", "how many commits touched the changelog for 2025?", "HISTORY.md", Y2025),
    ("click", "how many commits to the pre-commit config in 2025?", ".pre-commit-config.yaml",
     Y2025),
    ("werkzeug", "how many commits to the pre-commit config in 2025?",
     ".pre-commit-config.yaml", Y2025),
    ("attrs", "pre-commit config commits in 2025", ".pre-commit-config.yaml", Y2025),
    ("attrs", "how many commits to the CI workflow in 2025?", ".github/workflows/ci.yml", Y2025),
    ("attrs", "how many commits to the ci config in 2025?", ".github/workflows/ci.yml", Y2025),
    ("attrs", "how many commits to the dependabot config in 2025?", ".github/dependabot.yml",
     Y2025),
    ("requests", "how many commits to the dependabot config this year?",
     ".github/dependabot.yml", Y2026),
    ("requests", "how many commits to the tox config in 2025?", "tox.ini", Y2025),
]  # fmt: skip


@pytest.mark.parametrize(("name", "question", "path", "window"), DESCRIBED)
async def test_a_file_described_is_that_file_with_gits_count(
    histories: Histories, name: str, question: str, path: str, window: tuple[datetime, datetime]
) -> None:
    """"the README" ended "names no subject" (README.md exists), "the changelog" was answered
    for the whole repository ("No subject was named"), "pre-commit" was read as a verb, "the
    CI workflow" named nothing and "the ci config" was all of .github. Now the file whose path
    words the description holds, said; the shipped one where the others of its kind lie in
    docs/, examples/ or tests/ (offered). Each count is git's for the path (`--follow` finds
    no rename into click's CHANGES.md: CHANGES.rst was deleted and CHANGES.md written anew on
    2026-06-05, so its count starts there, as git's does)."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.limitations, result.clarification_prompt)
    assert result.subject_keys == (f"module:{name}/{path}",)
    expected = shared_history.commits(clone, *window, path)
    assert expected > 0
    assert counted(result.direct_judgment, expected, path), result.direct_judgment


async def test_several_changelogs_of_the_shipped_code_ask_which(attrs: OrgGraph) -> None:
    """attrs holds CHANGELOG.md, changelog.d/ (towncrier's fragments) and docs/changelog.md:
    "the changelog" asks which, never the repository for it ("No subject was named")."""
    result = await ask(attrs, "When was the changelog last changed?")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.limitations
    offered = {c.subject_key for c in result.candidates}
    assert offered == {"module:attrs/CHANGELOG.md", "module:attrs/changelog.d",
                       "module:attrs/docs/changelog.md"}  # fmt: skip


@pytest.mark.parametrize(
    ("name", "question", "folder"),
    [
        ("click", "how many commits to the ci workflow in 2025?", ".github/workflows"),
        ("werkzeug", "how many commits to the GitHub workflows in 2025?", ".github/workflows"),
        ("requests", "how many commits touched the GitHub workflows last year",
         ".github/workflows"),
        ("requests", "How many commits touched the test certificates in 2025?", "tests/certs"),
    ],
)  # fmt: skip
async def test_a_folder_described_is_that_folder(
    histories: Histories, name: str, question: str, folder: str
) -> None:
    """"the GitHub workflows" and "the ci config" were answered for all of .github (its
    issue templates and CONTRIBUTING.md counted), "the test certificates" named nothing;
    then the folder described ended the question, "not tracked" by itself. Every directory
    holding a file is a module now (`module_layout` 8): the folder's count is git's (changed
    on purpose: it asserted the no match)."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{name}/{folder}",)
    expected = shared_history.commits(clone, *Y2025, folder)
    assert expected > 0
    assert counted(result.direct_judgment, expected, folder), result.direct_judgment


async def test_the_ci_config_with_no_ci_file_asks_among_the_workflows(
    requests: OrgGraph,
) -> None:
    result = await ask(requests, "any changes to the ci config since thanksgiving")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.direct_judgment
    offered = [c.subject_key for c in result.candidates]
    assert offered and all(k.startswith("module:requests/.github/workflows/") for k in offered)


@pytest.mark.parametrize(
    ("name", "question", "phrase"),
    [
        ("werkzeug", "what changed in the oauth middleware this year", "oauth middleware"),
        ("click", "what changed in the oauth parser this year", "oauth parser"),
        ("requests", "what changed in the oauth adapters this year", "oauth adapters"),
    ],
)
async def test_a_word_beside_a_name_naming_no_part_of_it_ends_the_question(
    histories: Histories, name: str, question: str, phrase: str
) -> None:
    """"the oauth middleware" was answered for werkzeug.middleware, "oauth" said unused: a
    coarser subject, another question's. Now no answer, the phrase named."""
    graph, _ = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert any(f'"{phrase}"' in n for n in result.limitations), result.limitations


async def test_a_subpackage_is_a_kind_word(werkzeug: OrgGraph, werkzeug_clone: Path) -> None:
    result = await ask(werkzeug, "how many commits to the debug subpackage in 2025?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == ("module:werkzeug/src/werkzeug/debug",)
    assert not any("subpackage" in n for n in result.limitations), result.limitations
    expected = shared_history.commits(werkzeug_clone, *Y2025, "src/werkzeug/debug")
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to ")


KIND_ONLY = [  # (history, question, the word): a file's extension alone names no file
    ("click", "json commits in 2025", "json"),
    ("requests", "css commits in 2024", "css"),
]


@pytest.mark.parametrize(("history", "question", "word"), KIND_ONLY)
async def test_an_extension_alone_names_no_file(
    histories: Histories, history: str, question: str, word: str
) -> None:
    """A word that is only the extension of the one file of that kind (click's
    .devcontainer/devcontainer.json, requests' docs/_static/custom.css) says what kind of
    file, not which, and "json commits" is as likely the JSON handling: the word is said not
    understood, never answered for that file. Fails on 6e38027 (answered for the file: click
    "0 commit(s) to .devcontainer/devcontainer.json")."""
    graph, clone = histories[history]
    kind = [p for p in shared_history.git(clone, "ls-files").splitlines() if p.endswith(word)]
    assert len(kind) == 1, kind  # the one file the extension could describe
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, (result.outcome, result.direct_judgment)
    assert result.subject_keys == ()
    assert any(n.startswith(f'"{word}"') for n in result.limitations), result.limitations


async def test_a_file_described_as_a_file_by_its_extension_is_that_file(
    histories: Histories,
) -> None:
    """Guard: "the json file" says it names a file, and click has one: answered for it, with
    git's count (passes before and after)."""
    graph, clone = histories["click"]
    path = ".devcontainer/devcontainer.json"
    result = await ask(graph, "how many commits to the json file in 2024?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    expected = shared_history.commits(clone, datetime(2024, 1, 1, tzinfo=UTC), Y2025[0], path)
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to {path} ")
