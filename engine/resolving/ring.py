"""The actor's recently-referenced ring: a small, process-local memory per organisation and
actor of the subjects they resolved or investigated (reading one is not referencing it).
Another actor never sees it; it does not survive a restart and is not shared between gateway
instances. It only ever breaks a genuine tie (engine.resolving.resolution), so a miss costs nothing
but a clarification."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock


@dataclass(frozen=True, slots=True)
class RingEntry:
    """forms: the subject's handles folded (engine.domain.text.handle_forms) when it was referenced,
    so a tie between subjects sharing a handle is checked without reading them again."""

    key: str
    name: str
    kind: str
    forms: frozenset[str] = frozenset()


class ReferenceRing:
    """capacity: entries kept per (organisation, actor), newest first; max_actors bounds memory."""

    def __init__(self, capacity: int = 64, max_actors: int = 10_000) -> None:
        self.capacity = capacity
        self.max_actors = max_actors
        self._rings: OrderedDict[tuple[str, str], OrderedDict[str, RingEntry]] = OrderedDict()
        self._lock = Lock()

    def admit(self, org_id: str, actor: str, entry: RingEntry) -> None:
        with self._lock:
            ring = self._rings.setdefault((org_id, actor), OrderedDict())
            self._rings.move_to_end((org_id, actor))
            ring.pop(entry.key, None)
            ring[entry.key] = entry
            while len(ring) > self.capacity:
                ring.popitem(last=False)
            while len(self._rings) > self.max_actors:
                self._rings.popitem(last=False)

    def snapshot(self, org_id: str, actor: str) -> list[RingEntry]:
        with self._lock:
            ring = self._rings.get((org_id, actor))
            return list(reversed(ring.values())) if ring else []
