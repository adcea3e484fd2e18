"""The node ids of the time slots a bulk load sent as it is read (graph.falkor_stream), kept
compact: a slot is an integer code, its kind and slot number, and the codes and ids are
sorted numpy runs, 16 bytes a slot, where a dict of slot keys (text) to ids held about 150
(the demo's ten-minute slots are nearly one a record at 10k subjects: 81,617 slots for
125,000 records). A midnight's tie slots and anything unusual keep their text key in a
dict: there are few of them (one a kind, day and tie).

Looked up and added a batch at a time: a batch's slots are found in every run with one
binary search each (numpy.searchsorted), and its new ones become a run of their own; runs of
about the same length are merged, so there are about log2(slots) of them.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from engine.domain.models import SourceRecordKind
from graph.bulk import Props

_KINDS = {kind.value: i for i, kind in enumerate(SourceRecordKind)}
_WIDTH = 8  # codes per slot number: more than there are kinds
assert len(_KINDS) < _WIDTH
_LIMIT = 2**59  # slot numbers from 0 below this fit a code


def _code(props: Props) -> int | None:
    """A plain slot's code (its slot number times _WIDTH plus its kind's place), None for a
    tie slot or anything else."""
    n, kind = props.get("n"), _KINDS.get(props.get("record_kind", ""))
    if props.get("tie") is not None or kind is None or type(n) is not int or not 0 <= n < _LIMIT:
        return None
    return n * _WIDTH + kind


class SlotIds:
    """Slot key to node id, for the slots sent so far."""

    def __init__(self) -> None:
        self._runs: list[tuple[np.ndarray, np.ndarray]] = []  # (codes sorted, their ids)
        self._other: dict[str, int] = {}

    def __len__(self) -> int:
        return sum(len(codes) for codes, _ in self._runs) + len(self._other)

    def found(self, slots: Iterable[tuple[str, Props]]) -> dict[str, int]:
        """The ids of those of `slots` (key, properties) that were sent."""
        out: dict[str, int] = {}
        keys: list[str] = []
        codes: list[int] = []
        for key, props in slots:
            code = _code(props)
            if code is None:
                if key in self._other:
                    out[key] = self._other[key]
            else:
                keys.append(key)
                codes.append(code)
        if not keys or not self._runs:
            return out
        wanted = np.array(codes, dtype=np.int64)
        ids = np.full(len(keys), -1, dtype=np.int64)
        for sorted_codes, sorted_ids in self._runs:
            at = np.searchsorted(sorted_codes, wanted).clip(max=len(sorted_codes) - 1)
            hit = sorted_codes[at] == wanted
            ids[hit] = sorted_ids[at[hit]]
        for key, node in zip(keys, ids.tolist(), strict=True):
            if node >= 0:
                out[key] = node
        return out

    def add(self, slots: Iterable[tuple[str, Props]], ids: dict[str, int]) -> None:
        """Slots just sent (key, properties), their ids in `ids`."""
        codes: list[int] = []
        nodes: list[int] = []
        for key, props in slots:
            code = _code(props)
            if code is None:
                self._other[key] = ids[key]
            else:
                codes.append(code)
                nodes.append(ids[key])
        if not codes:
            return
        run_codes = np.array(codes, dtype=np.int64)
        order = np.argsort(run_codes, kind="stable")
        self._runs.append((run_codes[order], np.array(nodes, dtype=np.int64)[order]))
        while len(self._runs) > 1 and len(self._runs[-2][0]) <= 2 * len(self._runs[-1][0]):
            (a, a_ids), (b, b_ids) = self._runs.pop(), self._runs.pop()
            merged = np.concatenate((b, a))
            order = np.argsort(merged, kind="stable")
            self._runs.append((merged[order], np.concatenate((b_ids, a_ids))[order]))
