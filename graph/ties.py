"""A page of "most recently active" subjects tied at a midnight, read in key order.

Records stamped with a date alone, and daily rollups, start and end on midnights (UTC). As of
a midnight every subject with one there ties for "most recently active", and a tie ranks by
key, so a window through the time slots (graph.activity) reads every record of the tie to
find the first keys: at a million subjects about 5,000 records for a page of 100, ten times
as many as at 100k. Format 9 puts an endpoint on a midnight on its slot's tie node for the
subject key's prefix (graph.recordrows.tie_of: kind and first character), and this reads a tie
a few of those at a time, in order, until the page is whole.

The page as of T, the midnight M at or before the page's top (T, or a cursor's time):
1. the subjects with a record start or end in (M, T] (`above`): they rank before the tie;
2. then the subjects with one exactly on M, by key, from M's tie nodes in order, those in
   (1) left out (their latest is later);
3. their subjects looked up with the page's filter, in that order.
A page whole by then is the page: everything not read ranks after it (latest before M, or
on M with a later key). Otherwise, or when (1) alone holds more candidates than a page
looks up, the caller reads the plain window (`None`): a fast path of ActivityPages, counted
when it falls back (graph.observation: ties_read, ties_fell_back). As of the midnight
itself (T = M, as a dashboard "as of" a date asks), (1) is empty and (2) and (3) are one
statement, its first chunk of ties and their lookup (ties_cypher.tied_page).

First the midnight's ties are listed with how many records each holds (relationships
counted, no record read). A tie too small to be worth it (a few pages' worth of records,
as at 10k subjects) is left to the plain window at once, which reads it cheaply anyway; a
big one is read a few ties at a time, as many as hold about the candidates a page looks up.
As of the midnight itself a tie of a page's worth of records is read: one statement either
way, and the window would read the whole tie and the hours below it too (at 100k subjects
1,132 records for a page of 100 repositories, against 440 read from the ties, which halves
the statement's time: 6.0 against 2.9 ms).
The listing is kept a few seconds per midnight (as graph.activity keeps its day counts): it
decides only how the tie is read, never what a page holds, since the ties are read by range.
"""

from __future__ import annotations

import time
from typing import Any

from graph.cypher import subjects as subjects_cypher
from graph.cypher import ties as ties_cypher
from graph.executor import Row, Run
from graph.observation import fast_path
from graph.recordrows import DAY_NS, SLOT_US, US, tie_of, us_at_least, us_at_most

_CANDIDATES = 2  # subjects looked up per row of the page, as graph.activity's windows do
_WORTH = 4  # a tie of fewer records than this many times a page's candidates: read plainly
_TTL_S = 5.0  # how long a midnight's listing of ties is kept
_KEPT = 64  # listings kept at most (midnights, kinds and cursors asked lately)


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
        self._listed: dict[tuple[Any, ...], tuple[float, list[tuple[str, int]]]] = {}

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
        after_key = after[1] if after is not None and after[0] == mark else None
        start = tie_of(after_key) if after_key is not None else ""  # the cursor's tie, or all
        ties = await self._ties(shape, params, bounds, start)
        on_mark = bounds["floor_us"] > bounds["t_end_us"]  # nothing above the midnight
        if not ties or sum(n for _, n in ties) < (limit if on_mark else cap * _WORTH):
            self._fall_back()  # a small tie: the plain window reads it as cheaply
            return None
        if on_mark:
            rows = await self._tied_page(shape, params, bounds, (after_key, start), mark, ties)
            if len(rows) >= limit:
                self._read_one()
                return rows
        seen, ranked = await self._above(shape, params, after, bounds)
        candidates = ranked[:cap]
        if len(ranked) <= cap:
            need = cap - len(ranked)
            tied = await self._tied(shape, params, bounds, after_key, start, seen, need, ties)
            candidates += [[k, mark] for k in tied]
        # Fewer candidates than the page cannot make it: no lookup.
        rows = await self._lookup(shape, params, candidates) if len(candidates) >= limit else []
        if len(rows) >= limit:
            self._read_one()
            return rows
        self._fall_back()
        return None

    def _read_one(self) -> None:
        self.read += 1
        fast_path("ties_read")  # fabric_activity_ties_read_total

    def _fall_back(self) -> None:
        self.fell_back += 1
        fast_path("ties_fell_back")  # fabric_activity_ties_fell_back_total

    async def _ties(
        self,
        shape: subjects_cypher.FilterShape,
        params: dict[str, Any],
        bounds: dict[str, int],
        start: str,
    ) -> list[tuple[str, int]]:
        """The midnight's ties of the page's kinds from `start` on, in order, with how many
        records each holds: listed, or as listed less than _TTL_S ago."""
        kinds = tuple(params["kinds"]) if shape.kinds else ()
        key = (bounds["mark_slot"], start, kinds)
        now = time.monotonic()
        kept = self._listed.get(key)
        if kept is not None and now - kept[0] <= _TTL_S:
            return kept[1]
        found = await self._read(
            ties_cypher.ties(shape.kinds), first_tie=start, kinds=list(kinds), **bounds
        )
        ties = [(str(t), int(n)) for t, n in found]
        if len(self._listed) >= _KEPT:
            self._listed.pop(next(iter(self._listed)))  # the oldest
        self._listed[key] = (now, ties)
        return ties

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
        start: str,
        seen: set[str],
        need: int,
        ties: list[tuple[str, int]],
    ) -> list[str]:
        """Up to `need` keys on the midnight, in order, after `after_key` and not in `seen`,
        read a range of ties at a time: as many as hold about twice `need` records (a
        subject may have two there: a day ending, the next starting), more if it took more."""
        keys: list[str] = []
        at, lo = 0, start
        while at < len(ties) and len(keys) < need:
            want, held, end = 2 * (need - len(keys)), 0, at
            while end < len(ties) and held < want:
                held += ties[end][1]
                end += 1
            statement = ties_cypher.tied(after_key is not None, shape.kinds, first=at == 0)
            hi = ties[end - 1][0]
            found = await self._read(
                statement, lo_tie=lo, hi_tie=hi, after_key=after_key,
                kinds=params.get("kinds", []), **bounds,
            )  # fmt: skip
            keys += [str(k) for (k,) in found if str(k) not in seen]
            at, lo = end, hi
        return keys[:need]

    async def _tied_page(
        self,
        shape: subjects_cypher.FilterShape,
        params: dict[str, Any],
        bounds: dict[str, int],
        cursor: tuple[str | None, str],
        mark: int,
        ties: list[tuple[str, int]],
    ) -> list[Row]:
        """With nothing above the midnight, the first chunk of ties `_tied` would read (about
        twice `need`, the page's candidates, in records) and the lookup of its first `need`
        keys, in one statement (`cursor`: the cursor's key at the midnight, and its tie).
        A page whole from it is the page `_tied` and `_lookup` make: its keys come first in
        key order, whatever later chunks hold. Fewer rows: the caller reads on as before."""
        (after_key, start), need = cursor, int(params["limit"]) * _CANDIDATES
        end, held = 0, 0
        while end < len(ties) and held < 2 * need:
            held += ties[end][1]
            end += 1
        statement = ties_cypher.tied_page(shape, after_key is not None)
        chunk = {"lo_tie": start, "hi_tie": ties[end - 1][0], "after_key": after_key}
        # The page's own cursor (params' after_key) is the midnight's or none: chunk's.
        return await self._read(statement, **{**params, **bounds, **chunk, "need": need,
                                              "mark": mark})  # fmt: skip

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
