"""Reading pages through the activity structures, and bringing older graphs up to date.

"Most recently active" pages are read from a window (graph.cypher.subjects.recent_window): the
subjects last active at or after a floor (as of now from the Activity index; as of a past time
from the records reached through the window's time slots, format 8). The subjects inside it
are ranked exactly, so once it holds a whole page (and one more row, to know there is a next
page) that page is the answer. The floor starts where the newest days hold a few pages' worth
of records (the per-day record counts) and moves back until the page is whole; a page that
reaches past every active subject into those never active is read by the statement that ranks
every subject (graph.cypher.subjects.find_subjects).
"""

from __future__ import annotations

import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

from graph import ties
from graph.cypher import activity as activity_cypher
from graph.cypher import activity_reads
from graph.cypher import formats as formats_cypher
from graph.cypher import subjects as subjects_cypher
from graph.dialect import Dialect
from graph.executor import Row, Run
from graph.observation import fast_path
from graph.recordrows import DAY_NS, SLOT_US, slot_key, us_at_least, us_at_most

Progress = Callable[[str], None]

# Of the activity structures; a graph of an earlier one is migrated on open. 1: the
# structures; 2: day counts keyed by their "kind:day" text
# (graph.cypher.activity.SLOT_RECORD_DAYS); 3: records' times in microseconds (start_us,
# end_us), indexed (graph.rows); 4: each subject's latest activity in microseconds
# (latest_us), indexed.
# 5: per-subject day counts (SubjectDay); 6: those removed again (about one node per record,
# for no faster cohort answer: docs/operations.md), a format-5 graph's deleted on open.
# 7: each record held by its subject's Activity node, (:Activity)-[:HOLDS]->(:SourceRecord),
# which reads of a subject's records walk; the records' subject_key index, which a reopen
# rebuilt at great cost (docs/operations.md, the 1M reopen), dropped once they are made.
# 8: each record reached from its time slots, (:TimeSlot)-[:STARTS|ENDS]->(:SourceRecord),
# which reads of a time window walk; the records' start_us and end_us index fields (about
# 12 s of a 1M reopen's 66: docs/operations.md), dropped once they are made.
# 9: each endpoint on a midnight on its slot's tie node for its subject's key prefix
# (graph.recordrows.tie_of), which a page tied at that midnight reads in key order (graph.ties).
FORMAT_VERSION = 9
_HISTOGRAM_TTL_S = 5.0  # the day counts only size windows: a stale copy costs time, not truth
_PAGES_AHEAD = 4  # a first window holds about this many pages' worth of records
_WIDEN = 8
# Subjects of a window looked up per row of the page: the rest of the filter (stubs, validity
# at the time asked) rarely turns one away, and a subject costs a lookup.
_CANDIDATES = 2
_FILL_BATCH = 50_000
_IDS = 200_000  # node ids a statement of a migration covers: about 200k records at 1M subjects
_SLOT_BATCH = 1_000  # time slots made per statement (graph.cypher.activity.MAKE_SLOTS)


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class ActivityPages:
    """Recent-activity pages for one organisation.

    Keeps a process-local copy of the per-day record counts, refreshed every few seconds;
    it decides only how wide a first window is, never what a page holds. Counts the windows
    read and the pages that fell back to ranking every subject (the plain path, which
    `use_windows = False` forces: tests hold the windows to it)."""

    def __init__(self, read: Run) -> None:
        self._read = read
        self.use_windows = True
        self.use_ties = True
        self.ties = ties.TiePages(read)
        self._days: list[tuple[int, int]] = []
        self._fetched = float("-inf")
        self.windows_read = 0
        self.ranked_all = 0

    async def _histogram(self) -> list[tuple[int, int]]:
        now = time.monotonic()
        if now - self._fetched > _HISTOGRAM_TTL_S:
            found = await self._read(activity_reads.RECORD_DAYS)
            self._days = [(int(d), int(n)) for d, n in found]
            self._fetched = now
        return self._days

    async def page(
        self,
        shape: subjects_cypher.FilterShape,
        params: dict[str, Any],
        after: tuple[Any, str] | None,
    ) -> list[Row]:
        limit = int(params["limit"])
        top = after[0] if after is not None else params.get("t_end") if shape.timed else None
        if self.use_windows and (isinstance(top, int) or top is None):
            statement = subjects_cypher.recent_window(shape, after is not None)
            bounds: dict[str, int] = {}
            mark = None
            if shape.timed:
                bounds["t_end_us"] = us_at_most(params["t_end"])
                bounds["t_end_slot"] = bounds["t_end_us"] // SLOT_US
                mark = ties.midnight(top) if self.use_ties and isinstance(top, int) else None
            candidates = limit * _CANDIDATES
            for floor in _floors(await self._histogram(), top, limit * _PAGES_AHEAD):
                if mark is not None and floor <= mark:
                    # The window reaches the midnight: its tie, read in key order (graph.ties).
                    cursor = (int(after[0]), str(after[1])) if after is not None else None
                    tied = await self.ties.page(shape, params, cursor, mark)
                    if tied is not None:
                        return tied
                    mark = None
                self.windows_read += 1
                fast_path("windows_read")  # fabric_activity_windows_read_total
                floor_us = us_at_least(floor)
                bounds.update(floor=floor, floor_us=floor_us, floor_slot=floor_us // SLOT_US)
                bounds["candidates"] = candidates
                found = await self._read(statement, **bounds, **params)
                if len(found) >= limit:
                    return found
                candidates *= _WIDEN  # as the window: too few may have been the filter's doing
        # Past every active subject: rank them all (the never active come last, by key).
        self.ranked_all += 1
        fast_path("ranked_all")  # fabric_activity_pages_ranked_all_total
        statement = subjects_cypher.find_subjects(shape, "recent", after is not None)
        return await self._read(statement, **params)


def _floors(days: list[tuple[int, int]], top: int | None, target: int) -> Iterator[int]:
    """Window floors, newest first, each reaching back over about _WIDEN times as many records
    as the one before, the last one over every day. Records are taken as spread evenly over
    their day: at a million records a day holds thousands, and a floor on day boundaries
    would read a whole day for a page of fifty. Made as they are asked for: a page is most
    often whole from the first window, and the histogram holds every day of records."""
    last = None  # the floor given last
    total = 0.0
    for day, n in days:  # newest first
        start, end = day * DAY_NS, (day + 1) * DAY_NS
        if top is not None:
            if start > top:
                continue
            end = min(end, top + 1)
        held = n * (end - start) / DAY_NS  # the records of the day before `end`, about
        while held > 0 and total + held >= target:
            # On a whole microsecond, as record times are: the range index compares doubles
            # (256 ns apart today), which must not round a floor past a record at it.
            floor = max(start, int(end - (target - total) * DAY_NS / n))
            last = floor - floor % 1000
            yield last
            target *= _WIDEN
        total += held
    earliest = [day * DAY_NS for day, _ in days if top is None or day * DAY_NS <= top]
    if earliest and (last is None or last > earliest[-1]):
        yield earliest[-1]


async def migrate(
    read: Run, write: Run, org: str, dialect: Dialect, progress: Progress = _stderr
) -> bool:
    """Bring the activity structures of a graph written by an earlier format up to date;
    False when there was nothing to do. Runs once: the graph's Format node records that it
    is done. Each step skips what it did already, so an interrupted run resumes."""
    found = await read(formats_cypher.GET_FORMAT)
    version = int(found[0][0]) if found and found[0][0] is not None else 0
    if version >= FORMAT_VERSION:
        return False
    # Before anything counts a day again: a count without its key would be counted anew.
    await write(formats_cypher.SLOT_RECORD_DAYS)
    span = await read(formats_cypher.RECORD_IDS)
    top, count = (span[0][0], int(span[0][1])) if span else (None, 0)
    if count and top is not None:
        if version < 3:
            what = f"{org}: times of {count:,} source records"
            await _fill(write, formats_cypher.FILL_MICROSECONDS, what, count, progress)
        uncounted = 0 if version else int((await read(formats_cypher.UNCOUNTED))[0][0])
        if uncounted:
            statement = activity_cypher.MIGRATE_ACTIVITY  # counts nothing back: by ranges
            async for share, _, seconds in _by_ids(_statement(write, statement), int(top), None):
                progress(
                    f"fabric: migrating {org}: activity of {uncounted:,} source records "
                    f"{share}% ({seconds:.1f}s)"
                )
    if 1 <= version < 4:  # Activity nodes of formats 1 to 3 (format 0's come from the count)
        subjects = int((await read(activity_reads.COUNT_ACTIVITY))[0][0])
        what = f"{org}: latest activity of {subjects:,} subjects"
        await _fill(write, formats_cypher.FILL_ACTIVITY_MICROSECONDS, what, subjects, progress)
    # Format 5's per-subject day counts: counted whatever the version read, since an
    # organisation with no Format node of its own reads as 0 (on Neo4j, one made after the
    # store's first open has none); below 5 the count finds none and nothing is made.
    stale = int((await read(formats_cypher.COUNT_SUBJECT_DAYS))[0][0])
    if stale:
        what = f"{org}: removing {stale:,} per-subject day counts"
        await _fill(write, formats_cypher.DELETE_SUBJECT_DAYS, what, stale, progress)
    if version < 7:  # after format 1's Activity nodes, which hold the records
        await _hold(read, write, org, dialect, progress)
    if 3 <= version < 9:  # times a re-ingest lost (graph.cypher.activity says how)
        await _repair(write, org, progress)
    if version < 9:  # after format 3's times in microseconds, which place the records
        await _place(read, write, org, dialect, progress, unplace=version == 8)
    await write(formats_cypher.SET_FORMAT, version=FORMAT_VERSION)
    return version >= 1 or bool(count)


class _Throttle:
    """When a migration's progress line is due: at most one a second, and always the last."""

    def __init__(self) -> None:
        self._started = self._shown = time.monotonic()

    def due(self, last: bool) -> float | None:
        """The seconds since the start when a line is due, else None."""
        now = time.monotonic()
        if not last and now - self._shown < 1.0:
            return None
        self._shown = now
        return now - self._started


async def _fill(write: Run, statement: str, what: str, count: int, progress: Progress) -> int:
    """A batch at a time until one comes back short, and how many it did: times in
    microseconds (formats 3, 4 and 9), and the removal of format 5's per-subject day counts
    (format 6)."""
    throttle = _Throttle()
    done = 0
    while True:
        found = await write(statement, batch=_FILL_BATCH)
        filled = int(found[0][0]) if found else 0
        done += filled
        if (seconds := throttle.due(filled < _FILL_BATCH)) is not None:
            share = min(done, count) * 100 // max(count, 1)
            progress(f"fabric: migrating {what} {share}% ({seconds:.1f}s)")
        if filled < _FILL_BATCH:
            return done


async def _repair(write: Run, org: str, progress: Progress) -> None:
    """Format 9: records' times in microseconds made what their times in nanoseconds say; a
    line only when some were wrong (few are: no share to show)."""
    repaired = await _fill(write, formats_cypher.FILL_MICROSECONDS, org, 0, lambda _: None)
    if repaired:
        progress(f"fabric: migrating {org}: repaired the times of {repaired:,} source records")


Step = Callable[[int, int], Awaitable[int]]  # a migration's work on node ids [lo, hi): a count


def _statement(write: Run, statement: str) -> Step:
    """A step that is one statement, returning a count."""

    async def step(lo: int, hi: int) -> int:
        found = await write(statement, lo=lo, hi=hi)
        return int(found[0][0]) if found and found[0][0] is not None else 0

    return step


async def _by_ids(step: Step, top: int, total: int | None) -> AsyncIterator[tuple[int, int, float]]:
    """Runs `step` over node ids [lo, hi), a range at a time up to `top` (a statement each: a
    batch cut by LIMIT would read every node done so far again). Yields, when a progress line
    is due, the share done (of `total`, what the steps' counts add up to: node ids are not
    spread evenly over what they do; None: of the ranges), their count so far and the
    seconds."""
    throttle = _Throttle()
    ranges = range(0, top + 1, _IDS)
    made = 0
    for done, lo in enumerate(ranges, 1):
        made += await step(lo, lo + _IDS)
        last = done == len(ranges)
        if (seconds := throttle.due(last)) is not None:
            share = done * 100 // len(ranges) if total is None else made * 100 // max(total, 1)
            yield 100 if last else min(99, share), made, seconds


async def _hold(read: Run, write: Run, org: str, dialect: Dialect, progress: Progress) -> None:
    """Format 7: each record held by its subject's Activity node, the Activity nodes a range
    of node ids at a time (graph.dialect's holds; on Neo4j one range)."""
    span, hold = dialect.holds
    found = await read(span)
    top, subjects = (found[0][0], int(found[0][1])) if found else (None, 0)
    if top is None or not subjects:
        return
    # The share done is of the records (the day counts hold how many).
    total = sum(int(n) for _, n in await read(activity_reads.RECORD_DAYS))
    async for share, held, seconds in _by_ids(_statement(write, hold), int(top), total):
        progress(
            f"fabric: migrating {org}: the records of {subjects:,} subjects {share}% "
            f"({held:,} of {total:,} held; {seconds:.1f}s)"
        )


async def _place(
    read: Run, write: Run, org: str, dialect: Dialect, progress: Progress, unplace: bool
) -> None:
    """Format 8: each record given its STARTS (and ENDS) from its time slots, the records a
    range of node ids at a time (graph.dialect's slots; on Neo4j one range): the range's
    missing slots made first, a batch at a time, then its records placed. From format 8
    (`unplace`), format 9's: the range's records with an endpoint on a midnight are taken
    off their slots first, and placed again on their tie nodes (graph.recordrows.tie_of)."""
    span, missing, place, unplaced = dialect.slots
    found = await read(span)
    top, total = (found[0][0], int(found[0][1])) if found else (None, 0)
    if top is None or not total:
        return

    async def step(lo: int, hi: int) -> int:
        if unplace:
            await write(unplaced, lo=lo, hi=hi)
        slots = [
            [slot_key(k, int(n), tie), k, int(n), tie]
            for k, n, tie in await read(missing, lo=lo, hi=hi)
        ]
        for at in range(0, len(slots), _SLOT_BATCH):
            await write(activity_cypher.MAKE_SLOTS, slots=slots[at : at + _SLOT_BATCH])
        return await _statement(write, place)(lo, hi)

    # From format 8 only the records on midnights are placed again: the share is of the ranges.
    what = "the midnight ties" if unplace else "the time slots"
    async for share, placed, seconds in _by_ids(step, int(top), None if unplace else total):
        progress(
            f"fabric: migrating {org}: {what} of {total:,} source records {share}% "
            f"({placed:,} placed; {seconds:.1f}s)"
        )
