"""graph.slot_ids: the time slots a bulk load sent as it is read, found by key batch after
batch as a dict of every slot sent would find them (graph.falkor_stream keeps only this)."""

from __future__ import annotations

import random

from graph.bulk import Props
from graph.recordrows import slot_key
from graph.slot_ids import SlotIds

KINDS = ("pull_request", "incident", "work_item", "deploy", "metric_rollup", "commit")


def slot(rng: random.Random) -> tuple[str, Props]:
    kind, n = rng.choice(KINDS), rng.randrange(0, 400)
    tie = rng.choice((None, None, None, "team:p", "service:a", "person:é"))
    if rng.random() < 0.02:  # not a kind of record the codes know: kept by its text key
        kind = "unheard_of"
    props: Props = {"record_kind": kind, "n": n} | ({"tie": tie} if tie else {})
    return slot_key(kind, n, tie), props


def test_each_batch_finds_exactly_the_slots_sent_before_it_with_their_ids() -> None:
    rng = random.Random(38)
    ids, sent, next_id = SlotIds(), {}, 0
    for _ in range(300):
        batch = dict(slot(rng) for _ in range(rng.randrange(0, 40)))
        found = ids.found(batch.items())
        assert found == {k: sent[k] for k in batch if k in sent}
        new = {}
        for key in batch:
            if key not in found:
                new[key], next_id = next_id, next_id + 1
        ids.add([(k, batch[k]) for k in new], new)
        sent.update(new)
    assert len(ids) == len(sent) > 1_000


def test_slots_of_other_kinds_and_numbers_are_told_apart() -> None:
    ids = SlotIds()
    first = [(slot_key(k, n), {"record_kind": k, "n": n}) for k in KINDS for n in (0, 1, 8, 9)]
    ids.add(first, {key: i for i, (key, _) in enumerate(first)})
    asked = [*first, (slot_key("deploy", 2), {"record_kind": "deploy", "n": 2})]
    assert ids.found(asked) == {key: i for i, (key, _) in enumerate(first)}
