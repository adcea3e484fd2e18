"""Every GraphQL example in docs/graphql.md runs, as written, against the demo organisation.

A fenced `graphql` block is one request; a fenced `json` block right after it holds its
variables. `<result id>` and `<receipt>` in variables stand for the latest investigation
result's id and the first clarification candidate's receipt of the answers before them.
A `# expect: {...}` comment line in a request holds JSON its answer's data must contain
(objects: those keys with those values; lists: those items first, in order).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org
from tests.gateway_fixture import Gateway

DOC = Path(__file__).resolve().parent.parent / "docs" / "graphql.md"
_FENCE = re.compile(r"```(graphql|json)\n(.*?)```", re.S)


def examples(subscriptions: bool = False) -> list[tuple[str, dict[str, Any] | None]]:
    """The guide's requests (with `subscriptions`: its subscriptions instead, which
    tests/test_subscriptions.py runs over WebSocket)."""
    blocks = [(m.group(1), m.group(2), m.start(), m.end()) for m in _FENCE.finditer(DOC.read_text())]
    found: list[tuple[str, dict[str, Any] | None]] = []
    for i, (lang, body, _, end) in enumerate(blocks):
        if lang != "graphql" or body.lstrip().startswith("subscription") != subscriptions:
            continue
        variables = None
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        if following and following[0] == "json" and not DOC.read_text()[end:following[2]].strip():
            variables = json.loads(following[1])
        found.append((body, variables))
    return found


def _fill(value: Any, known: dict[str, str]) -> Any:
    if isinstance(value, str):
        for placeholder, actual in known.items():
            if value == placeholder:
                return actual
        assert not value.startswith("<"), f"no earlier answer gave {value}"
        return value
    if isinstance(value, list):
        return [_fill(v, known) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, known) for k, v in value.items()}
    return value


def _remember(data: Any, known: dict[str, str]) -> None:
    """Picks up what later examples refer to: result ids and clarification receipts."""
    if isinstance(data, dict):
        if "outcome" in data and isinstance(data.get("id"), str):
            known["<result id>"] = data["id"]
        candidates = data.get("candidates")
        if isinstance(candidates, list) and candidates and candidates[0].get("receipt"):
            known["<receipt>"] = candidates[0]["receipt"]
        for value in data.values():
            _remember(value, known)
    elif isinstance(data, list):
        for value in data:
            _remember(value, known)


def _contains(actual: Any, expected: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _contains(actual[k], v) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return isinstance(actual, list) and len(actual) >= len(expected) and all(
            _contains(a, e) for a, e in zip(actual, expected, strict=False)
        )
    return bool(actual == expected)


def _assert_expected(query: str, data: dict[str, Any]) -> None:
    for line in query.splitlines():
        if line.strip().startswith("# expect:"):
            expected = json.loads(line.strip().removeprefix("# expect:"))
            assert _contains(data, expected), (query, data)


def _assert_answered(query: str, data: dict[str, Any]) -> None:
    for field, value in data.items():
        assert value not in (None, []), f"{field} is empty for:\n{query}"
        if isinstance(value, dict) and "edges" in value:
            assert value["edges"], f"{field} has no edges for:\n{query}"


def test_the_guide_has_dashboard_and_investigation_examples() -> None:
    queries = [q for q, _ in examples()]
    assert sum("subjects(" in q or "activity(" in q for q in queries) >= 3
    assert sum("investigate(" in q for q in queries) >= 3
    assert any("answerProjection(" in q for q in queries)
    assert sum("resolveReference(" in q and "# expect:" in q for q in queries) >= 5


async def test_every_example_in_the_guide_runs(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    lines = (json.dumps(r) for r in generate(600))
    assert (await Projector(gateway.store.org(org), source="demo").run(lines)).ok
    token = await gateway.token(org)
    known: dict[str, str] = {}
    outcomes = []
    for query, variables in examples():
        filled = _fill(variables, known) if variables is not None else None
        response = await gateway.query(token, query, filled)
        body = response.json()
        assert response.status_code == 200 and not body.get("errors"), (query, body)
        _assert_answered(query, body["data"])
        _assert_expected(query, body["data"])
        _remember(body["data"], known)
        outcomes += re.findall(r'"outcome": "([A-Z_]+)"', json.dumps(body["data"]))
    assert {"ANSWERED", "CLARIFICATION_REQUIRED"} <= set(outcomes)
