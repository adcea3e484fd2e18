"""Looking ahead at what a client selected, to read no more than it needs.

The checks read graphql-core's field nodes directly rather than strawberry's
`info.selected_fields`, which converts the whole sub-selection (arguments included) on every
call: a list of 100 subjects would pay for that 100 times per nested field. The answer
depends only on the document, so it is computed once per field node and request.
"""

from __future__ import annotations

from collections.abc import Sequence

from graphql import FieldNode, SelectionSetNode

# Subject fields answerable from identity alone (nested fields read through their own loaders
# with only the key and time). Anything else, or any fragment, needs the whole subject.
_IDENTITY_FIELDS = frozenset(
    {"__typename", "id", "key", "kind", "name", "neighbors", "episodes", "sourceRecords",
     "activity"}
)  # fmt: skip


def _fields(selection_set: SelectionSetNode | None) -> list[FieldNode] | None:
    """The fields of a selection set; None when a fragment hides what is selected."""
    if selection_set is None:
        return []
    found = []
    for s in selection_set.selections:
        if not isinstance(s, FieldNode):
            return None
        found.append(s)
    return found


def _identity_only(fields: Sequence[FieldNode] | None) -> bool:
    return fields is not None and all(f.name.value in _IDENTITY_FIELDS for f in fields)


def _children(fields: Sequence[FieldNode] | None, name: str) -> list[FieldNode] | None:
    if fields is None:
        return None
    found: list[FieldNode] = []
    for f in fields:
        if f.name.value == name:
            inner = _fields(f.selection_set)
            if inner is None:
                return None
            found.extend(inner)
    return found


def _selected(field_nodes: Sequence[FieldNode]) -> list[FieldNode] | None:
    found: list[FieldNode] = []
    for node in field_nodes:
        inner = _fields(node.selection_set)
        if inner is None:
            return None
        found.extend(inner)
    return found


class SelectionChecks:
    """Per-request memo of selection checks, keyed by the field nodes' identity (the nodes
    belong to the request's document, which outlives every resolver call)."""

    def __init__(self) -> None:
        self._memo: dict[tuple[str, int], bool] = {}

    def identity_only(self, field_nodes: Sequence[FieldNode]) -> bool:
        """Does this subject field select identity fields only?"""
        key = ("subject", id(field_nodes[0]))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = _identity_only(_selected(field_nodes))
        return found

    def nodes_identity_only(self, field_nodes: Sequence[FieldNode]) -> bool:
        """For a connection field: do its `edges { node { ... } }` need identity only?"""
        key = ("connection", id(field_nodes[0]))
        found = self._memo.get(key)
        if found is None:
            nodes = _children(_children(_selected(field_nodes), "edges"), "node")
            found = self._memo[key] = _identity_only(nodes)
        return found


def plain_fields(selection_set: SelectionSetNode | None) -> list[FieldNode] | None:
    """The fields of a selection set when it is plain enough to read ahead: no fragments, no
    directives, no response key selected twice (graphql-core would merge those). None
    otherwise, and the nested fields then read through their loaders as usual."""
    fields = _fields(selection_set)
    if fields is None:
        return None
    keys = set()
    for f in fields:
        if f.directives:
            return None
        key = (f.alias or f.name).value
        if key in keys:
            return None
        keys.add(key)
    return fields


def connection_nodes(field_nodes: Sequence[FieldNode]) -> list[FieldNode] | None:
    """The plain fields under a connection's `edges { node { ... } }`, if it is one field."""
    if len(field_nodes) != 1:
        return None
    edges = [f for f in plain_fields(field_nodes[0].selection_set) or () if f.name.value == "edges"]
    if len(edges) != 1:
        return None
    nodes = [f for f in plain_fields(edges[0].selection_set) or () if f.name.value == "node"]
    return plain_fields(nodes[0].selection_set) if len(nodes) == 1 else None
