"""Full-text queries on Neo4j's shared index forgive typos in a bounded number of words: a
fuzzy term (`word~1`) is an automaton walk over the term dictionary of the one index every
organisation shares, so a long question made one walk per word (graph/dialect.py)."""

from __future__ import annotations

from graph.dialect import FALKORDB, NEO4J

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
