"""Hostile and broken requests, generated with hypothesis, and the oracle that judges answers.

Used by tests/test_fuzz.py (a short run in every test run) and tests/fuzz_long.py (a long
run, as a script). A case is one HTTP request; the oracle accepts any 4xx or 2xx answer that
is JSON, whose errors all carry an `extensions.code` other than INTERNAL_SERVER_ERROR, and
that shows no server internals. A 5xx, a masked internal error or a hang is a failure, and so
is a value only the FalkorDB adapter's last check refused (validation should have named it).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from hypothesis import strategies as st

from gateway.errors import UNREPRESENTABLE
from resolvers.relay import encode_cursor


@dataclass(frozen=True)
class Case:
    kind: str
    method: str = "POST"
    body: bytes | None = None
    content_type: str | None = "application/json"
    params: dict[str, str] = field(default_factory=dict)
    writes: bool = False  # sent with the scratch organisation's key (ingest), not the target's
    authorization: str | None = None  # instead of the key's

    def send(self, client: httpx.Client, url: str, token: str) -> httpx.Response:
        authorization = self.authorization or f"Bearer {token}"
        headers: dict[str, str | bytes] = {
            "Authorization": authorization.encode("utf-8", "surrogatepass")
        }
        if self.content_type is not None:
            headers["content-type"] = self.content_type.encode("utf-8", "surrogatepass")
        if self.method == "GET":
            return client.get(url, params=self.params, headers=headers)
        return client.post(url, content=self.body or b"", headers=headers)


def judge(response: httpx.Response) -> str | None:
    """None when the answer is acceptable for a client mistake, else the kind of failure."""
    if response.status_code >= 500:
        return f"status-{response.status_code}"
    request = response.request
    if request.method == "GET" and b"query=" not in request.url.query:
        return None  # the GraphiQL page (an HTML answer) when no query is given
    if response.status_code == 400 and response.text == "Invalid HTTP request received.":
        return None  # uvicorn refused malformed HTTP (a control character in a header)
    if "Traceback" in response.text or 'File "' in response.text:
        return "leak"
    try:
        body = response.json()
    except ValueError:
        return "not-json"
    errors = body.get("errors") if isinstance(body, dict) else None
    for error in errors or ():
        code = (error.get("extensions") or {}).get("code")
        if not code:
            return "no-code"
        if code == "INTERNAL_SERVER_ERROR":
            return "internal"
        if error.get("message") == UNREPRESENTABLE:
            return "backstop"  # the adapter's last check caught what validation should have
    return None


# -- values --------------------------------------------------------------------------------

EDGE_INTS = [0, -1, 2**31 - 1, 2**31, -(2**31) - 1, 2**53 + 1, 2**63 - 1, 2**63, -(2**63),
             -(2**63) - 1, 2**64, 10**30, -(10**30)]
NASTY_TEXT = ["\x00", "a\x00b", "\ud800", "\uffff", "\u202e", "💥", "'", '"', "\\", "`",
              "$org", "{}", "}) RETURN 1 //", "' OR 1=1 --", "\n", "\t", " ", "", "%00",
              "a" * 300, "é" * 70, "repository:", "repository:\x00x", ":", "team:a\x00"]
NAMES = ["query", "variables", "operationName", "extensions", "first", "after", "key", "id",
         "kind", "kinds", "namePrefix", "attributes", "includeStubs", "from", "to", "question",
         "asOf", "range", "allowClarification", "priorSubjectReceipts", "maxDrivers", "type",
         "name", "valid_from", "valid_to", "aliases", "text", "mentions", "occurred_at"]

text = st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=40),
                 st.text(alphabet=st.characters(max_codepoint=0x7f), max_size=20))
ints = st.one_of(st.sampled_from(EDGE_INTS), st.integers(), st.integers(-(2**70), 2**70))
scalars = st.one_of(st.none(), st.booleans(), ints, st.floats(allow_nan=True), text)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(st.sampled_from(NAMES), text), inner, max_size=5),
    ),
    max_leaves=12,
)

DATETIMES = ["2026-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
             "10000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "2026-02-30T00:00:00Z",
             "2026-01-01T24:00:00Z", "2026-01-01T23:59:60Z", "2026-01-01T00:00:00+25:00",
             "2026-01-01T00:00:00.99999999999999999Z", "1969-12-31T23:59:59Z",
             "2199-12-31T23:59:59Z", "2200-01-01T00:00:00Z", "now", "yesterday", "", "2026",
             "2026-01-01", "2026-01-01T00:00", "2026-01-01T00:00:00\x00Z", "1e10", "-1"]
datetimes = st.one_of(
    st.sampled_from(DATETIMES),
    st.builds("{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}{}".format,
              st.integers(0, 99_999), st.integers(0, 99), st.integers(0, 99),
              st.integers(0, 99), st.integers(0, 99), st.integers(0, 99),
              st.sampled_from(["Z", "", "+00:00", "-23:59", "+99:99", "z", " UTC"])),
    ints, text,
)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _global_id(type_name: str, local: str) -> str:
    """A global id as the gateway makes them, for any text (to_global_id refuses surrogates)."""
    return _b64(f"{type_name}:{local}".encode("utf-8", "surrogatepass"))


ids = st.one_of(
    text,
    st.builds(_global_id, st.sampled_from(["Subject", "Relationship", "Episode", "SourceRecord",
                                             "InvestigationResult", "Nope", ""]),
              st.one_of(text, st.just(json.dumps(["a\x00", "b"])), st.just("[1, 2]"))),
    st.builds(_b64, st.binary(max_size=40)),
    st.builds(lambda n: "A" * n, st.integers(0, 5_000)),
)
cursors = st.one_of(
    st.builds(lambda values: encode_cursor(*values), st.lists(text, max_size=4)),
    st.builds(lambda v: _b64(json.dumps(v, default=str).encode()), json_values),
    st.builds(lambda n, key: encode_cursor(str(n), key), ints, text),
    ids,
)
receipts = st.one_of(
    st.builds(lambda sig, key: f"{sig}.{_b64(key.encode('utf-8', 'surrogatepass'))}", text, text),
    st.builds(lambda parts: ".".join(parts), st.lists(text, max_size=5)),
    text,
)
SPECIAL = {"id": ids, "cursor": cursors, "datetime": datetimes, "receipt": receipts,
           "int": ints, "text": text, "json": json_values}

# -- operations taking one fuzzed variable `$v` (its kind picks the generator) --------------

OPERATIONS: list[tuple[str, str]] = [
    ("int", "query($v: Int) { subjects(first: $v) { totalCount } }"),
    ("cursor", "query($v: String) { subjects(after: $v) { edges { cursor } } }"),
    ("cursor", "query($v: String) { subjects(after: $v, orderBy: RECENTLY_ACTIVE) { edges { cursor } } }"),
    ("cursor", "query($v: String) { subjects(after: $v, orderBy: NAME) { edges { cursor } } }"),
    ("text", "query($v: String) { subjects(search: $v) { totalCount } }"),
    ("json", "query($v: SubjectFilter) { subjects(filter: $v) { totalCount edges { node { key } } } }"),
    ("json", "query($v: JSON) { subjects(filter: {attributes: $v}) { totalCount } }"),
    ("datetime", "query($v: DateTime) { subjects(asOf: $v) { totalCount } }"),
    ("text", "query($v: String) { subject(key: $v) { key relationships { totalCount } } }"),
    ("id", "query($v: ID) { subject(id: $v) { key } }"),
    ("id", "query($v: ID!) { node(id: $v) { id } }"),
    ("json", "query($v: [ID!]!) { nodes(ids: $v) { id } }"),
    ("text", "query($v: String!) { search(query: $v) { score } }"),
    ("int", 'query($v: Int!) { search(query: "pay", first: $v) { score } }'),
    ("text", "query($v: String!) { resolveReference(ref: $v) { __typename } }"),
    ("int", 'query($v: Int!) { resolveReference(ref: "payments", limit: $v) { __typename } }'),
    ("id", "query($v: ID!) { investigation(id: $v) { id } }"),
    ("cursor", "query($v: String) { investigations(after: $v) { edges { cursor } } }"),
    ("text", "query($v: String) { investigations(subjectKey: $v) { edges { cursor } } }"),
    ("id", "query($v: ID!) { answerProjection(resultId: $v) { truncated } }"),
    ("json", 'query($v: ProjectionBudgetInput) { answerProjection(resultId: "x", budget: $v) { truncated } }'),
    ("text", "query($v: String!) { facts(subjectKey: $v) { kind } }"),
    ("json", 'query($v: TimeWindowInput) { facts(subjectKey: "repository:payments-api", window: $v) { kind } }'),
    ("cursor", 'query($v: String) { subject(key: "repository:payments-api") { relationships(after: $v) { edges { cursor } } } }'),
    ("cursor", 'query($v: String) { subject(key: "repository:payments-api") { episodes(after: $v) { edges { cursor } } } }'),
    ("datetime", 'query($v: DateTime) { subject(key: "repository:payments-api") { episodes(since: $v) { totalCount } } }'),
    ("datetime", 'query($v: DateTime) { subject(key: "repository:payments-api", asOf: $v) { neighbors { key } } }'),
    ("json", 'query($v: TimeWindowInput) { subject(key: "repository:payments-api") { activity(metric: PULL_REQUESTS_MERGED, window: $v) { points { value } } } }'),
    ("json", 'query($v: TimeWindowInput) { subject(key: "repository:payments-api") { sourceRecords(window: $v) { key } } }'),
    ("text", 'mutation($v: String!) { investigate(input: {question: $v}) { result { outcome } } }'),
    ("datetime", 'mutation($v: DateTime) { investigate(input: {question: "why is payments-api behind?", asOf: $v}) { result { outcome } } }'),
    ("json", 'mutation($v: TimeWindowInput) { investigate(input: {question: "why is payments-api behind?", range: $v}) { result { outcome } } }'),
    ("receipt", 'mutation($v: String!) { investigate(input: {question: "why is Alex behind?", priorSubjectReceipts: [$v]}) { result { outcome } } }'),
    ("json", "mutation($v: InvestigateInput!) { investigate(input: $v) { result { outcome } } }"),
    ("text", "query($v: String) { subjects(filter: {namePrefix: $v}) { totalCount } }"),
    ("json", "query($v: [SubjectKind!]) { subjects(filter: {kinds: $v}) { totalCount } }"),
    ("json", 'query($v: [SubjectKind!]) { search(query: "pay", kinds: $v) { score } }'),
    ("json", 'query($v: [SubjectKind!]) { resolveReference(ref: "alex", kinds: $v) { __typename } }'),
    ("json", 'query($v: Boolean) { resolveReference(ref: "alex", useRecent: $v) { __typename } }'),
    ("json", 'query($v: [FactKind!]) { facts(subjectKey: "repository:payments-api", kinds: $v) { kind } }'),
    ("int", "query($v: Int) { investigations(first: $v) { edges { cursor } } }"),
    ("int", 'query($v: Int) { subject(key: "repository:payments-api") { neighbors(first: $v) { key } relationships(first: $v) { totalCount } } }'),
    ("int", 'query($v: Int) { subject(key: "repository:payments-api") { episodes(first: $v) { totalCount } sourceRecords(first: $v) { key } } }'),
    ("json", 'query($v: [RelationshipType!]) { subject(key: "repository:payments-api") { relationships(types: $v) { totalCount } } }'),
    ("json", 'query($v: TimeBucket!) { subject(key: "repository:payments-api") { activity(metric: PULL_REQUESTS_MERGED, bucket: $v) { points { value } } } }'),
    ("text", 'mutation($v: String) { project(records: [], source: $v) { accepted } }'),
]


def _json_body(payload: Any) -> bytes:
    return json.dumps(payload, default=str).encode("utf-8", "surrogatepass")


@st.composite
def variable_cases(draw: st.DrawFn) -> Case:
    """A valid operation whose variable gets a hostile value: of its own kind, or any JSON."""
    kind, query = draw(st.sampled_from(OPERATIONS))
    value = draw(st.one_of(SPECIAL[kind], json_values) if kind != "json" else json_values)
    return Case(f"variables:{kind}", body=_json_body({"query": query, "variables": {"v": value}}))


@st.composite
def special_cases(draw: st.DrawFn) -> Case:
    """The named hostile values (ids, cursors, DateTimes, receipts, integers), always in the
    operations that take them, so each kind gets its share of the run."""
    kind = draw(st.sampled_from(["id", "cursor", "datetime", "receipt", "int"]))
    query = draw(st.sampled_from([q for k, q in OPERATIONS if k == kind]))
    value = draw(SPECIAL[kind])
    return Case(f"{kind}s", body=_json_body({"query": query, "variables": {"v": value}}))


VOCABULARY = ["{", "}", "(", ")", ":", "$v", "...", "@include(if: true)", "@skip(if: $v)",
              "subjects", "subject", "key", "edges", "node", "first: 1", "first: 99999999999",
              '"x"', '"\\u0000"', "fragment F on Query", "...F", "query", "mutation", "on",
              "__typename", "__schema", "__type", "ofType", "123", "1e999", "-0", "[", "]",
              "search", "id", "investigate", "project", "input:", "records:", "=", "!", "#",
              "query($v: Int)", "null", "true", "ID", "Subject", "|", "&", "\x00", "💥"]


@st.composite
def document_cases(draw: st.DrawFn) -> Case:
    """Generated documents: token soup from GraphQL's vocabulary, or a valid operation with a
    random edit (insert, delete or swap)."""
    if draw(st.booleans()):
        document = " ".join(draw(st.lists(st.sampled_from(VOCABULARY), max_size=40)))
    else:
        document = draw(st.sampled_from(OPERATIONS))[1]
        at = draw(st.integers(0, len(document)))
        edit = draw(st.sampled_from(["insert", "delete", "swap"]))
        piece = draw(st.one_of(st.sampled_from(VOCABULARY), text))
        if edit == "insert":
            document = document[:at] + piece + document[at:]
        elif edit == "delete":
            document = document[:at] + document[at + draw(st.integers(1, 10)):]
        else:
            document = document[:at] + piece + document[at + len(piece):]
    payload: dict[str, Any] = {"query": document}
    if draw(st.booleans()):
        payload["variables"] = {"v": draw(json_values)}
    if draw(st.booleans()):
        payload["operationName"] = draw(st.one_of(text, st.none()))
    return Case("documents", body=_json_body(payload))


CONTENT_TYPES = [None, "", "text/plain", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=x", "application/graphql", "application/xml",
                 "application/json; charset=latin-1", "application/json; charset=utf-16",
                 "application/json; charset=\x7f", "application/graphql-response+json", "*/*",
                 "application/json;;;", "application/jsonp"]


@st.composite
def transport_cases(draw: st.DrawFn) -> Case:
    """Broken requests: random bytes, invalid UTF-8, wrong or missing content types, JSON of
    the wrong shape, GETs with odd parameters."""
    kind = draw(st.sampled_from(["bytes", "utf8", "content-type", "json-shape", "get"]))
    if kind == "bytes":
        return Case("bytes", body=draw(st.binary(max_size=300)))
    if kind == "utf8":
        bad = draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                                    b"\xc0\xaf", b"\xe2\x82", b"\x80"]))
        where = draw(st.sampled_from([b"search", b"key", b"query"]))
        body = (b'{"query": "query($v: String) { subjects(' + where + b': $v) { totalCount } }", '
                b'"variables": {"v": "a' + bad + b'b"}}')
        if where == b"query":
            body = b'{"query": "{ subjects { totalCount } }' + bad + b'"}'
        return Case("utf8", body=body)
    if kind == "content-type":
        body = _json_body({"query": "{ subjects { totalCount } }"})
        return Case("content-type", body=body,
                    content_type=draw(st.one_of(st.sampled_from(CONTENT_TYPES), text.filter(
                        lambda t: "\n" not in t and "\r" not in t and t.isprintable()))))
    if kind == "json-shape":
        shape = draw(st.one_of(json_values, st.fixed_dictionaries(
            {"query": json_values}, optional={"variables": json_values,
                                              "operationName": json_values,
                                              "extensions": json_values})))
        return Case("json-shape", body=_json_body(shape))
    params = draw(st.dictionaries(st.sampled_from(["query", "variables", "operationName",
                                                   "extensions"]),
                                  st.one_of(text, st.sampled_from([o[1] for o in OPERATIONS])),
                                  max_size=4))
    clean = {k: v.encode("utf-8", "replace").decode() for k, v in params.items()}
    return Case("get", method="GET", params=clean, content_type=None)


def _record_templates() -> list[dict[str, Any]]:
    return [
        {"type": "subject", "key": "service:fz", "kind": "service", "name": "fz",
         "aliases": ["f"], "description": "d", "attributes": {"tier": 1},
         "valid_from": "2025-01-01"},
        {"type": "relationship", "relation": "DEPENDS_ON", "from": "service:fz",
         "to": "service:fy", "valid_from": "2025-01-01", "evidence": "e"},
        {"type": "episode", "key": "episode:fz", "occurred_at": "2026-01-01T00:00:00Z",
         "text": "t", "mentions": ["service:fz"]},
        {"type": "source_record", "key": "pull_request:fz", "record_kind": "pull_request",
         "subject": "service:fz", "start": "2026-01-01", "status": "merged", "title": "t"},
        {"type": "tombstone", "target": "episode", "key": "episode:fy"},
    ]


@st.composite
def ingest_cases(draw: st.DrawFn) -> Case:
    """The `project` mutation with records that are valid but for one hostile field (a NUL,
    a 2^63 integer, a bad time, a wrong type...), or wholly random JSON."""
    records: list[Any] = []
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.integers(0, 4)) == 0:
            records.append(draw(json_values))
            continue
        record = dict(draw(st.sampled_from(_record_templates())))
        name = draw(st.sampled_from(sorted(record) + ["attributes", "extra"]))
        hostile = st.one_of(text, ints, datetimes, json_values,
                            st.dictionaries(text, st.one_of(ints, text), max_size=3))
        record[name] = draw(hostile)
        records.append(record)
    query = "mutation($v: [JSON!]!) { project(records: $v) { accepted invalid } }"
    return Case("ingest", body=_json_body({"query": query, "variables": {"v": records}}),
                writes=True)


@st.composite
def auth_cases(draw: st.DrawFn) -> Case:
    """Broken credentials: never a 5xx, always a 401 (or the IDE page)."""
    header = draw(st.one_of(
        st.builds("Bearer {}".format, text), text,
        st.builds("Bearer {}.{}.{}".format, text, text, text),
        st.builds(lambda n: "Bearer " + "a" * n, st.integers(4_000, 9_000)),
    ))
    body = _json_body({"query": "{ subjects { totalCount } }"})
    return Case("auth", body=body, authorization=header)


def ndjson_lines(templates: list[dict[str, Any]] | None = None) -> st.SearchStrategy[list[bytes]]:
    """NDJSON input for `fabric ingest`: record lines with a random edit, or random bytes."""
    line = st.one_of(
        st.builds(lambda r: _json_body(r), st.sampled_from(templates or _record_templates())),
        st.builds(_edit, st.sampled_from([_json_body(r) for r in _record_templates()]),
                  st.integers(0, 200), st.binary(max_size=8)),
        st.binary(max_size=120),
        st.builds(lambda v: _json_body(v), json_values),
    )
    return st.lists(line, min_size=1, max_size=6)


def _edit(line: bytes, at: int, piece: bytes) -> bytes:
    return line[:at] + piece + line[at + len(piece):]


@st.composite
def ingest_file_cases(draw: st.DrawFn) -> Case:
    return Case("ndjson", method="INGEST", body=b"\n".join(draw(ndjson_lines())),
                content_type=None, writes=True)


def explicit_null_bodies() -> list[bytes]:
    """Every argument and input field with a default (from the schema) and every nullable
    variable of OPERATIONS, sent an explicit null (tests/fuzz_nulls.py)."""
    from resolvers.schema import build_schema
    from tests.fuzz_nulls import null_cases, nullable_variable_operations

    bodies = [case.body() for case in null_cases(build_schema()._schema)]
    return bodies + [_json_body({"query": q, "variables": {"v": None}})
                     for q in nullable_variable_operations(OPERATIONS)]


def null_cases_strategy() -> st.SearchStrategy[Case]:
    return st.builds(lambda body: Case("nulls", body=body), st.sampled_from(explicit_null_bodies()))


def cases() -> st.SearchStrategy[Case]:
    return st.one_of(variable_cases(), special_cases(), document_cases(), transport_cases(),
                     ingest_cases(), auth_cases(), ingest_file_cases(), null_cases_strategy())


# -- running cases ---------------------------------------------------------------------------

READ_BACK = """{ subjects(first: 200, filter: {includeStubs: true}) { edges { node {
  key name aliases previousNames description attributes validFrom validTo
  relationships(first: 20) { edges { node { id type evidence source validFrom validTo } } }
  episodes(first: 20) { edges { node { key text occurredAt } } }
  sourceRecords(first: 20) { key title } } } } }"""


@dataclass
class Fuzzer:
    """Sends cases and keeps counts; `failures` holds up to `keep` examples per failure."""

    client: httpx.Client
    url: str
    target_token: str
    scratch_token: str
    # Loads NDJSON lines into the scratch organisation (as `fabric ingest` does); returns
    # None when the loader reported rather than raised.
    ingest: Callable[[list[bytes]], str | None] | None = None
    keep: int = 3
    counts: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    failures: dict[str, list[str]] = field(default_factory=dict)

    def run(self, case: Case) -> str | None:
        self.counts[case.kind] = self.counts.get(case.kind, 0) + 1
        token = self.scratch_token if case.writes else self.target_token
        try:
            if case.method == "INGEST":
                verdict = self.ingest(case.body.split(b"\n")) if self.ingest and case.body else None
            else:
                verdict = judge(case.send(self.client, self.url, token))
            shown = ""
        except httpx.LocalProtocolError:
            return None  # the client itself refuses to send it (a header h11 forbids)
        except httpx.TimeoutException:
            verdict, shown = "hang", ""
        except httpx.HTTPError as exc:
            verdict, shown = "connection", type(exc).__name__
        if verdict is not None:
            name = f"{case.kind}/{verdict}"
            self.failed[name] = self.failed.get(name, 0) + 1
            examples = self.failures.setdefault(name, [])
            if len(examples) < self.keep:
                examples.append(f"{case!r} {shown}"[:600])
        return verdict

    def alive(self) -> bool:
        try:
            health = self.client.get(self.url.rsplit("/", 1)[0] + "/healthz")
        except httpx.HTTPError:
            return False
        return health.status_code == 200

    def scratch_unreadable(self) -> str | None:
        """None when everything the ingest cases stored reads back cleanly, else the answer."""
        response = self.client.post(self.url, json={"query": READ_BACK},
                                    headers={"Authorization": f"Bearer {self.scratch_token}"})
        if response.status_code == 200 and "errors" not in response.json():
            return None
        return response.text[:2_000]

    def summary(self) -> dict[str, Any]:
        return {
            "cases": sum(self.counts.values()),
            "failures": sum(self.failed.values()),
            "by_kind": dict(sorted(self.counts.items())),
            "failures_by_kind": dict(sorted(self.failed.items())),
        }
