"""bench/scale.py --data-dir measures a kept data directory's pages without loading it: the
row holds the reopen and page figures of the organisation the directory serves, none of the
load figures, and the directory serves afterwards what it served before (issue 34's page
growth at a million subjects was measured by hand: loading that size takes hours)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from bench import dashboard, scale, scale_pages
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.keystore import SYSTEM_SCOPE
from graph.projection import Projector
from sources.demo import generate

ROOT = Path(__file__).resolve().parent.parent


async def _load(url: str) -> None:
    store = FalkorStore(url)
    try:
        await store.bootstrap(SYSTEM_SCOPE)
        await store.bootstrap(dashboard.ORG)
        lines = (json.dumps(r) for r in generate(8000, seed=11))  # 143 repositories: a page
        assert (await Projector(store.org(dashboard.ORG), source="demo").run(lines)).ok
    finally:
        await store.close()


async def _served(url: str) -> dict[str, int]:
    store = FalkorStore(url)
    try:
        return dict(await (await store.serving(dashboard.ORG)).counts())
    finally:
        await store.close()


def test_a_kept_directory_is_measured_without_loading(tmp_path: Path) -> None:
    data = tmp_path / "kept"
    with EmbeddedServer(data) as server:
        asyncio.run(_load(server.url))
        before = asyncio.run(_served(server.url))
    row = scale_pages.kept(data, seconds=0.4)
    assert row["subjects"] == before["Subject"] > 600
    assert row["dashboard"]["wrong_answers"] == 0 and row["dashboard"]["pages_compared"] > 0
    assert row["reopen_s"] > 0 and row["first_page_s"] >= row["reopen_s"]
    assert not {"ingest_s", "reingest_s", "bulk_s", "resolve", "investigate"} & set(row)
    with EmbeddedServer(data) as server:
        assert asyncio.run(_served(server.url)) == before  # nothing loaded, nothing lost
    # The growth of kept rows: page factors, and none for what was not measured.
    grown = scale.growth([row, {**row, "subjects": 2 * row["subjects"]}])
    assert grown["dashboard_rps_8_clients"] == 1.0 and grown["ingest_rate"] is None


def test_the_option_is_in_the_help() -> None:
    shown = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "scale.py"), "--help"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "--data-dir" in shown and "Nothing is loaded" in shown
