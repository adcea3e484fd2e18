"""An organisation's graph on FalkorDB as plain data, node by node and edge by edge, to compare
two graphs made by different paths (tests/test_bulk_load.py): each node as its labels and
properties, each relationship as its type, its ends' identities and its properties.

The epoch's scope (every node's org_id) and the load's run id differ between two loads of
the same input by design; they are replaced by placeholders, after checking each graph
holds one of each.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from graph.falkor import GRAPH_PREFIX, FalkorStore

NODES = "MATCH (n) RETURN id(n), labels(n), properties(n)"
EDGES = "MATCH (a)-[r]->(b) RETURN id(a), id(b), type(r), properties(r)"


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 6)  # a vector's float32 read back
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _normal(props: dict[str, Any], scope: str, runs: set[str]) -> dict[str, Any]:
    out = {}
    for name, value in props.items():
        if name == "org_id":
            assert value == scope, (name, value, scope)
            value = "<scope>"
        elif name == "run_id":
            runs.add(value)
            value = "<run>"
        out[name] = _plain(value)
    return out


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


async def dump(store: FalkorStore, scope: str) -> tuple[Counter[str], Counter[str]]:
    """(nodes, relationships) of the graph of `scope`, each a multiset of canonical texts."""
    graph = store.client.select_graph(GRAPH_PREFIX + scope)
    runs: set[str] = set()
    identity: dict[int, str] = {}
    nodes: Counter[str] = Counter()
    for node_id, labels, props in (await graph.ro_query(NODES)).result_set:
        text = _text([sorted(labels), _normal(props, scope, runs)])
        identity[node_id] = text
        nodes[text] += 1
    edges: Counter[str] = Counter()
    for a, b, rel_type, props in (await graph.ro_query(EDGES)).result_set:
        edges[_text([rel_type, identity[a], identity[b], _normal(props, scope, runs)])] += 1
    assert len(runs) <= 1, runs
    return nodes, edges
