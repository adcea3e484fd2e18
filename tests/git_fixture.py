"""The `graph` fixture of the test modules that ask about one git repository: the module's
`repo` fixture, imported into a new organisation of the session's embedded FalkorDB
(tests/conftest.py) once for the module, dropped after it. A module uses it by importing it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.ports import OrgGraph
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, import_git
from tests import gitrepo
from tests.conftest import new_org


@pytest.fixture(scope="module", name="graph")
async def imported_graph(falkor: FalkorStore, repo: gitrepo.Repo) -> AsyncIterator[OrgGraph]:
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    report = await import_git(graph, GitImport(repo.path))
    assert report.invalid == 0, report.warnings
    yield graph
    await falkor.drop_org(org)
