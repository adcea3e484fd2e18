"""Git import throughput: a repository's history into a fresh embedded FalkorDB.

Usage: python bench/git_import.py PATH [--branch REF] [--depth N] [--make COMMITS]
With --make, PATH is first created as a synthetic repository of that many commits (git
fast-import, outside the measured time): 40 authors, some under two spellings joined by a
.mailmap, twelve top-level modules, a directory rename half way, a merged side branch every
50 commits. The import runs twice: the first reads everything, the second finds nothing new.
The last line printed is one JSON object: commits, seconds, commits_per_s, subjects, records,
people, modules, second_run_seconds, incremental_seconds (after --add new
commits, with --make), peak_rss_mb.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.domain.embedding import HashingEmbedder
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, import_git

MODULES = ["api", "core", "db", "ui", "docs", "tools", "query", "auth", "billing", "search",
           "infra", "tests"]  # fmt: skip


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def _blob(rng: random.Random, n: int) -> bytes:
    return "".join(
        f"line {rng.randrange(10**6)} of {n}\n" for _ in range(rng.randrange(5, 40))
    ).encode()


def _commit(out: list[bytes], ref: str, who: tuple[str, str], at: int, msg: str) -> None:
    sign = f"{who[0]} <{who[1]}> {at} +0000"
    data = msg.encode()
    out.append(
        f"commit {ref}\nauthor {sign}\ncommitter {sign}\ndata {len(data)}\n".encode() + data + b"\n"
    )


def _modify(out: list[bytes], path: str, body: bytes) -> None:
    out.append(f"M 100644 inline {path}\ndata {len(body)}\n".encode() + body + b"\n")


def make(path: Path, commits: int, seed: int = 7) -> None:
    """A synthetic history through `git fast-import` (seconds for tens of thousands)."""
    rng = random.Random(seed)
    people = [(f"Dev {i:02d}", f"dev{i}@example.com") for i in range(40)]
    mailmap = "".join(
        f"Dev {i:02d} <dev{i}@example.com> dev{i} <d{i}@old.example>\n" for i in range(0, 40, 4)
    )
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    out: list[bytes] = []
    start = 1_600_000_000
    step = max(1, (1_790_000_000 - start) // max(commits, 1))
    modules = list(MODULES)
    for n in range(commits):
        who = people[rng.randrange(40)]
        if n % 4 == 1 and rng.random() < 0.3:
            who = (
                who[0].lower().replace(" 0", "").replace(" ", ""),
                who[1].replace("dev", "d").replace("example.com", "old.example"),
            )
        at = start + n * step
        side = n % 50 == 49
        _commit(
            out,
            "refs/heads/side" if side else "refs/heads/main",
            who,
            at,
            f"Change {n}: {rng.choice(['fix', 'add', 'tidy'])} {rng.choice(modules)}",
        )
        if n == 0:
            _modify(out, ".mailmap", mailmap.encode())
        elif side:
            out.append(b"from refs/heads/main\n")
        if n == commits // 2 and "query" in modules:
            out.append(b"R query resolver\n")
            modules[modules.index("query")] = "resolver"
        for _ in range(rng.randrange(1, 4)):
            module = rng.choice(modules)
            _modify(out, f"{module}/f{rng.randrange(30)}.py", _blob(rng, n))
        if side:
            _commit(out, "refs/heads/main", who, at + 1, f"Merge side {n}")
            out.append(b"merge refs/heads/side\n")
    subprocess.run(
        ["git", "-C", str(path), "fast-import", "--quiet"], input=b"".join(out), check=True
    )
    subprocess.run(["git", "-C", str(path), "reset", "-q", "--hard", "main"], check=True)


def _add_commits(path: Path, count: int) -> None:
    """New commits on top (today's date), for the incremental run."""
    env = {"GIT_AUTHOR_NAME": "Dev 01", "GIT_AUTHOR_EMAIL": "dev1@example.com",
           "GIT_COMMITTER_NAME": "Dev 01", "GIT_COMMITTER_EMAIL": "dev1@example.com"}  # fmt: skip
    for n in range(count):
        (path / "api" / f"new{n}.py").write_text(f"value = {n}\n")
        subprocess.run(["git", "-C", str(path), "add", "-A"], check=True)
        subprocess.run(
            ["git", "-C", str(path), "commit", "-q", "-m", f"New {n}"],
            check=True, env={**os.environ, **env},
        )  # fmt: skip


async def run(path: Path, branch: str | None, depth: int, add: int) -> dict[str, object]:
    spec = GitImport(path, branch=branch, depth=depth)
    with tempfile.TemporaryDirectory() as tmp, EmbeddedServer(Path(tmp)) as server:
        store = FalkorStore(server.url, embedder=HashingEmbedder(128))
        await store.bootstrap("bench")
        started = time.perf_counter()
        report = await import_git(store.org("bench"), spec)
        seconds = time.perf_counter() - started
        started = time.perf_counter()
        second = await import_git(store.org("bench"), spec)
        again = time.perf_counter() - started
        incremental: dict[str, object] = {}
        if add:
            _add_commits(path, add)
            started = time.perf_counter()
            third = await import_git(store.org("bench"), spec)
            incremental = {
                "incremental_mode": third.mode,
                "incremental_commits": third.commits,
                "incremental_seconds": round(time.perf_counter() - started, 3),
            }
        counts = dict(await store.org("bench").counts())
        await store.close()
    return {
        "commits": report.commits,
        "seconds": round(seconds, 3),
        "commits_per_s": round(report.commits / seconds, 1) if seconds else None,
        "subjects": counts.get("Subject", 0),
        "records": report.records,
        "people": report.people,
        "modules": report.modules,
        "invalid": report.invalid,
        "second_run_mode": second.mode,
        "second_run_seconds": round(again, 3),
        **incremental,
        "peak_rss_mb": _peak_rss_mb(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", type=Path)
    parser.add_argument("--branch")
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("--make", type=int, metavar="COMMITS", help="first create PATH")
    parser.add_argument(
        "--add", type=int, default=10, help="with --make: commits added before a third run"
    )
    args = parser.parse_args()
    if args.make:
        if args.path.exists():
            parser.error(f"{args.path} exists; --make creates a new repository")
        make(args.path, args.make)
    add = args.add if args.make else 0
    print(json.dumps(asyncio.run(run(args.path, args.branch, args.depth, add))))


if __name__ == "__main__":
    main()
