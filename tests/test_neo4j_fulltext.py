"""Full-text queries on Neo4j's shared index are bounded: typos are forgiven in a bounded
number of words (a fuzzy term, `word~1`, is an automaton walk over the term dictionary of
the one index every organisation shares, so a long question made one walk per word), and a
ranked read asks the index for its best candidates only (graph/dialect.py, graph/search.py)."""

from __future__ import annotations

from graph.dialect import FALKORDB
from graph.neo4j_dialect import NEO4J
from graph.scoped import ScopedGraph
from tests.neo4j_fakes import ScriptedExecutor

LONG = "payments gateway checkout orders invoices refunds ledger billing"


def test_a_long_query_forgives_typos_in_its_four_longest_words_only() -> None:
    for query in (NEO4J.fulltext_query(LONG), NEO4J.fulltext_every(LONG)):
        assert query is not None
        fuzzy = {w.removesuffix("~1") for w in query.replace("(", " ").replace(")", " ").split()
                 if w.endswith("~1")}  # fmt: skip
        assert fuzzy == {"payments", "gateway", "checkout", "invoices"}
    # Every word is still asked for, as written.
    query = NEO4J.fulltext_query(LONG)
    assert query is not None and all(word in query.split() for word in LONG.split())
    # A short one keeps every word forgiving, as before.
    assert (NEO4J.fulltext_query("payment gatway") or "").count("~1") == 2


def test_falkordb_keeps_every_word_forgiving() -> None:
    """One organisation's dictionary per graph there, and swaps spelled out as exact terms."""
    query = FALKORDB.fulltext_query(LONG)
    assert query is not None and query.count("%") == 2 * len(LONG.split())


async def test_a_ranked_full_text_read_asks_the_index_for_its_best_candidates_only() -> None:
    """A common word matched every subject of a large organisation, each handed to the
    statement to be sorted for a page of ten; the index now returns its best 10,000 (the
    page is the best of those: beyond 10,000 matches, equally scored ones may be chosen
    otherwise than by key). Counting reads (by handle) still read every match."""
    scripted = ScriptedExecutor({})
    graph = ScopedGraph("acme", scripted, NEO4J)  # type: ignore[arg-type]
    await graph.search_lexical("payments", [], 10)
    assert scripted.sent  # every token first, then any (no hit in between)
    for statement, params in zip(scripted.sent, scripted.params, strict=True):
        assert "{limit: $candidates}) YIELD node, score" in statement
        assert params["candidates"] == 10_000
    await graph.subjects_by_handle("payments", [], 10)
    assert "$candidates" not in scripted.sent[-1]
