"""Pages tied at a midnight (graph.ties, format 9) against the plain ranking.

Records on midnights (daily rollups, records dated alone) tie for "most recently active" as of
that midnight, and a tie ranks by key. The fast path reads a midnight's tie nodes in key order;
these tests hold it to the plain path (every subject ranked from its records), page by page
with cursors through the tie, and to the ranking computed here from the records.
"""

from __future__ import annotations

import random
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.domain.models import SubjectKind
from engine.ports import GraphStore, SubjectOrder, SubjectQuery, TimeSpan
from graph.observation import observe_statements, stop_observing
from graph.scoped import ScopedGraph
from tests.conftest import new_org
from tests.helpers import load, subject
from tests.test_activity import _expected, _fast_and_plain, ns, placed, record

DAY = timedelta(days=1)
BASE = datetime(2026, 3, 1, tzinfo=UTC)

# Keys over many first characters (the ties split on it), digits and a non-ASCII one among
# them, so that a page's tie spans several tie nodes and their order is the keys' order.
_SLUGS = [f"{c}{i}" for c in "abcdmxyz0é" for i in range(9)]


def _stamp(t: datetime) -> str:
    return t.isoformat()


def _rollup(key: str, subj: str, day: datetime) -> dict[str, Any]:
    """A day's rollup: from its midnight to the next."""
    item = record(key, subj, _stamp(day), _stamp(day + DAY), "metric_rollup")
    return {**item, "metric": "commits", "value": 3}


def _world(rng: random.Random) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    subjects = {f"repository:{s}": subject(f"repository:{s}") for s in _SLUGS}
    subjects |= {f"service:{s}": subject(f"service:{s}") for s in _SLUGS[::3]}
    subjects["repository:a1"]["valid_to"] = _stamp(BASE + 2 * DAY)  # gone by the third day
    subjects["repository:b2"]["valid_from"] = _stamp(BASE + 3 * DAY)  # not there yet
    keys = sorted(subjects)
    records: list[dict[str, Any]] = []
    for n, key in enumerate(keys):
        for d in range(4):  # daily rollups: midnight to midnight, most subjects most days
            if rng.random() < 0.8:
                day = BASE + d * DAY
                records.append(_rollup(f"metric_rollup:{n}-{d}", key, day))
    for n in range(120):  # others at whole minutes around the midnights, some on them
        start = BASE + timedelta(minutes=rng.randrange(0, 5 * 24 * 60))
        if rng.random() < 0.2:
            start = start.replace(hour=0, minute=0)
        end = start + timedelta(minutes=rng.choice([0, 5, 60, 24 * 60]))
        records.append(record(f"incident:{n}", rng.choice(keys), _stamp(start),
                              _stamp(end) if n % 2 else None))  # fmt: skip
    return subjects, records


async def test_pages_tied_at_a_midnight_equal_the_plain_ranking(cypher_store: GraphStore) -> None:
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        graph = cypher_store.org(org)
        assert isinstance(graph, ScopedGraph)
        await _ties_equal_plain(graph)
    finally:
        await cypher_store.drop_org(org)


async def _ties_equal_plain(graph: ScopedGraph) -> None:
    subjects, records = _world(random.Random(5))
    report = await load(graph, [*subjects.values(), *records])
    assert report.invalid_count == 0
    slots = await placed(graph)  # each midnight endpoint on its tie node
    assert any(s.endswith(":repository:é") for pair in slots.values() for s in pair if s)
    midnight = ns(_stamp(BASE + 2 * DAY))
    times = [
        midnight,  # the tie at the top
        midnight + 30 * 10**9,  # a few records above it, then the tie
        midnight + 6 * 3_600 * 10**9,  # hours above it: most pages never reach the tie
        midnight - 1_000,  # just before: the day's records, the previous midnight's tie
        ns(_stamp(BASE + 3 * DAY)),  # r b2 admitted from then; a1 not
    ]
    ties = graph.activity.ties
    for at in times:
        for kinds in ((), ("repository",), ("service",)):
            for first in (4, 25):
                read, fell_back = ties.read, ties.fell_back
                fast, plain, _, _ = await _fast_and_plain(graph, kinds, at, first)
                assert fast == plain, (at, kinds, first)
                assert [k for k, _ in fast] == _expected(subjects, records, at, kinds)
                if at == midnight and kinds == ("repository",) and first == 4:
                    # The tie holds about 70 repositories: the pages inside it come from
                    # it, the one past its end and those under it read the plain window.
                    assert ties.read - read >= 60 // first - 1
                elif at == midnight and kinds == ("repository",):
                    # Pages of 25 look up 52 candidates, more than four times the tie's
                    # records: as of the midnight itself (nothing above it) the tie is read
                    # all the same, a page's worth of records being one statement either way.
                    assert ties.read > read
                elif at == midnight + 30 * 10**9 and kinds == ("repository",) and first == 25:
                    # Above the midnight, such a tie is read plainly, at once.
                    assert ties.read == read and ties.fell_back > fell_back


async def test_a_cursor_inside_a_tie_continues_it_in_key_order(cypher_store: GraphStore) -> None:
    """Subjects active above the midnight rank before the tie, and are not in it again
    though they have a record on it; the cursor at the midnight resumes after its key."""
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        graph = cypher_store.org(org)
        assert isinstance(graph, ScopedGraph)
        keys = [f"repository:{s}" for s in _SLUGS]
        midnight = BASE + DAY
        items: list[dict[str, Any]] = [subject(k) for k in keys]
        for n, k in enumerate(keys):
            items.append(_rollup(f"metric_rollup:{n}", k, BASE))
        for n, k in enumerate(keys[::7]):  # later too: above the tie
            items.append(record(f"incident:{n}", k, _stamp(midnight + timedelta(minutes=n + 1))))
        assert (await load(graph, items)).invalid_count == 0
        at = ns(_stamp(midnight + timedelta(hours=1)))
        records = [i for i in items if i["type"] == "source_record"]
        for first in (3, 10):
            fast, plain, _, _ = await _fast_and_plain(graph, ("repository",), at, first)
            want = _expected({k: subject(k) for k in keys}, records, at, ("repository",))
            assert [k for k, _ in fast] == [k for k, _ in plain] == want
            above = len(keys[::7])
            assert want[:above] == [f"repository:{s}" for s in reversed(_SLUGS[::7])]
            assert want[above:] == sorted(set(keys) - set(keys[::7]))
    finally:
        await cypher_store.drop_org(org)


async def test_a_tie_node_made_after_the_ties_were_listed_is_read(
    cypher_store: GraphStore,
) -> None:
    """The listing of a midnight's ties is kept a few seconds; a tie node made meanwhile (a
    key of a new first character) is read all the same, as the ties are read by range."""
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        keys = [f"repository:{s}" for s in _SLUGS if not s.startswith("c")]
        graph = await _rolled_up(cypher_store.org(org), keys)
        at = ns(_stamp(BASE + DAY))
        first, _, _, _ = await _fast_and_plain(graph, ("repository",), at, 3)
        late = [f"repository:c{i}" for i in range(9)]  # between b and d: a new tie node
        more = [subject(k) for k in late] + [
            _rollup(f"metric_rollup:c{n}", k, BASE) for n, k in enumerate(late)
        ]
        assert (await load(graph, more)).invalid_count == 0
        read = graph.activity.ties.read
        fast, plain, _, _ = await _fast_and_plain(graph, ("repository",), at, 3)
        assert graph.activity.ties.read > read  # through the kept listing
        assert [k for k, _ in fast] == [k for k, _ in plain] == sorted([*keys, *late])
        assert [k for k, _ in first] == sorted(keys)
    finally:
        await cypher_store.drop_org(org)


class _Statements:
    """Counts the statements sent in the context it observes (graph.observation)."""

    def __init__(self) -> None:
        self.sent = 0

    def statement(self, backend: str, write: bool) -> AbstractContextManager[None]:
        self.sent += 1
        return nullcontext()

    def fast_path(self, event: str) -> None:
        pass


async def test_a_page_as_of_a_midnight_is_one_statement_from_its_ties(
    cypher_store: GraphStore,
) -> None:
    """As of the midnight itself nothing ranks above the tie: its first ties and the lookup of
    their subjects are one statement, which makes the page the plain ranking makes."""
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        keys = [f"repository:{s}" for s in _SLUGS]
        graph = await _rolled_up(cypher_store.org(org), keys)
        at = ns(_stamp(BASE + DAY))
        query = SubjectQuery(kinds=(SubjectKind.REPOSITORY,), at=TimeSpan.point(at),
                             order=SubjectOrder.RECENT, brief=True)  # fmt: skip
        ties = graph.activity.ties
        for first in (4, 25):
            await graph.find_subjects(query, first)  # the day counts and the ties listed
            read, counted = ties.read, _Statements()
            token = observe_statements(counted)
            try:
                page = await graph.find_subjects(query, first)
            finally:
                stop_observing(token)
            assert ties.read == read + 1, first
            assert counted.sent == 1, first  # was 2 (the tie's keys, then their lookup)
            assert [s.key for s in page.items] == sorted(keys)[:first]
            fast, plain, _, _ = await _fast_and_plain(graph, ("repository",), at, first)
            assert fast == plain
    finally:
        await cypher_store.drop_org(org)


async def _rolled_up(graph: Any, keys: list[str]) -> ScopedGraph:
    """`graph` holding the subjects `keys`, each with a rollup of BASE's day (ending on the
    next midnight, where they tie)."""
    assert isinstance(graph, ScopedGraph)
    items: list[dict[str, Any]] = [subject(k) for k in keys]
    items += [_rollup(f"metric_rollup:{n}", k, BASE) for n, k in enumerate(keys)]
    assert (await load(graph, items)).invalid_count == 0
    return graph
