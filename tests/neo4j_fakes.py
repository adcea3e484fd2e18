"""Stand-ins for what only a Neo4j server gives, for the offline Neo4j tests (no server can
run where they run; tests/test_neo4j_*.py say what each proves and what it cannot).

* `ScriptedDriver`: sessions whose statements are answered by a script (rows, or an
  exception the driver itself builds from a server's FAILURE message, `server_error`), each
  attempt recorded with its access mode, timeout and whether it ran as an auto-commit
  statement or in a transaction. It speaks both the session API the adapter uses now
  (explicit transactions, `run`) and the managed-transaction one (`execute_read` /
  `execute_write`, with the driver's own retry semantics: the transaction function's
  timeout is read once and every retryable failure resends it).
* `ScriptedExecutor`: an `Executor` answering statements by substring, recording them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from neo4j import exceptions as neo4j_errors

Answer = Callable[[str, int], list[list[Any]]]  # (statement, attempt number) -> rows or raise


def server_error(code: str, message: str = "from the server") -> neo4j_errors.Neo4jError:
    """The exception the driver raises for a server's FAILURE with this code (Bolt 5.0)."""
    return neo4j_errors.Neo4jError._hydrate_neo4j(code=code, message=message)


@dataclass
class Attempt:
    statement: str
    mode: str  # neo4j.READ_ACCESS or neo4j.WRITE_ACCESS
    timeout: float | None
    autocommit: bool
    bookmarks: tuple[str, ...] = ()  # what the session's bookmark manager held


@dataclass
class ScriptedDriver:
    answer: Answer
    attempts: list[Attempt] = field(default_factory=list)

    def session(self, **config: Any) -> _Session:
        mode = config.get("default_access_mode", "WRITE")
        return _Session(self, mode, config.get("bookmark_manager"))

    async def close(self) -> None:
        return None

    def _reply(self, attempt: Attempt) -> _Result:
        self.attempts.append(attempt)
        return _Result(self.answer(attempt.statement, len(self.attempts)))


class _Result:
    def __init__(self, rows: list[list[Any]]) -> None:
        self._rows = rows

    async def values(self) -> list[list[Any]]:
        return self._rows


class _Tx:
    def __init__(
        self, driver: ScriptedDriver, mode: str, timeout: float | None, marks: tuple[str, ...]
    ) -> None:
        self._driver, self._mode, self._timeout, self._marks = driver, mode, timeout, marks

    async def run(self, statement: str, params: dict[str, Any]) -> _Result:
        attempt = Attempt(statement, self._mode, self._timeout, False, self._marks)
        return self._driver._reply(attempt)

    async def commit(self) -> None:
        return None

    async def __aenter__(self) -> _Tx:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Session:
    def __init__(self, driver: ScriptedDriver, mode: str, manager: Any) -> None:
        self._driver, self._mode, self._manager = driver, mode, manager

    async def _marks(self) -> tuple[str, ...]:
        return tuple(sorted(await self._manager.get_bookmarks())) if self._manager else ()

    async def __aenter__(self) -> _Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def run(self, query: Any, params: dict[str, Any] | None = None) -> _Result:
        text, timeout = (query.text, query.timeout) if hasattr(query, "text") else (query, None)
        return self._driver._reply(Attempt(text, self._mode, timeout, True, await self._marks()))

    async def begin_transaction(self, timeout: float | None = None) -> _Tx:  # noqa: ASYNC109
        return _Tx(self._driver, self._mode, timeout, await self._marks())

    async def _managed(self, mode: str, work: Any, *args: Any) -> Any:
        timeout = getattr(work, "timeout", None)  # read once, as the driver does
        for _ in range(10):
            try:
                return await work(_Tx(self._driver, mode, timeout, await self._marks()), *args)
            except neo4j_errors.Neo4jError as exc:
                if not exc.is_retryable():
                    raise
        raise RuntimeError("retried ten times")

    async def execute_read(self, work: Any, *args: Any) -> Any:
        return await self._managed("READ", work, *args)

    async def execute_write(self, work: Any, *args: Any) -> Any:
        return await self._managed("WRITE", work, *args)


@dataclass
class ScriptedExecutor:
    """Answers a statement with the rows of the first key it contains, or raises the
    exception there (once per listed exception, then the rows of `after`)."""

    answers: dict[str, Any]
    sent: list[str] = field(default_factory=list)
    params: list[dict[str, Any]] = field(default_factory=list)

    async def run(self, statement: str, params: dict[str, Any], **_: Any) -> list[list[Any]]:
        self.sent.append(statement)
        self.params.append(params)
        for key, answer in self.answers.items():
            if key in statement:
                if isinstance(answer, list) and answer and isinstance(answer[0], Exception):
                    raise answer.pop(0)
                return list(answer) if isinstance(answer, list) else answer
        return []

    def prepare(self, statement: str, params: dict[str, Any], **_: Any) -> Any:
        raise NotImplementedError
