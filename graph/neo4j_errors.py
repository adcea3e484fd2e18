"""Neo4j's failures as the port's errors, decided by the server's status code.

The driver's exception classes follow the code's classification only (ClientError,
TransientError, DatabaseError), which is too coarse: a deadlock and a database that is
down are both "transient", a transaction that exceeded its memory limit is "transient" too
although the same statement will fail the same way again, and a terminated transaction
(`LockClientStopped`, `Terminated`) is a "client error" although it usually means its time
limit passed. The codes are Neo4j 5's (https://neo4j.com/docs/status-codes/current/).

* GraphTimeout: the transaction's time limit passed (or it was terminated, which is what
  the server does when it does).
* GraphBusy: retry later; the server is up (deadlock, lock wait, the memory pool of the
  whole server, no free connection in the driver's pool).
* GraphUnavailable: no server or no database to talk to (a cluster whose leader moved
  included), or credentials it refuses.
* GraphQueryError: the statement itself was refused; sending it again will not help
  (a syntax or type error, a constraint, or more memory than one transaction may use).
"""

from __future__ import annotations

from neo4j import exceptions as neo4j_errors

from engine.ports import GraphBusy, GraphError, GraphQueryError, GraphTimeout, GraphUnavailable

TIMEOUT_CODES = frozenset(
    {
        "Neo.ClientError.Transaction.TransactionTimedOut",
        "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
        "Neo.TransientError.Transaction.TransactionTimedOut",
        # A transaction the server terminated (its time limit, an operator) asking for a
        # lock, or being used afterwards. The driver rewrites 4.4's transient form.
        "Neo.ClientError.Transaction.LockClientStopped",
        "Neo.ClientError.Transaction.Terminated",
    }
)
BUSY_CODES = frozenset(
    {
        "Neo.TransientError.Transaction.DeadlockDetected",
        "Neo.TransientError.Transaction.LockAcquisitionTimeout",
        "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
        "Neo.TransientError.General.OutOfMemoryError",
        "Neo.TransientError.Transaction.ConstraintsChanged",
        "Neo.TransientError.Transaction.Outdated",
    }
)
# Transient by classification, but the same statement fails the same way again.
NOT_RETRYABLE_CODES = frozenset(
    {
        "Neo.TransientError.General.TransactionMemoryLimit",
        "Neo.TransientError.General.StackOverFlowError",
    }
)
UNAVAILABLE_CODES = frozenset(
    {
        "Neo.TransientError.General.DatabaseUnavailable",
        "Neo.ClientError.Database.DatabaseNotFound",
        # A cluster's leader moved (or this member turned read-only) under a write: client
        # errors by code, yet the driver marks them retryable and reroutes; once retries run
        # out the database is, for now, not writable here (GRAPH_UNAVAILABLE, 503).
        "Neo.ClientError.Cluster.NotALeader",
        "Neo.ClientError.General.ForbiddenOnReadOnlyDatabase",
    }
)


def retryable(exc: BaseException) -> bool:
    """Whether sending the same statement again may succeed (the driver's own retry asks
    `is_retryable`, which says yes to every transient code)."""
    if isinstance(exc, neo4j_errors.Neo4jError):
        return exc.code not in NOT_RETRYABLE_CODES and exc.is_retryable()
    return isinstance(exc, neo4j_errors.DriverError) and exc.is_retryable()


def translate(exc: Exception) -> GraphError:
    """The port's error for any exception the driver raises (and OSError)."""
    if isinstance(exc, neo4j_errors.ConnectionAcquisitionTimeoutError):
        return GraphBusy("no connection to Neo4j came free in time (the pool is exhausted)")
    if isinstance(exc, neo4j_errors.Neo4jError):
        return _by_code(exc)
    if isinstance(exc, neo4j_errors.ServiceUnavailable | neo4j_errors.SessionExpired | OSError):
        return GraphUnavailable("the Neo4j server cannot be reached")
    return GraphQueryError(f"{type(exc).__name__}: {exc}")


def _by_code(exc: neo4j_errors.Neo4jError) -> GraphError:
    code = exc.code or ""
    if code in TIMEOUT_CODES:
        return GraphTimeout(f"the transaction was stopped ({code})")
    if code in NOT_RETRYABLE_CODES:
        return GraphQueryError(f"{code}: the statement needs more than the server allows")
    if code in BUSY_CODES:
        return GraphBusy(f"Neo4j could not serve the statement now ({code})")
    if code in UNAVAILABLE_CODES:
        return GraphUnavailable(f"the Neo4j database is not available ({code})")
    if code.startswith("Neo.ClientError.Security."):
        return GraphUnavailable(f"Neo4j refused the gateway's credentials ({code})")
    if code.startswith("Neo.TransientError."):
        return GraphBusy(f"Neo4j could not serve the statement now ({code})")
    return GraphQueryError(f"{code}: {exc.message}")
