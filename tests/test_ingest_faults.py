"""kill -9 during `fabric ingest`: the rerun resumes from the checkpoint and the result equals a
clean load of the same file, with nothing acknowledged lost and nothing duplicated."""

from __future__ import annotations

import asyncio
import json
import logging
from asyncio.subprocess import PIPE
from pathlib import Path

import pytest

from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org
from tests.helpers import load, rel, subject
from tests.test_cli import FABRIC, ROOT

RECORDS = 3_000
BATCH = 25


def _ingest(data: Path | str, org: str, server: EmbeddedServer) -> list[str]:
    return [
        *FABRIC, "ingest", str(data), "--org", org, "--source", "demo",
        "--batch-size", str(BATCH), "--data-dir", str(server.data_dir),
    ]  # fmt: skip


def _keys(rows: list[list[object]]) -> set[tuple[str, str]]:
    return {(str(label), str(key)) for label, key in rows}


async def _identities(store: FalkorStore, org: str) -> set[tuple[str, str]]:
    statement = "MATCH (n {org_id: $org}) WHERE n.key IS NOT NULL RETURN labels(n)[0], n.key"
    return _keys(await store.org(org)._read(statement))


async def test_killed_ingest_resumes_and_equals_a_clean_load(
    tmp_path: Path, falkor: FalkorStore, falkor_server: EmbeddedServer
) -> None:
    data = tmp_path / "demo.ndjson"
    lines = [json.dumps(r) for r in generate(RECORDS)]
    data.write_text("\n".join(lines) + "\n")
    killed, clean, acknowledged = new_org(), new_org(), new_org()

    # `fabric ingest` joins the session's running server and is killed mid-load. It reads
    # the file's first half from a pipe left open, so however slow the machine it cannot
    # finish before the kill (a file it could read to the end before the poll saw a batch).
    proc = await asyncio.create_subprocess_exec(
        *_ingest("-", killed, falkor_server), cwd=ROOT, stdin=PIPE
    )
    assert proc.stdin is not None
    proc.stdin.write(("\n".join(lines[: RECORDS // 2]) + "\n").encode())
    await proc.stdin.drain()
    graph = falkor.org(killed)
    for _ in range(3_000):
        checkpoint = await graph.checkpoint("demo")
        if checkpoint is not None and checkpoint.cursor >= 5 * BATCH:
            break
        assert proc.returncode is None, "the ingest finished before it could be interrupted"
        await asyncio.sleep(0.01)
    proc.kill()  # SIGKILL: no clean-up of any kind runs
    assert await proc.wait() == -9
    proc.stdin.close()
    checkpoint = await graph.checkpoint("demo")
    assert checkpoint is not None and not checkpoint.finished
    cursor = checkpoint.cursor
    assert 0 < cursor < RECORDS

    # Every batch acknowledged before the kill is there: everything a load of exactly the
    # acknowledged prefix writes (more may be there from the batch that was in flight).
    await falkor.bootstrap(acknowledged)
    await Projector(falkor.org(acknowledged), source="demo", batch_size=BATCH).run(lines[:cursor])
    assert await _identities(falkor, acknowledged) <= await _identities(falkor, killed)

    resumed = await asyncio.create_subprocess_exec(
        *_ingest(data, killed, falkor_server), cwd=ROOT, stdout=PIPE, stderr=PIPE
    )
    out, err = await resumed.communicate()
    assert resumed.returncode == 0, err.decode()
    summary = json.loads(out.decode().strip().splitlines()[-1])
    assert summary["resumed_from_line"] == cursor
    assert summary["accepted"] == RECORDS - cursor

    # The reference: the same file loaded in one go, uninterrupted (the same embedder as the
    # command's default, so the vectors compare too).
    await falkor.bootstrap(clean)
    with data.open("rb") as fh:
        loaded = await Projector(falkor.org(clean), source="demo", batch_size=BATCH).run(fh)
    assert loaded.ok and loaded.resumed_from == 0 and loaded.accepted == RECORDS

    after_kill = await falkor.org(killed).fingerprint()
    reference = await falkor.org(clean).fingerprint()
    assert after_kill.duplicates == 0 and reference.duplicates == 0
    assert (
        after_kill.nodes == reference.nodes and after_kill.relationships == reference.relationships
    )
    assert after_kill.digest == reference.digest
    assert sum(reference.nodes.values()) > 0 and sum(reference.relationships.values()) > 0
    for org in (killed, clean, acknowledged):
        await falkor.drop_org(org)


async def test_fingerprint_ignores_the_organisation_but_not_the_content(
    falkor: FalkorStore,
) -> None:
    records = [subject("team:a"), subject("repository:r"), rel("OWNS", "team:a", "repository:r")]
    first, second, changed = new_org(), new_org(), new_org()
    for org, batch in ((first, records), (second, records), (changed, records[:2])):
        await falkor.bootstrap(org)
        await load(falkor.org(org), batch)
    a, b = await falkor.org(first).fingerprint(), await falkor.org(second).fingerprint()
    assert a == b and a.nodes == {"Subject": 2} and a.relationships == {"OWNS": 1}
    await load(falkor.org(changed), [subject("team:a", "Another name"), records[2]])
    assert (await falkor.org(changed).fingerprint()).digest != a.digest
    # A second node under an existing key (what a non-idempotent write would leave) shows.
    await falkor.org(first)._write("CREATE (:Subject {org_id: $org, key: 'team:a'})")
    assert (await falkor.org(first).fingerprint()).duplicates == 1
    for org in (first, second, changed):
        await falkor.drop_org(org)


async def test_a_write_abandoned_by_a_failing_load_is_waited_for_and_its_error_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A load that fails or is cancelled cancels the batch write it left in flight and waits
    for it (no write outlives its load). Before, an error that write ended with was swallowed
    by `contextlib.suppress(Exception)` without a trace; now it is logged, and the load's own
    error stays the one raised (the write's batch is not checkpointed, so it is written again
    on the next run)."""
    from graph.projection import _abandon

    started = asyncio.Event()

    async def write_failing_on_cancel() -> None:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            raise RuntimeError("connection lost while cancelling") from None

    async def write_cancelled() -> None:
        started.set()
        await asyncio.sleep(3600)

    failing = asyncio.create_task(write_failing_on_cancel())
    await started.wait()
    with caplog.at_level(logging.WARNING, logger="fabric.ingest"):
        await _abandon(failing)
    assert failing.done()
    assert [r.exc_info[1].args for r in caplog.records if r.exc_info and r.exc_info[1]] == [
        ("connection lost while cancelling",)
    ]
    caplog.clear()
    started.clear()
    cancelled = asyncio.create_task(write_cancelled())
    await started.wait()
    with caplog.at_level(logging.WARNING, logger="fabric.ingest"):
        await _abandon(cancelled)
    assert cancelled.cancelled()
    assert not caplog.records
