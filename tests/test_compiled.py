"""Compiled documents (gateway/compiled.py, resolvers/compiled.py) answer exactly what the
plain path answers, and really answer what they cover.

The differential suite sends every query the docs and README show (README's curl request and
GraphiQL's first query among them), the dashboard's queries, bench/dashboard.py's page and a
seeded fuzzed set of subject-list documents (valid and not,
covered and not) twice to one gateway: the first time the document is unseen and runs the
plain path, the second time it runs from its plan when one covers it. Status, content type
and body must be the same; the counters say which path answered.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bench.dashboard import QUERY as DASHBOARD_PAGE
from gateway.compiled import CompiledDocuments, schema_version
from gateway.dashboard import documents
from gateway.documents import sha256_hex
from gateway.metrics import Metrics
from graph.projection import Projector
from resolvers.schema import build_schema
from sources.demo import generate
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, request_statements, serve

ROOT = Path(__file__).resolve().parent.parent
_FENCE = re.compile(r"```graphql\n(.*?)```", re.S)
_CURL = re.compile(r"-d '(\{\"query\".*?\})'")  # README's request bodies
_GRAPHIQL = re.compile(r"DEFAULT_QUERY = `(.*?)`", re.S)
AS_OF = "2026-11-01T00:00:00Z"
WINDOW = {"from": "2026-08-01T00:00:00Z", "to": "2026-11-01T00:00:00Z"}
VARIABLES = {"asOf": AS_OF, "earlier": "2026-05-01T00:00:00Z", "window": WINDOW,
             "bucket": "WEEK", "key": "repository:payments-api", "search": "pay",
             "ids": ["U3ViamVjdDpzZXJ2aWNlOnBheW1lbnRz"],  # Subject:service:payments
             "id": "U291cmNlUmVjb3JkOnB1bGxfcmVxdWVzdDox"}  # SourceRecord:pull_request:1


def documented() -> list[tuple[str, str | None]]:
    """(text, operation name) of every query in docs/*.md and README.md (its curl requests'
    too), of GraphiQL's first query and of the dashboard's documents."""
    readme = (ROOT / "README.md").read_text()
    found: list[tuple[str, str | None]] = [
        (json.loads(body)["query"], None) for body in _CURL.findall(readme)]
    graphiql = (ROOT / "gateway" / "graphiql.html").read_text()
    found += [(text, None) for text in _GRAPHIQL.findall(graphiql)]
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for body in _FENCE.findall(path.read_text()):
            if not re.match(r"\s*(mutation|subscription)\b", body):
                found.append((body, None))
    for name, text in documents().items():
        if re.search(rf"\bquery {name}\b", text):
            found.append((text, name))
    return [*found, (DASHBOARD_PAGE, "Dashboard")]


SUBJECT_FIELDS = ["id", "key", "kind", "name", "aliases", "previousNames", "description",
                  "attributes", "validFrom", "validTo", "stub", "__typename"]  # fmt: skip
TYPES = ["OWNS", "DEPENDS_ON", "MEMBER_OF", "PART_OF", "CONTRIBUTES_TO"]


def _subject(rng: random.Random, depth: int) -> str:
    fields = [f"{'a' + str(i) + ': ' if rng.random() < 0.2 else ''}{f}"
              for i, f in enumerate(rng.sample(SUBJECT_FIELDS, rng.randint(1, 5)))]  # fmt: skip
    if depth < 3 and rng.random() < 0.6:
        args = [f"types: [{', '.join(rng.sample(TYPES, rng.randint(1, 2)))}]"]
        args += [f"direction: {rng.choice(['INCOMING', 'OUTGOING', 'BOTH'])}"]
        args += rng.sample(["first: 1", "first: 3", "first: 0", "first: 900", "asOf: $asOf",
                            "first: 2", 'asOf: "1960-01-01"'], rng.randint(0, 1))  # fmt: skip
        alias = rng.choice(["", "n: ", "other: "])
        fields.append(f"{alias}neighbors({', '.join(args)}) {{ {_subject(rng, depth + 1)} }}")
    if rng.random() < (0.5 if depth == 0 else 0.05):  # a series: compiled on a list's nodes
        fields.append(_activity(rng))
    odd = rng.random()
    if odd < 0.04:
        fields.append("... on Subject { key }")  # a fragment: covered at a list's level
    elif odd < 0.08:
        fields.append("name @include(if: true)")  # a directive: not covered
    elif odd < 0.1:
        fields.append("episodes(first: 1) { totalCount }")  # covered at a list's level only
    return " ".join(fields)


def _activity(rng: random.Random) -> str:
    args = [f"metric: {rng.choice(['DEPLOYS', 'COMMITS', 'PULL_REQUESTS_MERGED'])}"]
    args += rng.sample(["bucket: WEEK", "bucket: DAY",
                        'window: {from: "2026-08-01T00:00:00Z", to: "2026-11-01T00:00:00Z"}'],
                       rng.randint(0, 2))  # fmt: skip
    if rng.random() < 0.1:  # a window the resolver refuses: backwards, or over 400 days
        args.append(rng.choice(['window: {from: "2026-11-01T00:00:00Z", to: "2026-08-01T00:00:00Z"}',
                                'window: {from: "2020-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z"}']))
    parts = rng.sample(["total", "metric", "bucket", "__typename", "points { start value }",
                        "p: points { count __typename start }"], rng.randint(1, 3))
    return f"{rng.choice(['', 's: '])}activity({', '.join(args)}) {{ {' '.join(parts)} }}"


def fuzzed(count: int, seed: int = 34) -> list[tuple[str, dict[str, Any]]]:
    """Seeded subject-list documents and their variables."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        args = [f"orderBy: {rng.choice(['KEY', 'NAME', 'RECENTLY_ACTIVE'])}", "asOf: $asOf"]
        args += rng.sample(["filter: {kind: REPOSITORY}", "filter: {kinds: [TEAM, SERVICE]}",
                            'filter: {namePrefix: "p"}', "first: 5", "first: 0", "first: 501",
                            'after: "bm90IGEgY3Vyc29y"', 'search: "a"'],
                           rng.randint(0, 2))  # fmt: skip
        parts = rng.sample(["edges { cursor node { NODE } }", "edges { node { NODE } }",
                            "pageInfo { hasNextPage endCursor startCursor hasPreviousPage }",
                            "totalCount", "__typename"], rng.randint(1, 3))  # fmt: skip
        body = " ".join(parts).replace("NODE", _subject(rng, 0))
        as_of = rng.choice([AS_OF, AS_OF, "2025-01-01T00:00:00Z", "not a time"])
        found.append((f"query F($asOf: DateTime) {{ subjects({', '.join(args)}) {{ {body} }} }}",
                      {"asOf": as_of}))  # fmt: skip
    return found


def fuzzed_subjects(count: int, seed: int = 35) -> list[tuple[str, dict[str, Any]]]:
    """Seeded `subject(key | id)` documents: known keys, an unknown one, an id, a bad id,
    both or neither (the resolver's error), a time or none."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        which = rng.choice(['key: "repository:checkout-web"', 'key: "team:echo"',
                            'key: "service:notification-engine"', 'key: "repository:absent"',
                            'id: "U3ViamVjdDpyZXBvc2l0b3J5OmNoZWNrb3V0LXdlYg=="', 'id: "bm9wZQ=="',
                            'key: "team:echo", id: "bm9wZQ=="', ""])  # fmt: skip
        timed = rng.random() < 0.6
        args = ", ".join(a for a in (which, "asOf: $asOf" if timed else "") if a)
        call = f"subject({args})" if args else "subject"
        head = "query K($asOf: DateTime)" if timed else "query K"
        variables = {"asOf": rng.choice([AS_OF, "2025-01-01T00:00:00Z"])} if timed else {}
        alias = rng.choice(["", "one: "])
        found.append((f"{head} {{ {alias}{call} {{ {_subject(rng, 1)} }} }}", variables))
    return found


def _counter(metrics: str, name: str) -> float:
    return sum(float(line.split()[-1]) for line in metrics.splitlines()
               if line.startswith(name + "{") or line.startswith(name + " "))  # fmt: skip


@pytest.fixture(scope="module")
async def demo(falkor: Any) -> Any:
    org = new_org()
    await falkor.bootstrap(org)
    lines = (json.dumps(r) for r in generate(1500, seed=11))
    assert (await Projector(falkor.org(org), source="demo").run(lines)).ok
    async for gateway in serve(falkor):
        yield gateway, await gateway.token(org)


async def _twice(gateway: Gateway, token: str, body: dict[str, Any]) -> tuple[Any, Any, float]:
    """The plain path's response, the compiled path's, and how many requests plans answered."""
    metrics = gateway.url.replace("/graphql", "/metrics")
    headers = {"Authorization": f"Bearer {token}"}
    first = await gateway.client.post(gateway.url, json=body, headers=headers)
    before = _counter((await gateway.client.get(metrics)).text, "fabric_compiled_requests_total")
    second = await gateway.client.post(gateway.url, json=body, headers=headers)
    after = _counter((await gateway.client.get(metrics)).text, "fabric_compiled_requests_total")
    return first, second, after - before


def _same(first: Any, second: Any) -> None:
    assert (first.status_code, first.headers["content-type"]) == (
        second.status_code, second.headers["content-type"])  # fmt: skip
    assert first.json() == second.json()


def _fallback_counts(metrics: str) -> dict[str, float]:
    found = re.finditer(r'^fabric_compiled_fallbacks_total\{reason="([^"]+)"\} (\S+)$', metrics,
                        re.M)  # fmt: skip
    return {m.group(1): float(m.group(2)) for m in found}


# Why a documented query runs the plain path: a root field of the investigation engine or
# of resolution that no plan covers (facts, search, resolveReference, investigation(s),
# answerProjection), or the federation guide's SDL, no query, which never passes validation.
PLAIN_REASONS = {"uncovered:field", "unseen"}


async def test_every_documented_query_answers_the_same_compiled(demo: Any) -> None:
    """Each documented query's second request runs from its plan or is counted once with its
    reason, and answers what the plain path answered; README's request, GraphiQL's first
    query and every dashboard query run from their plans."""
    gateway, token = demo
    metrics = gateway.url.replace("/graphql", "/metrics")
    headers = {"Authorization": f"Bearer {token}"}
    compiled, plain = [], []
    for text, name in documented():
        used = {k: v for k, v in VARIABLES.items() if re.search(rf"\${k}\b", text)}
        body = {"query": text, "variables": used, "operationName": name}
        first = await gateway.client.post(gateway.url, json=body, headers=headers)
        before = (await gateway.client.get(metrics)).text
        second = await gateway.client.post(gateway.url, json=body, headers=headers)
        after = (await gateway.client.get(metrics)).text
        _same(first, second)
        ran = _counter(after, "fabric_compiled_requests_total") - _counter(
            before, "fabric_compiled_requests_total")  # fmt: skip
        was = _fallback_counts(before)
        counted = {k: n - was.get(k, 0) for k, n in _fallback_counts(after).items()
                   if n != was.get(k, 0)}  # fmt: skip
        assert ran + sum(counted.values()) == 1, (text, counted)
        (compiled if ran else plain).append((text, name, *counted))
    assert {reason for *_, reason in plain} <= PLAIN_REASONS, plain
    readme = [json.loads(b)["query"] for b in _CURL.findall((ROOT / "README.md").read_text())]
    graphiql = _GRAPHIQL.findall((ROOT / "gateway" / "graphiql.html").read_text())
    assert len(readme) == len(graphiql) == 1
    assert {*readme, *graphiql} <= {text for text, _, in compiled}
    assert {name for _, name in documented() if name} <= {name for _, name in compiled}
    # README's, GraphiQL's, the dashboard's eight queries, bench/dashboard.py's page, and the
    # guides' lists and subjects.
    assert len(compiled) >= 15


async def test_fuzzed_documents_answer_the_same_compiled(demo: Any) -> None:
    gateway, token = demo
    outcomes = {"compiled": 0, "plain": 0, "errors": 0, "series compiled": 0}
    for text, variables in fuzzed(200):
        first, second, ran = await _twice(gateway, token, {"query": text, "variables": variables})
        _same(first, second)
        outcomes["compiled" if ran else "plain"] += 1
        outcomes["errors"] += bool(first.json().get("errors"))
        outcomes["series compiled"] += bool(ran and "activity(" in text)
    # The set exercises both paths, and errors (all on the plain path).
    print(outcomes)
    assert outcomes["compiled"] >= 60 and outcomes["plain"] >= 30 and outcomes["errors"] >= 20
    assert outcomes["series compiled"] >= 12


async def test_the_dashboard_page_is_compiled_and_fallbacks_are_counted(demo: Any) -> None:
    gateway, token = demo
    body = {"query": DASHBOARD_PAGE, "variables": {"asOf": AS_OF}}
    first, second, ran = await _twice(gateway, token, body)
    assert ran == 1 and first.json() == second.json()
    assert len(second.json()["data"]["subjects"]["edges"]) > 0
    metrics = gateway.url.replace("/graphql", "/metrics")
    directive = "{ subjects(first: 2) { edges { node { key @include(if: true) } } } }"
    for _ in range(2):
        await gateway.query(token, directive)
    text = (await gateway.client.get(metrics)).text
    assert _counter(text, 'fabric_compiled_fallbacks_total{reason="uncovered:selection"}') >= 1
    assert _counter(text, 'fabric_compiled_fallbacks_total{reason="unseen"}') >= 2


THREE_LEVELS = """query Three($asOf: DateTime) {
  subjects(filter: {kind: REPOSITORY}, first: 50, orderBy: KEY, asOf: $asOf) {
    edges { node { key name
      owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key }
      dependencies: neighbors(types: [DEPENDS_ON], direction: OUTGOING, first: 3) { key kind
        owners: neighbors(types: [OWNS], direction: INCOMING, first: 2) { id name } } } } } }"""


async def test_a_plan_reads_every_level_of_neighbours_in_one_round_trip(demo: Any) -> None:
    """The plain path reads a level of neighbours per round trip (the third level asks other
    pages than the first, so it is not read with it); a plan reads them all in one, as
    bench/dashboard.py's hand-written baseline does: the API key, the page, the neighbours."""
    gateway, token = demo
    body = {"query": THREE_LEVELS, "variables": {"asOf": AS_OF}}
    answers, trips = [], []
    for _ in range(3):  # unseen (the plain path), then from its plan, twice
        with request_statements() as sent:
            answers.append(await gateway.client.post(
                gateway.url, json=body, headers={"Authorization": f"Bearer {token}"}))
            trips.append(await sent.of(answers[-1]))  # fmt: skip
    assert trips == [4, 3, 3]
    assert answers[0].json() == answers[1].json() == answers[2].json()
    nodes = [edge["node"] for edge in answers[0].json()["data"]["subjects"]["edges"]]
    assert len(nodes) > 20 and any(node["dependencies"] for node in nodes)
    assert any(dep["owners"] for node in nodes for dep in node["dependencies"])


SERIES = """query Series($asOf: DateTime, $window: TimeWindowInput!) {
  subjects(filter: {kinds: [REPOSITORY, SERVICE]}, first: 40, orderBy: KEY, asOf: $asOf) {
    edges { node { key
      commits: activity(metric: COMMITS, bucket: WEEK, window: $window) {
        metric bucket total points { start value count } }
      deploys: activity(metric: DEPLOYS, window: $window) { total points { count __typename } }
      __typename } } } }"""


async def test_a_lists_series_run_from_its_plan_and_answer_the_same(demo: Any) -> None:
    """The organisation page's shape (a list's nodes with `activity`), where commits sum
    rollups (a bucket's value is not its count of records) and deploys count records."""
    gateway, token = demo
    body = {"query": SERIES, "variables": {"asOf": AS_OF, "window": WINDOW}}
    first, second, ran = await _twice(gateway, token, body)
    assert ran == 1  # the second from its plan
    _same(first, second)
    nodes = [edge["node"] for edge in second.json()["data"]["subjects"]["edges"]]
    weeks = [p for node in nodes for p in node["commits"]["points"]]
    assert any(p["value"] != p["count"] for p in weeks)  # sums, not counts
    assert sum(node["deploys"]["total"] for node in nodes) > 0


async def test_fuzzed_subject_documents_answer_the_same_compiled(demo: Any) -> None:
    gateway, token = demo
    outcomes = {"compiled": 0, "plain": 0, "null": 0, "errors": 0}
    for text, variables in fuzzed_subjects(80):
        first, second, ran = await _twice(gateway, token, {"query": text, "variables": variables})
        _same(first, second)
        outcomes["compiled" if ran else "plain"] += 1
        answer = first.json()
        outcomes["errors"] += bool(answer.get("errors"))
        outcomes["null"] += bool(answer.get("data") and None in answer["data"].values())
    print(outcomes)
    assert outcomes["compiled"] >= 25 and outcomes["null"] >= 5 and outcomes["errors"] >= 5


def test_plans_are_kept_per_schema_version() -> None:
    compiled = CompiledDocuments(10_000, Metrics())
    first = build_schema()
    compiled.bind(first)
    document_text = "{ subjects { edges { node { key } } } }"
    from graphql import parse

    compiled.remember(document_text, parse(document_text))
    assert compiled.known(document_text)
    assert compiled.version == schema_version(first)
    compiled.bind(build_schema(extensions=[]))  # the same SDL: a rebuilt schema
    assert not compiled.known(document_text)  # plans never outlive the schema they were made for


async def test_a_persisted_query_over_get_keeps_its_etag_compiled(demo: Any) -> None:
    gateway, token = demo
    text = "query Names($asOf: DateTime) { subjects(first: 3, asOf: $asOf) { edges { node { key name } } } }"
    persisted = {"persistedQuery": {"version": 1, "sha256Hash": sha256_hex(text)}}
    params = {"extensions": json.dumps(persisted), "variables": json.dumps({"asOf": AS_OF})}
    headers = {"Authorization": f"Bearer {token}"}
    metrics = gateway.url.replace("/graphql", "/metrics")
    registered = await gateway.client.get(gateway.url, params={**params, "query": text},
                                          headers=headers)  # fmt: skip
    assert registered.status_code == 200
    answers = []
    for _ in range(2):  # the stored text: unseen (the plain path), then from its plan
        before = _counter(
            (await gateway.client.get(metrics)).text, "fabric_compiled_requests_total"
        )
        answers.append(await gateway.client.get(gateway.url, params=params, headers=headers))
        after = _counter((await gateway.client.get(metrics)).text, "fabric_compiled_requests_total")
    plain, compiled = answers
    assert after - before == 1  # the second one ran from its plan
    _same(plain, compiled)
    assert compiled.json() == registered.json()
    assert plain.headers["etag"] == compiled.headers["etag"]
    again = await gateway.client.get(gateway.url, params=params,
                                     headers={**headers, "If-None-Match": compiled.headers["etag"]})  # fmt: skip
    assert again.status_code == 304
