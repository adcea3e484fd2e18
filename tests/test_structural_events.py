"""Structural events named without a path (engine/reading/origins.py LIFE_ROWS, the kind
word "namespace"): "when did the code move into the src directory, and who did it" ended on
"move" not understood (z39a: the name spans kept a word of the life phrase), "who moved the
code to src/, and when?" asked which "src"; "when was the attrs namespace package
introduced" said "attrs has no module namespace" (z39a A3). Each history has one package
moved into src/, and one package of the namespace's name. Truth from git on the real
histories (../shared/data); each case fails on 44e6e5d."""

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

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone,
 attrs) = shared_history.each("click", "werkzeug", "requests", "attrs")  # fmt: skip
histories = shared_history.histories("click", "werkzeug", "requests", "attrs")

ask = partial(answer, now=CLOCK)


def git_says(clone: Path, *args: str) -> tuple[str, str, str]:
    """(abbreviated hash, author, author day in UTC) of the one commit `git log` gives."""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--abbrev=7",
        "--date=format-local:%Y-%m-%d", "--format=%h|%an|%ad", *args,
    )  # fmt: skip
    sha, who, day = out.strip().splitlines()[0].split("|")
    return sha, who, day


@pytest.mark.parametrize("history", ["click", "werkzeug", "requests", "attrs"])
@pytest.mark.parametrize(
    "question",
    [
        "when did the code move into the src directory, and who did it",
        "who moved the code to src/, and when?",
        "when did the code move into the src folder?",
    ],
)
async def test_the_move_into_src_needs_no_name(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    """The one package moved into src/: the commit that first wrote its __init__.py there."""
    graph, clone = histories[history]
    package = {"attrs": "attr"}.get(history, history)
    sha, who, _ = git_says(
        clone, "--diff-filter=A", "--reverse", "--", f"src/{package}/__init__.py"
    )
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{package} moved into src/, as src/{package}"), judgment
    assert f"({sha})" in judgment and f"by {who}" in judgment, judgment


@pytest.mark.parametrize(
    ("history", "question", "path"),
    [
        ("attrs", "when was the attrs namespace package introduced", "src/attrs"),
        ("attrs", "who created the attrs namespace, and when?", "src/attrs"),
        ("werkzeug", "when did the werkzeug namespace appear?", "werkzeug"),
    ],
)
async def test_a_namespace_is_the_package_of_its_name(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str
) -> None:
    graph, clone = histories[history]
    sha, who, day = git_says(clone, "--reverse", "--", f"{path}/")
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{path} was added at {day}"), judgment
    assert f"({sha})" in judgment and f"by {who}" in judgment, judgment
