"""The graph port's errors, and the organisation-id rule every adapter enforces.

Adapters translate every driver exception into one of these (`raise ... from exc`); the
engine and the GraphQL layer only ever see these. Messages are for logs, never for clients.
"""

from __future__ import annotations

import re

from engine.domain.errors import PublicError

ORG_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# Where a store keeps what belongs to no organisation (API keys, shared secrets). Not a valid
# organisation id (leading underscore), so no tenant can ever address it.
SYSTEM_SCOPE = "_system"


class GraphError(Exception):
    """Base of the port's errors. Messages are for logs, never for clients."""

    code = "GRAPH_ERROR"


class GraphUnavailable(GraphError):
    """The store cannot be reached (down, restarting, connection lost)."""

    code = "GRAPH_UNAVAILABLE"


class GraphBusy(GraphUnavailable):
    """The store is up but could not serve the statement now (a deadlock, a lock wait, its
    memory pool, no free connection): worth retrying later, unlike a refused statement.
    Clients see the same code as unavailability: both mean "try again shortly"."""


class GraphQueryError(GraphError):
    """The store refused a statement."""

    code = "GRAPH_QUERY_ERROR"


class GraphTimeout(GraphError):
    code = "TIMEOUT"


class InvalidOrganisation(GraphError, ValueError):
    code = "BAD_USER_INPUT"


class UnrepresentableValue(GraphError, ValueError):
    """A parameter the store would misread: a string with a NUL (FalkorDB fails to parse the
    whole statement) or an integer beyond 64 bits (FalkorDB silently clamps it). Inputs are
    validated before they get here; this is the last line, so nothing is stored altered."""

    code = "BAD_USER_INPUT"


def check_org(org_id: str) -> str:
    if not ORG_PATTERN.match(org_id):
        raise InvalidOrganisation("organisation ids are 1-64 of [A-Za-z0-9_.-]")
    return org_id


class EpochConflict(PublicError):
    """A projection-epoch transition refused because the lifecycle is not where the caller
    expected (another flip won, no build is open, the grace period is over...). The message
    says which and is safe to show; nothing changed."""

    code = "EPOCH_CONFLICT"
