"""A history no other test is tuned to: werkzeug (src layout, subpackages, tests/sansio beside
src/werkzeug/sansio, many namesakes), cloned from the bundle in ../shared/data and imported
once for this module into the in-memory store (the engine is under test, not a backend).
Each test is one class of issue 31's wrong answers, with its figure from `git log`
(author dates in UTC, merges left out as the import does)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.investigation.investigate import InvestigationRequest
from engine.memory.store import MemoryStore
from engine.ports import OrgGraph
from engine.resolving.ring import ReferenceRing
from graph.git.importer import GitImport, import_git
from tests.test_investigate import investigator

_ROOT = Path(__file__).resolve().parents[1]
BUNDLE = Path(
    os.environ.get("FABRIC_TEST_WERKZEUG_BUNDLE")
    or next(
        (
            str(p / "shared" / "data" / "werkzeug.bundle")
            for p in _ROOT.parents
            if (p / "shared" / "data" / "werkzeug.bundle").exists()
        ),
        "werkzeug.bundle",
    )
)
CLOCK = datetime(2026, 9, 1, tzinfo=UTC)
REPOSITORY = "repository:werkzeug"
PACKAGE = "module:werkzeug/src/werkzeug"

pytestmark = pytest.mark.skipif(not BUNDLE.exists(), reason=f"{BUNDLE} is not present")


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("werkzeug") / "werkzeug"
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(path)], check=True)
    return path


@pytest.fixture(scope="module")
async def werkzeug(clone: Path) -> AsyncIterator[OrgGraph]:
    store = MemoryStore()
    await store.bootstrap("werkzeug")
    graph = store.org("werkzeug")
    await import_git(graph, GitImport(clone, name="werkzeug"))
    yield graph


def git_count(clone: Path, year: int, *args: str) -> int:
    """Commits authored in `year` (UTC), as `git log --no-merges` lists them (`args`: its
    other options, `--author=...`, `-- PATH`)."""
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--format=%at", *args],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    return sum(datetime.fromtimestamp(int(t), UTC).year == year for t in out.split())


async def ask(
    graph: OrgGraph, question: str, ring: ReferenceRing | None = None
) -> InvestigationResult:
    engine = investigator(graph, now=CLOCK, ring=ring)
    result, _ = await engine.investigate("me", InvestigationRequest(question))
    return result


# --- class 5: memory never overrides a rule ------------------------------------------------


async def test_a_bare_repository_name_is_the_repository_in_a_session_too(
    werkzeug: OrgGraph, clone: Path
) -> None:
    """After "the werkzeug package", a bare "werkzeug" was answered for the package (52
    commits in 2024) "from your recent references"; the rule (a bare name shared by a
    repository and its own package means the repository) decides it, fresh or not."""
    question = "how many commits to werkzeug in 2024?"
    expected = git_count(clone, 2024)
    fresh = await ask(werkzeug, question)
    ring = ReferenceRing()
    package = await ask(werkzeug, "how many commits to the werkzeug package in 2024?", ring)
    assert package.subject_keys == (PACKAGE,)
    later = await ask(werkzeug, question, ring)
    for result in (fresh, later):
        assert result.outcome is Outcome.ANSWERED and result.subject_keys == (REPOSITORY,)
        assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to werkzeug ")
        assert not any("recent references" in n for n in result.limitations)
