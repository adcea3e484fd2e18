"""Decoding of FalkorDB's compact result format for the value types our statements return.

The gateway's reads return scalars, lists and maps only (never nodes, edges or paths), and the
client's general decoder (a coroutine per value) was the largest share of a dashboard request's
CPU. Anything outside those types is left to the client's decoder.
"""

from __future__ import annotations

from typing import Any


class Unsupported(Exception):
    """A value this decoder does not handle (node, edge, path, point, temporal, vector)."""


def _value(cell: list[Any]) -> Any:
    kind, raw = cell
    if kind == 2 or kind == 3:  # string, integer
        return raw
    if kind == 1:
        return None
    if kind == 6:
        return _values(raw)
    if kind == 4:
        return raw == "true"
    if kind == 5:
        return float(raw)
    if kind == 10:
        return {raw[i]: _value(raw[i + 1]) for i in range(0, len(raw), 2)}
    raise Unsupported(kind)


def _values(cells: list[list[Any]]) -> list[Any]:
    # Strings and integers, most of every reply, are taken in the loop rather than through a
    # call each (the decoder was a tenth of a dashboard page's CPU).
    # So are nested lists (a neighbour list's subjects, each a list of its values).
    out = []
    for cell in cells:
        kind = cell[0]
        if kind == 2 or kind == 3:
            out.append(cell[1])
        elif kind == 6:
            out.append(_values(cell[1]))
        else:
            out.append(_value(cell))
    return out


def rows(response: list[Any]) -> list[list[Any]]:
    """The result rows of a compact response; errors inside it are raised."""
    last = response[-1]
    if isinstance(last, Exception):
        raise last
    if len(response) == 1:  # statistics only: a statement without RETURN
        return []
    return [_values(row) for row in response[1]]
