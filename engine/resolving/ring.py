"""The actor's recently-referenced ring: a small, process-local memory per organisation and
actor of the subjects they resolved or investigated (reading one is not referencing it).
Another actor never sees it; it does not survive a restart and is not shared between gateway
instances. It only ever breaks a genuine tie (engine.resolving.resolution), so a miss costs nothing
but a clarification."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock

from engine.reading.followups import Previous


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
        # Each actor's last full question, which a follow-up by ellipsis completes
        # (engine/reading/followups.py): kept as the references are, per organisation and actor.
        self._asked: OrderedDict[tuple[str, str], Previous] = OrderedDict()
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

    def asked(self, org_id: str, actor: str, previous: Previous) -> None:
        """Remembers the actor's last full question."""
        with self._lock:
            self._asked[(org_id, actor)] = previous
            self._asked.move_to_end((org_id, actor))
            while len(self._asked) > self.max_actors:
                self._asked.popitem(last=False)

    def previous(self, org_id: str, actor: str) -> Previous | None:
        with self._lock:
            return self._asked.get((org_id, actor))


class HeldRing(ReferenceRing):
    """One investigation's admissions, held until the run knows it referenced anything.

    A question refused for its time ("from 2010 to 2030" is wider than allowed) investigated
    nothing: on attrs, a session that asked about src/attr/exceptions.py over too wide a window
    and then "who changed exceptions.py in the first half of 2024?" had the second question
    answered for attr.exceptions "from your recent references" though no answer had ever been
    about it. Within the run, what it admitted is already seen (newest first), as before.
    """

    def __init__(self, ring: ReferenceRing) -> None:
        super().__init__(ring.capacity, 1)
        self.ring = ring
        self._held: list[tuple[str, str, RingEntry]] = []

    def admit(self, org_id: str, actor: str, entry: RingEntry) -> None:
        self._held.append((org_id, actor, entry))

    def snapshot(self, org_id: str, actor: str) -> list[RingEntry]:
        held: dict[str, RingEntry] = {}
        for org, who, entry in reversed(self._held):
            if (org, who) == (org_id, actor):
                held.setdefault(entry.key, entry)
        older = [e for e in self.ring.snapshot(org_id, actor) if e.key not in held]
        return [*held.values(), *older]

    def commit(self) -> None:
        """The run referenced what it admitted: remembered, in the order admitted."""
        for org, who, entry in self._held:
            self.ring.admit(org, who, entry)
        self._held.clear()
