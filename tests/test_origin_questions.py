"""When something came to be is its first change, whatever verb of coming into being asks it
(engine/reading/origins.py, issue 32). Checkers asking as users do (z37a, z37b) had "when did
_next_gen.py show up" answered as a status (its last change), "appear", "come in", "become a
package" end as words not understood ("become a package" still does: the package and the file
it was are one module here, whose first change is the file's), "very first commit in the repo"
end "No repository subject qualified" (werkzeug, quiet in the default window), "what was the
first commit?" end on '"first" names no subject', "first-ever" ask again for 400 days, "X added
to the repo" answer the repository's first change for X's (a silent wrong), and "since it was
created" end as a time not understood. On the real histories (../shared/data), in memory; each
truth from `git log --no-merges --full-history` (author time)."""

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
NAMES = ("click", "werkzeug", "requests", "attrs")

pytestmark = shared_history.present(*NAMES)

(
    click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone, attrs
) = shared_history.each(*NAMES)  # fmt: skip
ask = partial(answer, now=CLOCK)
histories = shared_history.histories(*NAMES)


def first(clone: Path, *paths: str) -> tuple[str, str, str]:
    """(author time, short hash, author name) of the oldest commit (no merges) to PATHS."""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--format=%at %h %aN", "--", *paths
    )
    at, sha, name = min(r.split(" ", 2) for r in out.splitlines())
    when = datetime.fromtimestamp(int(at), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return when, sha[:7], name


ORIGINS = [
    ("attrs", "when did _next_gen.py show up", ("src/attr/_next_gen.py",), "attr._next_gen"),
    ("attrs", "when did the src/attrs package appear?", ("src/attrs",), "attrs"),
    ("attrs", "first-ever commit to _next_gen.py", ("src/attr/_next_gen.py",), "attr._next_gen"),
    ("click", "when did _winconsole.py appear?", ("click/_winconsole.py",), "click._winconsole"),
    ("click", "when did testing.py come about", ("click/testing.py",), "click.testing"),
    (
        "click",
        "when did _termui_impl.py first appear in the repo",
        ("click/_termui_impl.py",),
        "click._termui_impl",
    ),
    (
        "click",
        "when was _termui_impl.py added to the repo",  # the module's, not the repository's
        ("click/_termui_impl.py",),
        "click._termui_impl",
    ),
    ("click", "what is the oldest commit?", (), "the whole organisation"),
    (
        "requests",
        "what year did adapters.py show up?",
        ("requests/adapters.py",),
        "requests.adapters",
    ),
    ("requests", "when did adapters.py come in", ("requests/adapters.py",), "requests.adapters"),
    ("requests", "what was the first-ever commit?", (), "the whole organisation"),
    ("requests", "what was the first commit?", (), "the whole organisation"),
    (  # a file that became a package of its name is one module (graph/git/modules)
        "werkzeug",
        "when did datastructures show up",
        ("werkzeug/datastructures.py", "src/werkzeug/datastructures.py"),
        "werkzeug.datastructures",
    ),
    (
        "werkzeug",
        "when did the sansio package show up",
        ("src/werkzeug/sansio",),
        "werkzeug.sansio",
    ),
    ("werkzeug", "very first commit in the repo, who and when", (), "werkzeug"),
]


@pytest.mark.parametrize(("history", "question", "paths", "scope"), ORIGINS)
async def test_coming_into_being_is_the_first_change(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    paths: tuple[str, ...],
    scope: str,
) -> None:
    graph, clone = histories[history]
    when, sha, name = first(clone, *paths)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    said = result.direct_judgment or ""
    if paths:  # a file or folder: its creation (engine/questions/lives.py), said with its paths
        assert f"{paths[-1]} was added at {when}: " in said or scope in said, said
    else:
        assert said.startswith(f"The first change to {scope} recorded here was made at {when}: ")
    assert f" at {when}: " in said and f"({sha}) by {name}." in said, said


async def test_since_it_was_created_is_its_whole_history(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """ "since it was created" counts from the subject's first change: answered when that
    history fits in 400 days (requests' _types.py), asked again when it does not (attrs'
    _make.py, click's shell_completion.py), never "since it was" not understood."""
    graph, clone = histories["requests"]
    path = "src/requests/_types.py"
    start = datetime.fromisoformat(first(clone, path)[0].replace("Z", "+00:00"))
    count = shared_history.commits(clone, start, CLOCK, path)
    result = await ask(graph, "how many commits has _types.py had since it was created")
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    said = f"{count} commit(s) to requests._types from {first(clone, path)[0]} "
    assert (result.direct_judgment or "").startswith(said), result.direct_judgment
    for history, question, since in [
        (
            "attrs",
            "who changed _make.py most since it was created?",
            ("src/attr/_make.py", "attr/_make.py"),
        ),
        (
            "click",
            "how many lines of shell_completion.py changed since it first appeared",
            ("src/click/shell_completion.py",),
        ),
    ]:
        graph, clone = histories[history]
        result = await ask(graph, question)
        assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.limitations
        prompt = result.clarification_prompt or ""
        assert "whole history" in prompt and f"from {first(clone, *since)[0]}" in prompt, prompt


@pytest.mark.parametrize("history", ["requests", "click"])
async def test_the_last_non_bot_commit_names_what_is_not_computed(
    histories: dict[str, tuple[OrgGraph, Path]], history: str
) -> None:
    """ "the last non-bot commit" is the last change with the bots left out (requests: git's
    last commit is dependabot's, the last by a person d38495c9, Yamac): it was read as a count
    of the whole history and asked again "in the last 400 days", another question. The last
    change leaving bots out is not computed: said, never the bots' last change."""
    graph, _ = histories[history]
    result = await ask(graph, "the last non-bot commit")
    assert result.outcome is Outcome.NO_MATCH, result.clarification_prompt
    said = '"non-bot": leaving bots out is computed only for'
    assert any(n.startswith(said) for n in result.limitations), result.limitations


async def test_becoming_a_package_is_the_packages_first_commit(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """werkzeug's datastructures.py became the package datastructures/ in 2023 (cfebee06d2);
    the module is one over time, its first change the file's (2009): "when did datastructures
    become a package?" is the first commit writing the folder (engine/questions/lives.py),
    never the file's first change (it ended on "become" not understood before)."""
    graph, clone = histories["werkzeug"]
    when, sha, name = first(clone, "src/werkzeug/datastructures/")
    result = await ask(graph, "when did datastructures become a package")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = result.direct_judgment or ""
    assert said.startswith(f"src/werkzeug/datastructures was added as a folder at {when}: "), said
    assert f"({sha}) by {name}." in said, said
