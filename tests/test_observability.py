"""Observability: Prometheus figures for every layer, OpenTelemetry spans, JSON logs with
request ids and no credentials, against a real gateway over the embedded FalkorDB."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client.parser import text_string_to_metric_families

from gateway import logs, tracing
from gateway.settings import Settings
from graph.falkor import FalkorStore
from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, serve

DASHBOARD = """query OpsDashboard { subjects(filter: {kind: REPOSITORY}, first: 5) {
  edges { node { key owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key } } } } }"""
INVESTIGATE = """mutation OpsInvestigate($q: String!) { investigate(input: {question: $q}) {
  result { id outcome } } }"""


@pytest.fixture(scope="module")
async def demo(gateway: Gateway) -> tuple[str, str]:
    org = new_org()
    await gateway.store.bootstrap(org)
    lines = (json.dumps(r) for r in generate(300))
    assert (await Projector(gateway.store.org(org), source="demo").run(lines)).ok
    return org, await gateway.token(org)


def _ok(response: Any) -> dict[str, Any]:
    body = response.json()
    assert response.status_code == 200 and "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


async def _samples(gateway: Gateway) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = (await gateway.client.get(gateway.url.rsplit("/", 1)[0] + "/metrics")).text
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def _total(samples: dict[Any, float], name: str, **labels: str) -> float:
    wanted = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and wanted <= set(ls))


# --- metrics ----------------------------------------------------------------------------------


async def test_metrics_cover_statements_batches_and_investigations(
    gateway: Gateway, demo: tuple[str, str]
) -> None:
    _, token = demo
    before = await _samples(gateway)
    data = _ok(await gateway.query(token, DASHBOARD))
    shown = len(data["subjects"]["edges"])
    assert shown == 5
    result = _ok(await gateway.query(token, INVESTIGATE, {"q": "why is payments-api behind?"}))
    assert result["investigate"]["result"]["outcome"] == "ANSWERED"
    after = await _samples(gateway)

    def delta(name: str, **labels: str) -> float:
        return _total(after, name, **labels) - _total(before, name, **labels)

    # One batch of five keys answered every owner lookup of the page (whichever loader or
    # read-ahead made it).
    loaders = {dict(labels)["loader"] for (name, labels) in after if name.startswith("fabric_dataloader")}
    batches = {
        loader: (
            delta("fabric_dataloader_batch_size_count", loader=loader),
            delta("fabric_dataloader_batch_size_sum", loader=loader),
        )
        for loader in loaders
    }
    assert (1, shown) in batches.values(), batches
    # Every statement the requests sent was timed, and none failed.
    sent = delta("fabric_graph_statements_total")
    assert sent > 0
    assert delta("fabric_graph_statement_seconds_count", backend="falkordb") == sent
    assert delta("fabric_graph_statement_seconds_count", outcome="error") == 0
    assert delta("fabric_investigations_total", outcome="answered", reused="false") == 1
    for stage in ("resolve", "plan", "read_facts", "synthesize", "validate"):
        assert delta("fabric_investigation_stage_seconds_count", stage=stage) == 1, stage
    assert delta("fabric_graphql_requests_total", operation="OpsDashboard", outcome="ok") == 1
    assert delta("fabric_graphql_request_seconds_count", operation="OpsInvestigate") == 1


async def test_unresolved_investigations_are_counted_by_outcome(
    gateway: Gateway, demo: tuple[str, str]
) -> None:
    _, token = demo
    before = await _samples(gateway)
    question = "what happened to zzqx-nonexistent-thing?"
    result = _ok(await gateway.query(token, INVESTIGATE, {"q": question}))
    outcome = result["investigate"]["result"]["outcome"].lower()
    assert outcome in {"no_match", "clarification_required"}
    after = await _samples(gateway)
    counted = _total(after, "fabric_investigations_total", outcome=outcome) - _total(
        before, "fabric_investigations_total", outcome=outcome
    )
    assert counted == 1
    assert _total(after, "fabric_investigation_stage_seconds_count", stage="read_facts") == (
        _total(before, "fabric_investigation_stage_seconds_count", stage="read_facts")
    ), "an unresolved question never reads canonical facts"


RECENT = """query OpsRecent { subjects(orderBy: RECENTLY_ACTIVE, first: 4) {
  edges { node { key } } } }"""


async def test_recent_activity_windows_and_their_fallback_are_counted(
    gateway: Gateway, demo: tuple[str, str]
) -> None:
    org, token = demo
    activity = gateway.store.org(org).activity  # the graph the gateway serves the org from
    counts = activity.windows_read, activity.ranked_all
    before = await _samples(gateway)
    fast = _ok(await gateway.query(token, RECENT))
    between = await _samples(gateway)
    activity.use_windows = False  # forces the plain path: every subject ranked
    try:
        plain = _ok(await gateway.query(token, RECENT))
    finally:
        activity.use_windows = True
    after = await _samples(gateway)

    def delta(name: str, one: dict[Any, float], two: dict[Any, float]) -> float:
        return _total(two, name) - _total(one, name)

    windows, ranked = "fabric_activity_windows_read_total", "fabric_activity_pages_ranked_all_total"
    assert len(fast["subjects"]["edges"]) == 4 and fast == plain
    # The page came from windows, as many as the graph counted, and did not fall back.
    assert delta(windows, before, between) == activity.windows_read - counts[0] >= 1
    assert delta(ranked, before, between) == 0
    # The forced fallback read no window and is counted once.
    assert delta(windows, between, after) == 0
    assert delta(ranked, between, after) == 1 == activity.ranked_all - counts[1]


PROJECT = 'mutation OpsProject($r: [JSON!]!) { project(records: $r, source: "ops") { accepted } }'


async def test_ingest_batches_written_without_preparing_ahead_are_counted(
    gateway: Gateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    token = await gateway.token(org)
    records = [{"type": "subject", "key": f"team:t{i}", "kind": "team", "name": f"t{i}"}
               for i in range(6)]  # fmt: skip
    prepared, unprepared = (
        "fabric_ingest_prepared_batches_total", "fabric_ingest_unprepared_batches_total"
    )  # fmt: skip
    before = await _samples(gateway)
    fast = _ok(await gateway.query(token, PROJECT, {"r": records[:3]}))
    between = await _samples(gateway)
    monkeypatch.setattr(Projector, "prepare_ahead", False)  # forces the plain path
    plain = _ok(await gateway.query(token, PROJECT, {"r": records[3:]}))
    after = await _samples(gateway)

    def delta(name: str, one: dict[Any, float], two: dict[Any, float]) -> float:
        return _total(two, name) - _total(one, name)

    assert fast["project"]["accepted"] == plain["project"]["accepted"] == 3
    # A call is one batch: prepared ahead on the served graph, then written the plain way.
    assert (delta(prepared, before, between), delta(unprepared, before, between)) == (1, 0)
    assert (delta(prepared, between, after), delta(unprepared, between, after)) == (0, 1)
    teams = _ok(await gateway.query(token, "{ subjects(filter: {kind: TEAM}) { totalCount } }"))
    assert teams["subjects"]["totalCount"] == 6


# --- logs -------------------------------------------------------------------------------------


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """What `fabric serve` would write (its handler: JSON, redacting), for the fabric loggers."""
    stream = io.StringIO()
    handler = logs.handler(Settings(log_format="json"), stream)
    logger = logging.getLogger("fabric")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _parsed(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


async def test_request_ids_are_accepted_generated_and_echoed(
    gateway: Gateway, demo: tuple[str, str], log_lines: io.StringIO
) -> None:
    _, token = demo
    given = await gateway.query(token, "query Ids { __typename }", **{"X-Request-ID": "lb-42.a:7"})
    assert given.headers["x-request-id"] == "lb-42.a:7"
    minted = await gateway.query(token, "query Ids { __typename }")
    generated = minted.headers["x-request-id"]
    assert len(generated) == 32 and generated != "lb-42.a:7"
    for hostile in ("x" * 300, "two words", "<script>", ""):
        response = await gateway.query(token, "{ __typename }", **{"X-Request-ID": hostile})
        echoed = response.headers["x-request-id"]
        assert echoed != hostile and len(echoed) == 32
    refused = await gateway.client.post(gateway.url, json={"query": "{ __typename }"})
    assert refused.status_code == 401 and len(refused.headers["x-request-id"]) == 32
    probe = await gateway.client.get(gateway.url.rsplit("/", 1)[0] + "/healthz")
    assert len(probe.headers["x-request-id"]) == 32

    lines = _parsed(log_lines)
    access = [line for line in lines if line["logger"] == "fabric.access"]
    assert len(access) == 8
    assert all({"time", "level", "message", "request_id", "status"} <= set(a) for a in access)
    first = next(a for a in access if a["request_id"] == "lb-42.a:7")
    assert first["operation"] == "Ids" and first["outcome"] == "ok" and first["status"] == 200
    assert first["path"] == "/graphql" and first["round_trips"] >= 1
    assert any(a["request_id"] == generated for a in access)
    assert any(a["status"] == 401 and a["outcome"] == "unauthenticated" for a in access)


async def test_no_token_or_secret_reaches_a_log_line(
    gateway: Gateway, demo: tuple[str, str], log_lines: io.StringIO
) -> None:
    _, token = demo
    await gateway.query(token, "query Q($t: String!) { search(query: $t) { score } }", {"t": token})
    await gateway.client.post(
        gateway.url + f"?token={token}",
        json={"query": "{ __typename }"},
        headers={"Authorization": "Bearer cfk_not-a-real-key-but-secret-looking"},
    )
    await gateway.client.get(gateway.url, params={"query": "{ __typename }", "token": token})
    # Whatever a driver or library logs through the same handler is scrubbed as well.
    password = "hunter2-Pa55"
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl"
    noisy = logging.getLogger("fabric.test")
    noisy.warning("connect neo4j+s://neo4j:%s@db.example:7687 failed", password)
    noisy.warning("header was %s", f"Authorization: Bearer {jwt}")
    try:
        raise RuntimeError(f"refused key {token}")
    except RuntimeError:
        noisy.exception("lookup failed")

    text = log_lines.getvalue()
    assert text.count("\n") >= 6
    for secret in (token, "cfk_not-a-real-key", password, jwt):
        assert secret not in text
    assert "[REDACTED]" in text
    assert all(isinstance(line, dict) for line in _parsed(log_lines))


def test_request_id_rules() -> None:
    assert logs.sane_request_id("a" * 128) == "a" * 128
    for hostile in ("a" * 129, "abc\n", "abc\r\nX-Evil: 1", "-leading", "ünïcode", None):
        generated = logs.sane_request_id(hostile)
        assert generated != hostile and re.fullmatch(r"[0-9a-f]{32}", generated)


def test_secret_settings_are_redacted_by_value() -> None:
    settings = Settings(neo4j_password="plain-old-password", jwt_secret="hs256-shared-secret")
    stream = io.StringIO()
    logger = logging.getLogger("fabric.secrets-test")
    logger.addHandler(logs.handler(settings, stream))
    logger.propagate = False
    try:
        logger.warning("using plain-old-password and hs256-shared-secret")
    finally:
        logger.handlers.clear()
    line = json.loads(stream.getvalue())
    assert "plain-old-password" not in line["message"]
    assert "hs256-shared-secret" not in line["message"]


# --- tracing ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spans() -> Iterator[InMemorySpanExporter]:
    """An SDK provider with an in-memory exporter, installed the way a host process would."""
    exporter = InMemorySpanExporter()
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield exporter
    exporter.shutdown()


@pytest.fixture(scope="module")
async def traced(falkor: FalkorStore, spans: InMemorySpanExporter) -> AsyncIterator[Gateway]:
    async for running in serve(falkor, tracing=True):
        yield running


def _parent_chain(span: ReadableSpan, by_id: dict[int, ReadableSpan]) -> list[str]:
    names = []
    while span.parent is not None and span.parent.span_id in by_id:
        span = by_id[span.parent.span_id]
        names.append(span.name)
    return names


async def test_spans_for_request_resolvers_and_statements(
    traced: Gateway, demo: tuple[str, str], spans: InMemorySpanExporter
) -> None:
    org, _ = demo
    token = await traced.token(org)
    spans.clear()
    response = await traced.query(token, DASHBOARD, **{"X-Request-ID": "trace-me-1"})
    assert len(_ok(response)["subjects"]["edges"]) == 5
    finished = spans.get_finished_spans()
    by_id = {s.context.span_id: s for s in finished}
    (request,) = [s for s in finished if s.name == "graphql.request"]
    assert request.kind == trace.SpanKind.SERVER
    assert request.attributes is not None
    assert request.attributes["graphql.operation.name"] == "OpsDashboard"
    assert request.attributes["fabric.request_id"] == "trace-me-1"
    assert {s.context.trace_id for s in finished} == {request.context.trace_id}
    operation = next(s for s in finished if s.name == "GraphQL Query: OpsDashboard")
    assert operation.parent is not None and operation.parent.span_id == request.context.span_id
    # Root fields get resolver spans; nested fields (one call per row) stay span-free and
    # synchronous, their batched graph reads are spans of their own.
    resolvers = [s for s in finished if s.name.startswith("GraphQL Resolving")]
    assert [s.name for s in resolvers] == ["GraphQL Resolving: subjects"]
    assert resolvers[0].parent is not None
    assert resolvers[0].parent.span_id == operation.context.span_id
    statements = [s for s in finished if s.name == "graph.statement"]
    assert len(statements) >= 3  # key lookup, page, owners
    for statement in statements:
        assert statement.attributes is not None
        assert statement.attributes["db.system"] == "falkordb"
        assert "graphql.request" in _parent_chain(statement, by_id)
    dumped = json.dumps([dict(s.attributes or {}) for s in finished])
    assert token not in dumped


async def test_a_document_run_from_its_plan_has_the_plain_paths_spans(
    traced: Gateway, demo: tuple[str, str], spans: InMemorySpanExporter
) -> None:
    """With tracing on, a document seen before still runs from its plan (docs/graphql.md,
    "Compiled documents"), and makes the plain path's spans but parsing and validation, which
    it does not do again."""
    org, _ = demo
    token = await traced.token(org)
    query = DASHBOARD.replace("OpsDashboard", "OpsDashboardTwice")
    shapes, compiled, reads = [], [], []
    for _ in range(2):  # unseen (the plain path), then from its plan
        before = _total(await _samples(traced), "fabric_compiled_requests_total")
        spans.clear()
        assert len(_ok(await traced.query(token, query))["subjects"]["edges"]) == 5
        finished = spans.get_finished_spans()
        compiled.append(_total(await _samples(traced), "fabric_compiled_requests_total") - before)
        by_id = {s.context.span_id: s for s in finished}
        (resolver,) = [s for s in finished if s.name.startswith("GraphQL Resolving")]
        assert resolver.attributes is not None
        assert resolver.attributes["graphql.path"] == "subjects"
        assert resolver.attributes["graphql.parentType"] == "Query"
        # The page's reads (not the key's, made before the operation) are spans under it.
        reads.append(sum("GraphQL Query: OpsDashboardTwice" in _parent_chain(s, by_id)
                         for s in finished if s.name == "graph.statement"))  # fmt: skip
        shapes.append({s.name: by_id[s.parent.span_id].name for s in finished
                       if s.name != "graph.statement" and s.parent is not None
                       and s.parent.span_id in by_id})  # fmt: skip
    assert compiled == [0, 1]
    assert reads[0] >= 2 and reads[1] >= 2  # the page and its owners
    plain, planned = shapes
    operation = "GraphQL Query: OpsDashboardTwice"
    assert plain.pop("GraphQL Parsing") == plain.pop("GraphQL Validation") == operation
    assert planned == plain == {operation: "graphql.request", "GraphQL Resolving: subjects": operation}


async def test_a_callers_trace_context_is_continued(
    traced: Gateway, demo: tuple[str, str], spans: InMemorySpanExporter
) -> None:
    org, _ = demo
    token = await traced.token(org)
    trace_id, parent_id = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    spans.clear()
    _ok(await traced.query(token, "query Continued { __typename }",
                           traceparent=f"00-{trace_id}-{parent_id}-01"))
    (request,) = [s for s in spans.get_finished_spans() if s.name == "graphql.request"]
    assert f"{request.context.trace_id:032x}" == trace_id
    assert request.parent is not None and f"{request.parent.span_id:016x}" == parent_id


async def test_tracing_off_makes_no_spans_even_with_a_provider(
    gateway: Gateway, demo: tuple[str, str], spans: InMemorySpanExporter
) -> None:
    _, token = demo
    spans.clear()
    _ok(await gateway.query(token, DASHBOARD))
    assert spans.get_finished_spans() == ()


def test_tracing_is_a_no_op_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tracing, "_trace", None)
    monkeypatch.setattr(tracing, "OpenTelemetryExtension", None)
    assert not tracing.available()
    with tracing.span("anything", {"a": 1}) as span:
        assert span is None
    assert tracing.schema_extensions(Settings(tracing=True)) == []
    assert not tracing.configure_exporter(Settings(tracing=True))
    from gateway.metrics import Metrics

    metrics = Metrics(tracing=True)
    assert not metrics.tracing
    with metrics.statement("falkordb", write=False):
        pass
    assert 'backend="falkordb"' in metrics.render().decode()
