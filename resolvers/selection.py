"""Looking ahead at what a client selected, to read no more than it needs."""

from __future__ import annotations

from collections.abc import Sequence

from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField

Selection = SelectedField | FragmentSpread | InlineFragment

# Subject fields answerable from identity alone (nested fields read through their own loaders
# with only the key and time). Anything else, or any fragment, needs the whole subject.
_IDENTITY_FIELDS = frozenset(
    {"__typename", "id", "key", "kind", "name", "neighbors", "episodes", "sourceRecords",
     "activity"}
)  # fmt: skip


def identity_only(selections: Sequence[Selection]) -> bool:
    return all(isinstance(s, SelectedField) and s.name in _IDENTITY_FIELDS for s in selections)


def children(selections: Sequence[Selection], name: str) -> list[Selection] | None:
    """The sub-selections of every field `name` among `selections`; None if a fragment hides
    what is selected."""
    found: list[Selection] = []
    for s in selections:
        if not isinstance(s, SelectedField):
            return None
        if s.name == name:
            found.extend(s.selections)
    return found


def nodes_identity_only(connection: Sequence[Selection]) -> bool:
    """For a connection's selection: do its `edges { node { ... } }` need identity only?"""
    edges = children(connection, "edges")
    nodes = children(edges, "node") if edges is not None else None
    return nodes is not None and identity_only(nodes)
