"""The domain's ports: what the engine and the GraphQL layer need from a graph store.

The engine owns these; adapters (graph/) depend on them, never the reverse. Import from
here: `from engine.ports import OrgGraph, TimeSpan, GraphError`.
"""

from engine.ports.errors import (
    ORG_PATTERN,
    SYSTEM_SCOPE,
    GraphBusy,
    GraphError,
    GraphQueryError,
    GraphTimeout,
    GraphUnavailable,
    InvalidOrganisation,
    UnrepresentableValue,
    check_org,
)
from engine.ports.graph import (
    FactSource,
    GraphStore,
    KeyStore,
    OrgGraph,
    ResultStore,
    SubjectDirectory,
)
from engine.ports.shapes import (
    ApiKeyRecord,
    Checkpoint,
    Edge,
    EdgeRequest,
    EpisodeRequest,
    Fingerprint,
    SortKey,
    StoredResult,
    SubjectOrder,
    SubjectPage,
    SubjectQuery,
    TimeSpan,
    WriteBatch,
)
from engine.ports.trips import RoundTrips

__all__ = [
    "ORG_PATTERN",
    "SYSTEM_SCOPE",
    "ApiKeyRecord",
    "Checkpoint",
    "Edge",
    "EdgeRequest",
    "EpisodeRequest",
    "FactSource",
    "Fingerprint",
    "GraphBusy",
    "GraphError",
    "GraphQueryError",
    "GraphStore",
    "GraphTimeout",
    "GraphUnavailable",
    "InvalidOrganisation",
    "KeyStore",
    "OrgGraph",
    "ResultStore",
    "RoundTrips",
    "SortKey",
    "StoredResult",
    "SubjectDirectory",
    "SubjectOrder",
    "SubjectPage",
    "SubjectQuery",
    "TimeSpan",
    "UnrepresentableValue",
    "WriteBatch",
    "check_org",
]
