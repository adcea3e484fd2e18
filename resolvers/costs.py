"""What a field reads from the graph at worst, declared next to the resolvers that read it, so
the cost limiter (gateway/cost.py, gateway/limits.py) charges what a query will really read.

A field's charge is `reads + returned x (its selection's cost)`: `returned` is how many
objects it may return (each one's selection is resolved), `reads` how many rows its
resolver may take from the graph for them, at worst, given the field's arguments. The
generic rule (gateway/cost.py) covers most fields: a list returns and reads its page
(`first`, else the argument's default, else DEFAULT_PAGE); a connection reads one row more
than its page, the row that tells `hasNextPage`; any other field 1. The fields below read
more than that, or take their size from another argument (docs/graphql.md, "Query cost").
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from graphql import GRAPHQL_MAX_INT

from engine.domain.gates import ALL_TOKENS_DEPTH, MIN_SEARCH_DEPTH, RUNNERS_UP
from engine.domain.models import MAX_LIST, to_ns
from engine.ports import TimeSpan
from resolvers.args import DEFAULT_WINDOW_DAYS, MAX_WINDOW
from resolvers.investigation import INVESTIGATIONS_PAGE
from resolvers.resolution import DEFAULT_LIMIT as RESOLVE_LIMIT
from resolvers.series import DAY_NS, TimeBucket, bucket_starts

__all__ = ["BY_DATA", "CHARGES", "DEFAULT_BOUND", "Argument", "Charge", "charge_of", "count"]

NODE_READS = 2  # a relationship by id reads the edge and its start subject


class Charge(NamedTuple):
    returned: int  # objects the field may return: each one's selection is charged
    reads: int  # rows its resolver may read from the graph for them, at worst
    # How many items the object lists right inside its selection hold (a connection's
    # edges, a series' points), when the field decides it; None: their own rule.
    page: int | None = None


# An argument's value as the request gives it (variables and defaults applied, as plain
# values: ints, strings, lists, dicts), or None when absent.
Argument = Callable[[str], object]
Rule = Callable[[Argument], Charge]


def count(value: object, default: int) -> int:
    """A size argument: an int (clamped to GraphQL's Int; coercion rejects the rest anyway)
    or a list's length; `default` when absent or not a number."""
    if isinstance(value, list):
        return len(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        return default
    return min(max(value, 0), GRAPHQL_MAX_INT)


def search(arg: Argument) -> Charge:
    """Both arms read at least MIN_SEARCH_DEPTH deep (ranking needs a choice), whatever the
    page: the lexical arm's rows and the vector arm's."""
    first = count(arg("first"), MIN_SEARCH_DEPTH)
    return Charge(first, 2 * max(first, MIN_SEARCH_DEPTH))


def resolve_reference(arg: Argument) -> Charge:
    """At worst: a name no subject has as a handle (the exact read's count row; when some
    have it, its sample decides and nothing is searched), the every-token read
    (ALL_TOKENS_DEPTH and one more, which tells whether that is all of them) and both search
    arms, max(limit, MIN_SEARCH_DEPTH) each. Every path reads less than this one: an id or id
    prefix reads its id alone (a prefix that starts no id is NotFound, never searched), a
    decided exact read's sample, max(limit, EXACT_SAMPLE), and the one subject a tie may read
    again are fewer than the search arms' rows. The candidates it returns are among these."""
    limit = count(arg("limit"), RESOLVE_LIMIT)
    return Charge(1, 1 + ALL_TOKENS_DEPTH + 1 + 2 * max(limit, MIN_SEARCH_DEPTH))


def investigations(arg: Argument) -> Charge:
    first = count(arg("first"), INVESTIGATIONS_PAGE)
    return Charge(1, first + 1, page=first)


def nodes(arg: Argument) -> Charge:
    ids = count(arg("ids"), 0)
    return Charge(ids, NODE_READS * ids)


def entities(arg: Argument) -> Charge:
    asked = count(arg("representations"), 0)
    return Charge(asked, asked)


def activity(arg: Argument) -> Charge:
    """One row per non-empty bucket leaves the store (OrgGraph.series); `points` holds every
    bucket of the window: the window's own count when it is given (literal or variable),
    else the most a default 30-day window can span."""
    weekly = arg("bucket") in ("WEEK", TimeBucket.WEEK)
    bucket = TimeBucket.WEEK if weekly else TimeBucket.DAY
    buckets = _buckets(arg("window"), bucket)
    return Charge(1, buckets, page=buckets)


def _buckets(value: object, bucket: TimeBucket) -> int:
    width = DAY_NS * (7 if bucket is TimeBucket.WEEK else 1)
    if isinstance(value, dict):
        with suppress(KeyError, TypeError, ValueError, AttributeError, OverflowError):
            start, end = (_parse(value[k]) for k in ("from", "to"))
            if timedelta(0) <= end - start <= MAX_WINDOW:
                return len(bucket_starts(TimeSpan(_to_ns(start), _to_ns(end)), bucket))
        length = MAX_WINDOW  # refused by the resolver, or beyond what this can tell
    else:
        length = timedelta(days=DEFAULT_WINDOW_DAYS)
    # At worst the window starts just after a bucket's start.
    return (_to_ns_delta(length) + width - 1) // width + 1


def _parse(value: object) -> datetime:
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _to_ns(moment: datetime) -> int:
    ns = to_ns(moment)
    assert ns is not None
    return ns


def _to_ns_delta(length: timedelta) -> int:
    return length // timedelta(microseconds=1) * 1_000


CHARGES: dict[str, Rule] = {
    "Query.search": search,
    "Query.resolveReference": resolve_reference,
    "Query.investigations": investigations,
    "Query.node": lambda _: Charge(1, NODE_READS),
    "Query.nodes": nodes,
    "Query._entities": entities,
    # An episode names at most MAX_LIST subjects; each is read.
    "Episode.mentions": lambda _: Charge(MAX_LIST, MAX_LIST),
    "Subject.activity": activity,
    # Among what resolveReference read: at most RUNNERS_UP each.
    "Resolved.runnersUp": lambda _: Charge(RUNNERS_UP, RUNNERS_UP),
    "NotFound.suggestions": lambda _: Charge(RUNNERS_UP, RUNNERS_UP),
}

# Lists of objects charged the generic DEFAULT_PAGE (50 objects, 50 reads), and why that
# bounds what they read: they read nothing of their own (their objects were read by the field
# above, or are stored with a result), or one subject per key a stored result names.
DEFAULT_BOUND: dict[str, str] = {
    "Ambiguous.candidates": "among resolveReference's reads; at most its limit (<= 50)",
    "AnswerProjection.drivers": "stored with the result; no read",
    "AnswerProjection.claimedFacts": "stored with the result; no read",
    "AnswerProjection.candidates": "stored with the result; no read",
    "InvestigationResult.drivers": "stored with the result; no read",
    "InvestigationResult.claimedFacts": "stored with the result; no read",
    "InvestigationResult.coverage": "stored with the result; no read",
    "InvestigationResult.candidates": "stored with the result; no read",
    "InvestigationResult.changes": "stored with the result (at most 10); no read",
    "Driver.evidence": "stored with the result; no read",
    "Driver.claimedFacts": "stored with the result; no read",
    "Trace.stages": "stored with the result; no read",
    "Trace.providersPruned": "stored with the result; no read",
    "Driver.subjects": "one subject per key the driver names (one to three)",
    "InvestigationResult.subjects": "one subject per key the result is about (a cohort <= 10)",
}

# Lists whose reads follow the data, not the arguments: the charge cannot bound them, the
# request time limit does (docs/graphql.md, "Query cost").
BY_DATA: dict[str, str] = {
    "Query.facts": "every record of the subject in the window, for the providers to compute on",
    "Query.epochs": "the organisation's epochs (admin), kept few by retirement",
}


def charge_of(coordinate: str) -> Rule | None:
    """The rule of the field `Type.field`, when the generic one does not fit it."""
    return CHARGES.get(coordinate)
