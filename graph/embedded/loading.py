"""What a starting server is doing while it does not answer: loading its files (INFO says how
far), decoding a graph or building its indexes (its log says which), or nothing (its CPU time
stands still), which is what the start-up's time limit is about (graph.embedded.server).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from graph.embedded.directory import LOG_FILE
from graph.embedded.probe import info


def cpu_ticks(pid: int) -> int | None:
    """CPU time the process has used (clock ticks; Linux), None where unknown. A server busy
    decoding one large graph answers nothing for a while, yet it is working."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return int(fields[11]) + int(fields[12])  # utime, stime
    except (OSError, ValueError, IndexError):
        return None


_LOG_TAIL_BYTES = 4096
_BUILDING = re.compile(r"Graph '(?P<graph>[^']+)' Constructing indexes")
_DECODING = re.compile(r"Graph '(?P<graph>[^']+)' process")


def busy_with(data_dir: Path) -> str:
    """What a server too busy to answer is doing, from the module's last line in its log: the
    longest part of a large start, building the indexes after decoding, says so nowhere else."""
    try:
        with (data_dir / LOG_FILE).open("rb") as log:
            log.seek(max(0, log.seek(0, os.SEEK_END) - _LOG_TAIL_BYTES))
            tail = log.read().decode("utf-8", "replace")
    except OSError:
        return "busy"
    for line in reversed(tail.splitlines()):
        if "<module>" not in line:
            continue
        if found := _BUILDING.search(line):
            return f"building the indexes of {found['graph']}"
        if found := _DECODING.search(line):
            return f"decoding {found['graph']}"
        break
    return "busy"


def loading_line(data_dir: Path, reply: bytes, sock_path: str, waited: float) -> str:
    where = f"fabric: opening the graph store in {data_dir}:"
    if reply.startswith(b"-LOADING"):
        fields = info(sock_path)
        if fields.get("loading") == "1":
            total = int(fields.get("loading_total_bytes", "0") or 0)
            eta = fields.get("loading_eta_seconds", "?")
            return (
                f"{where} loading {fields.get('loading_loaded_perc', '?')}% of "
                f"{total / 1e6:.0f} MB, about {eta} s left ({waited:.0f} s so far)"
            )
    return f"{where} loading, {busy_with(data_dir)} ({waited:.0f} s so far)"
