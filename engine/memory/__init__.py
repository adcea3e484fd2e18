"""The graph port in plain Python: an in-memory `GraphStore` and `OrgGraph`.

Small and meant to be obviously correct: each method is the port's contract read literally,
over dictionaries. The engine's unit tests run on it without a database, and the contract
suite (tests/test_graph_contract.py) runs the same cases on it, on embedded FalkorDB and on
Neo4j, so it is also the reference the adapters are held to. Where it differs from them on
purpose (search scores, stemming, exact k-NN) engine/memory/search.py says so.

Not for production: nothing is persisted and every read scans.
"""

from engine.memory.graph import MemoryGraph
from engine.memory.store import MemoryKeyStore, MemoryStore

__all__ = ["MemoryGraph", "MemoryKeyStore", "MemoryStore"]
