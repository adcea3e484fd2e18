"""Neo4j's failures become the port's errors by status code (graph/neo4j_errors.py).

The exceptions are the driver's own, built the way the driver builds them from a server's
FAILURE message (`Neo4jError._hydrate_neo4j` for Bolt before 5.7, `_hydrate_gql` after),
so each gets the class the driver would pick for its code. No server is needed: what is
checked is the decision, given what the driver raises.
"""

from __future__ import annotations

import pytest
from neo4j import exceptions as neo4j_errors

from engine.ports import GraphBusy, GraphError, GraphQueryError, GraphTimeout, GraphUnavailable
from graph.neo4j_errors import retryable, translate


def server_error(code: str, message: str = "from the server", gql: bool = False) -> Exception:
    if gql:
        return neo4j_errors.Neo4jError._hydrate_gql(
            neo4j_code=code,
            message=message,
            gql_status="50N42",
            description="error: general processing exception",
        )
    return neo4j_errors.Neo4jError._hydrate_neo4j(code=code, message=message)


CASES: list[tuple[str, type[GraphError], bool]] = [
    # (code, port error, may succeed when sent again)
    ("Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration", GraphTimeout, False),
    ("Neo.ClientError.Transaction.TransactionTimedOut", GraphTimeout, False),
    ("Neo.ClientError.Transaction.LockClientStopped", GraphTimeout, False),
    ("Neo.TransientError.Transaction.LockClientStopped", GraphTimeout, False),  # 4.4's form
    ("Neo.ClientError.Transaction.Terminated", GraphTimeout, False),
    ("Neo.TransientError.Transaction.DeadlockDetected", GraphBusy, True),
    ("Neo.TransientError.Transaction.LockAcquisitionTimeout", GraphBusy, True),
    ("Neo.TransientError.General.MemoryPoolOutOfMemoryError", GraphBusy, True),
    ("Neo.TransientError.General.TransactionMemoryLimit", GraphQueryError, False),
    ("Neo.TransientError.General.DatabaseUnavailable", GraphUnavailable, True),
    ("Neo.ClientError.Database.DatabaseNotFound", GraphUnavailable, False),
    ("Neo.ClientError.Security.Unauthorized", GraphUnavailable, False),
    # A cluster's leader moved, or this member is read-only: the driver reroutes and
    # retries; once retries run out, the database is not writable here for now.
    ("Neo.ClientError.Cluster.NotALeader", GraphUnavailable, True),
    ("Neo.ClientError.General.ForbiddenOnReadOnlyDatabase", GraphUnavailable, True),
    ("Neo.ClientError.Statement.SyntaxError", GraphQueryError, False),
    ("Neo.ClientError.Schema.ConstraintValidationFailed", GraphQueryError, False),
    ("Neo.DatabaseError.General.UnknownError", GraphQueryError, False),
    ("Neo.TransientError.Cluster.ReplicationFailure", GraphBusy, True),  # any other transient
]


@pytest.mark.parametrize("gql", [False, True], ids=["bolt5.0", "bolt5.7-gql"])
@pytest.mark.parametrize(("code", "expected", "again"), CASES, ids=[c[0] for c in CASES])
def test_a_server_failure_is_translated_by_its_code(
    code: str, expected: type[GraphError], again: bool, gql: bool
) -> None:
    error = server_error(code, gql=gql)
    translated = translate(error)
    assert type(translated) is expected
    assert retryable(error) is again


def test_the_class_alone_would_mislead() -> None:
    """What the old class-based translation saw: a deadlock, a full memory pool and a
    transaction over its memory limit are all TransientError (so the driver retries each),
    and a transaction stopped by its time limit is a plain ClientError."""
    for code in (
        "Neo.TransientError.Transaction.DeadlockDetected",
        "Neo.TransientError.General.MemoryPoolOutOfMemoryError",
        "Neo.TransientError.General.TransactionMemoryLimit",
    ):
        error = server_error(code)
        assert isinstance(error, neo4j_errors.TransientError) and error.is_retryable()
    stopped = server_error("Neo.TransientError.Transaction.LockClientStopped")
    assert type(stopped) is neo4j_errors.ClientError
    assert stopped.code == "Neo.ClientError.Transaction.LockClientStopped"
    # The one transient code that must not be retried is refused as a statement.
    assert not retryable(server_error("Neo.TransientError.General.TransactionMemoryLimit"))


def test_driver_side_failures() -> None:
    pool = translate(neo4j_errors.ConnectionAcquisitionTimeoutError("no connection in 5 s"))
    assert type(pool) is GraphBusy
    # Busy is a kind of unavailability: clients see "try again shortly" for both.
    assert isinstance(pool, GraphUnavailable) and pool.code == GraphUnavailable.code
    for error in (
        neo4j_errors.ServiceUnavailable("gone"),
        neo4j_errors.SessionExpired("expired"),
        ConnectionResetError("reset"),
    ):
        assert type(translate(error)) is GraphUnavailable
        assert retryable(error) is not isinstance(error, OSError)
    incomplete = neo4j_errors.IncompleteCommit("unknown outcome")
    assert not retryable(incomplete)  # a commit that may have applied is never resent
    assert type(translate(neo4j_errors.ResultConsumedError(None, "used"))) is GraphQueryError


def test_messages_carry_the_code_for_logs_and_no_statement() -> None:
    error = server_error("Neo.TransientError.Transaction.DeadlockDetected", "MATCH (n) ...")
    text = str(translate(error))
    assert "DeadlockDetected" in text and "MATCH" not in text
