"""How a statement reaches Neo4j: routed as a read or a write, with its organisation's
bookmarks, a server-side time limit, resent while it may succeed when resent, and every
driver failure turned into the port's errors (graph.neo4j_errors).

Each attempt is one explicit transaction (or, for `CALL {...} IN TRANSACTIONS`, which Neo4j
runs only outside one, one auto-commit statement), and the retry loop is ours, not the
driver's: the driver's managed transactions read a transaction function's timeout once and
resend it unchanged, so a read retried after a leader switch would keep its first limit and
outlive the request it serves; and the driver never retries an auto-commit statement. Here
each attempt's limit is what is left of the request's time when it is sent, and every
statement is resent on a retryable failure: the batched statements too, which resume where
they stopped (each matches only what it has not done yet: tests/test_neo4j_adapter.py).
"""

from __future__ import annotations

import asyncio
import functools
import random
import re
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

import neo4j
from neo4j import exceptions as neo4j_errors

from graph import deadline
from graph.executor import Row
from graph.neo4j_errors import retryable, translate
from graph.observation import observed

if TYPE_CHECKING:
    from graph.neo4j_adapter import Neo4jStore

AUTOCOMMIT = re.compile(r"\bIN\s+TRANSACTIONS\b")
DRIVER_ERRORS = (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError)
FIRST_PAUSE_S = 0.1  # before the first resend; doubled (with jitter) for each next one


def transaction_limit_ms(
    configured_s: float | None, write: bool, write_s: float | None = None
) -> int | None:
    """The transaction timeout of the next attempt: reads get the configured limit, shortened
    to what is left of the request's time; writes get `write_s` (a backstop where the
    server sets no `db.transaction.timeout`; a write once begun is not cut at the request's
    deadline). Raises GraphTimeout for either, unsent, once the request's deadline passed."""
    limit_ms = deadline.statement_limit_ms(
        None if configured_s is None else max(1, int(configured_s * 1000))
    )
    if write:
        return None if write_s is None else max(1, int(write_s * 1000))
    return limit_ms


def pauses(retry_time_s: float, jitter: Callable[[], float] = random.random) -> Iterator[float]:
    """The pauses before each resend: exponential from FIRST_PAUSE_S, with jitter, ending
    once they would add up to more than `retry_time_s`."""
    spent, pause = 0.0, FIRST_PAUSE_S
    while True:
        step = pause * (0.8 + 0.4 * jitter())
        if spent + step > retry_time_s:
            return
        spent += step
        yield step
        pause *= 2


class Neo4jExecutor:
    def __init__(self, store: Neo4jStore) -> None:
        self._store = store

    @observed
    async def run(
        self,
        statement: str,
        params: dict[str, Any],
        *,
        write: bool = False,
        control: bool = False,
        maintenance: bool = False,
    ) -> list[Row]:
        store = self._store
        batched = bool(AUTOCOMMIT.search(statement))
        # Upkeep reads and the batched statements (a cleanup, a backfill) carry no time limit
        # (they must finish, and resume when resent); nothing is sent once the request's
        # deadline has passed.
        unlimited = maintenance or batched
        limit_ms = self._limit_ms(write, unlimited)
        store.round_trips.add(control)  # only a statement that is sent counts
        waits = pauses(store.retry_time_s)
        while True:
            try:
                return await self._attempt(statement, params, write, batched, limit_ms)
            except asyncio.CancelledError:
                raise
            except DRIVER_ERRORS as exc:
                wait = next(waits, None) if retryable(exc) else None
                left = deadline.left_s()
                if wait is None or (left is not None and wait >= left):
                    raise translate(exc) from exc
            await asyncio.sleep(wait)
            limit_ms = self._limit_ms(write, unlimited)  # what is left of the request now

    async def _attempt(
        self,
        statement: str,
        params: dict[str, Any],
        write: bool,
        batched: bool,
        limit_ms: int | None,
    ) -> list[Row]:
        store = self._store
        timeout = None if limit_ms is None else limit_ms / 1000
        session = store.driver.session(
            database=store.database,
            bookmark_manager=store.bookmarks(params),
            default_access_mode=neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS,
        )
        async with session:
            if batched:
                result = await session.run(neo4j.Query(statement, timeout=timeout), params)
                return await result.values()
            async with await session.begin_transaction(timeout=timeout) as tx:
                result = await tx.run(statement, params)
                rows = await result.values()
                await tx.commit()
                return rows

    def prepare(
        self, statement: str, params: dict[str, Any], *, write: bool = False
    ) -> Callable[[], Awaitable[list[Row]]]:
        """The driver encodes parameters as it sends them: nothing to make ahead."""
        return functools.partial(self.run, statement, params, write=write)

    def _limit_ms(self, write: bool, unlimited: bool) -> int | None:
        store = self._store
        limit_ms = transaction_limit_ms(store.statement_timeout_s, write, store.write_timeout_s)
        return None if unlimited else limit_ms
