"""FalkorDB's subject vectors on a label of their own (graph.indexes.VECTOR_LABEL), and the
move of a graph written before, whose vector index is on Subject.

On Subject, the vector index made a reopen build the subjects' keys, names and full-text
index behind their vectors (FalkorDB builds one index per label, label after label): a
100k-subject directory answered nothing for about 40 s. Moved once, on open: the old vector
field is dropped first (relabelling a subject still in it re-indexed its vector there too:
about 12 ms a subject under load), then every subject with a vector gets the label (the
schema made the new index, which fills as they do), and the graph's Format node records
that it is done (`vectors`); a move cut short is taken up again on the next open.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable

from engine.ports import GraphQueryError
from graph.executor import Row, Run
from graph.indexes import FULLTEXT_LABEL, VECTOR_LABEL

Read = Callable[[str], Awaitable[list[Row]]]

INDEX_FIELDS = "CALL db.indexes() YIELD label, properties RETURN label, properties"
BATCH = 5_000
LABEL_VECTORS = f"""
MATCH (s:{FULLTEXT_LABEL})
WHERE s.embedding IS NOT NULL AND NOT s:{VECTOR_LABEL}
WITH s LIMIT $batch
SET s:{VECTOR_LABEL}
RETURN count(s)
"""
DROP_OLD_INDEX = f"DROP VECTOR INDEX FOR (s:{FULLTEXT_LABEL}) ON (s.embedding)"
MOVED = "MATCH (m:Format {org_id: $org}) RETURN m.vectors"
MARK_MOVED = "MERGE (m:Format {org_id: $org}) SET m.vectors = 1"


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


async def old_layout(indexes: Read) -> bool:
    """Whether the graph's vector index is still on Subject."""
    return any(
        label == FULLTEXT_LABEL and "embedding" in properties
        for label, properties in await indexes(INDEX_FIELDS)
    )


async def pending(indexes: Read, read: Run) -> bool:
    """Whether the graph's vectors are yet to be moved (or their move was cut short)."""
    if await old_layout(indexes):
        return True
    found = await read(MOVED)
    return not found or found[0][0] is None


async def move(
    indexes: Read, read: Run, write: Run, graph: str, progress: Callable[[str], None] = _stderr
) -> int:
    """Move the graph's vectors to their label unless done; how many subjects were labelled."""
    if not await pending(indexes, read):
        return 0
    try:
        await write(DROP_OLD_INDEX)
    except GraphQueryError as exc:
        if "no such index" not in str(exc).lower():
            raise
    moved = 0
    while found := int((await write(LABEL_VECTORS, batch=BATCH))[0][0]):
        moved += found
        progress(f"fabric: {graph}: vectors moved to their own index: {moved:,}")
    await write(MARK_MOVED)
    return moved
