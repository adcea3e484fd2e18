"""A question is answered about what it names, whole, or not at all (issue 32, unseen-question
checks of session 36 on the four real histories, clock 2026-09-01T12:00Z): "modules of
requests" are its Python modules, not .github or pyproject.toml. Each figure is
`git log --no-merges --full-history` (author time) on ../shared/data's bundles.
"""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits
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
    listed = subprocess.run(
        ["git", "-C", str(clone), "ls-files", package], capture_output=True, check=True,
        text=True,
    ).stdout.split()  # fmt: skip
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

