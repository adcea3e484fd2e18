"""FalkorDB's subject vectors on a label of their own (graph.indexes.VECTOR_LABEL), and the
move of a graph written before, whose vector index is on Subject.

On Subject, the vector index made a reopen build the subjects' keys, names and full-text
index behind their vectors (FalkorDB builds one index per label, label after label): a
100k-subject directory answered nothing for about 40 s. Moved once, on open: every subject
with a vector gets the label (the schema made the new index, which fills as they do), then
the old vector field is dropped. In that order, so a move cut short starts again (the old
index is still there) and never leaves a vector outside the new index.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import Any

from graph.executor import Row
from graph.indexes import FULLTEXT_LABEL, VECTOR_LABEL

Read = Callable[[str], Awaitable[list[Row]]]
Write = Callable[[str, dict[str, Any]], Awaitable[list[Row]]]

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


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


async def old_layout(read: Read) -> bool:
    """Whether the graph's vector index is still on Subject."""
    return any(
        label == FULLTEXT_LABEL and "embedding" in properties
        for label, properties in await read(INDEX_FIELDS)
    )


async def move(
    read: Read, write: Write, graph: str, progress: Callable[[str], None] = _stderr
) -> int:
    """Move the graph's vectors to their label if its vector index is on Subject; how many
    subjects were labelled (0: nothing to move)."""
    if not await old_layout(read):
        return 0
    moved = 0
    while found := int((await write(LABEL_VECTORS, {"batch": BATCH}))[0][0]):
        moved += found
        progress(f"fabric: {graph}: vectors moved to their own index: {moved:,}")
    await write(DROP_OLD_INDEX, {})
    return moved
