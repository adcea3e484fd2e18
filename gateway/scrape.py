"""What a /metrics scrape reads: one process's registry, or, with several workers (`fabric serve
--workers N`), the whole server's.

Several workers share one port, and a scrape lands on whichever accepts it, so each worker's
own registry would show a different part of the server on every scrape. With workers the
gateway uses prometheus_client's multiprocess mode, as a Prometheus user of gunicorn or
uvicorn workers expects: the parent makes a directory and names it in PROMETHEUS_MULTIPROC_DIR
before any worker starts; every worker's metrics write their values to memory-mapped files
there; a scrape, on any worker, reads them all. Counters and histograms are summed over every
worker the server has run (a replaced worker's counts stay, so they never go backwards);
each gauge says how (`MODES` in gateway/metrics.py): summed over live workers, their most
recent value or their highest. The parent deletes a dead worker's live gauges and, at the
end, the directory it made.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from prometheus_client import CollectorRegistry, generate_latest, multiprocess

ENV = "PROMETHEUS_MULTIPROC_DIR"


def shared() -> str | None:
    """The directory every worker's metrics are written to, when there are workers."""
    return os.environ.get(ENV) or None


def render(registry: CollectorRegistry) -> bytes:
    """The exposition of this process's registry, or of every worker's."""
    path = shared()
    if path is None:
        return bytes(generate_latest(registry))
    merged = CollectorRegistry()
    multiprocess.MultiProcessCollector(merged, path=path)  # type: ignore[no-untyped-call]
    return bytes(generate_latest(merged))


class SharedMetrics:
    """The parent's side: the directory made (or, named by the operator, emptied) before the
    workers start, dead workers' live gauges deleted, the directory removed at the end."""

    def __init__(self) -> None:
        given = shared()
        self.made = given is None
        self.path = Path(given) if given else Path(tempfile.mkdtemp(prefix="fabric-metrics-"))
        for stale in self.path.glob("*.db"):  # another run's values would be summed in
            stale.unlink()
        os.environ[ENV] = str(self.path)  # before any worker starts: they inherit it

    def forget(self, pid: int) -> None:
        multiprocess.mark_process_dead(pid, str(self.path))  # type: ignore[no-untyped-call]

    def close(self) -> None:
        if self.made:
            os.environ.pop(ENV, None)
            shutil.rmtree(self.path, ignore_errors=True)
