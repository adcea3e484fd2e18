"""Investigation results of one organisation: stored whole and never changed.

The engine hands over the result already serialised; the graph keeps it with the few fields
it is looked up by (creation time, subjects, reuse key). A projection epoch records when the
organisation's data last changed, so answer reuse can refuse anything older.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.ports import GraphQueryError, StoredResult
from engine.ports.changes import Change, ChangeFeed, ChangeKind
from graph.cypher import results as results_cypher

if TYPE_CHECKING:
    from graph.executor import Executor


class ResultArchive:
    def __init__(self, org_id: str, executor: Executor, changes: ChangeFeed | None = None) -> None:
        self._org = org_id
        self._x = executor
        self._changes = changes

    async def _run(self, statement: str, write: bool = False, **params: Any) -> list[list[Any]]:
        return await self._x.run(statement, {"org": self._org, **params}, write=write)

    async def save(
        self,
        result_id: str,
        payload: str,
        *,
        created_ns: int,
        subject_keys: Sequence[str],
        reuse_key: str | None,
        outcome: str,
    ) -> bool:
        """Store a result; False if this id already holds a different one (never replaced).

        One statement writes the whole result (the backend applies it all or not at all), and
        the result counts as saved only once it reads back whole by id, the way clients fetch
        it. GraphQueryError if it does not: FalkorDB 4.16 can acknowledge a write it applied
        wrongly (a cached plan that outlived a failed statement lost `org_id`), and a result
        id must never be handed out for something no one can read."""
        await self._run(
            results_cypher.SAVE_RESULT, write=True, id=result_id, payload=payload,
            created_ns=created_ns, subjects=list(subject_keys), reuse_key=reuse_key,
            outcome=outcome,
        )  # fmt: skip
        stored = (await self.by_ids([result_id])).get(result_id)
        if stored is None:
            raise GraphQueryError("the saved investigation result does not read back")
        if stored == payload and self._changes is not None:
            await self._changes.publish(
                Change(
                    org_id=self._org, kind=ChangeKind.INVESTIGATION, investigation_id=result_id,
                    outcome=outcome, subject_keys=tuple(subject_keys), at_ns=created_ns,
                )
            )  # fmt: skip
        return stored == payload

    async def by_ids(self, ids: Sequence[str]) -> dict[str, str]:
        if not ids:
            return {}
        found = await self._run(results_cypher.GET_RESULTS, ids=list(dict.fromkeys(ids)))
        return {row[0]: row[1] for row in found}

    async def page(
        self, first: int, after: tuple[int, str] | None = None, subject_key: str | None = None
    ) -> list[StoredResult]:
        """Newest first; `after` is the (created_ns, id) of the last result of a page."""
        found = await self._run(
            results_cypher.LIST_RESULTS, subject=subject_key, limit=first,
            after_ns=after[0] if after else None, after_id=after[1] if after else None,
        )  # fmt: skip
        return [StoredResult(row[0], row[1], int(row[2])) for row in found]

    async def reusable(self, reuse_key: str, since_ns: int) -> StoredResult | None:
        """The newest result under `reuse_key` made after `since_ns` and after the last
        change to the organisation's data."""
        epoch = await self.projection_epoch()
        found = await self._run(
            results_cypher.FIND_REUSABLE, reuse_key=reuse_key, since_ns=since_ns,
            not_before_ns=epoch or 0,
        )  # fmt: skip
        return StoredResult(found[0][0], found[0][1]) if found else None

    async def projection_epoch(self) -> int | None:
        found = await self._run(results_cypher.GET_PROJECTION_EPOCH)
        return int(found[0][0]) if found and found[0][0] is not None else None

    async def touch_projection_epoch(self, changed_ns: int) -> None:
        await self._run(results_cypher.TOUCH_PROJECTION_EPOCH, write=True, changed_ns=changed_ns)
