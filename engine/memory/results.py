"""Investigation results of one organisation in memory: immutable once saved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.ports import RoundTrips, StoredResult
from engine.ports.changes import Change, ChangeFeed, ChangeKind

if TYPE_CHECKING:
    from engine.memory.data import Results


class MemoryResults:
    def __init__(
        self, org_id: str, data: Results, round_trips: RoundTrips, changes: ChangeFeed | None
    ) -> None:
        self._org = org_id
        self._data = data
        self._trips = round_trips
        self._changes = changes

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
        """False, changing nothing, when the id already holds a different result."""
        self._trips.add()
        held = self._data.saved.get(result_id)
        if held is None:
            stored = StoredResult(result_id, payload, created_ns)
            held = self._data.saved[result_id] = (stored, tuple(subject_keys), reuse_key)
        same = held[0].payload == payload
        if same and self._changes is not None:
            await self._changes.publish(
                Change(
                    org_id=self._org, kind=ChangeKind.INVESTIGATION, investigation_id=result_id,
                    outcome=outcome, subject_keys=tuple(subject_keys), at_ns=created_ns,
                )
            )  # fmt: skip
        return same

    async def by_ids(self, ids: Sequence[str]) -> dict[str, str]:
        if not ids:
            return {}
        self._trips.add()
        saved = self._data.saved
        return {i: saved[i][0].payload for i in dict.fromkeys(ids) if i in saved}

    async def page(
        self, first: int, after: tuple[int, str] | None = None, subject_key: str | None = None
    ) -> list[StoredResult]:
        """Newest first (then by id); `after` is the (created_ns, id) of a page's last."""
        self._trips.add()
        found = [
            stored
            for stored, subjects, _ in self._data.saved.values()
            if subject_key is None or subject_key in subjects
        ]
        found.sort(key=lambda r: (-r.created_ns, r.id))
        if after is not None:
            found = [r for r in found if (-r.created_ns, r.id) > (-after[0], after[1])]
        return found[:first]

    async def reusable(self, reuse_key: str, since_ns: int) -> StoredResult | None:
        """The newest result under `reuse_key` made at or after `since_ns` and after the last
        change to the organisation's data."""
        self._trips.add()
        floor = max(since_ns, self._data.epoch or 0)
        found = [
            stored
            for stored, _, key in self._data.saved.values()
            if key == reuse_key and stored.created_ns >= floor
        ]
        if not found:
            return None
        newest = max(found, key=lambda r: r.created_ns)
        return StoredResult(newest.id, newest.payload)

    async def projection_epoch(self) -> int | None:
        self._trips.add()
        return self._data.epoch

    async def touch_projection_epoch(self, changed_ns: int) -> None:
        self._trips.add()
        self._data.epoch = changed_ns
