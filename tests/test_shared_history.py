"""The histories the modules share (tests/shared_history.py): one import per history per test
process, which refuses writes, since every module after a writer would read what it wrote."""

from __future__ import annotations

import pytest

from tests import shared_history

pytestmark = shared_history.present("attrs")


async def test_a_history_is_imported_once_and_read_only(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    graph = await shared_history.shared_import("attrs", tmp_path_factory)
    assert await shared_history.shared_import("attrs", tmp_path_factory) is graph
    assert shared_history.shared_clone("attrs", tmp_path_factory) == shared_history.shared_clone(
        "attrs", tmp_path_factory
    )
    counts = await graph.counts()
    for method in ("write", "prepare_write", "delete_unseen", "save_checkpoint"):
        with pytest.raises(AssertionError, match="read-only"):
            await getattr(graph, method)(None)
    assert await graph.counts() == counts
