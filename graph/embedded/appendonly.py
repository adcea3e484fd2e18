"""Keeping the append-only file quick to reopen.

Reopening replays that file, and replaying logged graph writes is slow (a 20k-record demo
took 25 s). So the file is rewritten into a snapshot base (Redis's RDB preamble), which loads
fast, before the server is stopped and after an ingest into a server someone else runs
(`compact`); only what was written since the last rewrite is replayed.
"""

from __future__ import annotations

import time

from graph.embedded.probe import command, info, info_fields

# How long a rewrite's server may take to answer: it answers nothing while it prepares the
# fork (FalkorDB: 5 to 7 s for a 1M-subject graph), and a stop that took that silence for a
# gone server killed the rewrite it had just started, leaving the whole log to replay.
_BUSY_S = 60.0
# Past Redis's busy-reply-threshold (5 s) a server that is still working answers -BUSY. A stop
# at 1M subjects sent SIGTERM 5.2 s into a fork preparation (its log), and the server killed
# the rewrite once it had forked: an INFO answered -BUSY read as no answer is the one reading
# that fits (not reproduced on demand: the same preparation took 0.4 s on the next try).
_WORKING = (b"-BUSY", b"-LOADING")


def compact(sock_path: str, wait: float = 600.0) -> bool:
    """BGREWRITEAOF when the log part of the append-only file is not empty, then wait for the
    rewrite (a stop during one would throw it away). The base it writes is an RDB snapshot
    (aof-use-rdb-preamble, Redis's default), which loads far faster than logged writes."""
    fields = info(sock_path)
    if not fields or fields.get("aof_enabled") != "1":
        return False
    logged = int(fields.get("aof_current_size", "0")) - int(fields.get("aof_base_size", "0"))
    busy = fields.get("aof_rewrite_in_progress") == "1"
    if logged <= 0 and not busy:
        return False
    # Done once a rewrite finished after this call: between BGREWRITEAOF and the fork the
    # server may answer that none is in progress or scheduled (it was read so at 1M
    # subjects, and the stop killed the rewrite).
    rewrites = int(fields.get("aof_rewrites", "0")) + (0 if busy else 1)
    if not busy:
        command(sock_path, "BGREWRITEAOF")
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(0.05)
        reply = command(sock_path, "INFO", "persistence", timeout=_BUSY_S)
        if reply.startswith(_WORKING):
            continue
        fields = info_fields(reply)
        if not fields:  # gone (a refused connection is immediate), or silent for a minute
            return False
        idle = fields.get("aof_rewrite_in_progress") == "0" and fields.get(
            "aof_rewrite_scheduled"
        ) == "0"
        status = fields.get("aof_last_bgrewrite_status")
        if idle and (int(fields.get("aof_rewrites", "0")) >= rewrites or status != "ok"):
            return status == "ok"
    return False
