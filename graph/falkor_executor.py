"""How a statement reaches one FalkorDB graph: read-only or not, within the request's
deadline, counted, its reply parsed, and every client or server error turned into the
port's (graph.falkor's store opens one of these per graph key).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import redis.exceptions as redis_errors
from falkordb.asyncio.query_result import QueryResult
from falkordb.exceptions import SchemaVersionMismatchException

from engine.ports import GraphError, GraphQueryError, GraphTimeout, GraphUnavailable
from graph import deadline, falkor_results
from graph.executor import Row
from graph.falkor_params import header
from graph.observation import observed

if TYPE_CHECKING:
    from graph.falkor import FalkorStore

_EMPTY_GRAPH = "empty key"  # FalkorDB's refusal to read a graph that was never written
_UNAVAILABLE = (
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
    redis_errors.BusyLoadingError,
    OSError,
)


def translate(exc: Exception) -> GraphError:
    if isinstance(exc, _UNAVAILABLE):
        return GraphUnavailable("the FalkorDB server cannot be reached")
    message = str(exc)
    if "timed out" in message.lower():
        return GraphTimeout("the statement exceeded its time limit")
    return GraphQueryError(message)


class GraphExecutor:
    """Runs statements on one graph. prepare: awaited once before the first write through
    this executor (an organisation first written by a request, not by an ingest, still gets
    its indexes and property names)."""

    def __init__(
        self,
        store: FalkorStore,
        graph_name: str,
        prepare: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._store = store
        self._name = graph_name
        self._graph = store.client.select_graph(graph_name)
        self._prepare = prepare

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
        return await self._send(header(params) + statement, write, control, maintenance)

    async def read(self, statement: str) -> list[Row]:
        """A statement with no parameters: graph.falkor_ready's reads of a bootstrap (index
        status, property names), upkeep that no request waits for."""
        return await self.run(statement, {}, maintenance=True)

    async def status(self, statement: str) -> list[Row]:
        """A statement with no parameters asking the server how the graph stands (its index
        status, for graph.falkor_ready.IndexGate): counted apart from a request's own round
        trips, like the serving pointer."""
        return await self.run(statement, {}, control=True, maintenance=True)

    async def change(self, statement: str, params: dict[str, Any]) -> list[Row]:
        return await self.run(statement, params, write=True)

    def prepare(
        self, statement: str, params: dict[str, Any], *, write: bool = False
    ) -> Callable[[], Awaitable[list[Row]]]:
        """The statement's text with its parameters, made now (the client's CPU work of a
        write: half a megabyte of parameter text for a batch of records), sent when called."""
        return functools.partial(self._run_text, header(params) + statement, write=write)

    @observed
    async def _run_text(self, text: str, *, write: bool = False) -> list[Row]:
        return await self._send(text, write, False)

    async def _send(
        self, text: str, write: bool, control: bool, maintenance: bool = False
    ) -> list[Row]:
        if write and self._prepare is not None:
            prepare, self._prepare = self._prepare, None
            try:
                await prepare()
            except BaseException:
                self._prepare = prepare  # not prepared: the next write tries again
                raise
        # Raises GraphTimeout, unsent, once the request's deadline has passed.
        timeout = deadline.statement_limit_ms(self._store.statement_timeout_ms)
        self._store.round_trips.add(control)
        command: list[Any] = [
            "GRAPH.QUERY" if write else "GRAPH.RO_QUERY",
            self._name,
            text,
            "--compact",
        ]
        # Writes run to completion (a batch is never half-applied), and upkeep reads too.
        if timeout and not write and not maintenance:
            command += ["timeout", timeout]
        try:
            response = await self._graph.execute_command(*command)
            try:
                return falkor_results.rows(response)
            except falkor_results.Unsupported:
                result = QueryResult(self._graph)
                await result.parse(response)
                rows: list[Row] = result.result_set
                return rows
        except asyncio.CancelledError:
            raise
        except redis_errors.ResponseError as exc:
            if not write and _EMPTY_GRAPH in str(exc):
                return []  # an organisation with no graph yet has nothing to read
            raise translate(exc) from exc
        except (redis_errors.RedisError, OSError, SchemaVersionMismatchException) as exc:
            raise translate(exc) from exc
