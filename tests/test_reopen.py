"""Reopening a data directory: nothing is read before the graph's indexes are built, and a
session that wrote nothing leaves nothing for the stop to rewrite (graph.falkor_ready)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import graph.embedded as embedded
from engine.ports import SubjectQuery
from graph.activity import FORMAT_VERSION
from graph.embedded import EmbeddedServer
from graph.embedded.loading import loading_line
from graph.falkor import GRAPH_PREFIX, SYSTEM_GRAPH, FalkorStore
from graph.falkor_executor import GraphExecutor
from graph.falkor_ready import INDEX_STATUS, READY, await_indexes, building
from graph.keystore import SYSTEM_SCOPE
from tests.helpers import load, subject

SUBJECTS = 30_000  # enough that building their indexes outlasts a bootstrap's few statements
_MANY = """
UNWIND range(1, $n) AS i
CREATE (:Subject {org_id: 'big', key: 'team:t' + toString(i), id: 'sub_' + toString(i),
                  kind: 'team', name: 'team ' + toString(i), search_text: 'zebra team',
                  stub: false})
"""
_SEARCH = "CALL db.idx.fulltext.queryNodes('Subject', 'zebra') YIELD node RETURN count(node)"
_INDEX = "CREATE FULLTEXT INDEX FOR (s:Subject) ON (s.search_text)"


async def test_bootstrap_waits_for_the_indexes_it_creates_on_existing_nodes(
    falkor: FalkorStore,
) -> None:
    # A graph written before its indexes existed (as an older directory meets a new index):
    # bootstrap creates them, FalkorDB builds them in the background, and a search right
    # after a bootstrap that did not wait found nothing.
    graph = falkor.client.select_graph(GRAPH_PREFIX + "unindexed")
    await graph.query(_MANY, {"n": SUBJECTS})
    try:
        await falkor.bootstrap("unindexed")
        assert building((await graph.ro_query(INDEX_STATUS)).result_set) == []
        assert (await graph.ro_query(_SEARCH)).result_set == [[SUBJECTS]]
    finally:
        await falkor.drop_org("unindexed")


async def test_nothing_reads_a_graph_whose_server_builds_its_indexes_after_loading(
    tmp_path: Path,
) -> None:
    with EmbeddedServer(tmp_path) as server:
        store = FalkorStore(server.url)
        await store.bootstrap(SYSTEM_SCOPE)  # as a gateway does: the store's format is current
        await store.bootstrap("big")
        graph = store.client.select_graph(GRAPH_PREFIX + "big")
        await graph.query(_MANY, {"n": SUBJECTS})
        await store.close()
    # A server that answers before its indexes are built: until the Subject index is done,
    # the full-text procedure finds nothing (graph.falkor_ready). A command's store waits for
    # the indexes of the organisation it writes (at its first write), for no other graph's
    # (FalkorDB builds one graph's after another: a command waited for every organisation's);
    # a search of a graph still building waits for its own index, never finding less.
    with EmbeddedServer(tmp_path, delay_indexing=True) as server:
        store = FalkorStore(server.url)
        await store.bootstrap(SYSTEM_SCOPE)
        found = await store.org("big").search_lexical("zebra", [], 50)
        assert len(found) == 50  # every subject matches; a half-built index finds none
        graph = store.client.select_graph(GRAPH_PREFIX + "big")
        statuses = (await graph.ro_query(INDEX_STATUS)).result_set
        assert statuses and "Subject" in {label for label, status in statuses if status == READY}
        await store.close()


async def test_waiting_for_indexes_says_which_and_how_far(falkor: FalkorStore) -> None:
    graph = falkor.client.select_graph(GRAPH_PREFIX + "watched")
    await graph.query(_MANY, {"n": SUBJECTS})
    # The index is created and its status read in one transaction, which the server runs with
    # nothing between them: the build has barely begun (FalkorDB 4.16: `[Indexing] 0/30000`)
    # when the status is read. Read in a second round trip, a client slowed by a loaded
    # machine could find the build already finished, and the test failed.
    both = falkor.client.connection.pipeline(transaction=True)
    both.execute_command("GRAPH.QUERY", graph.name, _INDEX)
    both.execute_command("GRAPH.RO_QUERY", graph.name, INDEX_STATUS)
    _, (_, first, _) = await both.execute()
    seen: list[list[list[Any]]] = []

    async def read(statement: str) -> list[list[Any]]:
        if not seen:
            seen.append(first)  # the server's own first answer, read as the wait's first
            return list(first)
        rows: list[list[Any]] = (await graph.ro_query(statement)).result_set
        seen.append(rows)
        return rows

    try:
        await await_indexes(read, "watched", lambda line: None)
        assert building(seen[-1]) == []
        assert (await graph.ro_query(_SEARCH)).result_set == [[SUBJECTS]]
        # It polled while the index was being built, and saw how far it was.
        assert any(line.startswith("Subject: [Indexing] ") for rows in seen for line in building(rows))
    finally:
        await falkor.drop_org("watched")


async def test_a_session_that_wrote_nothing_leaves_nothing_for_the_stop_to_rewrite(
    tmp_path: Path,
) -> None:
    with EmbeddedServer(tmp_path) as server:
        store = FalkorStore(server.url)
        await store.bootstrap(SYSTEM_SCOPE)
        await store.bootstrap("quiet")
        await load(store.org("quiet"), [subject(f"team:t{i}") for i in range(20)])
        await store.close()
    with EmbeddedServer(tmp_path) as server:
        store = FalkorStore(server.url)
        # What a gateway does on every start: the system scope, then each organisation.
        await store.bootstrap(SYSTEM_SCOPE)
        await store.bootstrap("quiet")
        assert await store.org("quiet").count_subjects(SubjectQuery()) == 20
        await store.close()
        fields = embedded.info(server.socket)
        assert int(fields["aof_current_size"]) == int(fields["aof_base_size"])
        assert not server.compact()


def test_a_busy_start_says_whether_it_decodes_or_builds_indexes(tmp_path: Path) -> None:
    # The server answers nothing while it decodes a graph or builds its indexes; its log
    # (the module's lines, as FalkorDB 4.16 writes them) says which.
    log = tmp_path / embedded.LOG_FILE
    head = "1:M 01 Dec 2026 20:25:05.123 * <module> "
    log.write_text(f"{head}Graph 'fabric:org:acme' processing virtual key: 3/12\n")
    line = loading_line(tmp_path, b"", "/nonexistent.sock", 7.2)
    assert line.endswith("loading, decoding fabric:org:acme (7 s so far)")
    with log.open("a") as out:
        out.write(f"{head}Graph 'fabric:org:acme' processed 100000/750000 nodes\n")
        out.write(f"{head}Graph 'fabric:org:acme' Constructing indexes.\n")
        out.write("1:M 01 Dec 2026 20:25:09.000 * a line of Redis's own\n")
    line = loading_line(tmp_path, b"", "/nonexistent.sock", 12.0)
    assert line.endswith("loading, building the indexes of fabric:org:acme (12 s so far)")
    log.unlink()
    assert loading_line(tmp_path, b"", "/x.sock", 1).endswith("busy (1 s so far)")


async def test_a_start_checks_each_graphs_indexes_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every `db.indexes()` a start sends, by graph: the start that migrates every
    # organisation's graph waits for each graph it bootstraps, once; a plain start waits for
    # none (the system graph's few nodes are read as fast without them, and an organisation's
    # are waited for by what writes it: FalkorDB builds one graph's after another).
    with EmbeddedServer(tmp_path) as server:
        first = FalkorStore(server.url)
        await first.bootstrap(SYSTEM_SCOPE)
        for org in ("a", "b"):
            await first.bootstrap(org)
        system = first.client.select_graph(SYSTEM_GRAPH)
        await system.query("MATCH (m:Format) SET m.activity = 0")  # an earlier format
        await first.close()
        asked: list[str] = []
        read = GraphExecutor.read

        async def counted(executor: GraphExecutor, statement: str) -> list[Any]:
            if statement == INDEX_STATUS:
                asked.append(executor._name)
            return await read(executor, statement)

        monkeypatch.setattr(GraphExecutor, "read", counted)
        every = {"migrating": [GRAPH_PREFIX + "a", GRAPH_PREFIX + "b"], "plain": []}
        for start in ("migrating", "plain"):
            asked.clear()
            store = FalkorStore(server.url)  # a new process's store
            await store.bootstrap(SYSTEM_SCOPE)
            await store.close()
            assert sorted(asked) == every[start], start


_RECORDS = """
UNWIND range(1, $n) AS i
CREATE (:SourceRecord {org_id: $org, key: 'deploy:' + toString(i), subject_key: 'service:s',
                       record_kind: 'deploy', start_ns: i * 1000, start_us: i})
"""


async def test_an_upgrade_is_not_held_to_the_read_time_limit(
    falkor: FalkorStore, falkor_server: EmbeddedServer
) -> None:
    # A graph of an earlier format with enough records that reading their span once takes
    # longer than a millisecond, opened by a store whose reads are limited to one: the first
    # open after an upgrade migrates it to the end (a limit meant for requests failed it).
    org = "upgrading"
    await falkor.bootstrap(org)
    graph = falkor.client.select_graph(GRAPH_PREFIX + org)
    await graph.query(_RECORDS, {"n": 200_000, "org": org})
    await graph.query("MATCH (f:Format {org_id: $org}) SET f.activity = 5", {"org": org})
    tight = FalkorStore(falkor_server.url, statement_timeout_ms=1)
    try:
        await tight.bootstrap(org)
        formats = await graph.ro_query("MATCH (f:Format {org_id: $org}) RETURN f.activity",
                                       {"org": org})
        assert formats.result_set == [[FORMAT_VERSION]]
    finally:
        await tight.close()
        await falkor.drop_org(org)
