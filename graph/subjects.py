"""Subject reads of one organisation: by key, by id, by id prefix, and filtered pages and
counts (graph.cypher.subjects). ScopedGraph serves the port's subject reads from here.

Most recently active pages go through graph.activity's windows (`ActivityPages`); every
other order is one keyset-paginated statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.domain.models import StoredSubject
from engine.domain.text import normalise
from engine.ports import SortKey, SubjectOrder, SubjectPage, SubjectQuery, TimeSpan
from graph import rows
from graph.activity import ActivityPages
from graph.cypher import search as search_cypher
from graph.cypher import subjects as subjects_cypher
from graph.executor import MAX_KEYS, Run


class SubjectReads:
    """Subjects of one organisation, read through `read` (its statements' $org bound)."""

    def __init__(self, read: Run, activity: ActivityPages) -> None:
        self._read = read
        self._activity = activity

    async def subjects_by_keys(
        self, keys: Sequence[str], at: TimeSpan | None = None
    ) -> dict[str, StoredSubject]:
        if not keys:
            return {}
        params: dict[str, Any] = {"keys": list(dict.fromkeys(keys))[:MAX_KEYS]}
        statement = subjects_cypher.subjects_by_keys(rows.bind_span(params, at))
        found = await self._read(statement, **params)
        return {row[0][0]: rows.subject_from(row[0]) for row in found}

    async def subjects_by_ids(self, ids: Sequence[str]) -> dict[str, StoredSubject]:
        if not ids:
            return {}
        found = await self._read(subjects_cypher.SUBJECTS_BY_IDS, ids=list(dict.fromkeys(ids)))
        return {row[0][1]: rows.subject_from(row[0]) for row in found}

    def _filter_params(
        self, query: SubjectQuery
    ) -> tuple[dict[str, Any], subjects_cypher.FilterShape]:
        params: dict[str, Any] = {}
        if query.kinds:
            params["kinds"] = [k.value for k in query.kinds]
        if query.name_prefix is not None:
            params["prefix"] = query.name_prefix
        if query.search:
            params["search"] = normalise(query.search)  # as the search text was composed
        if query.attributes:
            params["pairs"] = [rows.attr_pair(k, v) for k, v in query.attributes]
        shape = subjects_cypher.FilterShape(
            kinds=bool(query.kinds),
            prefix=query.name_prefix is not None,
            search=bool(query.search),
            pairs=bool(query.attributes),
            stubs=query.include_stubs,
            timed=rows.bind_span(params, query.at),
            brief=query.brief,
        )
        return params, shape

    async def find_subjects(
        self, query: SubjectQuery, first: int, after: SortKey | None = None
    ) -> SubjectPage:
        params, shape = self._filter_params(query)
        params["limit"] = first + 1
        if after is not None:
            params["after_sort"], params["after_key"] = after
        if query.order is SubjectOrder.RECENT:
            found = await self._activity.page(shape, params, after)
        else:
            statement = subjects_cypher.find_subjects(shape, query.order.value, after is not None)
            found = await self._read(statement, **params)
        page = found[:first]
        return SubjectPage(
            items=[rows.subject_from(row[0]) for row in page],
            has_next=len(found) > first,
            positions=[(row[1], row[2]) for row in page],
        )

    async def count_subjects(self, query: SubjectQuery) -> int:
        params, shape = self._filter_params(query)
        found = await self._read(subjects_cypher.count_subjects(shape), **params)
        return int(found[0][0]) if found else 0

    async def subjects_by_id_prefix(
        self, prefix: str, limit: int = 10
    ) -> tuple[list[StoredSubject], int]:
        statement = search_cypher.SUBJECTS_BY_ID_PREFIX
        found = await self._read(statement, prefix=prefix.lower(), limit=limit)
        if not found:
            return [], 0
        total, sample = found[0]
        return [rows.subject_from(p) for p in sample], int(total)
