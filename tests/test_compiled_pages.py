"""Compiled plans of a subject's pages (relationships, episodes, source records), of `node` and
`nodes`, and of fragments answer exactly what the plain path answers (resolvers/page_plan.py,
resolvers/object_plan.py, resolvers/node_plan.py, resolvers/plan_fields.py).

Every dashboard document runs from its plan from its second request on, as the page sends it
(a persisted query over GET, with its ETag), and a seeded fuzzed set of documents over the new
shapes (arguments valid and not, cursors, fragments, ids of every type, good and bad) is sent
twice to one gateway: the plain path's body and the plan's must be the same.
"""

from __future__ import annotations

import base64
import json
import random
from typing import Any

from gateway.dashboard import documents
from gateway.documents import sha256_hex
from resolvers.relay import from_global_id
from tests.test_compiled import AS_OF, WINDOW, _counter, _same, _twice, demo

__all__ = ["demo"]  # the module's demo organisation and gateway (tests/test_compiled.py)

EARLIER = "2026-05-01T00:00:00Z"


def gid(type_name: str, local: str) -> str:
    return base64.urlsafe_b64encode(f"{type_name}:{local}".encode()).decode().rstrip("=")


SUBJECT_IDS = [gid("Subject", k) for k in ("service:payments", "service:notification-engine",
                                           "repository:payments-api", "team:absent")]  # fmt: skip
OTHER_IDS = [gid("SourceRecord", "pull_request:1"), gid("SourceRecord", "incident:3"),
             gid("SourceRecord", "deploy:2"), gid("SourceRecord", "nope:1"),
             gid("Episode", "episode:1"), gid("Episode", "episode:9"), gid("Episode", "x:1"),
             gid("Relationship", json.dumps(["team:payments", "r1"])), gid("Nope", "a"),
             "bm9wZQ", "!!", gid("InvestigationResult", "x")]  # fmt: skip
DASHBOARD_VARIABLES: dict[str, dict[str, Any]] = {
    "DashboardClock": {"window": WINDOW},
    "OrgRepositories": {"asOf": AS_OF, "window": WINDOW, "bucket": "WEEK"},
    "OrgServices": {"asOf": AS_OF, "window": WINDOW, "bucket": "WEEK"},
    "OrgRecent": {"ids": SUBJECT_IDS, "window": WINDOW},
    "SubjectPage": {"key": "repository:payments-api", "asOf": AS_OF, "earlier": EARLIER,
                    "window": WINDOW, "bucket": "WEEK"},
    "SubjectSearch": {"search": "pay"},
    "RecordDetail": {"id": gid("SourceRecord", "pull_request:1")},
    "LiveActive": {},
}


def _codes(body: dict[str, Any]) -> set[str]:
    return {str((e.get("extensions") or {}).get("code")) for e in body.get("errors") or ()}


def _fallbacks(metrics: str) -> float:
    return _counter(metrics, "fabric_compiled_fallbacks_total")


async def test_every_dashboard_document_runs_compiled_with_its_etag(demo: Any) -> None:
    """As the page sends them: registered once, then by hash over GET. From the second request
    on, no document falls back, and body and ETag are the plain path's."""
    gateway, token = demo
    headers = {"Authorization": f"Bearer {token}"}
    metrics_url = gateway.url.replace("/graphql", "/metrics")
    queries = {n: t for n, t in documents().items() if n in DASHBOARD_VARIABLES}
    assert set(queries) == set(DASHBOARD_VARIABLES)  # every query the pages send
    for name, text in queries.items():
        persisted = {"persistedQuery": {"version": 1, "sha256Hash": sha256_hex(text)}}
        params = {"extensions": json.dumps(persisted), "operationName": name,
                  "variables": json.dumps(DASHBOARD_VARIABLES[name])}  # fmt: skip
        first = await gateway.client.get(gateway.url, params={**params, "query": text},
                                         headers=headers)  # fmt: skip
        plain = await gateway.client.get(gateway.url, params=params, headers=headers)
        before = (await gateway.client.get(metrics_url)).text
        compiled = await gateway.client.get(gateway.url, params=params, headers=headers)
        after = (await gateway.client.get(metrics_url)).text
        assert first.status_code == 200 and "errors" not in first.json(), name
        assert _fallbacks(after) - _fallbacks(before) == 0, name
        ran = _counter(after, "fabric_compiled_requests_total") - _counter(
            before, "fabric_compiled_requests_total")  # fmt: skip
        assert ran == 1, name
        _same(plain, compiled)
        assert plain.headers["etag"] == compiled.headers["etag"], name
    # The pages have something to show: the subject page's every part, the recent records.
    page = await gateway.query(token, queries["SubjectPage"], DASHBOARD_VARIABLES["SubjectPage"])
    subject = page.json()["data"]["subject"]
    assert subject["now"]["edges"] and subject["records"] and subject["episodes"]["edges"]
    assert any(r["actor"] for r in subject["records"])
    assert any(e["node"]["mentions"] for e in subject["episodes"]["edges"])


RELATIONSHIP = ("{ id type validFrom validTo evidence source __typename "
                "from { key name kind } to { key __typename } }")  # fmt: skip
RECORD = ("id key recordKind title start end due status severity environment metric value "
          "source __typename subject { key name } actor { key kind }")  # fmt: skip
EPISODE = "id key occurredAt text source __typename mentions{MENTIONS} { key name kind }"
FRAGMENTS = ["fragment Rel on Relationship { id type from { key } to { key name } }",
             "fragment Sub on Subject { key name kind }"]
PAGE_VARIABLES = {"asOf": "DateTime", "earlier": "DateTime", "window": "TimeWindowInput"}


def _connection(rng: random.Random, item: str, cursor: bool) -> str:
    parts = rng.sample([f"edges {{ {'cursor ' if cursor else ''}node {item} }}",
                        "pageInfo { hasNextPage hasPreviousPage startCursor endCursor }",
                        "totalCount", "__typename", "edges { __typename }"],
                       rng.randint(1, 3))  # fmt: skip
    if "edges { __typename }" in parts and any(p.startswith("edges {") and p != "edges { __typename }"
                                               for p in parts):  # fmt: skip
        parts.remove("edges { __typename }")  # one `edges` field
    return " ".join(parts)


def _args(rng: random.Random, groups: list[list[str]]) -> list[str]:
    """Up to two arguments, each of another group (an argument given twice is invalid)."""
    return [rng.choice(group) for group in rng.sample(groups, rng.randint(0, 2))]


def _head(name: str, text: str, types: dict[str, str]) -> str:
    """The operation's head declaring the variables `text` uses, and the fragments it spreads."""
    used = [f"${v}: {t}" for v, t in types.items() if f"${v}" in text]
    head = f"query {name}({', '.join(used)})" if used else f"query {name}"
    spread = [f for f in FRAGMENTS if f"...{f.split()[1]}" in text]
    return " ".join([head, text, *spread])


def _pages(rng: random.Random) -> str:
    """Some of a subject's pages, with arguments valid and not."""
    found = []
    if rng.random() < 0.6:
        args = _args(rng, [["first: 3", "first: 0", "first: 700"],
                           ["asOf: $earlier", 'asOf: "1960-01-01"'], ["types: [OWNS, DEPENDS_ON]"],
                           ["direction: INCOMING"], ['after: "bm90IGEgY3Vyc29y"']])  # fmt: skip
        item = rng.choice([RELATIONSHIP, "{ ...Rel }", "{ ... on Relationship { id type } }"])
        call = f"relationships({', '.join(args)})" if args else "relationships"
        found.append(f"{rng.choice(['', 'rels: '])}{call} {{ {_connection(rng, item, True)} }}")
    if rng.random() < 0.6:
        args = _args(rng, [["first: 2", "first: 0", "first: 900"],
                           ["since: $earlier", 'since: "1900-01-01T00:00:00Z"'], ["until: $asOf"],
                           ['after: "bm90IGEgY3Vyc29y"']])  # fmt: skip
        mentions = rng.choice(["", "(asOf: $earlier)", '(asOf: "3000-01-01")'])
        item = "{ " + EPISODE.replace("{MENTIONS}", mentions) + " }"
        call = f"episodes({', '.join(args)})" if args else "episodes"
        found.append(f"{call} {{ {_connection(rng, item, True)} }}")
    if rng.random() < 0.6:
        args = _args(rng, [["first: 5", "first: 0", "first: 800"],
                           ["kinds: [PULL_REQUEST, INCIDENT]", "kinds: [DEPLOY]"],
                           ["window: $window", 'window: {from: "2026-11-01T00:00:00Z", '
                                               'to: "2026-01-01T00:00:00Z"}']])  # fmt: skip
        call = f"sourceRecords({', '.join(args)})" if args else "sourceRecords"
        found.append(f"{rng.choice(['', 'recs: '])}{call} {{ {RECORD} }}")
    if rng.random() < 0.3:
        found.append("activity(metric: COMMITS, bucket: WEEK, window: $window) { total }")
    if rng.random() < 0.2:
        found.append(rng.choice(["...Sub", "... on Subject { description }",
                                 "... on Node { id }"]))  # fmt: skip
    return " ".join(found) or "key"


def fuzzed_pages(count: int, seed: int = 36) -> list[tuple[str, dict[str, Any]]]:
    """Seeded documents reading subjects' pages at a root `subject` or on a list's nodes."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        pages = _pages(rng)
        if rng.random() < 0.6:
            key = rng.choice(["repository:payments-api", "service:payments", "team:payments",
                              "person:alex-kim", "repository:absent"])  # fmt: skip
            body = f'subject(key: "{key}", asOf: $asOf) {{ key {pages} }}'
        else:
            kind = rng.choice(["SERVICE", "REPOSITORY", "TEAM"])
            body = (f"subjects(filter: {{kind: {kind}}}, first: {rng.choice([3, 8])}, "
                    f"asOf: $asOf) {{ edges {{ node {{ key {pages} }} }} }}")  # fmt: skip
        text = _head("P", f"{{ {body} }}", PAGE_VARIABLES)
        variables = {"asOf": rng.choice([AS_OF, "2026-08-01T00:00:00Z"]), "earlier": EARLIER,
                     "window": rng.choice([WINDOW, {"from": "2026-10-01T00:00:00Z",
                                                    "to": "2026-11-01T00:00:00Z"}])}  # fmt: skip
        found.append((text, variables))
    return found


NODE_SELECTIONS = [
    "... on Subject { key name sourceRecords(kinds: [INCIDENT, DEPLOY], window: $window, "
    "first: 100) { id key recordKind title start end status severity environment } }",
    f"... on SourceRecord {{ {RECORD} }}",
    "... on Episode { key text mentions { key } }",
    "id __typename",
    "... on Subject { key neighbors(types: [OWNS], direction: INCOMING, first: 1) { key } "
    "activity(metric: DEPLOYS, window: $window) { total } }",
    "... on Relationship { id }",
]


def fuzzed_nodes(count: int, seed: int = 37) -> list[tuple[str, dict[str, Any]]]:
    """Seeded `node(id)` and `nodes(ids)` documents: ids of every type, unknown, malformed,
    of a type the plan leaves to the plain path, and more than `nodes` takes."""
    rng = random.Random(seed)
    every = SUBJECT_IDS + OTHER_IDS
    found = []
    for _ in range(count):
        selection = " ".join(rng.sample(NODE_SELECTIONS, rng.randint(1, 3)))
        if rng.random() < 0.5:
            variables = {"id": rng.choice(every), "window": WINDOW}
            text = _head("N", f"{{ node(id: $id) {{ {selection} }} }}",
                         {"id": "ID!", "window": "TimeWindowInput"})
        else:
            ids = rng.sample(every, rng.randint(0, 6)) if rng.random() < 0.9 else \
                [SUBJECT_IDS[0]] * 101  # fmt: skip
            variables = {"ids": ids, "window": WINDOW}
            text = _head("N", f"{{ nodes(ids: $ids) {{ {selection} }} }}",
                         {"ids": "[ID!]!", "window": "TimeWindowInput"})
        found.append((text, variables))
    return found


async def test_fuzzed_page_documents_answer_the_same_compiled(demo: Any) -> None:
    gateway, token = demo
    outcomes = {"compiled": 0, "plain": 0, "errors": 0, "fragments compiled": 0, "items": 0}
    for text, variables in fuzzed_pages(160):
        first, second, ran = await _twice(gateway, token, {"query": text, "variables": variables})
        _same(first, second)
        outcomes["compiled" if ran else "plain"] += 1
        outcomes["errors"] += bool(first.json().get("errors"))
        outcomes["fragments compiled"] += bool(ran and "fragment " in text)
        outcomes["items"] += bool(ran) * first.text.count('"key"')
    print(outcomes)
    assert outcomes["compiled"] >= 60 and outcomes["errors"] >= 20
    assert outcomes["fragments compiled"] >= 5 and outcomes["items"] >= 1000


async def test_fuzzed_node_documents_answer_the_same_compiled(demo: Any) -> None:
    gateway, token = demo
    outcomes = {"compiled": 0, "plain": 0, "errors": 0, "nulls compiled": 0}
    for text, variables in fuzzed_nodes(120):
        first, second, ran = await _twice(gateway, token, {"query": text, "variables": variables})
        _same(first, second)
        outcomes["compiled" if ran else "plain"] += 1
        outcomes["errors"] += bool(first.json().get("errors"))
        outcomes["nulls compiled"] += bool(ran and "null" in first.text)
    print(outcomes)
    assert outcomes["compiled"] >= 40 and outcomes["plain"] >= 10 and outcomes["errors"] >= 3
    assert outcomes["nulls compiled"] >= 10


async def test_relationship_ids_answer_the_same_compiled(demo: Any) -> None:
    """`node` and `nodes` with relationships' ids (real ones, one of an unknown start, and
    malformed ones) run compiled, with the plain path's bodies; an investigation result's id
    still runs the plain path."""
    gateway, token = demo
    found = await gateway.query(token, """{ subject(key: "service:payments") {
        relationships(first: 4) { edges { node { id } } } } }""")  # fmt: skip
    real = [e["node"]["id"] for e in found.json()["data"]["subject"]["relationships"]["edges"]]
    assert len(real) >= 2
    parsed = from_global_id(real[0])
    assert parsed is not None
    start, rel_id = json.loads(parsed[1])
    odd = [gid("Relationship", json.dumps(["service:absent", rel_id])),
           gid("Relationship", json.dumps([start, "absent"])), gid("Relationship", "not json"),
           gid("Relationship", json.dumps([1, rel_id])), gid("Relationship", '["a", "b", "c"]'),
           gid("Relationship", '"ab"')]  # fmt: skip
    selection = f"... on Relationship {RELATIONSHIP} ... on Subject {{ key __typename }}"
    single = "query R($id: ID!) { node(id: $id) { " + selection + " } }"
    many = "query R($ids: [ID!]!) { nodes(ids: $ids) { " + selection + " } }"
    written = 0
    for body in ([{"query": single, "variables": {"id": i}} for i in real + odd]
                 + [{"query": many, "variables": {"ids": real + odd + SUBJECT_IDS[:1]}}]):
        first, second, ran = await _twice(gateway, token, body)
        _same(first, second)
        assert ran == 1, body
        written += first.text.count('"type"')
    assert written >= 2 * len(real)  # each real one, alone and in `nodes`


ASK = """mutation { investigate(input: {question: "who owns payments-api?"}) {
  result { id } } }"""
RESULT_IDENTITY = [
    'query N($id: ID!) { node(id: $id) { id __typename ... on Subject { key } } }',
    'query N($id: ID!) { node(id: $id) { ... on InvestigationResult { i: id t: __typename } } }',
    "query N($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on InvestigationResult { id }"
    " ... on SourceRecord { key title } } }",
]


async def test_investigation_result_ids_answer_the_same_compiled(demo: Any) -> None:
    """`node` and `nodes` with an investigation result's id run compiled when the selection
    asks no more of it than its id and type name (the dashboard's RecordDetail asks nothing
    of it), with the plain path's bodies, for a stored result, an unknown one and malformed
    ones; a selection asking more of it runs the plain path, counted as `node`."""
    gateway, token = demo
    for _ in range(3):  # a loaded machine can take an investigation past its time limit,
        asked = (await gateway.query(token, ASK)).json()  # and only that is asked again
        if not asked.get("data") and _codes(asked) == {"TIMEOUT"}:
            continue
        break
    assert asked.get("data"), asked
    real = asked["data"]["investigate"]["result"]["id"]
    ids = [real, gid("InvestigationResult", "absent"), gid("InvestigationResult", "x" * 65),
           gid("InvestigationResult", "a\u0000b"), gid("InvestigationResult", "")]  # fmt: skip
    detail = {"query": documents()["RecordDetail"], "operationName": "RecordDetail"}
    bodies = [{**detail, "variables": {"id": i}} for i in ids]
    bodies += [{"query": text, "variables": {"id": i}} for text in RESULT_IDENTITY[:2]
               for i in ids]  # fmt: skip
    bodies.append({"query": RESULT_IDENTITY[2], "variables": {"ids": [*ids, *OTHER_IDS[:2]]}})
    answers = []
    for body in bodies:
        first, second, ran = await _twice(gateway, token, body)
        _same(first, second)
        assert ran == 1, body
        answers.append(second.json()["data"])
    assert answers[0] == {"node": {}} and answers[1] == {"node": None}
    assert answers[len(ids)] == {"node": {"id": real, "__typename": "InvestigationResult"}}
    assert answers[-1]["nodes"][0] == {"__typename": "InvestigationResult", "id": real}
    metrics = gateway.url.replace("/graphql", "/metrics")
    reason = 'fabric_compiled_fallbacks_total{reason="node"}'
    before = _counter((await gateway.client.get(metrics)).text, reason)
    more = "query N($id: ID!) { node(id: $id) { ... on InvestigationResult { id question } } }"
    first, second, ran = await _twice(gateway, token, {"query": more, "variables": {"id": real}})
    _same(first, second)
    assert ran == 0 and second.json()["data"]["node"]["question"] == "who owns payments-api?"
    assert _counter((await gateway.client.get(metrics)).text, reason) == before + 1


NEIGHBOR_ACTIVITY = [
    # The dashboard's list with each dependency's deploys, and its owner's below it.
    """query A($asOf: DateTime!, $window: TimeWindowInput) {
      subjects(filter: {kind: REPOSITORY}, orderBy: RECENTLY_ACTIVE, first: 20, asOf: $asOf) {
        edges { node { key dependencies: neighbors(types: [DEPENDS_ON], direction: OUTGOING,
                                                   first: 5) {
          key deploys: activity(metric: DEPLOYS, window: $window) {
            metric bucket total points { start value count __typename } __typename }
          owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key
            commits: activity(metric: COMMITS, bucket: WEEK) { total points { value } } } } } } } }""",
    # A subject's neighbours as of an earlier time (their default window ends there), two
    # series on one level.
    """query B($key: String!, $earlier: DateTime!, $window: TimeWindowInput) {
      subject(key: $key) { key neighbors(asOf: $earlier, first: 8) { key
        a: activity(metric: PULL_REQUESTS_MERGED, bucket: WEEK) { total }
        b: activity(metric: LINES_CHANGED, window: $window) { total points { start value } } } } }""",
    # A window that ends before it starts: the plain path's error, in its place.
    """query C($key: String!) { subject(key: $key) { neighbors(first: 3) { key
        activity(metric: DEPLOYS, window: {from: "2026-09-01T00:00:00Z",
                                           to: "2026-08-01T00:00:00Z"}) { total } } } }""",
]


async def test_activity_under_neighbors_answers_the_same_compiled(demo: Any) -> None:
    """`activity` on a level of neighbours runs compiled (read as of the level's time), with
    the plain path's bodies; a window the plain path refuses is its to report."""
    gateway, token = demo
    variables = {"asOf": AS_OF, "window": WINDOW, "key": "repository:payments-api",
                 "earlier": "2026-09-15T00:00:00Z"}  # fmt: skip
    totals = 0
    for n, text in enumerate(NEIGHBOR_ACTIVITY):
        used = {k: v for k, v in variables.items() if f"${k}" in text}
        first, second, ran = await _twice(gateway, token, {"query": text, "variables": used})
        _same(first, second)
        body = first.json()
        if n < 2:
            assert ran == 1 and "errors" not in body, body
            totals += first.text.count('"total"')
        else:
            assert ran == 0 and body["errors"], body
    assert totals >= 20
