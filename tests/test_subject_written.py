"""A subject is answered as the question writes it (issue 32, unseen-question checks z36a and
z36b of session 36 on the real histories, clock 2026-09-01T12:00Z): a name given in brackets
after words describing it is the subject ("the debugger (werkzeug.debug)"), its description
said, never looked up as a name of its own; "not X" inside the bracket tells it from another
subject and leaves nothing out. Each figure is `git log --no-merges --full-history` (author
time) on ../shared/data's bundles.
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

pytestmark = shared_history.present("werkzeug", "attrs", "requests")

(werkzeug_clone, werkzeug, attrs_clone, attrs, requests_clone, requests) = shared_history.each(
    "werkzeug", "attrs", "requests"
)
histories = shared_history.histories("werkzeug", "attrs", "requests")

ask = partial(answer, now=CLOCK)
Histories = dict[str, tuple[OrgGraph, Path]]


def on(year: int, month: int = 1, day: int = 1) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


BRACKETED = [
    ("werkzeug", "How many commits were made to the debugger (werkzeug.debug) in 2024?",
     "src/werkzeug/debug", '"debugger" was read as describing werkzeug.debug', (on(2024), on(2025))),
    ("attrs", "How many commits touched the attrs package (src/attrs, not attr) in 2024?",
     "src/attrs", '"not attr" tells src/attrs from attr', (on(2024), on(2025))),
    ("attrs", "how many commits to the validators module (attr.validators) in 2023?",
     "src/attr/validators.py", '"validators module" was read as describing attr.validators',
     (on(2023), on(2024))),
    ("werkzeug", "how many commits to the url map (src/werkzeug/routing/map.py) in 2025",
     "src/werkzeug/routing/map.py", '"url map" was read as describing',
     (on(2025), on(2026))),
]  # fmt: skip


@pytest.mark.parametrize(("name", "question", "path", "said", "window"), BRACKETED)
async def test_a_name_in_brackets_is_the_subject_its_description_said(
    histories: Histories,
    name: str,
    question: str,
    path: str,
    said: str,
    window: tuple[datetime, datetime],
) -> None:
    """It ended on the description ('"debugger" was not understood'), on "not" ('leaving
    subjects or people out (a negation) is not computed'), or asked which module "attrs
    namespace" was: the bracket names the subject exactly (werkzeug.debug: 11 commits in
    2024, src/attrs 6, by git)."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{name}/{path}",)
    figure = next(iter(result.claimed_facts)).value
    assert figure["commits"] == commits(clone, *window, path) > 0
    assert any(said in n for n in result.limitations), result.limitations


@pytest.mark.parametrize(
    ("name", "question", "path"),
    [("attrs", "when did the attrs namespace package (src/attrs) first show up", "src/attrs"),
     ("werkzeug", "when did the sansio package (src/werkzeug/sansio) first change?",
      "src/werkzeug/sansio")],
)  # fmt: skip
async def test_the_first_change_of_a_name_in_brackets(
    histories: Histories, name: str, question: str, path: str
) -> None:
    """It asked which module "attrs namespace" was ('attrs has no module "namespace"'): the
    first commit to src/attrs is 2021-12-25 14:15:10 UTC, "Add attrs namespace (#887)"."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    first = git(clone, "log", "--no-merges", "--full-history", "--format=%at %s", "--", path)
    at, subject = min((int(t), s) for t, s in (line.split(" ", 1) for line in first.splitlines()))
    stamp = datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    said = result.direct_judgment or ""
    # "first change" (made at) or, for "first show up", the commit that added the path (added
    # at: engine/questions/lives.py, since 3d51dee)
    assert f"made at {stamp}" in said or f"{path} was added at {stamp}" in said, said
    assert subject[:30] in (result.direct_judgment or "")


async def test_a_description_of_another_kind_asks_which(histories: Histories) -> None:
    """The kind word of the description is the kind the name is resolved with: "the attrs
    repo (src/attrs)" asks which was meant, as "the repository src/attrs" does."""
    graph, _ = histories["attrs"]
    result = await ask(graph, "How many commits touched the attrs repo (src/attrs) in 2024?")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert not result.claimed_facts


@pytest.mark.parametrize(
    ("name", "question", "other"),
    [
        ("werkzeug", "how many commits to the routing package (werkzeug.debug) in 2024?",
         "routing"),
        ("attrs", "how many commits to the converters module (attr.validators) in 2023?",
         "converters"),
    ],
)  # fmt: skip
async def test_a_description_naming_another_subject_ends_the_question(
    histories: Histories, name: str, question: str, other: str
) -> None:
    """The description is checked: one naming another subject ("routing" beside
    werkzeug.debug) leaves which one is asked unknown, so neither is answered (it answered
    werkzeug.debug's 11 commits, the description said as read)."""
    graph, _ = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert not result.claimed_facts
    assert any(f"names {other}, and the brackets name" in n for n in result.limitations)


async def test_not_naming_nothing_known_is_still_a_negation(histories: Histories) -> None:
    """ "not the blorp" tells the name from nothing known: the negation ends the question as
    before, never dropped."""
    graph, _ = histories["attrs"]
    result = await ask(graph, "How many commits touched src/attrs (not the blorp) in 2024?")
    assert result.outcome is Outcome.NO_MATCH
    assert any("negation" in n for n in result.limitations), result.limitations


SLASHED = [
    ("werkzeug", "lines added/removed in src/werkzeug/sansio in 2025", "src/werkzeug/sansio",
     (on(2025), on(2026))),
    ("attrs", "how many lines added/deleted in src/attr/_make.py in 2024?", "src/attr/_make.py",
     (on(2024), on(2025))),
]  # fmt: skip


@pytest.mark.parametrize(("name", "question", "path", "window"), SLASHED)
async def test_sides_of_lines_joined_by_a_slash_are_words_not_a_path(
    histories: Histories, name: str, question: str, path: str, window: tuple[datetime, datetime]
) -> None:
    """ "added/removed" was read as a path naming no subject and the question ended
    ('"added/removed" names no subject known here'): it asks the lines added and removed,
    as git log --numstat counts them (src/werkzeug/sansio in 2025: +95 -38)."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{name}/{path}",)
    added, removed = lines(clone, *window, path)
    assert f"(+{added} -{removed})" in (result.direct_judgment or ""), result.direct_judgment


def oldest(clone: Path, *paths: str) -> tuple[str, str]:
    """(author time as the answer writes it, subject line) of the oldest commit touching the
    paths, by author time."""
    out = git(clone, "log", "--no-merges", "--full-history", "--format=%at %s", "--", *paths)
    at, subject = min((int(t), s) for t, s in (line.split(" ", 1) for line in out.splitlines()))
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), subject


@pytest.mark.parametrize(
    ("name", "path", "before"),
    [("requests", "src/requests", "requests"), ("attrs", "src/attr", "attr")],
)
async def test_the_first_change_of_a_moved_path_says_the_path_before(
    histories: Histories, name: str, path: str, before: str
) -> None:
    """ "What is the oldest commit that touches src/requests?" was answered with 2011's
    "generic skeleton", made at requests/, unsaid (`git log -- src/requests` starts on
    2022-12-07): the package is followed through its move, and the answer says so, with the
    path before and when it moved."""
    graph, clone = histories[name]
    result = await ask(graph, f"What is the oldest commit that touches {path}?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    stamp, subject = oldest(clone, path, before)
    assert oldest(clone, path)[0] != stamp  # the path alone starts later
    assert f"made at {stamp}" in (result.direct_judgment or ""), result.direct_judgment
    assert subject[:30] in (result.direct_judgment or "")
    said = [n for n in result.limitations if n.startswith(f'"{path}" has been the path of')]
    assert said and f"before that it was {before}," in said[0], result.limitations
    moved = said[0].split(" since ", 1)[1][:10]
    # the move added the package's __init__.py at its path (git log --diff-filter=A)
    added = git(clone, "log", "--no-merges", "--format=%as", "--diff-filter=A", "--",
                f"{path}/__init__.py")  # fmt: skip
    assert moved in added.split(), (moved, added)


async def test_a_window_after_the_move_says_no_path_before(histories: Histories) -> None:
    """Counted from after the move, nothing made under the earlier path is counted."""
    graph, clone = histories["requests"]
    result = await ask(graph, "How many commits touched src/requests in 2025?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    figure = next(iter(result.claimed_facts)).value
    assert figure["commits"] == commits(clone, on(2025), on(2026), "src/requests")
    assert not any("has been the path of" in n for n in result.limitations), result.limitations


def python_files(clone: Path, start: datetime, end: datetime) -> dict[str, int]:
    """Commits per .py file in [start, end) by author time (files of the head only)."""
    out = git(clone, "log", "--no-merges", "--full-history", "--format=@%at", "--name-only")
    head = set(git(clone, "ls-files").split())
    counts: dict[str, int] = {}
    inside = False
    for line in out.splitlines():
        if line.startswith("@"):
            inside = start <= datetime.fromtimestamp(int(line[1:]), UTC) < end
        elif inside and line.endswith(".py") and line in head:
            counts[line] = counts.get(line, 0) + 1
    return counts


@pytest.mark.parametrize(
    ("name", "question", "window", "size"),
    [
        ("requests", "Which Python module changed most often in 2026?", (on(2026), CLOCK), 10),
        ("werkzeug", "top 5 python files in 2025", (on(2025), on(2026)), 5),
    ],
)
async def test_python_modules_ranked_are_its_python_files(
    histories: Histories, name: str, question: str, window: tuple[datetime, datetime], size: int
) -> None:
    """ "Python" was read as a name ('"python" could mean: Benjamin Peterson ... Christian
    Heimes', both of python.org): the .py files are ranked (requests 2026: models.py 12)."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    counts = {f"module:{name}/{p}": n for p, n in python_files(clone, *window).items()}
    expected = sorted(counts, key=lambda k: (-counts[k], k))[:size]
    assert result.subject_keys == tuple(expected)
    claims = {c.subject_key: c.value["commits"] for c in result.claimed_facts}
    assert all(claims[k] == counts[k] for k in expected)
    assert any(n.startswith("Python modules and files are ranked") for n in result.limitations)


@pytest.mark.parametrize(
    ("name", "question", "path"),
    [
        ("attrs", "how many commits touched the attrs folder in 2024?", "src/attrs"),
        ("requests", "how many commits touched the requests directory in 2024?", "src/requests"),
    ],
)
async def test_a_folder_named_is_the_directory_not_the_repository(
    histories: Histories, name: str, question: str, path: str
) -> None:
    """ "the attrs folder" was the whole repository (211 commits in 2024, 'answered for the
    whole repository' said): a folder word names the directory, the package src/attrs (6)."""
    graph, clone = histories[name]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{name}/{path}",)
    figure = next(iter(result.claimed_facts)).value
    assert figure["commits"] == commits(clone, on(2024), on(2025), path, name) > 0
