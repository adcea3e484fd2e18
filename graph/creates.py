"""The statements that create what a write batch's read found absent (graph.writer prepares
them with the batch), each made now and sent later: if another writer made one of its elements
between the read and the send, the creation writes nothing and returns no row, and the rows are
merged instead, as any other (fast path events `ingest_*_merged_after_read`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from graph import recordrows
from graph.cypher import activity as activity_cypher
from graph.cypher import records as records_cypher
from graph.cypher import subjects as subjects_cypher
from graph.dialect import Dialect
from graph.observation import fast_path
from graph.search import SearchArms

Send = Callable[[], Awaitable[Any]]
Step = Callable[..., Send]  # a statement and its parameters, made ready to send


def record_params(data: list[list[Any]]) -> dict[str, Any]:
    """The parameters of a statement writing record rows: the rows, their counts per kind
    and day, their subjects' latest times and their time slots (graph.cypher.activity)."""
    days, latest = recordrows.record_summary(data)
    return {"rows": data, "days": days, "latest": latest, "slots": recordrows.record_slots(data)}


class Creates:
    """The creations of one writer: `step` makes a statement ready ($org bound), `search`
    decides the subjects' vector label, `dialect` the statements' form."""

    def __init__(self, step: Step, search: SearchArms, dialect: Dialect) -> None:
        self._step = step
        self._search = search
        self._dialect = dialect

    def subjects(self, data: list[list[Any]]) -> Send:
        """Subjects, created with the vector label when their vectors will be stored
        (decided as the vectors' step decides, when sent: graph.search)."""
        dialect = self._dialect
        sent: dict[bool, Send] = {}

        def made(labelled: bool) -> Send:
            if labelled not in sent:  # the other form made only if needed
                statement = subjects_cypher.create_subjects(dialect, labelled)
                sent[labelled] = self._step(statement, rows=data)
            return sent[labelled]

        made(self._search.embedder is not None)

        async def send() -> None:
            if not await made(await self._search.stores_vectors())():
                fast_path("ingest_subjects_merged_after_read")
                await self._step(subjects_cypher.merge_subjects(dialect), rows=data)()

        return send

    def records(self, data: list[list[Any]]) -> Send:
        """Source records (the dialect's create_records, graph.cypher.activity)."""
        params = record_params(data)
        create = self._step(self._dialect.create_records, **params)

        async def send() -> None:
            if not await create():  # nothing written: one of them is there now
                fast_path("ingest_records_merged_after_read")
                await self._step(activity_cypher.MERGE_SOURCE_RECORDS, **params)()

        return send

    def episodes(self, data: list[list[Any]]) -> Send:
        """Episodes, each with one MENTIONS per subject it names (a name repeated in its
        mentions is linked once, as MERGE_EPISODES links it: graph.cypher.records)."""
        once = [[row[0], list(dict.fromkeys(row[1])), *row[2:]] for row in data]
        create = self._step(records_cypher.CREATE_EPISODES, rows=once)

        async def send() -> None:
            if not await create():
                fast_path("ingest_episodes_merged_after_read")
                await self._step(records_cypher.MERGE_EPISODES, rows=data)()

        return send
