"""A bulk load of each shared git history (../shared/data/*.bundle) is the graph an
incremental load of the same lines makes, node by node and edge by edge: the lines are
those `fabric import git` feeds its projector on a first import (taken on their way there,
the import itself running in full on an in-memory store)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from engine.memory.store import MemoryStore
from graph.falkor import FalkorStore
from graph.git import stream
from graph.git.importer import GitImport, import_git
from graph.projection import IngestReport
from tests import shared_history
from tests.test_bulk_load import both, same

HISTORIES = ("click", "werkzeug", "requests", "attrs")


async def import_lines(clone: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The lines a first import of `clone` as repository `name` loads."""
    taken: list[bytes] = []
    write = stream.write

    async def keep(graph: Any, repo: str, lines: Iterable[bytes], *rest: Any) -> IngestReport:
        taken.extend(lines)
        return await write(graph, repo, taken, *rest)

    monkeypatch.setattr(stream, "write", keep)
    store = MemoryStore()
    await store.bootstrap(name)
    report = await import_git(store.org(name), GitImport(clone, name=name))
    assert report.invalid == 0 and report.commits > 0
    return taken


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=shared_history.present(n)) for n in HISTORIES]
)
async def test_a_bulk_load_of_a_history_is_the_incremental_graph(
    falkor: FalkorStore,
    name: str,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clone = shared_history.shared_clone(name, tmp_path_factory)  # read only
    lines = await import_lines(clone, name, monkeypatch)
    # Batches of 1,000: a history's records cross many batches, each finding the time slots
    # and Activities of those before it (graph.slot_ids, graph.falkor_stream).
    plain, fast, report, bulk_report = await both(falkor, lines, source=f"git:{name}", batch=1_000)
    assert report.invalid_count == 0 and bulk_report.accepted == report.accepted
    assert bulk_report.streamed  # type: ignore[attr-defined]  # sent as read, not whole
    assert sum(plain[0].values()) > 1_000 and sum(plain[1].values()) > 1_000
    same(plain, fast)
