"""A page of "most recently active" subjects tied at a midnight, read in key order.

Records stamped with a date alone, and daily rollups, start and end on midnights (UTC). As of
a midnight every subject with one there ties for "most recently active", and a tie ranks by
key, so a window through the time slots (graph.activity) reads every record of the tie to
find the first keys: at a million subjects about 5,000 records for a page of 100, ten times
as many as at 100k. Format 9 puts an endpoint on a midnight on its slot's tie node for the
subject key's prefix (graph.rows.tie_of: kind and first character), and this reads a tie
a few of those at a time, in order, until the page is whole.

The page as of T, the midnight M at or before the page's top (T, or a cursor's time):
1. the subjects with a record start or end in (M, T] (`above`): they rank before the tie;
2. then the subjects with one exactly on M, by key, from M's tie nodes in order, those in
   (1) left out (their latest is later);
3. their subjects looked up with the page's filter, in that order.
A page whole by then is the page: everything not read ranks after it (latest before M, or
on M with a later key). Otherwise, or when (1) alone holds more candidates than a page
looks up, the caller reads the plain window (`None`): a fast path of ActivityPages, counted
when it falls back (graph.observation: ties_read, ties_fell_back).
"""

from __future__ import annotations

from typing import Any

from graph.cypher import subjects as subjects_cypher
from graph.cypher import ties as ties_cypher
from graph.executor import Row, Run
from graph.observation import fast_path
from graph.rows import DAY_NS, SLOT_US, US, tie_of, us_at_least, us_at_most

_CANDIDATES = 2  # subjects looked up per row of the page, as graph.activity's windows do
_FIRST_TIES = 4  # tie nodes read at first (a statement each time: few), four times as many after


def midnight(t_ns: int) -> int:
    """The midnight (UTC) at or before t_ns, in nanoseconds."""
    return t_ns - t_ns % DAY_NS


class TiePages:
    """Pages tied at a midnight, for one organisation. Counts the pages read this way and
    those that fell back to the plain window."""

    def __init__(self, read: Run) -> None:
        self._read = read
        self.read = 0
        self.fell_back = 0

    async def page(
        self,
        shape: subjects_cypher.FilterShape,
        params: dict[str, Any],
        after: tuple[int, str] | None,
        mark: int,
    ) -> list[Row] | None:
        """The page as of params["t_end"], given that the window down to the midnight `mark`
        did not hold it; None when this path cannot tell it (the caller reads it plainly)."""
        limit = int(params["limit"])
        cap = limit * _CANDIDATES
        bounds = _bounds(mark, int(params["t_end"]))
        seen, ranked = await self._above(shape, params, after, bounds)
        candidates = ranked[:cap]
        if len(ranked) <= cap:
            need = cap - len(ranked)
            after_key = after[1] if after is not None and after[0] == mark else None
            tied = await self._tied(shape, params, bounds, after_key, seen, need)
            candidates += [[k, mark] for k in tied]
        # Fewer candidates than the page cannot make it: no lookup.
        rows = await self._lookup(shape, params, candidates) if len(candidates) >= limit else []
        if len(rows) >= limit:
            self.read += 1
            fast_path("ties_read")  # fabric_activity_ties_read_total
            return rows
        self.fell_back += 1
        fast_path("ties_fell_back")  # fabric_activity_ties_fell_back_total
        return None

    async def _above(
        self,
        shape: subjects_cypher.FilterShape,
        params: dict[str, Any],
        after: tuple[int, str] | None,
        bounds: dict[str, int],
    ) -> tuple[set[str], list[list[Any]]]:
        """Every key of the page's kinds active in (M, T], and those after the cursor as
        [key, latest] in the page's order. Nothing to read when T is the midnight."""
        if bounds["floor_us"] > bounds["t_end_us"]:
            return set(), []
        found = await self._read(ties_cypher.above(shape, after is not None), **bounds, **params)
        return {str(k) for k, _, _ in found}, [[k, last] for k, last, nxt in found if nxt]

    async def _tied(
        self,
        shape: subjects_cypher.FilterShape,
        params: dict[str, Any],
        bounds: dict[str, int],
        after_key: str | None,
        seen: set[str],
        need: int,
    ) -> list[str]:
        """Up to `need` keys on the midnight, in order, after `after_key` and not in `seen`,
        read a few tie nodes at a time (four times as many each time)."""
        start = tie_of(after_key) if after_key is not None else ""
        ties = [str(t) for (t,) in await self._read(ties_cypher.TIES, first_tie=start, **bounds)]
        if shape.kinds:
            kinds = set(params["kinds"])
            ties = [t for t in ties if t.split(":", 1)[0] in kinds]
        statement = ties_cypher.tied(after_key is not None)
        keys: list[str] = []
        at, step = 0, _FIRST_TIES
        while at < len(ties) and len(keys) < need:
            found = await self._read(
                statement, ties=ties[at : at + step], after_key=after_key, **bounds
            )
            keys += [str(k) for (k,) in found if str(k) not in seen]
            at, step = at + step, step * 4
        return keys[:need]

    async def _lookup(
        self,
        shape: subjects_cypher.FilterShape,
        params: dict[str, Any],
        candidates: list[list[Any]],
    ) -> list[Row]:
        return await self._read(ties_cypher.lookup(shape), candidates=candidates, **params)


def _bounds(mark: int, t_end: int) -> dict[str, int]:
    """The statements' bounds: the window (M, T] in microseconds and slots, and M's own."""
    mark_us = mark // US
    floor_us = us_at_least(mark + 1)
    t_end_us = us_at_most(t_end)
    return {
        "mark_us": mark_us,
        "mark_slot": mark_us // SLOT_US,
        "floor_us": floor_us,
        "floor_slot": floor_us // SLOT_US,
        "t_end_us": t_end_us,
        "t_end_slot": t_end_us // SLOT_US,
    }
