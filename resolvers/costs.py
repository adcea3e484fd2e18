"""What a field reads from the graph at worst, declared next to the resolvers that read it, so
the cost limiter (gateway/limits.py) charges what a query will really read.

A field's charge is `reads + returned x (its selection's cost)`: `returned` is how many
objects it may return (each one's selection is resolved), `reads` how many rows its
resolver may take from the graph for them, at worst, given the field's arguments. The
generic rule (gateway/limits.py) covers most fields: a list returns and reads its page
(`first`, else the argument's default, else DEFAULT_PAGE); a connection reads one row more
than its page, the row that tells `hasNextPage`; any other field 1. The fields below read
more than that, or take their size from another argument (docs/graphql.md, "Query cost").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine.gates import ALL_TOKENS_DEPTH, MIN_SEARCH_DEPTH
from engine.models import MAX_LIST

__all__ = ["CHARGES", "Argument", "Charge", "charge_of"]

RESOLVE_LIMIT = 5  # resolveReference's default `limit` (resolvers/resolution.py)
INVESTIGATIONS_PAGE = 20  # investigations' default page (resolvers/investigation.py)
NODE_READS = 2  # a relationship by id reads the edge and its start subject


class Charge(NamedTuple):
    returned: int  # objects the field may return: each one's selection is charged
    reads: int  # rows its resolver may read from the graph for them, at worst


# An argument's value as the request gives it (variables and defaults applied): an int, the
# length of a list, or None when absent or not a number.
Argument = Callable[[str], int | None]
Rule = Callable[[Argument], Charge]


def _size(value: int | None, default: int) -> int:
    return default if value is None else max(value, 0)


def search(arg: Argument) -> Charge:
    """Both arms read at least MIN_SEARCH_DEPTH deep (ranking needs a choice), whatever the
    page: the lexical arm's rows and the vector arm's."""
    first = _size(arg("first"), MIN_SEARCH_DEPTH)
    return Charge(first, 2 * max(first, MIN_SEARCH_DEPTH))


def resolve_reference(arg: Argument) -> Charge:
    """At worst: a reference shaped like the start of an id that starts none (the id read's
    count row), no subject with it as a handle (the exact read's count row; when some have
    it, its sample decides and nothing is searched), the every-token read (ALL_TOKENS_DEPTH
    and one more, which tells whether that is all of them) and both search arms,
    max(limit, MIN_SEARCH_DEPTH) each. Every path reads less than this one: a decided exact
    read's sample, max(limit, EXACT_SAMPLE), and the one subject a tie may read again are
    fewer than the search arms' rows. The candidates it returns are among these rows."""
    limit = _size(arg("limit"), RESOLVE_LIMIT)
    return Charge(1, 1 + 1 + ALL_TOKENS_DEPTH + 1 + 2 * max(limit, MIN_SEARCH_DEPTH))


def investigations(arg: Argument) -> Charge:
    first = _size(arg("first"), INVESTIGATIONS_PAGE)
    return Charge(first, first + 1)


def nodes(arg: Argument) -> Charge:
    ids = _size(arg("ids"), 0)
    return Charge(ids, NODE_READS * ids)


def entities(arg: Argument) -> Charge:
    count = _size(arg("representations"), 0)
    return Charge(count, count)


CHARGES: dict[str, Rule] = {
    "Query.search": search,
    "Query.resolveReference": resolve_reference,
    "Query.investigations": investigations,
    "Query.node": lambda _: Charge(1, NODE_READS),
    "Query.nodes": nodes,
    "Query._entities": entities,
    # An episode names at most MAX_LIST subjects; each is read.
    "Episode.mentions": lambda _: Charge(MAX_LIST, MAX_LIST),
}


def charge_of(coordinate: str) -> Rule | None:
    """The rule of the field `Type.field`, when the generic one does not fit it."""
    return CHARGES.get(coordinate)
