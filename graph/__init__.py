"""The graph port, its Cypher, and the FalkorDB and Neo4j adapters."""
