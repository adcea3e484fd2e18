"""What the git import writes for histories it was never tuned to (werkzeug, requests; the
bundles in ../shared/data), checked against `git log` itself: every author string is a
person and every commit is kept."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.ports import OrgGraph
from engine.resolving.resolution import Resolved, Resolver
from engine.resolving.ring import ReferenceRing
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, GitImportReport, import_git
from tests import shared_history
from tests.conftest import new_org

pytestmark = shared_history.present("werkzeug", "requests")

Imported = tuple[OrgGraph, Path, GitImportReport]


async def _imported(falkor: FalkorStore, path: Path) -> AsyncIterator[Imported]:
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    report = await import_git(graph, GitImport(path))
    yield graph, path, report
    await falkor.drop_org(org)


@pytest.fixture(scope="module")
async def requests_(
    falkor: FalkorStore, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Imported]:
    path = shared_history.clone("requests", tmp_path_factory.mktemp("shared"))
    async for found in _imported(falkor, path):
        yield found


def odd_authors(path: Path) -> Counter[str]:
    """Commits per oddity of the author string as written (before the mailmap)."""
    out: Counter[str] = Counter()
    text = shared_history.git(path, "log", "--format=%an%x1f%ae%x1e", "HEAD")
    for line in text.split("\x1e")[:-1]:
        name, email = line.strip("\n").split("\x1f")
        if not name.strip():
            out["no_name"] += 1
        if not email.strip():
            out["no_address"] += 1
        elif not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s.]+", email.strip()):
            out["not_an_address"] += 1
        if "\ufffd" in name + email:
            out["not_utf8"] += 1
    return out


async def test_requests_odd_authors_are_people_and_counted(requests_: Imported) -> None:
    """requests: 'digitalxero <none@none>', 'tzickel <private@com>' and 'Ravi Prakash
    Putchala <praks.putchala>' wrote addresses that are none; each is a person, asked by
    name, and the summary counts their commits (git: 14 such commits)."""
    graph, path, report = requests_
    assert report.invalid == 0, report.warnings
    assert report.odd_authors == dict(sorted(odd_authors(path).items()))
    assert report.odd_authors == {"not_an_address": 14}
    assert report.commits == int(shared_history.git(path, "rev-list", "--count", "HEAD"))
    resolver = Resolver(graph, ReferenceRing(), graph.org_id)
    for name in ("digitalxero", "tzickel", "Ravi Prakash Putchala", "praks.putchala"):
        resolution = await resolver.resolve("me", name, use_recent=False)
        assert isinstance(resolution, Resolved), name
