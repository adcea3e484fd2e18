"""CPU time per page, by process (Linux /proc): what a page rate is bound by on this machine.

bench/dashboard.py drives its server from the process that measures, and the server reads
the graph server: on a few shared cores, a page rate alone does not say which of them the
pages waited for. The seconds of CPU each spent over the measured rounds, divided by the
pages served, do; and from them `scaling_bound` says the most N gateway processes can add
over one on this machine: N workers cannot serve faster than all the cores allow for what a
page costs every process (server, graph server and the driver alike), and one worker cannot
serve faster than its one core allows for the server's part. Where the graph server's part
is the larger, a second worker has nothing to gain, however fast the gateway's Python.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

_TICK_S = 1 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01
MACHINE = "machine"  # a sample's entry: every process's CPU seconds (/proc/stat)
OTHERS = "others"  # a page's entry: what the processes not measured spent meanwhile


def _stat(pid: str) -> tuple[int, float] | None:
    """(parent pid, CPU seconds so far) of one process, its threads included; None if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return int(fields[1]), (int(fields[11]) + int(fields[12])) * _TICK_S
    except (OSError, ValueError, IndexError):
        return None


@dataclass(frozen=True)
class Process:
    """A process measured: its pid, and whether the processes it started count as it (a
    server's workers) or not (the driver, whose children are the servers it measures)."""

    pid: int
    descendants: bool = False


class Meter:
    """CPU seconds spent by named processes, sampled between the measured rounds."""

    def __init__(self, processes: dict[str, Process]) -> None:
        self.processes = processes

    def sample(self) -> dict[str, float]:
        """Each name's CPU seconds so far (a descendant that has exited no longer counts: the
        rounds' deltas are taken while the workers serve), and the whole machine's (MACHINE)."""
        stats = {p: s for p in os.listdir("/proc") if p.isdigit() and (s := _stat(p))}
        children: dict[int, list[int]] = {}
        for pid, (parent, _) in stats.items():
            children.setdefault(parent, []).append(int(pid))
        out: dict[str, float] = {}
        for name, process in self.processes.items():
            todo, seconds = [process.pid], 0.0
            while todo:
                pid = todo.pop()
                seconds += stats[str(pid)][1] if str(pid) in stats else 0.0
                if process.descendants:
                    todo.extend(children.get(pid, ()))
            out[name] = seconds
        out[MACHINE] = machine_seconds()
        return out


def machine_seconds() -> float:
    """CPU seconds every process on the machine has spent (all cores; /proc/stat): less the
    processes measured, what the machine's other work took meanwhile."""
    try:
        ticks = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        busy = sum(int(t) for t in ticks[:8]) - int(ticks[3]) - int(ticks[4])  # less idle, iowait
    except (OSError, ValueError, IndexError):
        return 0.0
    return busy * _TICK_S


def spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {name: after[name] - before[name] for name in before}


def per_page(seconds: dict[str, float], pages: int) -> dict[str, float]:
    """CPU milliseconds per page, by process, and OTHERS: what the rest of the machine spent
    meanwhile (a shared machine's other work, which the pages' processes competed with)."""
    ours = {name: s for name, s in seconds.items() if name != MACHINE}
    if MACHINE in seconds:
        ours[OTHERS] = max(seconds[MACHINE] - sum(ours.values()), 0.0)
    return {name: round(s * 1000 / max(pages, 1), 2) for name, s in ours.items()}


def ratio(gateway_ms: dict[str, float], raw_ms: dict[str, float]) -> float | None:
    """The baseline's CPU per page over the gateway's, the server's and the database's
    together (what serving a page takes; the driver and the machine's other work left out)."""
    serving = ("server", "database")
    gateway, raw = (sum(ms.get(name, 0.0) for name in serving) for ms in (gateway_ms, raw_ms))
    return round(raw / gateway, 3) if gateway > 0 and raw > 0 else None


def cores() -> int:
    """The cores this process may run on (its affinity), as the default worker count reads."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def scaling_bound(cost_ms: dict[str, float], workers: int, ncores: int) -> float | None:
    """The most `workers` gateway processes can serve over one, on `ncores` otherwise idle
    cores, when each page costs what `cost_ms` says (the one-process run's, with `server`
    the gateway process; OTHERS left out): min(N / server, cores / all) over
    min(1 / server, cores / all). None when nothing was measured."""
    server = cost_ms.get("server", 0.0)
    total = sum(ms for name, ms in cost_ms.items() if name != OTHERS)
    if server <= 0 or total <= 0:
        return None
    machine = ncores / total
    return round(min(workers / server, machine) / min(1 / server, machine), 2)
