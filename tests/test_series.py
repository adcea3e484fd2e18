"""Time series over HTTP: counts and sums are GraphQL Ints (JSON integers, never `0.0`), and a
sum too large for Int is a stated refusal rather than a clamped or failed answer."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.helpers import load, subject

WINDOW = '{from: "2026-01-01T00:00:00Z", to: "2026-01-03T23:59:59Z"}'


def _rollup(n: int, day: str, value: float, metric: str = "commits") -> dict[str, Any]:
    return {"type": "source_record", "key": f"metric_rollup:{n}", "record_kind": "metric_rollup",
            "subject": "repository:api", "start": day, "end": day, "metric": metric,
            "value": value}


async def _series(gateway: Gateway, records: list[dict[str, Any]], metric: str) -> Any:
    org = new_org()
    await gateway.store.bootstrap(org)
    assert (await load(gateway.store.org(org), [subject("repository:api"), *records])).ok
    token = await gateway.token(org)
    response = await gateway.query(token, f"""{{ subject(key: "repository:api") {{
        activity(metric: {metric}, window: {WINDOW}) {{ total points {{ value count }} }} }} }}""")
    await gateway.store.drop_org(org)
    return json.loads(response.text)


async def test_counts_and_sums_are_json_integers(gateway: Gateway) -> None:
    empty = await _series(gateway, [], "PULL_REQUESTS_MERGED")
    series = empty["data"]["subject"]["activity"]
    assert series == {"total": 0, "points": [{"value": 0, "count": 0}] * 3}
    assert all(type(v) is int for v in (series["total"], *(p["value"] for p in series["points"])))
    commits = await _series(gateway, [_rollup(1, "2026-01-01", 3), _rollup(2, "2026-01-02", 2.6),
                                      _rollup(3, "2026-01-02", 1)], "COMMITS")
    series = commits["data"]["subject"]["activity"]
    assert [p["value"] for p in series["points"]] == [3, 4, 0]  # 2.6 + 1, rounded once
    assert series["total"] == 7 and type(series["total"]) is int


async def test_a_sum_beyond_int_is_refused_with_a_code(gateway: Gateway) -> None:
    body = await _series(gateway, [_rollup(1, "2026-01-01", 2**31), _rollup(2, "2026-01-02", 1)],
                         "COMMITS")
    assert [e["extensions"]["code"] for e in body["errors"]] == ["VALUE_OUT_OF_RANGE"]
    fits = await _series(gateway, [_rollup(1, "2026-01-01", 2**30), _rollup(2, "2026-01-02", 2**30)],
                         "COMMITS")
    # Each bucket fits, their total does not.
    assert [e["extensions"]["code"] for e in fits["errors"]] == ["VALUE_OUT_OF_RANGE"]
